// `gpsimd run`: set up a machine from a program's directives, execute its words,
// report (with an optional commit-log trace), and write its dumps.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "gpsimd/execute.h"
#include "gpsimd/format.h"

namespace gpsimd::cli {
namespace {

using json = nlohmann::ordered_json;

std::string bytes_hex(std::span<const uint8_t> b) {
  std::string s;
  s.reserve(2 * b.size());
  for (uint8_t x : b) s += fmt::format("{:02x}", x);
  return s;
}

// A search lane in the vector format of SPEC §7: mv and idx as 8 hex strings each.
json lane_json(const MatchLane& l) {
  json mv = json::array(), idx = json::array();
  for (uint32_t v : l.mv) mv.push_back(fmt::format("{:#010x}", v));
  for (uint32_t v : l.idx) idx.push_back(fmt::format("{:#010x}", v));
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

// One line per retired word, then one per write, like a commit log.
class Trace : public TraceSink {
 public:
  Trace(const Input& in, bool json_mode) : in_(in), json_(json_mode) {}
  std::size_t next_word = 0;  // the index of the word being executed
  json events = json::array();

  void retire(const Word&, const InstrDef& def) override {
    if (json_) {
      json j;
      j["retire"] = next_word;
      if (in_.format != Format::Bin && next_word < in_.program.word_lines.size())
        j["line"] = in_.program.word_lines[next_word];
      j["instruction"] = std::string(def.mnemonic);
      events.push_back(std::move(j));
      return;
    }
    fmt::print("[{}] {}: {}\n", next_word, in_.where(next_word), def.mnemonic);
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
    fmt::print("    {}[p={}, off={:#x}] {} byte{} = {}\n", space_name(s), partition, offset,
               bytes.size(), bytes.size() == 1 ? "" : "s", bytes_hex(bytes));
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
};

json values_json(const DumpResult& d) {
  json rows = json::array();
  for (const auto& r : d.values) {
    json row = json::array();
    for (uint32_t v : r) {
      const std::string t = format_value(d.directive.dtype, v);
      // Integers as JSON numbers; floats too unless inf/nan (which JSON lacks): text.
      if (t.find_first_of("ixn") == std::string::npos)
        row.push_back(json::parse(t));
      else
        row.push_back(t);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

int cmd_run(const RunOptions& o) {
  auto in = load_input(o.input, o.format, "run");
  if (!in) return kExitUsage;
  const Program& p = in->program;
  const Generation g = pick_generation(o.nc, p);
  Machine m(g);
  if (auto err = apply_setup(p, m, in->base_dir)) {
    fmt::print(stderr, "gpsimd run: {}\n", *err);
    return kExitUsage;
  }
  Trace trace(*in, o.json);
  ExecOptions opts;
  opts.strict = o.strict;
  opts.fast = !o.reference;
  if (o.trace) opts.trace = &trace;

  if (!o.json)
    fmt::print("run {} on {}{}: {} word{}\n", in->name, generation_name(g),
               o.strict ? " (strict)" : "", p.words.size(), p.words.size() == 1 ? "" : "s");
  std::size_t retired = 0;
  std::optional<ExecResult> failure;
  for (; retired < p.words.size(); ++retired) {
    trace.next_word = retired;
    ExecResult r = execute(m, p.words[retired], opts);
    if (!r.ok()) {
      failure = std::move(r);
      break;
    }
  }

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
  // Write the dump files (relative paths start at --out-dir).
  std::vector<std::string> written;
  for (const DumpResult& d : dumps) {
    if (d.directive.path.empty() || o.no_write) continue;
    std::filesystem::path path(d.directive.path);
    if (path.is_relative()) path = std::filesystem::path(o.out_dir) / path;
    std::error_code ec;  // a missing directory is created; failing that, the write reports
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    std::string err;
    if (!write_npy(path.string(), d.array, &err)) {
      fmt::print(stderr, "gpsimd run: {}:{}: .dump: {}\n", p.file, d.line, err);
      return kExitUsage;
    }
  }

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
    json accs = json::object(), sems = json::object();
    for (unsigned i = 0; i < kPartitions; ++i)
      if (m.accumulators[i] != kNegInfBits)
        accs[std::to_string(i)] = fmt::format("{:#010x}", m.accumulators[i]);
    for (unsigned i = 0; i < kSemaphores; ++i)
      if (m.semaphores[i] != 0) sems[std::to_string(i)] = fmt::format("{:#010x}", m.semaphores[i]);
    j["accumulators"] = std::move(accs);
    j["semaphores"] = std::move(sems);
    json lanes = json::object();
    for (unsigned i = 0; i < kPartitions; ++i)
      if (!m.match[i].fresh()) lanes[std::to_string(i)] = lane_json(m.match[i]);
    j["match_state"] = std::move(lanes);
    json dj = json::array();
    for (const DumpResult& d : dumps) {
      json x;
      x["line"] = d.line;
      x["region"] = d.directive.region.to_string();
      x["dtype"] = std::string(*dtype_name(static_cast<uint8_t>(d.directive.dtype)));
      x["shape"] = d.array.shape;
      x["file"] = d.directive.path.empty() || o.no_write ? json(nullptr) : json(d.directive.path);
      x["values"] = values_json(d);
      dj.push_back(std::move(x));
    }
    j["dumps"] = std::move(dj);
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
  std::string accs;
  for (unsigned i = 0; i < kPartitions; ++i)
    if (m.accumulators[i] != kNegInfBits)
      accs += fmt::format("{}acc[{}] = {}", accs.empty() ? "" : ", ", i,
                          format_fp32(m.accumulators[i]));
  if (!accs.empty()) fmt::print("accumulators not -inf: {}\n", accs);
  std::string sems;
  for (unsigned i = 0; i < kSemaphores; ++i)
    if (m.semaphores[i] != 0)
      sems += fmt::format("{}sem[{}] = {}", sems.empty() ? "" : ", ", i, m.semaphores[i]);
  if (!sems.empty()) fmt::print("semaphores not 0: {}\n", sems);
  for (unsigned i = 0; i < kPartitions; ++i)
    if (!m.match[i].fresh())
      fmt::print("search lane not fresh: match[{}] {}\n", i, lane_text(m.match[i]));
  for (const DumpResult& d : dumps) {
    fmt::print("\n{}{}\n", print_directive(d.directive),
               d.directive.path.empty() || o.no_write ? "" : "  (written)");
    fmt::print("{}", render_dump(d));
  }
  return kExitOk;
}

}  // namespace gpsimd::cli
