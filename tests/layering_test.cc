// The floors of the source tree (docs/design.md, "Floors"): machine < atoms < kernels <
// ops < program < faces. A file may include its own floor and the floors below it, never
// one above: the fast kernels reuse the reference's rules from src/atoms/ rather than
// from an op file, and the instructions' files name what a footprint touches with the
// machine's types rather than the program layer's. This test reads every #include "..."
// of src/ and include/gpsimd/ and fails on one that climbs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

// One floor: the files that sit on it (paths from the source root: a directory ending in
// '/' or one file) and the spellings by which it is included (a directory prefix ending
// in '/' or one header).
struct Floor {
  std::string_view name;
  std::vector<std::string_view> files;
  std::vector<std::string_view> spellings;
};

// Lowest first. The faces (tools/, python/, bench/, fuzz/) are the top floor: they may
// include everything and nothing here includes them.
const std::array<Floor, 7>& floors() {
  static const std::array<Floor, 7> kFloors = {{
      {"machine",
       {"src/common/", "src/isa/", "src/format/", "src/machine/", "src/alu/",
        "include/gpsimd/types.h", "include/gpsimd/alu_ops.h", "include/gpsimd/alu.h",
        "include/gpsimd/model.h", "include/gpsimd/inline_vector.h", "include/gpsimd/isa.h",
        "include/gpsimd/format.h", "include/gpsimd/machine.h"},
       {"common/", "alu/", "gpsimd/types.h", "gpsimd/alu_ops.h", "gpsimd/alu.h", "gpsimd/model.h",
        "gpsimd/inline_vector.h", "gpsimd/isa.h", "gpsimd/format.h", "gpsimd/machine.h"}},
      {"atoms", {"src/atoms/"}, {"atoms/"}},
      {"kernels", {"src/kernels/"}, {"kernels/"}},
      {"ops",
       {"src/ops/", "include/gpsimd/execute.h", "include/gpsimd/validate.h",
        "include/gpsimd/explain.h"},
       {"ops/", "gpsimd/execute.h", "gpsimd/validate.h", "gpsimd/explain.h"}},
      {"vectors", {"src/vectors/", "include/gpsimd/vectors.h"}, {"vectors/", "gpsimd/vectors.h"}},
      {"program",
       {"src/program/", "include/gpsimd/program.h", "include/gpsimd/program_vectors.h"},
       {"program/", "gpsimd/program.h", "gpsimd/program_vectors.h"}},
      {"text",
       {"src/asm/", "include/gpsimd/asm.h", "include/gpsimd/npy.h"},
       {"asm/", "gpsimd/asm.h", "gpsimd/npy.h"}},
  }};
  return kFloors;
}

// The pieces not placed on a floor yet, which this test does not judge: none. (The text of
// values, format_fp32 and format_value, moved down to the machine floor, so the ops floor
// no longer includes the assembly text, which sits above the program floor.)
constexpr std::array<std::string_view, 0> kUnplaced = {};

bool matches(std::string_view path, std::string_view entry) {
  return entry.ends_with('/') ? path.starts_with(entry) : path == entry;
}

// The floor (index into floors()) of a file, or of an include spelling.
std::optional<size_t> floor_of_file(std::string_view path) {
  for (size_t i = 0; i < floors().size(); ++i)
    for (std::string_view f : floors()[i].files)
      if (matches(path, f)) return i;
  return std::nullopt;
}
std::optional<size_t> floor_of_include(std::string_view spelling) {
  for (size_t i = 0; i < floors().size(); ++i)
    for (std::string_view s : floors()[i].spellings)
      if (matches(spelling, s)) return i;
  return std::nullopt;
}

// The includes of `text` that climb from the floor of `path`: one line each, naming the
// file, the include and both floors.
std::vector<std::string> climbs(std::string_view path, const std::string& text) {
  std::vector<std::string> out;
  const std::optional<size_t> own = floor_of_file(path);
  if (!own) return out;
  static const std::regex kInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::istringstream lines(text);
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    std::smatch m;
    if (!std::regex_search(line, m, kInclude)) continue;
    const std::string spelling = m[1].str();
    const std::optional<size_t> to = floor_of_include(spelling);
    if (to && *to > *own)
      out.push_back(std::string(path) + ":" + std::to_string(n) + ": includes \"" + spelling +
                    "\" (the " + std::string(floors()[*to].name) + " floor) from the " +
                    std::string(floors()[*own].name) + " floor");
  }
  return out;
}

// Every source file of the library: src/ and include/gpsimd/, paths from the root.
std::vector<std::string> library_files() {
  const fs::path root(GPSIMD_SOURCE_DIR);
  std::vector<std::string> out;
  for (const char* top : {"src", "include/gpsimd"})
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".h" || ext == ".cc"))
        out.push_back(fs::relative(e.path(), root).generic_string());
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const std::string& path) {
  std::ifstream in(fs::path(GPSIMD_SOURCE_DIR) / path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Layering, NoIncludeClimbsAFloor) {
  std::vector<std::string> found;
  for (const std::string& f : library_files())
    for (std::string& c : climbs(f, read(f))) found.push_back(std::move(c));
  std::string all;
  for (const std::string& c : found) all += c + "\n";
  EXPECT_TRUE(found.empty())
      << all
      << "The floors are machine < atoms < kernels < ops < program < faces (docs/design.md, "
         "\"Floors\"). A rule both the reference and a fast kernel use belongs in src/atoms/; "
         "a type both an instruction and a program use belongs on the machine floor.";
}

// Every file of the library sits on a floor or is one of the pieces named as not placed,
// so that a new directory or public header is given a floor.
TEST(Layering, EveryFileHasAFloor) {
  for (const std::string& f : library_files()) {
    const bool unplaced = std::any_of(kUnplaced.begin(), kUnplaced.end(),
                                      [&](std::string_view u) { return matches(f, u); });
    EXPECT_TRUE(floor_of_file(f) || unplaced) << f << " is on no floor";
  }
}

// The check itself: the includes that came back up before the floors were drawn fail it,
// and downward ones pass.
TEST(Layering, TheCheckFailsOnAClimb) {
  EXPECT_EQ(climbs("src/kernels/search.cc", "#include \"ops/search.h\"\n").size(), 1u);
  EXPECT_EQ(climbs("src/kernels/sort.cc", "#include <vector>\n  #  include \"ops/op.h\"\n").size(),
            1u);
  EXPECT_EQ(climbs("src/ops/op.h", "#include \"gpsimd/program.h\"\n").size(), 1u);
  EXPECT_EQ(climbs("src/ops/sort.cc", "#include \"program/race.h\"\n").size(), 1u);
  EXPECT_EQ(climbs("src/atoms/match_core.h", "#include \"kernels/kernels.h\"\n").size(), 1u);
  EXPECT_EQ(climbs("include/gpsimd/machine.h", "#include \"gpsimd/program.h\"\n").size(), 1u);
  EXPECT_TRUE(climbs("src/ops/search.h",
                     "#include \"atoms/match_core.h\"\n#include \"kernels/thread_pool.h\"\n"
                     "#include \"gpsimd/machine.h\"\n#include \"ops/op.h\"\n")
                  .empty());
  EXPECT_TRUE(climbs("src/program/program.cc", "#include \"ops/op.h\"\n").empty());
  EXPECT_EQ(climbs("src/kernels/search.cc", "#include \"ops/search.h\"\n")[0],
            "src/kernels/search.cc:1: includes \"ops/search.h\" (the ops floor) from the kernels "
            "floor");
}

}  // namespace
