// Writes the seed corpora and dictionaries of the fuzz targets from the conformance
// vectors (CONFORMANCE_DIR/*.json, and CONFORMANCE_DIR/next/*.json for the instructions
// already in the table) and the examples:
//   make_seeds OUT_DIR CONFORMANCE_DIR [EXAMPLES_DIR]
// OUT_DIR/decode     each vector's instruction word (64 bytes)
// OUT_DIR/execute    each vector as an exec_input.h record list (word, state, memory)
// OUT_DIR/vectors    each vector alone in a vector file, and the examples' vector files
// OUT_DIR/assemble   the disassembly of each vector's word, and the examples' programs
// OUT_DIR/program    each program vector (SPEC §8.8) in fuzz_program.cc's format
// OUT_DIR/npy        small arrays of every supported type, and the examples' .npy files
// OUT_DIR/vectors.dict, OUT_DIR/assemble.dict   libFuzzer dictionaries
// Small seeds only: a seed larger than kMaxSeed bytes is left out.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "exec_input.h"
#include "gpsimd/asm.h"
#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/npy.h"
#include "gpsimd/program_vectors.h"
#include "gpsimd/vectors.h"
#include "ops/op.h"

namespace fs = std::filesystem;
using gpsimd::Word;

namespace {

constexpr std::size_t kMaxSeed = 8192;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes each distinct seed once, named by its position.
class SeedDir {
 public:
  SeedDir(const fs::path& dir, std::string ext) : dir_(dir), ext_(std::move(ext)) {
    fs::create_directories(dir_);
  }
  void add(const std::string& bytes) {
    if (bytes.size() > kMaxSeed || !seen_.insert(bytes).second) return;
    std::ofstream(dir_ / fmt::format("seed-{:05}{}", seen_.size(), ext_), std::ios::binary)
        << bytes;
  }
  std::size_t size() const { return seen_.size(); }

 private:
  fs::path dir_;
  std::string ext_;
  std::set<std::string> seen_;
};

std::string bytes_of(const std::vector<uint8_t>& v) {
  return std::string(v.begin(), v.end());
}

// A libFuzzer dictionary entry: the token in double quotes, with " and \ escaped and
// other characters outside printable ASCII written as \xNN.
std::string dict_entry(std::string_view token) {
  std::string s = "\"";
  for (char c : token) {
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (c < 0x20 || c > 0x7e) {
      s += fmt::format("\\x{:02X}", static_cast<unsigned char>(c));
    } else {
      s += c;
    }
  }
  return s + "\"\n";
}

void write_dicts(const fs::path& out) {
  std::ofstream vd(out / "vectors.dict");
  for (const char* k : {"format",
                        "gpsimd-vectors/1",
                        "vectors",
                        "name",
                        "nc",
                        "v2",
                        "v3",
                        "v4",
                        "v5",
                        "strict",
                        "instruction",
                        "registers",
                        "semaphores",
                        "accumulators",
                        "memory",
                        "space",
                        "sbuf",
                        "psum",
                        "partition",
                        "offset",
                        "hex",
                        "expect",
                        "status",
                        "ok",
                        "invalid",
                        "fault",
                        "violations",
                        "bad-address",
                        "shape-mismatch",
                        "sync-would-block",
                        "too-large",
                        "true",
                        "false",
                        "0x",
                        "0xffffffff",
                        "0xff7fffff"})
    vd << dict_entry(fmt::format("\"{}\"", k));
  std::ofstream ad(out / "assemble.dict");
  std::set<std::string> tokens;
  for (const gpsimd::InstrDef& def : gpsimd::instructions()) {
    tokens.insert(std::string(def.mnemonic));
    for (const gpsimd::FieldDef& f : def.fields) tokens.insert(std::string(f.name));
  }
  for (unsigned code = 0; code < 256; ++code) {
    const auto c = static_cast<uint8_t>(code);
    for (auto name :
         {gpsimd::dtype_name(c), gpsimd::alu_op_name(c), gpsimd::accum_cmd_name(c),
          gpsimd::imm_src_name(c), gpsimd::wait_mode_name(c), gpsimd::update_mode_name(c),
          gpsimd::affine_select_cmp_name(c), gpsimd::rev_ops_name(c)})
      if (name) tokens.insert(std::string(*name));
  }
  for (const char* t : {"sbuf", "psum", "reg", "v2", "v3", "v4", "v5", "0x", "#",    ";",   "\n",
                        "=",    ",",    "[",   "]",  "(",  ")",  ":",  ".",  "step", "num", "-"})
    tokens.insert(t);
  for (const std::string& t : tokens) ad << dict_entry(t);
}

// The vector as an assembly program: its state as directives (memory ranges of at most
// 256 bytes, as UINT8 data), its word, and a dump of its first expected memory range.
std::string as_program(const gpsimd::TestVector& v) {
  using namespace gpsimd;
  Program p;
  p.nc = v.nc;
  for (auto [i, x] : v.registers) p.setup.push_back(RegDirective{i, x});
  for (auto [i, x] : v.semaphores) p.setup.push_back(SemDirective{i, x});
  for (auto [i, x] : v.accumulators) p.setup.push_back(AccDirective{i, 1, x});
  auto region = [](const MemoryRange& r) {
    return Region{r.space == Space::PSUM ? RegionKind::PSUM : RegionKind::SBUF, r.partition, 1,
                  r.offset};
  };
  for (const MemoryRange& r : v.memory) {
    if (r.bytes.size() > 256) continue;
    p.setup.push_back(DataDirective{region(r), Dtype::UINT8, {r.bytes.begin(), r.bytes.end()}});
  }
  p.words.push_back(v.instruction);
  if (!v.expect.memory.empty()) {
    const MemoryRange& r = v.expect.memory.front();
    p.dumps.push_back(
        DumpDirective{.region = region(r),
                      .dtype = Dtype::UINT8,
                      .count = static_cast<uint32_t>(std::min<std::size_t>(r.bytes.size(), 64))});
  }
  return print_program(p);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR CONFORMANCE_DIR [EXAMPLES_DIR]\n");
    return 2;
  }
  const fs::path out = argv[1];
  SeedDir decode(out / "decode", ".bin"), execute(out / "execute", ".bin"),
      vectors(out / "vectors", ".json"), assemble(out / "assemble", ".gpsimd"),
      npy(out / "npy", ".npy"), program(out / "program", ".bin");
  write_dicts(out);

  // The conformance vectors, those of its folders (SPEC §7: next/, engines/, ...): the
  // words of instructions not modelled yet are still good decode and assemble seeds.
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(argv[2]))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  if (argc > 3 && fs::is_directory(argv[3]))
    for (const auto& e : fs::recursive_directory_iterator(argv[3])) {
      if (!e.is_regular_file()) continue;
      const std::string text = read_file(e.path());
      if (e.path().extension() == ".json") {
        vectors.add(text);
        files.push_back(e.path());
      } else if (e.path().extension() == ".gpsimd") {
        assemble.add(text);
      } else if (e.path().extension() == ".npy") {
        npy.add(text);
      }
    }
  std::sort(files.begin(), files.end());

  for (const char* descr : {"<f4", "<f2", "<u2", "<i2", "|u1", "|i1", "<u4", "<i4"}) {
    for (const std::vector<uint64_t>& shape :
         std::vector<std::vector<uint64_t>>{{}, {0}, {3}, {2, 3}, {1, 2, 2}}) {
      gpsimd::NpyArray a;
      a.descr = descr;
      a.itemsize = static_cast<unsigned>(descr[2] - '0');
      a.shape = shape;
      for (uint64_t i = 0; i < a.count() * a.itemsize; ++i)
        a.data.push_back(static_cast<uint8_t>(i * 37));
      npy.add(bytes_of(gpsimd::encode_npy(a)));
    }
  }

  for (const fs::path& f : files) {
    std::string error;
    const std::string text = read_file(f);
    if (gpsimd::vector_file_format(text) == "gpsimd-programs/1") {
      // Program vectors: each alone in a file (vectors), and in fuzz_program's format.
      const auto pf = gpsimd::parse_program_vectors(text, f.filename().string(), &error);
      if (!pf) continue;
      const auto raw = nlohmann::json::parse(text);
      for (std::size_t i = 0; i < pf->vectors.size(); ++i) {
        const gpsimd::ProgramVector& v = pf->vectors[i];
        vectors.add(nlohmann::json{{"format", "gpsimd-programs/1"},
                                   {"vectors", nlohmann::json::array({raw.at("vectors")[i]})}}
                        .dump());
        if (v.program.size() > 12) continue;
        std::string seed;
        seed += static_cast<char>((static_cast<unsigned>(v.nc) - 2) | (v.program.strict ? 4 : 0) |
                                  (i % 2 ? 8 : 0));
        seed += static_cast<char>(v.program.size());
        for (unsigned q = 0; q < gpsimd::kEngineCount; ++q)
          for (const Word& w : v.program.queues[q]) {
            seed += static_cast<char>(q);
            seed.append(w.begin(), w.end());
          }
        gpsimd::fuzz::ExecInput in;
        in.gen = v.nc;
        in.registers.assign(v.registers.begin(), v.registers.end());
        in.semaphores.assign(v.semaphores.begin(), v.semaphores.end());
        in.accumulators.assign(v.accumulators.begin(), v.accumulators.end());
        in.match.assign(v.match_state.begin(), v.match_state.end());
        in.memory = v.memory;
        const std::string state = bytes_of(gpsimd::fuzz::encode_exec_input(in));
        program.add(seed + state.substr(65));  // the records, after the config and word
      }
      continue;
    }
    const auto parsed = gpsimd::parse_vectors(text, f.filename().string(), &error);
    if (!parsed) continue;  // an example that is not a vector file
    const auto raw = nlohmann::json::parse(text);
    const auto& raw_vectors = raw.at("vectors");
    for (std::size_t i = 0; i < parsed->vectors.size(); ++i) {
      const gpsimd::TestVector& v = parsed->vectors[i];
      if (gpsimd::find_instruction(v.instruction[0]) == nullptr &&
          f.parent_path() != fs::path(argv[2]))
        continue;  // pending: its instruction is not modelled yet
      decode.add(std::string(v.instruction.begin(), v.instruction.end()));
      gpsimd::fuzz::ExecInput in;
      in.gen = v.nc;
      in.strict = v.strict;
      in.engine = v.engine;
      in.word = v.instruction;
      in.registers.assign(v.registers.begin(), v.registers.end());
      in.semaphores.assign(v.semaphores.begin(), v.semaphores.end());
      in.accumulators.assign(v.accumulators.begin(), v.accumulators.end());
      in.match.assign(v.match_state.begin(), v.match_state.end());
      in.memory = v.memory;
      execute.add(bytes_of(gpsimd::fuzz::encode_exec_input(in)));
      vectors.add(nlohmann::json{{"format", "gpsimd-vectors/1"},
                                 {"vectors", nlohmann::json::array({raw_vectors[i]})}}
                      .dump());
      assemble.add(as_program(v));
    }
  }
  // Every instruction's sample word (its op file's), in two partitions: a valid word of
  // each row even where no vector or example has one.
  for (const gpsimd::InstrDef& def : gpsimd::instructions())
    for (unsigned p : {0u, 17u}) {
      const gpsimd::Word w = gpsimd::detail::semantics(def).sample(p);
      decode.add(std::string(w.begin(), w.end()));
      gpsimd::fuzz::ExecInput in;
      in.gen = gpsimd::Generation::V3;
      in.word = w;
      execute.add(bytes_of(gpsimd::fuzz::encode_exec_input(in)));
      // A row that takes the engine as an input (SPEC §3.9): its word on every engine.
      if (def.engine_input)
        for (gpsimd::Engine e : gpsimd::kAllEngines) {
          in.engine = e;
          execute.add(bytes_of(gpsimd::fuzz::encode_exec_input(in)));
        }
      gpsimd::Program prog;
      prog.nc = gpsimd::Generation::V3;
      prog.words.push_back(w);
      assemble.add(gpsimd::print_program(prog));
    }
  std::printf(
      "seeds: %zu decode, %zu execute, %zu vectors, %zu assemble, %zu npy, %zu program in %s\n",
      decode.size(), execute.size(), vectors.size(), assemble.size(), npy.size(), program.size(),
      out.c_str());
  return 0;
}
