// The conformance vector format of SPEC §7: loading (with errors that name file, vector
// and key), running on a fresh machine, and whole-state comparison.
#include "gpsimd/vectors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "vectors/json_fields.h"

namespace gpsimd {
namespace vectors_detail {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ParseError{where + ": " + what};
}

const json& require(const json& obj, const char* key, const std::string& where) {
  if (!obj.is_object()) fail(where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) fail(where, fmt::format("missing key '{}'", key));
  return *it;
}

std::string as_string(const json& j, const std::string& where) {
  if (!j.is_string()) fail(where, fmt::format("expected a string, got {}", j.type_name()));
  return j.get<std::string>();
}

uint32_t as_u32(const json& j, const std::string& where) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<uint64_t>();
    if (v > 0xffffffffu) fail(where, fmt::format("{} does not fit in 32 bits", v));
    return static_cast<uint32_t>(v);
  }
  if (j.is_number())  // negative or fractional: name the value, not just its JSON type
    fail(where, fmt::format("{} is not a 32-bit value (write it as \"0x...\")", j.dump()));
  const std::string s = as_string(j, where);
  std::size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &pos, 0);
  } catch (...) {
    pos = 0;
  }
  if (pos == 0 || pos != s.size() || v > 0xffffffffull)
    fail(where, fmt::format("'{}' is not a 32-bit value (write it as \"0x...\")", s));
  return static_cast<uint32_t>(v);
}

std::vector<uint8_t> as_hex_bytes(const json& j, const std::string& where) {
  const std::string s = as_string(j, where);
  if (s.size() % 2) fail(where, fmt::format("odd number of hex digits ({})", s.size()));
  std::vector<uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    unsigned v = 0;
    for (std::size_t k = 0; k < 2; ++k) {
      const char c = s[2 * i + k];
      unsigned d;
      if (c >= '0' && c <= '9')
        d = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        d = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        d = static_cast<unsigned>(c - 'A' + 10);
      else
        fail(where, fmt::format("'{}' at position {} is not a hex digit", c, 2 * i + k));
      v = v << 4 | d;
    }
    out[i] = static_cast<uint8_t>(v);
  }
  return out;
}

namespace {

// The key k of an object at `w` as a decimal index below `limit`; fails naming it `what`
// ("index", "lane") otherwise.
unsigned decimal_key(const std::string& k, unsigned limit, const std::string& w,
                     std::string_view what) {
  unsigned idx = 0;
  std::size_t pos = 0;
  try {
    idx = static_cast<unsigned>(std::stoul(k, &pos, 10));
  } catch (...) {
    pos = 0;
  }
  if (pos == 0 || pos != k.size() || idx >= limit)
    fail(w, fmt::format("{} must be a decimal number 0..{}", what, limit - 1));
  return idx;
}

}  // namespace

std::vector<std::string> as_model_rules(const json& j, const std::string& where) {
  const auto names = [] {
    std::vector<std::string_view> n;
    for (const model::OrderRuleDef& d : model::kOrderRules) n.push_back(d.name);
    return n;
  };
  if (!j.is_array() || j.empty())
    fail(where,
         fmt::format("{} must be a non-empty list of {}", j.dump(), fmt::join(names(), ", ")));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string w = fmt::format("{}[{}]", where, i);
    const std::string name = as_string(j[i], w);
    if (!model::find_order_rule(name))
      fail(w, fmt::format("'{}' is not a rule of SPEC §7 ({})", name, fmt::join(names(), ", ")));
    if (std::ranges::find(out, name) != out.end())
      fail(w, fmt::format("'{}' is listed twice", name));
    out.push_back(name);
  }
  return out;
}

std::map<unsigned, uint32_t> as_index_map(const json& j, unsigned limit, const std::string& where) {
  if (!j.is_object()) fail(where, fmt::format("expected an object, got {}", j.type_name()));
  std::map<unsigned, uint32_t> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string w = fmt::format("{}['{}']", where, it.key());
    out[decimal_key(it.key(), limit, w, "index")] = as_u32(it.value(), w);
  }
  return out;
}

// SPEC §7 `match_state`: lanes "0".."127", each with optional keys mv (8 FP32 bit
// patterns), matched (<= 0xff) and idx (8 u32); a key left out has its fresh value.
std::map<unsigned, MatchLane> as_match_state(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where, fmt::format("expected an object, got {}", j.type_name()));
  std::map<unsigned, MatchLane> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string w = fmt::format("{}['{}']", where, it.key());
    const unsigned lane = decimal_key(it.key(), kPartitions, w, "lane");
    const json& l = it.value();
    if (!l.is_object()) fail(w, fmt::format("expected an object, got {}", l.type_name()));
    MatchLane state;
    auto slots = [&](const char* key, std::array<uint32_t, 8>& dst) {
      auto f = l.find(key);
      if (f == l.end()) return;
      const std::string kw = fmt::format("{}.{}", w, key);
      if (!f->is_array() || f->size() != 8) fail(kw, "expected an array of exactly 8 values");
      for (std::size_t n = 0; n < 8; ++n) dst[n] = as_u32((*f)[n], fmt::format("{}[{}]", kw, n));
    };
    slots("mv", state.mv);
    slots("idx", state.idx);
    if (auto f = l.find("matched"); f != l.end()) {
      const uint32_t m = as_u32(*f, w + ".matched");
      if (m > 0xff) fail(w + ".matched", fmt::format("{:#x} is not at most 0xff", m));
      state.matched = static_cast<uint8_t>(m);
    }
    for (auto k2 = l.begin(); k2 != l.end(); ++k2)
      if (k2.key() != "mv" && k2.key() != "matched" && k2.key() != "idx")
        fail(w, fmt::format("unknown key '{}' (mv, matched, idx)", k2.key()));
    out[lane] = state;
  }
  return out;
}

std::vector<MemoryRange> as_memory(const json& j, Generation g, const std::string& where) {
  if (!j.is_array()) fail(where, fmt::format("expected an array, got {}", j.type_name()));
  std::vector<MemoryRange> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string w = fmt::format("{}[{}]", where, i);
    MemoryRange r;
    const std::string space = as_string(require(j[i], "space", w), w + ".space");
    if (auto s = parse_space(space))
      r.space = *s;
    else
      fail(w + ".space", fmt::format("'{}' must be {}", space, space_names_text("\"")));
    const uint32_t p = as_u32(require(j[i], "partition", w), w + ".partition");
    if (p >= kPartitions) fail(w + ".partition", fmt::format("{} must be 0..127", p));
    r.partition = p;
    r.offset = as_u32(require(j[i], "offset", w), w + ".offset");
    r.bytes = as_hex_bytes(require(j[i], "hex", w), w + ".hex");
    const uint64_t size = r.space == Space::SBUF ? sbuf_partition_bytes(g) : kPsumPartitionBytes;
    if (r.offset + uint64_t{r.bytes.size()} > size)
      fail(w,
           fmt::format("bytes [{:#x}, {:#x}) must lie inside the {} partition of {} [0x0, {:#x})",
                       r.offset, r.offset + r.bytes.size(), space, generation_name(g), size));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vectors_detail

namespace {

using namespace vectors_detail;

TestVector parse_one(const json& v, const std::string& where) {
  TestVector t;
  t.name = as_string(require(v, "name", where), where + ".name");
  const std::string w = fmt::format("{} ('{}')", where, t.name);
  const std::string nc = as_string(require(v, "nc", w), w + ".nc");
  auto g = parse_generation(nc);
  if (!g || nc.size() != 2) fail(w + ".nc", fmt::format("'{}' must be v2, v3, v4 or v5", nc));
  t.nc = *g;
  if (auto it = v.find("strict"); it != v.end()) {
    if (!it->is_boolean()) fail(w + ".strict", fmt::format("{} must be true or false", it->dump()));
    t.strict = it->get<bool>();
  }
  if (auto it = v.find("engine"); it != v.end()) {
    // SPEC §7: exactly an engine's id ("dve", "pool" or "act"); another string, a number or
    // null makes the vector malformed.
    const auto e = it->is_string() ? parse_engine_id(it->get<std::string>()) : std::nullopt;
    if (!e) fail(w + ".engine", fmt::format("{} must be {}", it->dump(), kEngineIdsQuotedText));
    t.engine = e;
  }
  std::string why;
  auto word = word_from_hex(as_string(require(v, "instruction", w), w + ".instruction"), &why);
  if (!word) fail(w + ".instruction", why);
  t.instruction = *word;
  read_initial_state(v, w, t);

  const json& e = require(v, "expect", w);
  const std::string ew = w + ".expect";
  const std::string status = as_string(require(e, "status", ew), ew + ".status");
  if (status == "ok")
    t.expect.status = Status::Retired;
  else if (status == "invalid")
    t.expect.status = Status::Invalid;
  else if (status == "fault")
    t.expect.status = Status::Faulted;
  else
    fail(ew + ".status", fmt::format("'{}' must be ok, invalid or fault", status));
  if (auto it = e.find("violations"); it != e.end()) {
    if (!it->is_array()) fail(ew + ".violations", "expected an array of clause names");
    for (std::size_t i = 0; i < it->size(); ++i)
      t.expect.violations.push_back(as_string((*it)[i], fmt::format("{}.violations[{}]", ew, i)));
  }
  if (t.expect.status == Status::Faulted) {
    const std::string f = as_string(require(e, "fault", ew), ew + ".fault");
    t.expect.fault = parse_fault(f);
    if (!t.expect.fault)
      fail(ew + ".fault",
           fmt::format("'{}' must be bad-address, shape-mismatch, sync-would-block or too-large",
                       f));
  }
  read_final_state(e, ew, t.nc, t.expect);
  return t;
}

// The dtype of the instruction's destination, to show differences as values.
std::optional<Dtype> destination_dtype(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  if (!def) return std::nullopt;
  uint8_t code;
  if (auto* f = find_field(def->fields, "in_out_dtype"))
    code = w[f->offset] >> 4;
  else if (auto* f2 = find_field(def->fields, "out_dtype"))
    code = w[f2->offset];
  else if (auto* f3 = find_field(def->fields, "dtype"))
    code = w[f3->offset];
  else
    return std::nullopt;
  if (!dtype_size(code)) return std::nullopt;
  return static_cast<Dtype>(code);
}

std::string show_element(const uint8_t* p, unsigned size, std::optional<Dtype> dt) {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i) v |= uint64_t{p[i]} << (8 * i);
  std::string s = fmt::format("{:#0{}x}", v, 2 + 2 * size);
  if (!dt) return s;
  if (is_float_dtype(*dt)) {
    return fmt::format("{} ({})", s,
                       std::bit_cast<float>(widen_to_fp32(*dt, static_cast<uint32_t>(v))));
  }
  switch (*dt) {
    case Dtype::INT8:
      return fmt::format("{} ({})", s, static_cast<int8_t>(v));
    case Dtype::INT16:
      return fmt::format("{} ({})", s, static_cast<int16_t>(v));
    case Dtype::INT32:
      return fmt::format("{} ({})", s, static_cast<int32_t>(v));
    default:
      return fmt::format("{} ({})", s, v);
  }
}

}  // namespace

std::optional<VectorFile> parse_vectors(const std::string& json_text, const std::string& path,
                                        std::string* error) {
  return parsed_or_error(path, error, [&] {
    // Depth is bounded by the parser's callback: reject documents nested absurdly deep.
    int depth = 0;
    bool too_deep = false;
    json doc = json::parse(
        json_text,
        [&](int d, json::parse_event_t ev, json&) {
          if (ev == json::parse_event_t::object_start || ev == json::parse_event_t::array_start) {
            if (d > 64) too_deep = true;
          }
          depth = d;
          return !too_deep;
        },
        true);
    if (too_deep) throw ParseError{path + ": nesting deeper than 64 levels"};
    return VectorFile{path, vectors_of(doc, path, "gpsimd-vectors/1", parse_one)};
  });
}

namespace vectors_detail {
std::optional<std::string> read_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = fmt::format("{}: cannot open: {}", path, std::strerror(errno));
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace vectors_detail

std::optional<VectorFile> load_vectors(const std::string& path, std::string* error) {
  const std::optional<std::string> text = vectors_detail::read_file(path, error);
  if (!text) return std::nullopt;
  return parse_vectors(*text, path, error);
}

std::string PendingFile::text() const {
  std::string out;
  for (const SpecifiedInstr& s : instructions)
    out += fmt::format("{}{} ({:#04x})", out.empty() ? "" : ", ", s.mnemonic, s.opcode);
  return out;
}

std::optional<PendingFile> pending_instruction(const VectorFile& f) {
  if (f.vectors.empty()) return std::nullopt;
  PendingFile p;
  for (const TestVector& v : f.vectors) {
    const uint8_t op = v.instruction[0];
    const auto mnemonic = specified_mnemonic(op);
    if (!mnemonic || find_instruction(op) != nullptr) return std::nullopt;
    if (std::none_of(p.instructions.begin(), p.instructions.end(),
                     [&](const SpecifiedInstr& s) { return s.opcode == op; }))
      p.instructions.push_back(SpecifiedInstr{op, *mnemonic});
  }
  return p;
}

void apply_initial_state(Machine& m, const TestVector& v) {
  for (auto [i, x] : v.registers) m.registers[i] = x;
  for (auto [i, x] : v.semaphores) m.semaphores[i] = x;
  for (auto [i, x] : v.accumulators) m.accumulators[i] = x;
  for (const auto& [i, lane] : v.match_state) m.match[i] = lane;
  for (const MemoryRange& r : v.memory) {
    if (r.bytes.empty()) continue;  // an empty "hex" sets nothing (and has no data pointer)
    auto part = m.partition(r.space, r.partition);
    std::memcpy(part.data() + r.offset, r.bytes.data(), r.bytes.size());
  }
}

namespace {

// Compares one partition with its expected bytes, appending at most a few lines.
void diff_partition(Space s, unsigned p, std::span<const uint8_t> got, std::span<const uint8_t> exp,
                    unsigned esize, std::optional<Dtype> dt, std::vector<std::string>& diffs) {
  unsigned shown = 0, total = 0;
  constexpr std::size_t kBlock = 256;  // a multiple of every element size
  for (std::size_t i = 0; i + esize <= got.size(); i += esize) {
    // Equal blocks are skipped whole: a partition differs in a few places, not in each
    // of its 224 Ki bytes.
    if (i % kBlock == 0 && i + kBlock <= got.size() &&
        std::memcmp(got.data() + i, exp.data() + i, kBlock) == 0) {
      i += kBlock - esize;
      continue;
    }
    if (std::memcmp(got.data() + i, exp.data() + i, esize) == 0) continue;
    ++total;
    if (shown < 8) {
      ++shown;
      diffs.push_back(fmt::format("{}[p={}] +{:#x}: expected {}, got {}", space_name(s), p, i,
                                  show_element(exp.data() + i, esize, dt),
                                  show_element(got.data() + i, esize, dt)));
    }
  }
  if (total > shown)
    diffs.push_back(
        fmt::format("{}[p={}]: {} more differing elements", space_name(s), p, total - shown));
}

bool all_zero(std::span<const uint8_t> b) {
  static const uint8_t kZero[4096] = {};
  for (std::size_t i = 0; i < b.size(); i += sizeof kZero) {
    const std::size_t n = std::min(sizeof kZero, b.size() - i);
    if (std::memcmp(b.data() + i, kZero, n) != 0) return false;
  }
  return true;
}

}  // namespace

namespace {

// Partitions to compare: all, or those marked.
struct PartitionSet {
  bool all = true;
  std::array<std::array<bool, kPartitions>, kSpaceCount> marked{};  // by space
  void mark(Space s, unsigned p) { marked[static_cast<std::size_t>(s)][p] = true; }
  bool has(Space s, unsigned p) const { return all || marked[static_cast<std::size_t>(s)][p]; }
};

// Notes the partitions an instruction writes, and passes every event on.
class TouchRecorder : public TraceSink {
 public:
  TouchRecorder(PartitionSet& set, TraceSink* next) : set_(set), next_(next) {}
  void retire(const Word& w, const InstrDef& def) override {
    if (next_) next_->retire(w, def);
  }
  void memory(Space s, unsigned p, uint32_t offset, std::span<const uint8_t> b) override {
    set_.mark(s, p);
    if (next_) next_->memory(s, p, offset, b);
  }
  void accumulator(unsigned i, uint32_t before, uint32_t after) override {
    if (next_) next_->accumulator(i, before, after);
  }
  void semaphore(unsigned i, uint32_t before, uint32_t after) override {
    if (next_) next_->semaphore(i, before, after);
  }
  void match_lane(unsigned i, const MatchLane& before, const MatchLane& after) override {
    if (next_) next_->match_lane(i, before, after);
  }

 private:
  PartitionSet& set_;
  TraceSink* next_;
};

std::vector<std::string> compare_partitions(const Machine& m, const VectorExpect& e,
                                            std::optional<Dtype> dt, const PartitionSet& only);

}  // namespace

std::vector<std::string> compare_state(const Machine& m, const VectorExpect& e,
                                       std::optional<Dtype> dt) {
  return compare_partitions(m, e, dt, PartitionSet{});
}

namespace {

std::vector<std::string> compare_partitions(const Machine& m, const VectorExpect& e,
                                            std::optional<Dtype> dt, const PartitionSet& only) {
  std::vector<std::string> diffs;
  const unsigned esize = dt ? *dtype_size(*dt) : 1;
  std::vector<uint8_t> want;
  for (Space s : kAllSpaces) {
    for (unsigned p = 0; p < kPartitions; ++p) {
      if (!only.has(s, p)) continue;
      std::span<const uint8_t> got = m.partition(s, p);
      bool named = false;
      for (const MemoryRange& r : e.memory) named |= r.space == s && r.partition == p;
      if (!named) {
        // Most partitions: everything must still be zero.
        if (all_zero(got)) continue;
        want.assign(got.size(), 0);
      } else {
        want.assign(got.size(), 0);
        for (const MemoryRange& r : e.memory)
          if (r.space == s && r.partition == p && !r.bytes.empty())
            std::memcpy(want.data() + r.offset, r.bytes.data(), r.bytes.size());
        if (std::memcmp(got.data(), want.data(), got.size()) == 0) continue;
      }
      diff_partition(s, p, got, want, esize, dt, diffs);
    }
  }
  for (unsigned i = 0; i < kPartitions; ++i) {
    auto it = e.accumulators.find(i);
    const uint32_t want_acc = it == e.accumulators.end() ? kNegInfBits : it->second;
    if (m.accumulators[i] != want_acc)
      diffs.push_back(fmt::format("accumulator {}: expected {:#010x} ({}), got {:#010x} ({})", i,
                                  want_acc, std::bit_cast<float>(want_acc), m.accumulators[i],
                                  std::bit_cast<float>(m.accumulators[i])));
  }
  for (unsigned i = 0; i < kPartitions; ++i) {
    auto it = e.match_state.find(i);
    const MatchLane want_lane = it == e.match_state.end() ? MatchLane{} : it->second;
    const MatchLane& got = m.match[i];
    if (got == want_lane) continue;
    for (unsigned n = 0; n < 8; ++n)
      if (got.mv[n] != want_lane.mv[n])
        diffs.push_back(
            fmt::format("match lane {} mv[{}]: expected {:#010x} ({}), got {:#010x} ({})", i, n,
                        want_lane.mv[n], std::bit_cast<float>(want_lane.mv[n]), got.mv[n],
                        std::bit_cast<float>(got.mv[n])));
    if (got.matched != want_lane.matched)
      diffs.push_back(fmt::format("match lane {} matched: expected {:#04x}, got {:#04x}", i,
                                  want_lane.matched, got.matched));
    for (unsigned n = 0; n < 8; ++n)
      if (got.idx[n] != want_lane.idx[n])
        diffs.push_back(fmt::format("match lane {} idx[{}]: expected {:#010x}, got {:#010x}", i, n,
                                    want_lane.idx[n], got.idx[n]));
  }
  for (unsigned i = 0; i < kSemaphores; ++i) {
    auto it = e.semaphores.find(i);
    const uint32_t want_sem = it == e.semaphores.end() ? 0 : it->second;
    if (m.semaphores[i] != want_sem)
      diffs.push_back(fmt::format("semaphore {}: expected {:#010x}, got {:#010x}", i, want_sem,
                                  m.semaphores[i]));
  }
  return diffs;
}

// Fresh machines are 34 MiB each; a vector that passed leaves exactly its expected
// state behind, so zeroing those ranges makes the machine fresh again for the next one.
Machine& pooled_machine(Generation g) {
  thread_local std::array<std::unique_ptr<Machine>, 6> pool;
  auto& slot = pool[static_cast<unsigned>(g)];
  if (!slot) slot = std::make_unique<Machine>(g);
  return *slot;
}
// `touched`: the partitions that may differ from zero (all of them unless the scope is
// Touched).
void release_machine(Machine& m, const VectorExpect& e, bool clean, const PartitionSet& touched) {
  if (!clean && touched.all) {
    m.reset();
    return;
  }
  if (!clean) {
    for (Space s : kAllSpaces)
      for (unsigned p = 0; p < kPartitions; ++p)
        if (touched.has(s, p)) std::fill_n(m.partition(s, p).data(), m.partition_bytes(s), 0);
  }
  for (const MemoryRange& r : e.memory)
    std::memset(m.partition(r.space, r.partition).data() + r.offset, 0, r.bytes.size());
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInfBits);
  m.match.fill(MatchLane{});
}
}  // namespace

VectorOutcome run_vector(const TestVector& v, const ExecOptions& base, CompareScope scope) {
  VectorOutcome o;
  Machine& m = pooled_machine(v.nc);
  apply_initial_state(m, v);
  ExecOptions opts = base;
  opts.strict = v.strict;
  opts.engine = v.engine;
  PartitionSet touched;
  touched.all = scope == CompareScope::Whole;
  for (const MemoryRange& r : v.memory) touched.mark(r.space, r.partition);
  for (const MemoryRange& r : v.expect.memory) touched.mark(r.space, r.partition);
  TouchRecorder recorder(touched, base.trace);
  if (!touched.all) opts.trace = &recorder;
  o.result = execute(m, v.instruction, opts);
  if (o.result.status != v.expect.status) {
    o.differences.push_back(fmt::format("status: expected {}, got {}", status_name(v.expect.status),
                                        o.result.message()));
  } else if (v.expect.status == Status::Invalid) {
    for (const std::string& c : v.expect.violations)
      if (!has_clause(o.result.diagnostics, c))
        o.differences.push_back(
            fmt::format("clause {} not reported; got {}", c, o.result.message()));
  } else if (v.expect.status == Status::Faulted && o.result.fault->kind != *v.expect.fault) {
    o.differences.push_back(
        fmt::format("fault: expected {}, got {}", fault_name(*v.expect.fault), o.result.message()));
  }
  auto state = compare_partitions(m, v.expect, destination_dtype(v.instruction), touched);
  o.differences.insert(o.differences.end(), state.begin(), state.end());
  o.passed = o.differences.empty();
  release_machine(m, v.expect, state.empty(), touched);
  return o;
}

}  // namespace gpsimd
