// Runs the built gpsimd tool from a test, capturing stdout, stderr and the exit status.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gpsimd::testing {

inline const std::string kToolBinary = GPSIMD_BINARY_DIR "/tools/gpsimd";
inline const std::string kSourceDir = GPSIMD_SOURCE_DIR;

struct ToolResult {
  std::string out, err;
  int status = -1;  // the exit status, or -1 when the tool did not exit normally
};

// Returns `s` quoted for the shell.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  q += '\'';
  return q;
}

// Returns the whole content of a file ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs the tool with `args` from `cwd`, feeding `input` on stdin.
inline ToolResult run_tool(const std::vector<std::string>& args,
                           const std::string& cwd = kSourceDir, const std::string& input = "") {
  namespace fs = std::filesystem;
  const std::string tag = "gpsimd_tool_" + std::to_string(::getpid());
  const std::string err_path = fs::temp_directory_path() / (tag + ".err");
  const std::string in_path = fs::temp_directory_path() / (tag + ".in");
  std::ofstream(in_path, std::ios::binary) << input;
  std::string cmd = "cd " + shell_quote(cwd) + " && " + shell_quote(kToolBinary);
  for (const auto& a : args) cmd += ' ' + shell_quote(a);
  cmd += " 2>" + shell_quote(err_path) + " <" + shell_quote(in_path);
  ToolResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p != nullptr) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.err = read_file(err_path);
  }
  fs::remove(err_path);
  fs::remove(in_path);
  return r;
}

}  // namespace gpsimd::testing
