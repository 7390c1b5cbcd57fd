// The JSON pieces the two vector formats share (SPEC §7, §8.8): the initial and final state
// keys (registers, semaphores, accumulators, match_state, memory) and §7's number strings,
// each read with an error that names where it is.
#pragma once

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

// The optional initial state keys of a vector `v` at `where` (SPEC §7; a program vector's
// too, SPEC §8.8) into `t`: registers, semaphores, accumulators, match_state and memory,
// on generation t.nc.
template <class Vector>
void read_initial_state(const json& v, const std::string& where, Vector& t) {
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

// The whole text of the file at `path`, or nullopt with "<path>: cannot open: <reason>" in
// *error (the vector loaders of SPEC §7 and §8.8 read their files with it).
std::optional<std::string> read_file(const std::string& path, std::string* error);

}  // namespace gpsimd::vectors_detail
