// Loads arbitrary text as a vector file (SPEC §7, or a program vector file of SPEC §8.8)
// and runs every vector it holds, and checks:
//  - a rejected file gets one error that names the file;
//  - a vector that loads runs to a verdict; one that passes passes again on the
//    reference path, right after on the runner's pooled machine (so a run that left
//    state behind, or a fast kernel that differs, shows up).
// One input in 64 compares the whole machine (SPEC §7), a few milliseconds; the others
// compare the partitions the vector and the instruction's trace touch (CompareScope::
// Touched; fuzz_execute checks that the trace reports every write). Fast and reference
// paths are compared input by input in fuzz_execute.
// The vector runner bounds its own work (the walk limit); nothing here skips a vector.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "gpsimd/program_vectors.h"
#include "gpsimd/vectors.h"

namespace gpsimd::fuzz {
namespace {

// Program vectors (SPEC §8.8) whose words walk more elements than this in total are
// loaded but not run (fuzz_program runs programs under the same budget).
constexpr uint64_t kProgramWorkBudget = uint64_t{1} << 16;

uint64_t program_work(const QueueProgram& p) {
  uint64_t total = 0;
  for (const auto& q : p.queues)
    for (const Word& w : q) {
      const InstrDef* def = find_instruction(w[0]);
      if (def == nullptr) continue;
      const FieldDef* chf = find_field(def->fields, "num_active_channels");
      const uint64_t n = std::max<uint64_t>(chf ? w[chf->offset] : 1u, 1);
      for (const FieldDef& f : def->fields)
        if (f.kind == FieldKind::Tensor) total += load_tensor(w, f).count() * n;
    }
  return total;
}

// A program vector file: the loader's error names the file; a vector that loads runs to
// a verdict, and one that passes passes on the reference path too.
void run_programs(const std::string& text) {
  std::string error;
  const auto file = parse_program_vectors(text, "fuzz.json", &error);
  if (!file) {
    GPSIMD_FUZZ_CHECK(error.rfind("fuzz.json", 0) == 0, "error does not name the file: '{}'",
                      error);
    return;
  }
  if (pending_program_file(*file)) return;
  for (const ProgramVector& v : file->vectors) {
    if (program_work(v.program) > kProgramWorkBudget) continue;
    const ProgramVectorOutcome f = run_program_vector(v);
    GPSIMD_FUZZ_CHECK(f.passed == f.differences.empty(), "program '{}': verdict", v.name);
    if (!f.passed) continue;
    QueueRunOptions ref;
    ref.fast = false;
    const ProgramVectorOutcome r = run_program_vector(v, ref);
    GPSIMD_FUZZ_CHECK(r.passed,
                      "program '{}' passes with the fast kernels, not on the "
                      "reference path: {}",
                      v.name, r.differences.empty() ? "" : r.differences[0]);
  }
}

}  // namespace

void run_one(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (vector_file_format(text) == "gpsimd-programs/1") {
    run_programs(text);
    return;
  }
  const auto file = parse_vectors(text, "fuzz.json", &error);
  if (!file) {
    GPSIMD_FUZZ_CHECK(error.rfind("fuzz.json", 0) == 0, "error does not name the file: '{}'",
                      error);
    return;
  }
  GPSIMD_FUZZ_CHECK(error.empty(), "loaded, but the error is set: '{}'", error);
  // The whole machine is compared for one input in 64 (and after every input when
  // GPSIMD_FUZZ_FULL_CHECK=1); the others compare what the vector and the trace touch.
  static unsigned count = 0;
  static const bool every_input = [] {
    const char* e = std::getenv("GPSIMD_FUZZ_FULL_CHECK");
    return e != nullptr && std::string_view(e) == "1";
  }();
  const CompareScope scope =
      every_input || ++count % 64 == 0 ? CompareScope::Whole : CompareScope::Touched;
  for (const TestVector& v : file->vectors) {
    const VectorOutcome f = run_vector(v, {}, scope);
    GPSIMD_FUZZ_CHECK(f.passed == f.differences.empty(), "vector '{}': verdict", v.name);
    if (!f.passed) continue;
    // A vector that passes (rare for a mutated one) also passes on the reference path,
    // on the machine the first run released: a run that left state behind would fail.
    ExecOptions ref;
    ref.fast = false;
    const VectorOutcome r = run_vector(v, ref, scope);
    GPSIMD_FUZZ_CHECK(r.passed,
                      "vector '{}' passes with the fast kernels, not on the "
                      "reference path: {}",
                      v.name, r.differences.front());
  }
}

}  // namespace gpsimd::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  gpsimd::fuzz::run_one(data, size);
  return 0;
}
