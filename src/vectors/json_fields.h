// The JSON pieces the two vector formats share (SPEC §7, §8.8): the initial and final state
// keys (registers, semaphores, accumulators, match_state, memory) and §7's number strings,
// each read with an error that names where it is.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpsimd/machine.h"
#include "gpsimd/vectors.h"

namespace gpsimd::vectors_detail {

using json = nlohmann::json;

// Thrown inside the parsers only; they turn it into an error value.
struct ParseError {
  std::string msg;
};

[[noreturn]] void fail(const std::string& where, const std::string& what);
const json& require(const json& obj, const char* key, const std::string& where);
std::string as_string(const json& j, const std::string& where);
// A §7 number: an unsigned JSON integer or a string, "0x..." hexadecimal or decimal.
uint32_t as_u32(const json& j, const std::string& where);
std::vector<uint8_t> as_hex_bytes(const json& j, const std::string& where);
// {"5": value, ...} with decimal indices below `limit`.
std::map<unsigned, uint32_t> as_index_map(const json& j, unsigned limit, const std::string& where);
std::map<unsigned, MatchLane> as_match_state(const json& j, const std::string& where);
std::vector<MemoryRange> as_memory(const json& j, Generation g, const std::string& where);
// SPEC §7 "model_rules": a non-empty list of distinct names of model::kOrderRules.
std::vector<std::string> as_model_rules(const json& j, const std::string& where);

// The optional initial state keys of a vector `v` at `where` (SPEC §7; a program vector's
// too, SPEC §8.8) into `t`: registers, semaphores, accumulators, match_state and memory,
// on generation t.nc; and its "model_rules" annotation.
template <class Vector>
void read_initial_state(const json& v, const std::string& where, Vector& t) {
  if (auto it = v.find("model_rules"); it != v.end())
    t.model_rules = as_model_rules(*it, where + ".model_rules");
  if (auto it = v.find("registers"); it != v.end())
    t.registers = as_index_map(*it, kRegisters, where + ".registers");
  if (auto it = v.find("semaphores"); it != v.end())
    t.semaphores = as_index_map(*it, kSemaphores, where + ".semaphores");
  if (auto it = v.find("accumulators"); it != v.end())
    t.accumulators = as_index_map(*it, kPartitions, where + ".accumulators");
  if (auto it = v.find("match_state"); it != v.end())
    t.match_state = as_match_state(*it, where + ".match_state");
  if (auto it = v.find("memory"); it != v.end()) t.memory = as_memory(*it, t.nc, where + ".memory");
}

// The optional final state keys of an expectation `e` at `where` (SPEC §7; a program
// vector's too, SPEC §8.8) into `s`: memory, accumulators, match_state and semaphores, on
// generation g.
template <class State>
void read_final_state(const json& e, const std::string& where, Generation g, State& s) {
  if (auto it = e.find("memory"); it != e.end()) s.memory = as_memory(*it, g, where + ".memory");
  if (auto it = e.find("accumulators"); it != e.end())
    s.accumulators = as_index_map(*it, kPartitions, where + ".accumulators");
  if (auto it = e.find("match_state"); it != e.end())
    s.match_state = as_match_state(*it, where + ".match_state");
  if (auto it = e.find("semaphores"); it != e.end())
    s.semaphores = as_index_map(*it, kSemaphores, where + ".semaphores");
}

// The vectors of the document `doc` of the file at `path` in the given format
// ("gpsimd-vectors/1", SPEC §7; "gpsimd-programs/1", SPEC §8.8): its "format" key must
// name that format, and each element i of its "vectors" array is read by
// parse_one(element, "<path>: vector <i>").
template <class ParseOne>
auto vectors_of(const json& doc, const std::string& path, std::string_view format,
                ParseOne&& parse_one) {
  const std::string fmt_key = as_string(require(doc, "format", path), path + ".format");
  if (fmt_key != format) fail(path + ".format", fmt::format("'{}' is not {}", fmt_key, format));
  const json& vs = require(doc, "vectors", path);
  if (!vs.is_array()) fail(path + ".vectors", "expected an array");
  std::vector<decltype(parse_one(vs, path))> out;
  for (std::size_t i = 0; i < vs.size(); ++i)
    out.push_back(parse_one(vs[i], fmt::format("{}: vector {}", path, i)));
  return out;
}

// What parse() returns (a vector file's parser, for the file at `path`), or nullopt with
// the error in *error when it fails: its own ParseError, or JSON that is not valid.
template <class Parse>
auto parsed_or_error(const std::string& path, std::string* error, Parse&& parse)
    -> std::optional<decltype(parse())> {
  try {
    return parse();
  } catch (const ParseError& e) {
    if (error) *error = e.msg;
  } catch (const json::exception& e) {
    if (error) *error = fmt::format("{}: not valid JSON: {}", path, e.what());
  }
  return std::nullopt;
}

// The whole text of the file at `path`, or nullopt with "<path>: cannot open: <reason>" in
// *error (the vector loaders of SPEC §7 and §8.8 read their files with it).
std::optional<std::string> read_file(const std::string& path, std::string* error);

}  // namespace gpsimd::vectors_detail
