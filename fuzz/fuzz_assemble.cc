// Parses arbitrary text as an assembly program and checks:
//  - a rejected text gets an error in the input file, on a line and column that exist,
//    with a message, formatted as "file:line:column: error: ...", and assemble() agrees;
//  - a program prints (print_program) to a text that parses back to the same program;
//  - its setup applies to a machine all or nothing, and its dumps read back with the
//    shape they declare. Programs with .load are not applied: they name files.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "gpsimd/asm.h"

namespace gpsimd::fuzz {
namespace {

std::string problem_region(const Machine& m, const Region& r, uint64_t bytes_per_partition) {
  if (r.kind == RegionKind::ACC || r.kind == RegionKind::MATCH) return {};
  const Space s = r.kind == RegionKind::PSUM ? Space::PSUM : Space::SBUF;
  for (unsigned p = 0; p < r.partitions && r.partition + p < kPartitions; ++p) {
    auto part = m.partition(s, r.partition + p);
    const uint64_t hi = std::min<uint64_t>(part.size(), r.offset + bytes_per_partition);
    if (r.offset < hi && !all_zero(part.data() + r.offset, hi - r.offset))
      return fmt::format("{} partition {} changed", space_name(s), r.partition + p);
  }
  return {};
}

// Returns the bytes a .data directive writes per partition.
uint64_t data_bytes(const DataDirective& d) {
  return d.values.size() / std::max(1u, d.region.partitions) * dtype_size(d.dtype).value_or(4);
}

void clear_region(Machine& m, const Region& r, uint64_t bytes_per_partition) {
  if (r.kind == RegionKind::ACC || r.kind == RegionKind::MATCH) return;
  const Space s = r.kind == RegionKind::PSUM ? Space::PSUM : Space::SBUF;
  for (unsigned p = 0; p < r.partitions && r.partition + p < kPartitions; ++p) {
    auto part = m.partition(s, r.partition + p);
    const uint64_t hi = std::min<uint64_t>(part.size(), r.offset + bytes_per_partition);
    if (r.offset < hi) std::fill(part.begin() + r.offset, part.begin() + hi, uint8_t{0});
  }
}

Machine& machine(Generation g) {
  static std::unique_ptr<Machine> ms[4];
  auto& m = ms[static_cast<unsigned>(g) - 2];
  if (!m) m = std::make_unique<Machine>(g);
  return *m;
}

void apply_and_dump(const Program& prog) {
  for (const SetupDirective& d : prog.setup)
    if (std::holds_alternative<LoadDirective>(d)) return;
  Machine& m = machine(prog.nc.value_or(Generation::V3));
  const auto err = apply_setup(prog, m, "");
  if (err) {
    GPSIMD_FUZZ_CHECK(err->rfind("fuzz.s:", 0) == 0, "setup error '{}' does not name the file",
                      *err);
    const std::string state = fresh_state_problem_small(m);
    GPSIMD_FUZZ_CHECK(state.empty(), "failed setup '{}' changed the machine: {}", *err, state);
    for (const SetupDirective& d : prog.setup)
      if (const auto* data = std::get_if<DataDirective>(&d)) {
        const std::string p = problem_region(m, data->region, data_bytes(*data));
        GPSIMD_FUZZ_CHECK(p.empty(), "failed setup '{}' changed the machine: {}", *err, p);
      }
  } else {
    std::string derr;
    const auto dumps = read_dumps(prog, m, &derr);
    if (!dumps) {
      GPSIMD_FUZZ_CHECK(derr.rfind("fuzz.s:", 0) == 0, "dump error '{}' does not name the file",
                        derr);
    } else {
      GPSIMD_FUZZ_CHECK(dumps->size() == prog.dumps.size(), "{} dumps read of {}", dumps->size(),
                        prog.dumps.size());
      for (const DumpResult& r : *dumps) {
        const uint64_t rows = r.directive.region.partitions;
        const uint64_t cols = r.directive.region.kind == RegionKind::ACC ? 1 : r.directive.count;
        GPSIMD_FUZZ_CHECK(r.values.size() == rows && r.array.count() == rows * cols &&
                              r.array.data.size() == rows * cols * r.array.itemsize,
                          "dump of {} has {} rows, {} elements, {} bytes",
                          r.directive.region.to_string(), r.values.size(), r.array.count(),
                          r.array.data.size());
      }
    }
  }
  for (const SetupDirective& d : prog.setup)
    if (const auto* data = std::get_if<DataDirective>(&d))
      clear_region(m, data->region, data_bytes(*data));
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInfBits);
}

}  // namespace

void run_one(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  AsmError err;
  const auto prog = parse_program(text, "fuzz.s", &err);
  if (!prog) {
    const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    GPSIMD_FUZZ_CHECK(err.file == "fuzz.s" && err.line >= 1 && err.line <= lines &&
                          err.column >= 1 && !err.message.empty(),
                      "bad error: file '{}' line {} (of {}) column {} message '{}'", err.file,
                      err.line, lines, err.column, err.message);
    const std::string where = fmt::format("fuzz.s:{}:{}: error: ", err.line, err.column);
    GPSIMD_FUZZ_CHECK(err.to_string().rfind(where, 0) == 0, "error text '{}'", err.to_string());
    return;
  }
  GPSIMD_FUZZ_CHECK(prog->words.size() == prog->word_lines.size() &&
                        prog->setup.size() == prog->setup_lines.size() &&
                        prog->dumps.size() == prog->dump_lines.size(),
                    "program line tables do not match");
  const std::string printed = print_program(*prog);
  AsmError err2;
  const auto again = parse_program(printed, "printed.s", &err2);
  GPSIMD_FUZZ_CHECK(again.has_value(), "the printed program\n{}does not parse: {}", printed,
                    err2.to_string());
  GPSIMD_FUZZ_CHECK(same_program(*prog, *again),
                    "the printed program\n{}parses to another "
                    "program",
                    printed);
  apply_and_dump(*prog);
}

}  // namespace gpsimd::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  gpsimd::fuzz::run_one(data, size);
  return 0;
}
