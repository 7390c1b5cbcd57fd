// The conformance vectors (SPEC §7): every *.json file of the conformance directory and of
// its next/, engines/ and kernel-ops/ folders (the programs_*.json of kernel-ops/ are programs),
// found when the test runs (so new files are picked up unchanged), one test per file; and the
// program vectors of its programs/ folder and kernel-ops/programs_*.json (SPEC §8.8), the same way.
// A file of an instruction not modelled yet is pending: its test is skipped with a message that
// says so (never passed); once the instruction is in the table the file counts in full. Every
// vector must pass with the fast kernels and with the scalar reference path; an `invalid` vector
// must be reported with at least its listed clauses, and every other vector must validate clean.
// The runner itself is checked to notice a wrong expectation.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/program_vectors.h"
#include "gpsimd/validate.h"
#include "gpsimd/vectors.h"

namespace {

namespace fs = std::filesystem;
using gpsimd::ExecOptions;
using gpsimd::Status;
using gpsimd::TestVector;

// Returns the vector files of one directory, sorted.
std::vector<std::string> json_files(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The folders whose files the suite reads besides the top one (SPEC §7's table: a folder of a
// feature counts from the issue that brings it; dma/ and timed/ are not read yet).
constexpr const char* kVectorFolders[] = {"next", "engines", "kernel-ops"};

// A program file of a §7 folder: programs_<name>.json (SPEC §7, kernel-ops/).
bool is_program_file(const std::string& path) {
  return fs::path(path).filename().string().starts_with("programs_");
}

// Returns the vector files of the conformance directory, then those of the folders above
// (SPEC §7; programs/ and the programs_*.json files hold another format, SPEC §8.8).
std::vector<std::string> vector_files() {
  std::vector<std::string> out = json_files(GPSIMD_CONFORMANCE_DIR);
  for (const char* folder : kVectorFolders)
    for (const std::string& f : json_files(fs::path(GPSIMD_CONFORMANCE_DIR) / folder))
      if (!is_program_file(f)) out.push_back(f);
  return out;
}

// Returns the problems of one vector, one line each (empty when it conforms).
std::vector<std::string> check_vector(const TestVector& v) {
  std::vector<std::string> problems;
  for (bool fast : {true, false}) {
    const gpsimd::VectorOutcome o = gpsimd::run_vector(v, ExecOptions{.fast = fast});
    for (const std::string& d : o.differences)
      problems.push_back(fmt::format("fast={}: {}", fast, d));
    if (!o.passed && o.differences.empty())
      problems.push_back(fmt::format("fast={}: failed", fast));
    if (v.expect.status == Status::Invalid) {
      // Checked here too, from the diagnostics themselves.
      if (o.result.status != Status::Invalid)
        problems.push_back(
            fmt::format("fast={}: expected invalid, got {}", fast, o.result.message()));
      for (const std::string& c : v.expect.violations)
        if (!gpsimd::has_clause(o.result.diagnostics, c))
          problems.push_back(fmt::format("fast={}: clause {} not reported", fast, c));
    }
  }
  // The touched-partitions comparison gives the same verdict and differences.
  {
    const gpsimd::VectorOutcome whole = gpsimd::run_vector(v);
    const gpsimd::VectorOutcome touched = gpsimd::run_vector(v, {}, gpsimd::CompareScope::Touched);
    if (touched.passed != whole.passed || touched.differences != whole.differences)
      problems.push_back(fmt::format(
          "CompareScope::Touched: passed={} with {} difference(s), "
          "Whole: passed={} with {}",
          touched.passed, touched.differences.size(), whole.passed, whole.differences.size()));
  }
  if (v.expect.status != Status::Invalid) {
    const gpsimd::Diagnostics d =
        gpsimd::validate(v.instruction, v.nc, {.strict = v.strict, .engine = v.engine});
    for (const gpsimd::Diagnostic& x : d) problems.push_back("validates with " + x.message());
  }
  return problems;
}

class Conformance : public testing::TestWithParam<std::string> {};

TEST_P(Conformance, EveryVectorPasses) {
  std::string error;
  const auto file = gpsimd::load_vectors(GetParam(), &error);
  ASSERT_TRUE(file.has_value()) << error;
  EXPECT_FALSE(file->vectors.empty()) << GetParam() << " has no vectors";
  if (auto p = gpsimd::pending_instruction(*file))
    GTEST_SKIP() << "PENDING: " << file->vectors.size() << " vectors of " << p->text()
                 << ", not modelled yet (SPEC §7)";
  std::size_t failed = 0;
  std::string report;
  for (std::size_t i = 0; i < file->vectors.size(); ++i) {
    const TestVector& v = file->vectors[i];
    const std::vector<std::string> problems = check_vector(v);
    if (problems.empty()) continue;
    ++failed;
    report += fmt::format("\nFAIL vector {} '{}':", i, v.name);
    for (const std::string& p : problems) report += "\n    " + p;
  }
  EXPECT_EQ(failed, 0u) << failed << " of " << file->vectors.size() << " vectors of " << GetParam()
                        << " fail:" << report;
}

// ---- program vectors (SPEC §8.8) ------------------------------------------------------------

std::vector<std::string> program_files() {
  std::vector<std::string> out = json_files(fs::path(GPSIMD_CONFORMANCE_DIR) / "programs");
  for (const char* folder : kVectorFolders)
    for (const std::string& f : json_files(fs::path(GPSIMD_CONFORMANCE_DIR) / folder))
      if (is_program_file(f)) out.push_back(f);
  return out;
}

// Returns the problems of one program vector, with the fast kernels and the reference path,
// with and without race detection (which changes nothing but the race).
std::vector<std::string> check_program_vector(const gpsimd::ProgramVector& v) {
  std::vector<std::string> problems;
  for (bool fast : {true, false}) {
    const gpsimd::ProgramVectorOutcome o = gpsimd::run_program_vector(v, {.fast = fast});
    for (const std::string& d : o.differences)
      problems.push_back(fmt::format("fast={}: {}", fast, d));
  }
  const gpsimd::ProgramVectorOutcome plain = gpsimd::run_program_vector(v, {.detect_races = false});
  bool only_race = true;
  for (const std::string& d : plain.differences) only_race = only_race && d.rfind("race:", 0) == 0;
  if (!only_race || plain.run.race || (v.expect.race.has_value() && plain.differences.size() != 1))
    problems.push_back("without race detection: something else than the race differs");
  return problems;
}

class ProgramConformance : public testing::TestWithParam<std::string> {};

TEST_P(ProgramConformance, EveryProgramPasses) {
  std::string error;
  const auto file = gpsimd::load_program_vectors(GetParam(), &error);
  ASSERT_TRUE(file.has_value()) << error;
  EXPECT_FALSE(file->vectors.empty()) << GetParam() << " has no vectors";
  if (auto p = gpsimd::pending_program_file(*file))
    GTEST_SKIP() << "PENDING: " << file->vectors.size() << " programs using " << p->text()
                 << ", not modelled yet (SPEC §8.8)";
  std::size_t failed = 0;
  std::string report;
  for (std::size_t i = 0; i < file->vectors.size(); ++i) {
    const std::vector<std::string> problems = check_program_vector(file->vectors[i]);
    if (problems.empty()) continue;
    ++failed;
    report += fmt::format("\nFAIL vector {} '{}':", i, file->vectors[i].name);
    for (const std::string& p : problems) report += "\n    " + p;
  }
  EXPECT_EQ(failed, 0u) << failed << " of " << file->vectors.size() << " programs of " << GetParam()
                        << " fail:" << report;
  std::printf("%s: %zu of %zu programs pass\n", GetParam().c_str(), file->vectors.size() - failed,
              file->vectors.size());
}

std::string program_test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = fs::path(info.param).stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Files, ProgramConformance, testing::ValuesIn(program_files()),
                         program_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ProgramConformance);

// The public program file must be there and count: SPEC §8.8's 237 programs of §4.1-§4.13
// words, with the statuses the issue quotes.
TEST(ProgramConformanceDirectory, ProgramsJsonCountsInFull) {
  std::string error;
  const auto file = gpsimd::load_program_vectors(
      (fs::path(GPSIMD_CONFORMANCE_DIR) / "programs" / "programs.json").string(), &error);
  ASSERT_TRUE(file.has_value()) << error;
  EXPECT_FALSE(gpsimd::pending_program_file(*file));
  std::map<gpsimd::ProgramStatus, std::size_t> statuses;
  std::size_t races = 0;
  for (const gpsimd::ProgramVector& v : file->vectors) {
    ++statuses[v.expect.status];
    races += v.expect.race.has_value();
  }
  EXPECT_EQ(file->vectors.size(), 237u);
  EXPECT_EQ(statuses[gpsimd::ProgramStatus::Ok], 156u);
  EXPECT_EQ(statuses[gpsimd::ProgramStatus::Deadlock], 38u);
  EXPECT_EQ(statuses[gpsimd::ProgramStatus::Fault], 13u);
  EXPECT_EQ(statuses[gpsimd::ProgramStatus::Invalid], 30u);
  EXPECT_EQ(races, 87u);
}

// SPEC §8.8's pending rule: a word of an opcode SPEC specifies and the table lacks makes a
// program file pending; words of modelled opcodes, and of opcodes SPEC does not name (0x97,
// a has_known_opcode test), do not.
TEST(ProgramConformancePending, EveryOpcodeMustBeModelled) {
  const auto file_of = [](std::initializer_list<uint8_t> opcodes) {
    gpsimd::ProgramVectorFile f;
    gpsimd::ProgramVector v;
    for (uint8_t op : opcodes) {
      gpsimd::Word w{};
      w[0] = op;
      v.program.queue(gpsimd::Engine::ACT).push_back(w);
    }
    f.vectors.push_back(v);
    return f;
  };
  EXPECT_FALSE(gpsimd::pending_program_file(file_of({0x7e, 0x6c, 0x97})));
  for (const gpsimd::SpecifiedInstr& s : gpsimd::kSpecifiedInstructions) {
    const auto p = gpsimd::pending_program_file(file_of({0x7e, s.opcode, 0x97}));
    EXPECT_EQ(p.has_value(), gpsimd::find_instruction(s.opcode) == nullptr) << s.mnemonic;
    if (p) {
      EXPECT_EQ(p->text(), fmt::format("{} ({:#04x})", s.mnemonic, s.opcode));
    }
  }
}

// The runner notices each kind of wrong expectation.
TEST(ProgramConformanceRunner, NoticesWrongExpectations) {
  std::string error;
  const auto file = gpsimd::load_program_vectors(
      (fs::path(GPSIMD_CONFORMANCE_DIR) / "programs" / "programs.json").string(), &error);
  ASSERT_TRUE(file.has_value()) << error;
  const gpsimd::ProgramVector* racy = nullptr;
  const gpsimd::ProgramVector* blocked = nullptr;
  const gpsimd::ProgramVector* faulty = nullptr;
  const gpsimd::ProgramVector* invalid = nullptr;
  for (const auto& v : file->vectors) {
    if (!racy && v.expect.race && !v.expect.state.memory.empty()) racy = &v;
    if (!blocked && v.expect.status == gpsimd::ProgramStatus::Deadlock) blocked = &v;
    if (!faulty && v.expect.status == gpsimd::ProgramStatus::Fault) faulty = &v;
    if (!invalid && v.expect.status == gpsimd::ProgramStatus::Invalid) invalid = &v;
  }
  ASSERT_TRUE(racy && blocked && faulty && invalid);
  for (const auto* v : {racy, blocked, faulty, invalid})
    ASSERT_TRUE(gpsimd::run_program_vector(*v).passed) << v->name;
  auto fails = [](gpsimd::ProgramVector v, auto&& change) {
    change(v);
    return !gpsimd::run_program_vector(v).passed;
  };
  using V = gpsimd::ProgramVector;
  EXPECT_TRUE(fails(*racy, [](V& v) { v.expect.race.reset(); }));
  EXPECT_TRUE(fails(*racy, [](V& v) { v.expect.race->location.offset += 1; }));
  EXPECT_TRUE(
      fails(*racy, [](V& v) { v.expect.race->first.access = gpsimd::AccessKind::ReadWrite; }));
  EXPECT_TRUE(fails(*racy, [](V& v) { std::swap(v.expect.race->first, v.expect.race->second); }));
  EXPECT_TRUE(fails(*racy, [](V& v) { v.expect.schedule.pop_back(); }));
  EXPECT_TRUE(fails(*racy, [](V& v) {
    v.expect.sync_hazards.push_back({200, gpsimd::HazardKind::EqWait});
  }));
  EXPECT_TRUE(fails(*racy, [](V& v) { v.expect.state.memory.front().bytes.front() ^= 1; }));
  EXPECT_TRUE(fails(*racy, [](V& v) { v.expect.state.semaphores[255] = 1; }));
  EXPECT_TRUE(fails(*racy, [](V& v) { v.expect.status = gpsimd::ProgramStatus::Deadlock; }));
  EXPECT_TRUE(fails(*blocked, [](V& v) { v.expect.blocked.back().current += 1; }));
  EXPECT_TRUE(fails(*blocked, [](V& v) { v.expect.blocked.pop_back(); }));
  EXPECT_TRUE(fails(*faulty, [](V& v) { v.expect.fault->word.index += 1; }));
  EXPECT_TRUE(fails(*faulty, [](V& v) {
    v.expect.fault->kind = v.expect.fault->kind == gpsimd::FaultKind::TooLarge
                               ? gpsimd::FaultKind::BadAddress
                               : gpsimd::FaultKind::TooLarge;
  }));
  EXPECT_TRUE(fails(*invalid,
                    [](V& v) { v.expect.invalid.front().violations.push_back("no_such_clause"); }));
  EXPECT_TRUE(fails(*invalid, [](V& v) { v.expect.invalid.front().word.index += 1; }));
  EXPECT_TRUE(fails(*invalid, [](V& v) { v.expect.state.accumulators[3] = 0; }));
}

// The test name is the file's stem (the folder's name before those of a folder the suite
// reads besides the top one), with characters gtest does not allow replaced.
std::string file_test_name(const testing::TestParamInfo<std::string>& info) {
  const fs::path p(info.param);
  const std::string folder = p.parent_path().filename().string();
  const bool in_folder =
      std::ranges::any_of(kVectorFolders, [&](const char* f) { return folder == f; });
  std::string s = (in_folder ? folder + "_" : "") + p.stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Files, Conformance, testing::ValuesIn(vector_files()), file_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);

// An empty or missing directory must fail, not pass vacuously.
TEST(ConformanceDirectory, HasFilesAndVectors) {
  const std::vector<std::string> files = vector_files();
  ASSERT_GE(files.size(), 1u) << "no *.json in " << GPSIMD_CONFORMANCE_DIR;
  std::size_t vectors = 0;
  for (const std::string& f : files) {
    std::string error;
    const auto file = gpsimd::load_vectors(f, &error);
    ASSERT_TRUE(file.has_value()) << error;
    vectors += file->vectors.size();
  }
  EXPECT_GT(vectors, 500u) << "only " << vectors << " vectors in " << files.size() << " files";
}

// SPEC §7's rule, on small files: opcodes that SPEC specifies and the table does not have
// make a file pending; one modelled opcode among them, or an opcode SPEC does not specify
// (0x97: has_known_opcode vectors) makes it count.
TEST(ConformancePending, OnlyFilesOfUnmodelledSpecifiedInstructions) {
  const auto file_of = [](std::initializer_list<uint8_t> opcodes) {
    gpsimd::VectorFile f;
    for (uint8_t op : opcodes) {
      TestVector v;
      v.instruction[0] = op;
      f.vectors.push_back(v);
    }
    return f;
  };
  // Every opcode SPEC specifies is either in the table or pending, never both.
  for (const gpsimd::SpecifiedInstr& s : gpsimd::kSpecifiedInstructions) {
    const auto p = gpsimd::pending_instruction(file_of({s.opcode, s.opcode}));
    const gpsimd::InstrDef* row = gpsimd::find_instruction(s.opcode);
    EXPECT_EQ(p.has_value(), row == nullptr) << s.mnemonic;
    if (row) {
      EXPECT_EQ(row->mnemonic, s.mnemonic);
    }
    if (p) {
      ASSERT_EQ(p->instructions.size(), 1u);
      EXPECT_EQ(p->instructions[0].mnemonic, s.mnemonic);
      EXPECT_EQ(p->text(), fmt::format("{} ({:#04x})", s.mnemonic, s.opcode));
    }
  }
  // A file of a family (SPEC §7: tensor_tensor.json holds 0x41 and 0x51) is pending while
  // none of its opcodes is modelled, and counts in full once one is.
  for (const gpsimd::SpecifiedInstr& a : gpsimd::kSpecifiedInstructions)
    for (const gpsimd::SpecifiedInstr& b : gpsimd::kSpecifiedInstructions) {
      const auto p = gpsimd::pending_instruction(file_of({a.opcode, b.opcode, a.opcode}));
      const bool none_modelled =
          !gpsimd::find_instruction(a.opcode) && !gpsimd::find_instruction(b.opcode);
      EXPECT_EQ(p.has_value(), none_modelled) << a.mnemonic << " + " << b.mnemonic;
      if (p && a.opcode != b.opcode) {
        EXPECT_EQ(p->text(), fmt::format("{} ({:#04x}), {} ({:#04x})", a.mnemonic, a.opcode,
                                         b.mnemonic, b.opcode));
      }
    }
  EXPECT_FALSE(gpsimd::pending_instruction(file_of({0x96, 0x96})));  // Sort: modelled
  EXPECT_FALSE(gpsimd::pending_instruction(file_of({0x97, 0x97})));  // not in SPEC
  EXPECT_FALSE(gpsimd::pending_instruction(file_of({})));
  // With a modelled opcode, or one SPEC does not name, the file counts.
  for (const gpsimd::SpecifiedInstr& s : gpsimd::kSpecifiedInstructions) {
    EXPECT_FALSE(gpsimd::pending_instruction(file_of({0x96, s.opcode}))) << s.mnemonic;
    EXPECT_FALSE(gpsimd::pending_instruction(file_of({s.opcode, 0x97}))) << s.mnemonic;
  }
}

// Returns the first vector of the directory that retires and expects some memory.
TestVector some_retiring_vector() {
  for (const std::string& f : vector_files()) {
    const auto file = gpsimd::load_vectors(f, nullptr);
    if (!file) continue;
    for (const TestVector& v : file->vectors)
      if (v.expect.status == Status::Retired && !v.expect.memory.empty() &&
          !v.expect.memory.front().bytes.empty())
        return v;
  }
  ADD_FAILURE() << "no retiring vector with expected memory";
  return {};
}

// The runner catches each kind of wrong expectation, so a passing run means something.
TEST(ConformanceRunner, NoticesWrongExpectations) {
  const TestVector good = some_retiring_vector();
  ASSERT_TRUE(gpsimd::run_vector(good).passed) << good.name;

  TestVector v = good;
  v.expect.memory.front().bytes.front() ^= 0x01;  // one byte
  gpsimd::VectorOutcome o = gpsimd::run_vector(v);
  EXPECT_FALSE(o.passed);
  ASSERT_FALSE(o.differences.empty());
  const gpsimd::MemoryRange& r = v.expect.memory.front();
  const std::string where = fmt::format("{}[p={}]", gpsimd::space_name(r.space), r.partition);
  EXPECT_NE(o.differences.front().find(where), std::string::npos) << o.differences.front();

  v = good;
  v.expect.memory.clear();  // the written bytes are then unexpected
  EXPECT_FALSE(gpsimd::run_vector(v).passed);

  v = good;
  v.expect.accumulators[127] = 0x3f800000u;
  EXPECT_FALSE(gpsimd::run_vector(v).passed);

  v = good;
  v.expect.semaphores[255] = 1;
  EXPECT_FALSE(gpsimd::run_vector(v).passed);

  v = good;
  v.expect.status = Status::Faulted;
  v.expect.fault = gpsimd::FaultKind::TooLarge;
  EXPECT_FALSE(gpsimd::run_vector(v).passed);

  // A stray byte far from the operands is found by the whole-state comparison.
  gpsimd::Machine m(good.nc);
  gpsimd::apply_initial_state(m, good);
  ASSERT_TRUE(gpsimd::execute(m, good.instruction, ExecOptions{.strict = good.strict}).ok());
  EXPECT_TRUE(gpsimd::compare_state(m, good.expect, std::nullopt).empty());
  m.partition(gpsimd::Space::PSUM, 127)[16383] = 0x5a;
  const auto diffs = gpsimd::compare_state(m, good.expect, std::nullopt);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_NE(diffs.front().find("psum[p=127] +0x3fff"), std::string::npos) << diffs.front();

  // And the runner still passes the unchanged vector afterwards (no state left behind).
  EXPECT_TRUE(gpsimd::run_vector(good).passed);
}

// The touched-partitions scope notices the same wrong expectations in what the vector
// and the instruction touch, and leaves no state behind after a failed vector either.
TEST(ConformanceRunner, TouchedScopeNoticesWrongExpectations) {
  const auto touched = gpsimd::CompareScope::Touched;
  const TestVector good = some_retiring_vector();
  ASSERT_TRUE(gpsimd::run_vector(good, {}, touched).passed) << good.name;

  TestVector v = good;
  v.expect.memory.front().bytes.front() ^= 0x01;
  EXPECT_FALSE(gpsimd::run_vector(v, {}, touched).passed);
  v = good;
  v.expect.memory.clear();  // the written bytes are then unexpected: the trace names them
  const gpsimd::VectorOutcome o = gpsimd::run_vector(v, {}, touched);
  EXPECT_FALSE(o.passed);
  EXPECT_FALSE(o.differences.empty());
  // After failures, the pooled machine is fresh again: the whole comparison passes.
  EXPECT_TRUE(gpsimd::run_vector(good).passed);
}

}  // namespace
