// Program vectors (SPEC §8.8): the gpsimd-programs/1 loader, strict about every key, and
// the runner that compares a run with its expectation.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "common/names.h"
#include "gpsimd/program_vectors.h"
#include "vectors/json_fields.h"

namespace gpsimd {
namespace {

using namespace vectors_detail;

// The keys of an object: each in `allowed`, each of `required` present.
void check_keys(const json& obj, const std::string& where,
                const std::vector<std::string_view>& allowed,
                const std::vector<std::string_view>& required) {
  if (!obj.is_object()) fail(where, fmt::format("expected an object, got {}", obj.type_name()));
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
      std::string list;
      for (std::string_view a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
      fail(where, fmt::format("unknown key '{}' (the keys are {})", it.key(), list));
    }
  for (std::string_view r : required)
    if (!obj.contains(std::string(r))) fail(where, fmt::format("missing key '{}'", r));
}

// A JSON integer in [0, limit) (SPEC §8.8: index, semaphore, partition, offset).
uint64_t as_integer(const json& j, uint64_t limit, const std::string& where) {
  if (!j.is_number_unsigned()) fail(where, fmt::format("{} must be a JSON integer >= 0", j.dump()));
  const auto v = j.get<uint64_t>();
  if (v >= limit) fail(where, fmt::format("{} must be below {}", v, limit));
  return v;
}

Engine as_queue(const json& j, const std::string& where) {
  const auto e = j.is_string() ? parse_engine_id(j.get<std::string>()) : std::nullopt;
  if (!e) fail(where, fmt::format("{} must be {}", j.dump(), kEngineIdsQuotedText));
  return *e;
}

QueueWord as_queue_index(const json& obj, const std::string& where) {
  return QueueWord{as_queue(require(obj, "queue", where), where + ".queue"),
                   static_cast<std::size_t>(
                       as_integer(require(obj, "index", where), UINT64_MAX, where + ".index"))};
}

Word as_word(const json& j, const std::string& where) {
  const std::string s = as_string(j, where);
  if (s.size() != 2 * kWordBytes || !std::all_of(s.begin(), s.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c));
      }))
    fail(where, fmt::format("'{}' is not a word: exactly 128 hex digits (64 bytes in address "
                            "order)",
                            s.size() > 40 ? s.substr(0, 40) + "..." : s));
  return *word_from_hex(s);
}

RaceAccess as_race_access(const json& j, const std::string& where) {
  check_keys(j, where, {"queue", "index", "access"}, {"queue", "index", "access"});
  RaceAccess a;
  a.word = as_queue_index(j, where);
  const std::string acc = as_string(j["access"], where + ".access");
  const auto k = parse_access(acc);
  if (!k) fail(where + ".access", fmt::format("'{}' must be read, write or read-write", acc));
  a.access = *k;
  return a;
}

RaceLocation as_location(const json& j, Generation g, const std::string& where) {
  if (!j.is_object()) fail(where, fmt::format("expected an object, got {}", j.type_name()));
  const std::string sp = as_string(require(j, "space", where), where + ".space");
  const auto s = parse_location_space(sp);
  if (!s)
    fail(where + ".space", fmt::format("'{}' must be {}", sp, joined_names(kLocationSpaceDefs)));
  RaceLocation loc;
  loc.space = *s;
  // SBUF and PSUM locations are bytes at an offset; the others one per partition.
  const std::optional<Space> memory = location_space_def(*s).memory;
  const bool bytes = memory.has_value();
  if (bytes)
    check_keys(j, where, {"space", "partition", "offset"}, {"space", "partition", "offset"});
  else
    check_keys(j, where, {"space", "partition"}, {"space", "partition"});
  loc.partition =
      static_cast<unsigned>(as_integer(j["partition"], kPartitions, where + ".partition"));
  if (bytes)
    loc.offset = static_cast<uint32_t>(
        as_integer(j["offset"], space_partition_bytes(*memory, g), where + ".offset"));
  return loc;
}

template <class F>
void for_each_element(const json& j, const std::string& where, F&& f) {
  if (!j.is_array()) fail(where, fmt::format("expected an array, got {}", j.type_name()));
  for (std::size_t i = 0; i < j.size(); ++i) f(j[i], fmt::format("{}[{}]", where, i));
}

ProgramExpect parse_expect(const json& e, Generation g, const std::string& where) {
  ProgramExpect x;
  if (!e.is_object()) fail(where, fmt::format("expected an object, got {}", e.type_name()));
  const std::string st = as_string(require(e, "status", where), where + ".status");
  const auto status = parse_program_status(st);
  if (!status)
    fail(where + ".status", fmt::format("'{}' must be ok, deadlock, fault or invalid", st));
  x.status = *status;
  // SPEC §8.8: status and the keys of that status, all required (no others), then the
  // final state's, each optional.
  std::vector<std::string_view> required = {"status"};
  if (x.status == ProgramStatus::Invalid) {
    required.push_back("invalid");
  } else {
    required.insert(required.end(), {"schedule", "race", "sync_hazards"});
    if (x.status == ProgramStatus::Deadlock) required.push_back("blocked");
    if (x.status == ProgramStatus::Fault) required.push_back("fault");
  }
  std::vector<std::string_view> allowed = required;
  allowed.insert(allowed.end(), {"memory", "semaphores", "accumulators", "match_state"});
  check_keys(e, where, allowed, required);
  if (auto it = e.find("schedule"); it != e.end())
    for_each_element(*it, where + ".schedule", [&](const json& s, const std::string& w) {
      const std::string text = as_string(s, w);
      const auto qw = parse_queue_word(text);
      if (!qw) fail(w, fmt::format("'{}' must be E:i ({}, a decimal index)", text, kEngineIdsText));
      x.schedule.push_back(*qw);
    });
  if (auto it = e.find("race"); it != e.end() && !it->is_null()) {
    const std::string w = where + ".race";
    check_keys(*it, w, {"first", "second", "location"}, {"first", "second", "location"});
    x.race = Race{as_race_access((*it)["first"], w + ".first"),
                  as_race_access((*it)["second"], w + ".second"),
                  as_location((*it)["location"], g, w + ".location")};
  }
  if (auto it = e.find("sync_hazards"); it != e.end())
    for_each_element(*it, where + ".sync_hazards", [&](const json& h, const std::string& w) {
      check_keys(h, w, {"semaphore", "kind"}, {"semaphore", "kind"});
      const std::string kind = as_string(h["kind"], w + ".kind");
      const auto k = parse_hazard(kind);
      if (!k) fail(w + ".kind", fmt::format("'{}' must be updaters, decrease or eq-wait", kind));
      x.sync_hazards.push_back(SyncHazard{
          static_cast<unsigned>(as_integer(h["semaphore"], kSemaphores, w + ".semaphore")), *k});
    });
  if (auto it = e.find("blocked"); it != e.end())
    for_each_element(*it, where + ".blocked", [&](const json& b, const std::string& w) {
      check_keys(b, w, {"queue", "index", "wait", "semaphore", "value", "current"},
                 {"queue", "index", "wait", "semaphore", "value", "current"});
      BlockedHead h;
      h.word = as_queue_index(b, w);
      const std::string wait = as_string(b["wait"], w + ".wait");
      if (wait != "GE" && wait != "EQ")
        fail(w + ".wait", fmt::format("'{}' must be GE or EQ", wait));
      h.wait = wait == "GE" ? WaitMode::GE : WaitMode::EQ;
      h.semaphore =
          static_cast<unsigned>(as_integer(b["semaphore"], kSemaphores, w + ".semaphore"));
      if (b["value"].is_number() || b["current"].is_number())
        fail(w, "value and current are number strings (\"0x...\"), not JSON numbers");
      h.value = as_u32(b["value"], w + ".value");
      h.current = as_u32(b["current"], w + ".current");
      x.blocked.push_back(h);
    });
  if (auto it = e.find("fault"); it != e.end()) {
    const std::string w = where + ".fault";
    check_keys(*it, w, {"queue", "index", "kind"}, {"queue", "index", "kind"});
    const std::string kind = as_string((*it)["kind"], w + ".kind");
    const auto k = parse_fault(kind);
    if (!k || *k == FaultKind::SyncWouldBlock)
      fail(w + ".kind", fmt::format("'{}' must be bad-address, shape-mismatch, too-large or "
                                    "unsupported-op (a program never faults sync-would-block)",
                                    kind));
    x.fault = ExpectedFault{as_queue_index(*it, w), *k};
  }
  if (auto it = e.find("invalid"); it != e.end())
    for_each_element(*it, where + ".invalid", [&](const json& v, const std::string& w) {
      check_keys(v, w, {"queue", "index", "violations"}, {"queue", "index", "violations"});
      ExpectedInvalid inv;
      inv.word = as_queue_index(v, w);
      for_each_element(v["violations"], w + ".violations",
                       [&](const json& c, const std::string& cw) {
                         inv.violations.push_back(as_string(c, cw));
                       });
      x.invalid.push_back(std::move(inv));
    });
  read_final_state(e, where, g, x.state);
  return x;
}

ProgramVector parse_program_vector(const json& v, const std::string& where) {
  ProgramVector t;
  if (!v.is_object()) fail(where, fmt::format("expected an object, got {}", v.type_name()));
  t.name = as_string(require(v, "name", where), where + ".name");
  const std::string w = fmt::format("{} ('{}')", where, t.name);
  // SPEC §8.8: these keys and no others (§7's instruction and engine included).
  check_keys(v, w,
             {"name", "nc", "queues", "expect", "strict", "registers", "semaphores", "accumulators",
              "match_state", "memory", "model_rules"},
             {"name", "nc", "queues", "expect"});
  const std::string nc = as_string(v["nc"], w + ".nc");
  const auto g = parse_generation(nc);
  if (!g || nc.size() != 2) fail(w + ".nc", fmt::format("'{}' must be v2, v3, v4 or v5", nc));
  t.nc = *g;
  if (auto it = v.find("strict"); it != v.end()) {
    if (!it->is_boolean()) fail(w + ".strict", fmt::format("{} must be true or false", it->dump()));
    t.program.strict = it->get<bool>();
  }
  const json& queues = v["queues"];
  if (!queues.is_object())
    fail(w + ".queues", fmt::format("expected an object, got {}", queues.type_name()));
  for (auto it = queues.begin(); it != queues.end(); ++it) {
    const auto e = parse_engine_id(it.key());
    if (!e)
      fail(w + ".queues", fmt::format("'{}' is not a queue: the queues are {}", it.key(),
                                      kEngineIdsQuotedAndText));
    const std::string qw = fmt::format("{}.queues.{}", w, it.key());
    for_each_element(it.value(), qw, [&](const json& word, const std::string& ww) {
      t.program.queue(*e).push_back(as_word(word, ww));
    });
  }
  read_initial_state(v, w, t);
  t.expect = parse_expect(v["expect"], t.nc, w + ".expect");
  return t;
}

// nlohmann's parser keeps the last of a key named twice; SPEC §8.8 makes it an error. The
// parser's callback sees every key of every object: a stack of the keys seen per open
// object finds the second one, and of the vector it is in.
struct DuplicateFinder {
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;        // the object's latest key
    std::size_t items = 0;  // an array's elements so far
  };
  std::vector<Frame> stack;
  std::optional<std::string> duplicate;  // the key, and where
  std::optional<std::size_t> vector;     // the vector it is in (index in "vectors")
  bool too_deep = false;

  // Where the innermost open object is: the keys and indices leading to it.
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i + 1 < stack.size(); ++i) {
      const Frame& f = stack[i];
      p += f.object ? "." + f.key : fmt::format("[{}]", f.items - 1);
    }
    return p;
  }
  // Counts a new element of the array on top.
  void element() {
    if (!stack.empty() && !stack.back().object) ++stack.back().items;
  }
  bool operator()(int, json::parse_event_t ev, json& parsed) {
    switch (ev) {
      case json::parse_event_t::object_start:
        element();
        stack.push_back(Frame{true, {}, {}, 0});
        break;
      case json::parse_event_t::array_start:
        element();
        stack.push_back(Frame{false, {}, {}, 0});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case json::parse_event_t::key: {
        const std::string k = parsed.get<std::string>();
        Frame& f = stack.back();
        f.key = k;
        if (!f.keys.insert(k).second && !duplicate) {
          duplicate = fmt::format("the key '{}' is named twice in {}", k,
                                  path().empty() ? std::string("the top object") : path());
          // stack: [top object, "vectors" array, vector i, ...]
          if (stack.size() >= 3 && stack[0].key == "vectors" && !stack[1].object)
            vector = stack[1].items - 1;
        }
        break;
      }
      case json::parse_event_t::value:
        element();
        break;
    }
    if (stack.size() > 64) too_deep = true;  // refused below
    return !too_deep;
  }
};

}  // namespace

namespace {

// Reads the top object's "format" string and stops: no document is built.
struct FormatFinder : nlohmann::json_sax<json> {
  int depth = 0;
  bool at_format = false;
  std::optional<std::string> format;
  bool scalar() {
    at_format = false;
    return true;
  }
  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t& s) override {
    if (at_format) {
      format = s;
      return false;  // found: stop
    }
    return true;
  }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override {
    at_format = false;
    return ++depth <= 64;
  }
  bool key(string_t& k) override {
    at_format = depth == 1 && k == "format";
    return true;
  }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(std::size_t) override {
    at_format = false;
    return ++depth <= 64 && depth > 1;  // a top-level array names no format
  }
  bool end_array() override {
    --depth;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
};

}  // namespace

std::optional<std::string> vector_file_format(const std::string& json_text) {
  FormatFinder f;
  json::sax_parse(json_text, &f);
  return f.format;
}

std::optional<ProgramVectorFile> parse_program_vectors(const std::string& json_text,
                                                       const std::string& path,
                                                       std::string* error) {
  return parsed_or_error(path, error, [&] {
    DuplicateFinder dup;
    json doc = json::parse(
        json_text, [&](int d, json::parse_event_t ev, json& parsed) { return dup(d, ev, parsed); },
        true);
    if (dup.too_deep) throw ParseError{path + ": nesting deeper than 64 levels"};
    if (dup.duplicate) {
      std::string where = path;
      if (dup.vector) {
        where = fmt::format("{}: vector {}", path, *dup.vector);
        const json* vs = doc.is_object() && doc.contains("vectors") ? &doc["vectors"] : nullptr;
        if (vs && vs->is_array() && *dup.vector < vs->size() && (*vs)[*dup.vector].is_object() &&
            (*vs)[*dup.vector].contains("name") && (*vs)[*dup.vector]["name"].is_string())
          where += fmt::format(" ('{}')", (*vs)[*dup.vector]["name"].get<std::string>());
      }
      throw ParseError{where + ": " + *dup.duplicate};
    }
    check_keys(doc, path, {"format", "vectors"}, {"format", "vectors"});
    return ProgramVectorFile{path,
                             vectors_of(doc, path, "gpsimd-programs/1", parse_program_vector)};
  });
}

std::optional<ProgramVectorFile> load_program_vectors(const std::string& path, std::string* error) {
  const std::optional<std::string> text = vectors_detail::read_file(path, error);
  if (!text) return std::nullopt;
  return parse_program_vectors(*text, path, error);
}

std::optional<PendingFile> pending_program_file(const ProgramVectorFile& f) {
  PendingFile p;
  for (const ProgramVector& v : f.vectors)
    for (const auto& q : v.program.queues)
      for (const Word& w : q) {
        const auto mnemonic = specified_mnemonic(w[0]);
        if (!mnemonic || find_instruction(w[0]) != nullptr) continue;
        if (std::none_of(p.instructions.begin(), p.instructions.end(),
                         [&](const SpecifiedInstr& s) { return s.opcode == w[0]; }))
          p.instructions.push_back(SpecifiedInstr{w[0], *mnemonic});
      }
  if (p.instructions.empty()) return std::nullopt;
  return p;
}

void apply_initial_state(Machine& m, const ProgramVector& v) {
  TestVector t;
  t.registers = v.registers;
  t.semaphores = v.semaphores;
  t.accumulators = v.accumulators;
  t.match_state = v.match_state;
  t.memory = v.memory;
  apply_initial_state(m, t);
}

namespace {

std::string words_text(const std::vector<QueueWord>& ws) {
  std::string s = "[";
  for (std::size_t i = 0; i < ws.size(); ++i) s += (i ? ", " : "") + ws[i].to_string();
  return s + "]";
}
std::string race_text(const std::optional<Race>& r) {
  if (!r) return "null";
  return fmt::format("first {} {}, second {} {}, at {}", r->first.word.to_string(),
                     access_name(r->first.access), r->second.word.to_string(),
                     access_name(r->second.access), r->location.to_string());
}
std::string hazards_text(const std::vector<SyncHazard>& hs) {
  std::string s = "[";
  for (std::size_t i = 0; i < hs.size(); ++i)
    s += fmt::format("{}{{{}, {}}}", i ? ", " : "", hs[i].semaphore, hazard_name(hs[i].kind));
  return s + "]";
}
std::string blocked_text(const std::vector<BlockedHead>& bs) {
  std::string s = "[";
  for (std::size_t i = 0; i < bs.size(); ++i)
    s += fmt::format("{}{} {} sem {} value {:#x} current {:#x}", i ? ", " : "",
                     bs[i].word.to_string(), bs[i].wait == WaitMode::GE ? "GE" : "EQ",
                     bs[i].semaphore, bs[i].value, bs[i].current);
  return s + "]";
}
bool same_blocked(const BlockedHead& a, const BlockedHead& b) {
  return a.word == b.word && a.wait == b.wait && a.semaphore == b.semaphore && a.value == b.value &&
         a.current == b.current;
}

}  // namespace

ProgramVectorOutcome run_program_vector(const ProgramVector& v, const QueueRunOptions& opts) {
  ProgramVectorOutcome o;
  Machine m(v.nc);
  apply_initial_state(m, v);
  o.run = run_queues(m, v.program, opts);
  const QueueRun& r = o.run;
  const ProgramExpect& e = v.expect;
  auto diff = [&](std::string line) { o.differences.push_back(std::move(line)); };
  if (r.status != e.status) {
    std::string got(program_status_name(r.status));
    if (r.status == ProgramStatus::Invalid && !r.invalid.empty())
      got += fmt::format(" ({}: {})", r.invalid.front().word.to_string(),
                         r.invalid.front().diagnostics.front().message());
    if (r.fault) got += fmt::format(" ({}: {})", r.fault->word.to_string(), r.fault->fault.detail);
    diff(fmt::format("status: expected {}, got {}", program_status_name(e.status), got));
  }
  if (e.status == ProgramStatus::Invalid) {
    std::vector<QueueWord> want, got;
    for (const ExpectedInvalid& x : e.invalid) want.push_back(x.word);
    for (const InvalidWord& x : r.invalid) got.push_back(x.word);
    if (want != got)
      diff(fmt::format("invalid words: expected {}, got {}", words_text(want), words_text(got)));
    else
      for (std::size_t i = 0; i < want.size(); ++i)
        for (const std::string& c : e.invalid[i].violations)
          if (!has_clause(r.invalid[i].diagnostics, c))
            diff(fmt::format("invalid {}: clause {} not reported", want[i].to_string(), c));
  } else if (r.status != ProgramStatus::Invalid) {
    std::vector<QueueWord> got;
    for (const ScheduleStep& s : r.schedule) got.push_back(s.word);
    if (got != e.schedule)
      diff(fmt::format("schedule: expected {}, got {}", words_text(e.schedule), words_text(got)));
    if (r.race != e.race)
      diff(fmt::format("race: expected {}, got {}", race_text(e.race), race_text(r.race)));
    if (r.sync_hazards != e.sync_hazards)
      diff(fmt::format("sync_hazards: expected {}, got {}", hazards_text(e.sync_hazards),
                       hazards_text(r.sync_hazards)));
    if (r.blocked.size() != e.blocked.size() ||
        !std::equal(r.blocked.begin(), r.blocked.end(), e.blocked.begin(), same_blocked))
      diff(fmt::format("blocked: expected {}, got {}", blocked_text(e.blocked),
                       blocked_text(r.blocked)));
    const bool fault_same =
        e.fault.has_value() == r.fault.has_value() &&
        (!e.fault || (e.fault->word == r.fault->word && e.fault->kind == r.fault->fault.kind));
    if (!fault_same)
      diff(fmt::format(
          "fault: expected {}, got {}",
          e.fault ? fmt::format("{} {}", e.fault->word.to_string(), fault_name(e.fault->kind))
                  : "none",
          r.fault ? fmt::format("{} {}", r.fault->word.to_string(), fault_name(r.fault->fault.kind))
                  : "none"));
  }
  for (std::string& d : compare_state(m, e.state, std::nullopt)) diff(std::move(d));
  o.passed = o.differences.empty();
  return o;
}

}  // namespace gpsimd
