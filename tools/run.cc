// `gpsimd run`: set up a machine from a program's directives, execute its words,
// report (with an optional commit-log trace), and write its dumps.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "gpsimd/execute.h"
#include "gpsimd/explain.h"
#include "gpsimd/format.h"

namespace gpsimd::cli {
namespace {

using json = nlohmann::ordered_json;

// A little-endian element of 1..4 bytes.
uint32_t load_le(std::span<const uint8_t> b) {
  uint32_t v = 0;
  for (std::size_t i = 0; i < b.size(); ++i) v |= static_cast<uint32_t>(b[i]) << (8 * i);
  return v;
}

std::string bytes_hex(std::span<const uint8_t> b) {
  std::string s;
  s.reserve(2 * b.size());
  for (uint8_t x : b) s += fmt::format("{:02x}", x);
  return s;
}

// A search lane by the JSON rule of docs/cli.md: mv (FP32 values) and matched (flags, bit n
// = slot n) are bit patterns, "0x..." strings; idx (indices, 4294967295 for no match)
// are numbers.
json lane_json(const MatchLane& l) {
  json mv = json::array(), idx = json::array();
  for (uint32_t v : l.mv) mv.push_back(fmt::format("{:#010x}", v));
  for (uint32_t v : l.idx) idx.push_back(v);
  return {{"mv", std::move(mv)}, {"matched", fmt::format("{:#04x}", l.matched)}, {"idx", idx}};
}
// "mv [8, 8, 3, ...] matched 0x81 idx [2, -, ...]": values as FP32, - for 0xFFFFFFFF.
std::string lane_text(const MatchLane& l) {
  std::string mv, idx;
  for (unsigned n = 0; n < 8; ++n) {
    mv += fmt::format("{}{}", n ? ", " : "", format_fp32(l.mv[n]));
    idx += n ? ", " : "";
    idx += l.idx[n] == kNoMatchIndex ? std::string("-") : std::to_string(l.idx[n]);
  }
  return fmt::format("mv [{}] matched {:#04x} idx [{}]", mv, l.matched, idx);
}

// How to read a destination region: its walk (from offset 0) and the dtype of each
// ordinal. Sort writes value, index, value, index, ...: its odd ordinals are unsigned
// indices of the values' width (SPEC §4.4).
struct DstView {
  Walk walk;
  Dtype dtype = Dtype::UINT8;
  std::optional<Dtype> odd;
  Dtype at(uint64_t ordinal) const { return odd && ordinal % 2 ? *odd : dtype; }
  // The byte offset of an ordinal from the walk's lowest byte.
  int64_t offset(uint64_t j) const {
    int64_t o = 0;
    for (unsigned d = 0; d < walk.dims; ++d) {
      o += static_cast<int64_t>(j % walk.num[d]) * walk.step[d];
      j /= walk.num[d];
    }
    return o * walk.elem + walk.start - walk.lo();
  }
};

// The destination of a word, its walk and the dtypes of its ordinals (explain.h), or
// nullopt when it has none or its dtype has no value format.
std::optional<DstView> dst_view(const Word& w) {
  const auto dtypes = destination_dtypes(w);
  if (!dtypes) return std::nullopt;
  const auto dec = decode(w);
  DstView v;
  v.walk = Walk::of(dec->tensor("dst_mem_pattern"), 0, *dtype_size(dtypes->dtype));
  v.dtype = dtypes->dtype;
  v.odd = dtypes->odd;
  return v;
}

// One line per retired word, then one per write, like a commit log. A memory write shows
// the destination's first kTraceValues values in walk order, decoded by its dtype, and
// with --trace-bytes every byte of the region.
constexpr uint64_t kTraceValues = 8;

class Trace : public TraceSink {
 public:
  Trace(const Input& in, bool json_mode, bool all_bytes)
      : in_(in), json_(json_mode), all_bytes_(all_bytes) {}
  std::size_t next_word = 0;          // the index of the word being executed
  std::optional<Engine> next_engine;  // its engine input
  std::string label;                  // in a program of queues: "pool:0"
  json events = json::array();

  void retire(const Word& w, const InstrDef& def) override {
    dst_ = dst_view(w);
    if (json_) {
      json j;
      j["retire"] = next_word;
      if (!label.empty()) j["word"] = label;
      if (in_.format != Format::Bin && next_word < in_.program.word_lines.size())
        j["line"] = in_.program.word_lines[next_word];
      j["instruction"] = std::string(def.mnemonic);
      if (def.engine_input) j["engine"] = std::string(engine_id(def.engine_for(next_engine)));
      if (const auto r = order_rule(w)) j["model_rule"] = std::string(model::order_rule(*r).name);
      events.push_back(std::move(j));
      return;
    }
    fmt::print("[{}] {}: {}{}\n", label.empty() ? std::to_string(next_word) : label,
               in_.where(next_word), def.mnemonic, engine_note(w, next_engine));
    // SPEC §7 "model_rules": a result that rests on a [model] order says so.
    if (const auto r = order_rule(w)) {
      const model::OrderRuleDef& d = model::order_rule(*r);
      fmt::print("    (the result rests on the [model] order rule {}, {})\n", d.name, d.section);
    }
  }
  void memory(Space s, unsigned partition, uint32_t offset,
              std::span<const uint8_t> bytes) override {
    if (json_) {
      events.push_back({{"memory",
                         {{"space", std::string(space_name(s))},
                          {"partition", partition},
                          {"offset", offset},
                          {"hex", bytes_hex(bytes)}}}});
      return;
    }
    const std::string where = fmt::format("{}[p={}, off={:#x}] {} byte{}", space_name(s), partition,
                                          offset, bytes.size(), bytes.size() == 1 ? "" : "s");
    if (!dst_) {
      // No dtype to read the bytes by: the first 32 bytes, or all of them on request.
      const std::size_t n = all_bytes_ ? bytes.size() : std::min<std::size_t>(bytes.size(), 32);
      fmt::print("    {} = {}{}\n", where, bytes_hex(bytes.first(n)),
                 n < bytes.size() ? fmt::format("... ({} more bytes)", bytes.size() - n) : "");
      return;
    }
    const uint64_t count = dst_->walk.count();
    std::string values;
    for (uint64_t j = 0; j < std::min(count, kTraceValues); ++j) {
      const int64_t o = dst_->offset(j);
      if (o < 0 || static_cast<uint64_t>(o) + dst_->walk.elem > bytes.size()) break;
      values += j ? ", " : "";
      values += format_value(dst_->at(j),
                             load_le(bytes.subspan(static_cast<std::size_t>(o), dst_->walk.elem)));
    }
    if (count > kTraceValues) values += fmt::format(", ... ({} more)", count - kTraceValues);
    const std::string type =
        dst_->odd
            ? fmt::format("{} value, {} index", *dtype_name(static_cast<uint8_t>(dst_->dtype)),
                          *dtype_name(static_cast<uint8_t>(*dst_->odd)))
            : std::string(*dtype_name(static_cast<uint8_t>(dst_->dtype)));
    fmt::print("    {}, {} element{} ({}) = [{}]\n", where, count, count == 1 ? "" : "s", type,
               values);
    if (all_bytes_) fmt::print("        bytes = {}\n", bytes_hex(bytes));
  }
  void accumulator(unsigned index, uint32_t before, uint32_t after) override {
    if (json_) {
      events.push_back({{"accumulator",
                         {{"index", index},
                          {"before", fmt::format("{:#010x}", before)},
                          {"after", fmt::format("{:#010x}", after)}}}});
      return;
    }
    fmt::print("    acc[{}] {:#010x} -> {:#010x} ({} -> {})\n", index, before, after,
               format_fp32(before), format_fp32(after));
  }
  void semaphore(unsigned index, uint32_t before, uint32_t after) override {
    if (json_) {
      events.push_back({{"semaphore", {{"index", index}, {"before", before}, {"after", after}}}});
      return;
    }
    fmt::print("    sem[{}] {} -> {}\n", index, before, after);
  }
  void match_lane(unsigned lane, const MatchLane& before, const MatchLane& after) override {
    if (json_) {
      events.push_back(
          {{"match_lane",
            {{"lane", lane}, {"before", lane_json(before)}, {"after", lane_json(after)}}}});
      return;
    }
    fmt::print("    match[{}] {}\n", lane, lane_text(after));
  }

 private:
  const Input& in_;
  bool json_;
  bool all_bytes_;
  std::optional<DstView> dst_;  // the destination of the word being traced
};

// The indices of numbered items as ranges ("0..99,101..127"), at most `max_ranges` of them
// then ",...".
std::string index_ranges(const std::vector<std::pair<unsigned, std::string>>& items,
                         std::size_t max_ranges) {
  std::vector<std::pair<unsigned, unsigned>> ranges;
  for (const auto& item : items) {
    if (!ranges.empty() && ranges.back().second + 1 == item.first)
      ranges.back().second = item.first;
    else
      ranges.emplace_back(item.first, item.first);
  }
  std::string idx;
  for (std::size_t k = 0; k < ranges.size() && k < max_ranges; ++k) {
    idx += k ? "," : "";
    idx += ranges[k].first == ranges[k].second
               ? fmt::format("{}", ranges[k].first)
               : fmt::format("{}..{}", ranges[k].first, ranges[k].second);
  }
  if (ranges.size() > max_ranges) idx += ",...";
  return idx;
}

// One short line for a set of numbered values: "acc[0] = 1.0, acc[3] = 2.0" when there
// are a few, else their indices as ranges and the first values:
// "128: acc[0..127] = 1.0, 2.0, 3.0, 4.0, ... (124 more; .dump acc[p=0..127] shows all)".
std::string state_summary(std::string_view name,
                          const std::vector<std::pair<unsigned, std::string>>& items) {
  constexpr std::size_t kFew = 4;
  std::string out;
  if (items.size() <= kFew) {
    for (const auto& [i, v] : items)
      out += fmt::format("{}{}[{}] = {}", out.empty() ? "" : ", ", name, i, v);
    return out;
  }
  const std::string idx = index_ranges(items, kFew);
  std::string vals;
  for (std::size_t k = 0; k < kFew; ++k) vals += fmt::format("{}, ", items[k].second);
  out = fmt::format("{} of them, {}[{}] = {}... ({} more", items.size(), name, idx, vals,
                    items.size() - kFew);
  if (name == "acc")
    out += fmt::format("; .dump acc[p={}..{}] shows all", items.front().first, items.back().first);
  return out + ")";
}

// A dump's values, each array of one type: integers as JSON numbers; floats (which may
// be inf or NaN, which JSON lacks) as decimal strings that Python's float() and NumPy
// read back ("1.5", "inf", "-inf", "nan"), with their exact bits beside them (bits_json).
bool float_dump(const DumpResult& d) {
  return !is_int_dtype(d.directive.dtype) && d.directive.region.kind != RegionKind::MATCH;
}
json values_json(const DumpResult& d) {
  const bool fl = float_dump(d);
  json rows = json::array();
  for (const auto& r : d.values) {
    json row = json::array();
    for (uint32_t v : r) {
      if (!fl) {
        row.push_back(json::parse(format_value(d.directive.dtype, v)));
        continue;
      }
      const float f = fp32_from_bits(to_fp32(d.directive.dtype, v));
      row.push_back(std::isnan(f) ? std::string("nan") : format_value(d.directive.dtype, v));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}
json bits_json(const DumpResult& d) {
  const unsigned digits = 2 * dtype_size(static_cast<uint8_t>(d.directive.dtype)).value_or(4);
  json rows = json::array();
  for (const auto& r : d.values) {
    json row = json::array();
    for (uint32_t v : r) row.push_back(fmt::format("{:#0{}x}", v, digits + 2));
    rows.push_back(std::move(row));
  }
  return rows;
}

// The machine state a run leaves, as the JSON of docs/cli.md: accumulators (FP32 bits),
// semaphores (numbers) and search lanes that are not at their initial values.
void state_json(const Machine& m, json& j) {
  json accs = json::object(), sems = json::object();
  for (unsigned i = 0; i < kPartitions; ++i)
    if (m.accumulators[i] != kNegInfBits)
      accs[std::to_string(i)] = fmt::format("{:#010x}", m.accumulators[i]);
  for (unsigned i = 0; i < kSemaphores; ++i)
    if (m.semaphores[i] != 0) sems[std::to_string(i)] = m.semaphores[i];
  j["accumulators"] = std::move(accs);
  j["semaphores"] = std::move(sems);
  json lanes = json::object();
  for (unsigned i = 0; i < kPartitions; ++i)
    if (!m.match[i].fresh()) lanes[std::to_string(i)] = lane_json(m.match[i]);
  j["match_state"] = std::move(lanes);
}

json dumps_json(const std::vector<DumpResult>& dumps, bool no_write) {
  json dj = json::array();
  for (const DumpResult& d : dumps) {
    json x;
    x["line"] = d.line;
    x["region"] = d.directive.region.to_string();
    x["dtype"] = std::string(*dtype_name(static_cast<uint8_t>(d.directive.dtype)));
    x["shape"] = d.array.shape;
    x["file"] = d.directive.path.empty() || no_write ? json(nullptr) : json(d.directive.path);
    x["values"] = values_json(d);
    if (float_dump(d)) x["bits"] = bits_json(d);
    dj.push_back(std::move(x));
  }
  return dj;
}

void print_state(const Machine& m) {
  std::vector<std::pair<unsigned, std::string>> accs, sems;
  for (unsigned i = 0; i < kPartitions; ++i)
    if (m.accumulators[i] != kNegInfBits) accs.emplace_back(i, format_fp32(m.accumulators[i]));
  for (unsigned i = 0; i < kSemaphores; ++i)
    if (m.semaphores[i] != 0) sems.emplace_back(i, std::to_string(m.semaphores[i]));
  if (!accs.empty()) fmt::print("accumulators not -inf: {}\n", state_summary("acc", accs));
  if (!sems.empty()) fmt::print("semaphores not 0: {}\n", state_summary("sem", sems));
  // Search lanes: a line each when there are a few, else one line naming them.
  std::vector<std::pair<unsigned, std::string>> lanes;
  for (unsigned i = 0; i < kPartitions; ++i)
    if (!m.match[i].fresh()) lanes.emplace_back(i, lane_text(m.match[i]));
  if (lanes.size() <= 4) {
    for (const auto& [i, text] : lanes)
      fmt::print("search lane not fresh: match[{}] {}\n", i, text);
  } else {
    fmt::print("search lanes not fresh: {} of them, match[{}] (.dump match[p={}..{}] shows them)\n",
               lanes.size(), index_ranges(lanes, 4), lanes.front().first, lanes.back().first);
  }
}

void print_dumps(const std::vector<DumpResult>& dumps, const RunOptions& o) {
  for (const DumpResult& d : dumps) {
    fmt::print("\n{}{}\n", print_directive(d.directive),
               d.directive.path.empty() || o.no_write ? "" : "  (written)");
    fmt::print("{}", render_dump(d, o.print));
  }
}

// Writes the dump files (relative paths start at --out-dir); false after an error.
bool write_dumps(const Program& p, const std::vector<DumpResult>& dumps, const RunOptions& o) {
  for (const DumpResult& d : dumps) {
    if (d.directive.path.empty() || o.no_write) continue;
    std::filesystem::path path(d.directive.path);
    if (path.is_relative()) path = std::filesystem::path(o.out_dir) / path;
    std::error_code ec;  // a missing directory is created; failing that, the write reports
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    std::string err;
    if (!write_npy(path.string(), d.array, &err)) {
      fmt::print(stderr, "gpsimd run: {}:{}: .dump: {}\n", p.file, d.line, err);
      return false;
    }
  }
  return true;
}

json diagnostics_json(const Diagnostics& diags) {
  json dj = json::array();
  for (const Diagnostic& d : diags)
    dj.push_back({{"clause", d.clause},
                  {"field", d.field},
                  {"value", d.value},
                  {"allowed", d.allowed},
                  {"message", d.message()}});
  return dj;
}

std::string mnemonic_of(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  return def ? std::string(def->mnemonic) : fmt::format("opcode {:#04x}", w[0]);
}

// "GE sem[1] >= 1", "EQ sem[0] == 2".
std::string wait_text(WaitMode mode, unsigned sem, uint32_t value) {
  return fmt::format("{} sem[{}] {} {}", mode == WaitMode::EQ ? "EQ" : "GE", sem,
                     mode == WaitMode::EQ ? "==" : ">=", value);
}

// A program of queues (SPEC §8): the words of the file, each found by its queue and index.
struct QueuedInput {
  const Input& in;
  QueueProgram program;
  std::array<std::vector<std::size_t>, kEngineCount>
      file_index;  // [engine][index] -> word of the file

  QueuedInput(const Input& input, bool strict) : in(input) {
    std::vector<QueueWord> where;
    program = queue_program(in.program, strict, &where);
    for (std::size_t i = 0; i < where.size(); ++i)
      file_index[static_cast<std::size_t>(where[i].queue)].push_back(i);
  }
  std::size_t file_word(const QueueWord& q) const {
    return file_index[static_cast<std::size_t>(q.queue)][q.index];
  }
  const Word& word(const QueueWord& q) const { return in.program.words[file_word(q)]; }
  // "examples/race.gpsimd:9"
  std::string where(const QueueWord& q) const { return in.where(file_word(q)); }
  std::optional<int> line(const QueueWord& q) const {
    const std::size_t i = file_word(q);
    if (in.format == Format::Bin || i >= in.program.word_lines.size()) return std::nullopt;
    return in.program.word_lines[i];
  }
  // The JSON of a word: queue, index, line (when the file has lines), instruction.
  json word_json(const QueueWord& q) const {
    json j;
    j["queue"] = std::string(engine_id(q.queue));
    j["index"] = q.index;
    if (auto l = line(q)) j["line"] = *l;
    j["instruction"] = mnemonic_of(word(q));
    return j;
  }
};

// `gpsimd run` on a text with `.queue` (SPEC §8.9): a program of queues, run by the
// reference schedule (SPEC §8.3) and reported as SPEC §8.4 says.
int run_queued(const RunOptions& o, const Input& input) {
  const Program& p = input.program;
  if (o.engine) {
    fmt::print(stderr,
               "gpsimd run: --engine is for streams: {} is a program of queues, and each "
               "word's queue is its engine\n",
               input.name);
    return kExitUsage;
  }
  const Generation g = pick_generation(o.nc, p);
  Machine m(g);
  if (auto err = apply_setup(p, m, input.base_dir)) {
    fmt::print(stderr, "gpsimd run: {}\n", *err);
    return kExitUsage;
  }
  const QueuedInput q(input, o.strict);
  Trace trace(input, o.json, o.trace_bytes);
  QueueRunOptions qo;
  qo.fast = !o.reference;
  if (o.trace) {
    qo.trace = &trace;
    qo.on_issue = [&](const QueueWord& w) {
      trace.next_word = q.file_word(w);
      trace.next_engine = w.queue;
      trace.label = w.to_string();
    };
  }
  if (!o.json)
    fmt::print("run {} on {}{}: a program of {} word{} ({})\n", input.name, generation_name(g),
               o.strict ? " (strict)" : "", p.words.size(), p.words.size() == 1 ? "" : "s",
               queue_sizes(q.program));
  const QueueRun r = run_queues(m, q.program, qo);

  std::string dump_error;
  auto dumps = read_dumps(p, m, &dump_error);  // the final state of SPEC §8.4
  if (!dumps) {
    fmt::print(stderr, "gpsimd run: {}\n", dump_error);
    return kExitUsage;
  }
  if (!write_dumps(p, *dumps, o)) return kExitUsage;

  const int status = r.status == ProgramStatus::Ok         ? (r.race ? kExitRace : kExitOk)
                     : r.status == ProgramStatus::Deadlock ? kExitDeadlock
                                                           : kExitFailed;
  // The timeline: the issued words, then the blocked heads of a deadlock.
  if (!o.timeline.empty()) {
    const auto tw = [&](const QueueWord& w) {
      return TimelineWord{w, fmt::format("{} {}", w.to_string(), mnemonic_of(q.word(w))),
                          fmt::format("{}: {}", q.where(w), disassemble_any(q.word(w)))};
    };
    std::vector<TimelineWord> issued, blocked;
    for (const ScheduleStep& s : r.schedule) issued.push_back(tw(s.word));
    for (const BlockedHead& b : r.blocked) {
      TimelineWord t = tw(b.word);
      t.title += fmt::format(" (blocked: waits {}, sem[{}] = {})",
                             wait_text(b.wait, b.semaphore, b.value), b.semaphore, b.current);
      blocked.push_back(std::move(t));
    }
    const std::string heading =
        fmt::format("{} on {}: {}", input.name, generation_name(g), program_status_name(r.status));
    const std::string svg = timeline_svg(r, issued, blocked, heading);
    const bool html =
        o.timeline.size() >= 5 && (o.timeline.ends_with(".html") || o.timeline.ends_with(".htm"));
    if (!write_output(o.timeline, html ? timeline_html(svg, heading) : svg, "run"))
      return kExitUsage;
  }

  if (o.json) {
    json j;
    j["file"] = input.name;
    j["nc"] = std::string(generation_name(g));
    j["strict"] = o.strict;
    j["words"] = p.words.size();
    json& queues = j["queues"] = json::object();
    for (const EngineDef& e : kEngines)
      queues[std::string(e.id)] = q.program.queue(e.engine).size();
    j["status"] = std::string(program_status_name(r.status));
    j["retired"] = std::count_if(r.schedule.begin(), r.schedule.end(),
                                 [](const ScheduleStep& st) { return st.retired; });
    if (r.status == ProgramStatus::Invalid) {
      json inv = json::array();
      for (const InvalidWord& w : r.invalid) {
        json x = q.word_json(w.word);
        x["diagnostics"] = diagnostics_json(w.diagnostics);
        inv.push_back(std::move(x));
      }
      j["invalid"] = std::move(inv);
    } else {
      json sched = json::array();
      for (const ScheduleStep& s : r.schedule) {
        json x = q.word_json(s.word);
        x["word"] = s.word.to_string();
        x["acquired"] = s.acquired ? json(s.acquired->to_string()) : json(nullptr);
        x["retired"] = s.retired;
        sched.push_back(std::move(x));
      }
      j["schedule"] = std::move(sched);
      if (r.race) {
        const auto side = [&](const RaceAccess& a) {
          json x = q.word_json(a.word);
          x["access"] = std::string(access_name(a.access));
          return x;
        };
        json loc;
        loc["space"] = std::string(location_space_name(r.race->location.space));
        loc["partition"] = r.race->location.partition;
        if (location_space_def(r.race->location.space).memory)
          loc["offset"] = r.race->location.offset;
        j["race"] = {{"first", side(r.race->first)},
                     {"second", side(r.race->second)},
                     {"location", std::move(loc)}};
      } else {
        j["race"] = nullptr;
      }
      json hz = json::array();
      for (const SyncHazard& h : r.sync_hazards)
        hz.push_back({{"semaphore", h.semaphore}, {"kind", std::string(hazard_name(h.kind))}});
      j["sync_hazards"] = std::move(hz);
      if (r.status == ProgramStatus::Deadlock) {
        json bl = json::array();
        for (const BlockedHead& b : r.blocked) {
          json x = q.word_json(b.word);
          x["wait"] = b.wait == WaitMode::EQ ? "EQ" : "GE";
          x["semaphore"] = b.semaphore;
          x["value"] = b.value;
          x["current"] = b.current;
          bl.push_back(std::move(x));
        }
        j["blocked"] = std::move(bl);
      }
      if (r.fault) {
        json x = q.word_json(r.fault->word);
        x["kind"] = std::string(fault_name(r.fault->fault.kind));
        x["detail"] = r.fault->fault.detail;
        j["fault"] = std::move(x);
      }
    }
    state_json(m, j);
    j["dumps"] = dumps_json(*dumps, o.no_write);
    if (o.trace) j["trace"] = std::move(trace.events);
    fmt::print("{}\n", j.dump(2));
    return status;
  }

  fmt::print("status: {}\n", program_status_name(r.status));
  if (r.status == ProgramStatus::Invalid) {
    fmt::print("nothing ran: {} invalid word{} (every word is validated first)\n", r.invalid.size(),
               r.invalid.size() == 1 ? "" : "s");
    for (const InvalidWord& w : r.invalid) {
      fmt::print("{} {}: {}: invalid\n", w.word.to_string(), q.where(w.word),
                 mnemonic_of(q.word(w.word)));
      for (const Diagnostic& d : w.diagnostics)
        fmt::print("    {}: {} = {}, {}\n", d.clause, d.field, d.value, d.allowed);
    }
  } else {
    // The schedule: one line, or with --schedule one line per issued word.
    constexpr std::size_t kShown = 16;
    if (o.schedule) {
      fmt::print("schedule: {} word{} issued\n", r.schedule.size(),
                 r.schedule.size() == 1 ? "" : "s");
      for (std::size_t k = 0; k < r.schedule.size(); ++k) {
        const ScheduleStep& s = r.schedule[k];
        const Events ev = load_events(q.word(s.word));
        std::string notes;
        if (s.wait_semaphore)
          notes += fmt::format(
              "  waits {}{}", wait_text(static_cast<WaitMode>(ev.wait_mode), ev.wait_idx, ev.value),
              s.acquired ? fmt::format(", acquires {}", s.acquired->to_string())
                         : std::string(", held from the start"));
        if (s.update_semaphore && s.retired)
          notes += fmt::format("  {} sem[{}]", update_mode_name(ev.update_mode).value_or("update"),
                               ev.update_idx);
        if (!s.retired) notes += "  (faulted)";
        fmt::print("  {:>4}  {:<8} {}: {}{}\n", k + 1, s.word.to_string(), q.where(s.word),
                   mnemonic_of(q.word(s.word)), notes);
      }
    } else {
      std::string line;
      for (std::size_t k = 0; k < r.schedule.size() && k < kShown; ++k)
        line += (k ? ", " : "") + r.schedule[k].word.to_string();
      if (r.schedule.empty()) line = "empty (no word issued)";
      if (r.schedule.size() > kShown)
        line += fmt::format(", ... ({} more; --schedule shows all)", r.schedule.size() - kShown);
      fmt::print("schedule: {}\n", line);
    }
    if (r.status == ProgramStatus::Deadlock) {
      fmt::print("deadlock: no queue is ready; {} blocked head{}:\n", r.blocked.size(),
                 r.blocked.size() == 1 ? "" : "s");
      for (const BlockedHead& b : r.blocked)
        fmt::print("    {} {}: {} waits {}, sem[{}] = {}\n", b.word.to_string(), q.where(b.word),
                   mnemonic_of(q.word(b.word)), wait_text(b.wait, b.semaphore, b.value),
                   b.semaphore, b.current);
    }
    if (r.fault)
      fmt::print("fault: {} {}: {} did not retire: {}: {}\n", r.fault->word.to_string(),
                 q.where(r.fault->word), mnemonic_of(q.word(r.fault->word)),
                 fault_name(r.fault->fault.kind), r.fault->fault.detail);
    if (r.race) {
      const Race& x = *r.race;
      fmt::print("race at {}: {} ({}) and {} ({}), neither ordered before the other\n",
                 x.location.to_string(), x.first.word.to_string(), access_name(x.first.access),
                 x.second.word.to_string(), access_name(x.second.access));
      fmt::print("    first   {} {}: {}\n", x.first.word.to_string(), q.where(x.first.word),
                 disassemble_any(q.word(x.first.word)));
      fmt::print("    second  {} {}: {}\n", x.second.word.to_string(), q.where(x.second.word),
                 disassemble_any(q.word(x.second.word)));
    } else {
      fmt::print("race: none\n");
    }
    if (r.sync_hazards.empty()) {
      fmt::print("sync hazards: none\n");
    } else {
      std::string hz;
      for (const SyncHazard& h : r.sync_hazards)
        hz += fmt::format("{}sem[{}] {}", hz.empty() ? "" : ", ", h.semaphore, hazard_name(h.kind));
      fmt::print("sync hazards: {} (the result may depend on the order of the queues)\n", hz);
    }
  }
  std::size_t retired = 0;
  for (const ScheduleStep& st : r.schedule) retired += st.retired ? 1 : 0;
  fmt::print("retired {} of {} word{}\n", retired, p.words.size(), p.words.size() == 1 ? "" : "s");
  print_state(m);
  print_dumps(*dumps, o);
  return status;
}

}  // namespace

int cmd_run(const RunOptions& o) {
  auto in = load_input(o.input, o.format, "run");
  if (!in) return kExitUsage;
  if (in->program.queued) return run_queued(o, *in);
  if (o.schedule || !o.timeline.empty()) {
    fmt::print(stderr,
               "gpsimd run: {} is for programs of queues: {} has no .queue directive, so it "
               "is a stream (docs/assembly.md, \"Programs on several queues\")\n",
               o.schedule ? "--schedule" : "--timeline", in->name);
    return kExitUsage;
  }
  const Program& p = in->program;
  const Generation g = pick_generation(o.nc, p);
  Machine m(g);
  if (auto err = apply_setup(p, m, in->base_dir)) {
    fmt::print(stderr, "gpsimd run: {}\n", *err);
    return kExitUsage;
  }
  Trace trace(*in, o.json, o.trace_bytes);
  QueueRunOptions so;
  so.fast = !o.reference;
  so.keep_schedule = false;
  if (o.trace) {
    so.trace = &trace;
    so.on_issue = [&](const QueueWord& w) {
      trace.next_word = w.index;
      trace.next_engine = engine_input(p, w.index, o.engine);
    };
  }

  if (!o.json)
    fmt::print("run {} on {}{}: {} word{}\n", in->name, generation_name(g),
               o.strict ? " (strict)" : "", p.words.size(), p.words.size() == 1 ? "" : "s");
  // The stream as the runner's program of one queue (SPEC §8.9), each word with its
  // engine input: --engine, else the text's latest .engine.
  std::vector<std::optional<Engine>> engines(p.words.size());
  for (std::size_t i = 0; i < p.words.size(); ++i) engines[i] = engine_input(p, i, o.engine);
  const ProgramResult run =
      stream_result(run_stream(m, Stream{p.words, engines, std::nullopt, o.strict}, so));
  const std::size_t retired = run.retired;
  const std::optional<ExecResult> failure =
      run.ok() ? std::nullopt : std::optional<ExecResult>(run.failure);

  std::vector<DumpResult> dumps;
  std::string dump_error;
  if (!failure) {
    auto d = read_dumps(p, m, &dump_error);
    if (!d) {
      fmt::print(stderr, "gpsimd run: {}\n", dump_error);
      return kExitUsage;
    }
    dumps = std::move(*d);
  }
  if (!write_dumps(p, dumps, o)) return kExitUsage;

  const InstrDef* failed_def = failure ? find_instruction(p.words[retired][0]) : nullptr;
  const std::string failed_name =
      failure ? (failed_def ? std::string(failed_def->mnemonic)
                            : fmt::format("opcode {:#04x}", p.words[retired][0]))
              : "";
  if (o.json) {
    json j;
    j["file"] = in->name;
    j["nc"] = std::string(generation_name(g));
    j["strict"] = o.strict;
    j["words"] = p.words.size();
    j["retired"] = retired;
    j["status"] = failure ? std::string(status_name(failure->status)) : "ok";
    if (failure) {
      json f;
      f["index"] = retired;
      if (in->format != Format::Bin && retired < p.word_lines.size())
        f["line"] = p.word_lines[retired];
      f["instruction"] = failed_name;
      if (failure->fault) {
        f["fault"] = {{"kind", std::string(fault_name(failure->fault->kind))},
                      {"detail", failure->fault->detail}};
      }
      json dj = json::array();
      for (const Diagnostic& d : failure->diagnostics)
        dj.push_back({{"clause", d.clause},
                      {"field", d.field},
                      {"value", d.value},
                      {"allowed", d.allowed},
                      {"message", d.message()}});
      f["diagnostics"] = std::move(dj);
      j["failure"] = std::move(f);
    }
    state_json(m, j);
    j["dumps"] = dumps_json(dumps, o.no_write);
    if (o.trace) j["trace"] = std::move(trace.events);
    fmt::print("{}\n", j.dump(2));
    return failure ? kExitFailed : kExitOk;
  }

  if (failure) {
    fmt::print("{}: {} did not retire: {}\n", in->where(retired), failed_name,
               failure->status == Status::Invalid ? "invalid" : "fault");
    if (failure->fault)
      fmt::print("    {}: {}\n", fault_name(failure->fault->kind), failure->fault->detail);
    for (const Diagnostic& d : failure->diagnostics)
      fmt::print("    {}: {} = {}, {}\n", d.clause, d.field, d.value, d.allowed);
  }
  fmt::print("retired {} of {} word{}\n", retired, p.words.size(), p.words.size() == 1 ? "" : "s");
  if (failure) {
    if (!p.dumps.empty()) fmt::print("dumps skipped: the program did not complete\n");
    return kExitFailed;
  }
  print_state(m);
  print_dumps(dumps, o);
  return kExitOk;
}

}  // namespace gpsimd::cli
