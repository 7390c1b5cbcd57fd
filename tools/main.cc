// The gpsimd command-line tool (placeholder until the CLI lands): runs vector files.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "gpsimd/vectors.h"

int main(int argc, char** argv) {
  CLI::App app{"gpsimd: a bit-exact reference model of NeuronCore GPSIMD/Vector instructions"};
  app.require_subcommand(1);
  auto* vec = app.add_subcommand("vectors", "Run conformance vector files (SPEC §7)");
  std::vector<std::string> files;
  vec->add_option("FILE", files, "vector files")->required()->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);
  std::size_t passed = 0, failed = 0;
  for (const std::string& f : files) {
    std::string err;
    auto vf = gpsimd::load_vectors(f, &err);
    if (!vf) {
      fmt::print(stderr, "gpsimd vectors: {}\n", err);
      return 2;
    }
    for (const auto& v : vf->vectors) {
      auto o = gpsimd::run_vector(v);
      if (o.passed) { ++passed; continue; }
      ++failed;
      fmt::print("FAIL {}: {}\n", v.name, o.differences.front());
      for (std::size_t i = 1; i < o.differences.size(); ++i) fmt::print("    {}\n", o.differences[i]);
    }
  }
  fmt::print("{} passed, {} failed\n", passed, failed);
  return failed ? 1 : 0;
}
