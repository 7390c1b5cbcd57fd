// Reading the tool's inputs and printing what goes wrong with them.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli.h"

namespace gpsimd::cli {
namespace {

bool read_all(const std::string& path, std::string* out) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    *out = ss.str();
    return true;
  }
  if (std::filesystem::is_directory(path)) return false;
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

std::string_view line_of(std::string_view text, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  std::string_view rest = text.substr(pos);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return rest;
}

// A hex line without its comment and spaces; empty when blank.
std::string hex_line(std::string_view line) {
  line = line.substr(0, line.find_first_of("#;"));
  std::string s;
  for (char c : line)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  return s;
}

bool looks_like_hex(std::string_view text) {
  bool any = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string s = hex_line(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (s.empty()) continue;
    if (!std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
      return false;
    any = true;
  }
  return any;
}

Format detect(const std::string& path, std::string_view bytes) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".bin") return Format::Bin;
  if (ext == ".hex") return Format::Hex;
  if (ext == ".gpsimd" || ext == ".s" || ext == ".asm") return Format::Asm;
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0 || u >= 0x80) return Format::Bin;
  }
  return looks_like_hex(bytes) ? Format::Hex : Format::Asm;
}

}  // namespace

std::optional<Format> parse_format(std::string_view s) {
  if (s == "auto") return Format::Auto;
  if (s == "asm") return Format::Asm;
  if (s == "bin") return Format::Bin;
  if (s == "hex") return Format::Hex;
  return std::nullopt;
}

std::string Input::where(std::size_t word) const {
  if (format != Format::Bin && word < program.word_lines.size())
    return fmt::format("{}:{}", name, program.word_lines[word]);
  return fmt::format("{}: word {}", name, word);
}

void print_asm_error(std::FILE* out, std::string_view cmd, const AsmError& e,
                     std::string_view text) {
  fmt::print(out, "gpsimd {}: {}\n", cmd, e.to_string());
  const std::string_view src = line_of(text, e.line);
  if (src.empty() && e.line <= 0) return;
  const std::string num = std::to_string(e.line);
  fmt::print(out, "  {} | {}\n", num, printable(src));
  // The caret sits under the token as printed: a tab stays a tab, an escape is 4 columns
  // wide, a UTF-8 character one (its continuation bytes take no column).
  const auto starts_column = [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; };
  const std::size_t col =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(e.column, 1)) - 1, src.size());
  std::string pad;
  for (char c : printable(src.substr(0, col)))
    if (starts_column(c)) pad += c == '\t' ? '\t' : ' ';
  const std::string token = printable(e.token);
  const std::size_t len = std::max<std::size_t>(
      static_cast<std::size_t>(std::count_if(token.begin(), token.end(), starts_column)), 1);
  fmt::print(out, "  {} | {}^{}\n", std::string(num.size(), ' '), pad, std::string(len - 1, '~'));
}

std::optional<Input> load_input(const std::string& path, Format format, std::string_view cmd) {
  Input in;
  in.name = path == "-" ? "<stdin>" : path;
  std::string bytes;
  if (!read_all(path, &bytes)) {
    fmt::print(stderr, "gpsimd {}: {}: cannot read the file\n", cmd, in.name);
    return std::nullopt;
  }
  if (path != "-") in.base_dir = std::filesystem::path(path).parent_path().string();
  in.format = format == Format::Auto ? detect(path, bytes) : format;
  in.program.file = in.name;
  switch (in.format) {
    case Format::Bin: {
      if (bytes.size() % kWordBytes != 0) {
        fmt::print(stderr, "gpsimd {}: {}: {} bytes is not a whole number of 64-byte words\n", cmd,
                   in.name, bytes.size());
        return std::nullopt;
      }
      for (std::size_t i = 0; i < bytes.size(); i += kWordBytes) {
        Word w;
        std::memcpy(w.data(), bytes.data() + i, kWordBytes);
        in.program.words.push_back(w);
      }
      return in;
    }
    case Format::Hex: {
      in.text = bytes;
      std::size_t pos = 0;
      int line = 0;
      while (pos <= bytes.size()) {
        std::size_t nl = bytes.find('\n', pos);
        if (nl == std::string::npos) nl = bytes.size();
        ++line;
        const std::string s = hex_line(std::string_view(bytes).substr(pos, nl - pos));
        pos = nl + 1;
        if (s.empty()) continue;
        std::string why;
        auto w = word_from_hex(s, &why);
        if (!w) {
          fmt::print(stderr, "gpsimd {}: {}:{}: error: {}\n", cmd, in.name, line, why);
          return std::nullopt;
        }
        in.program.words.push_back(*w);
        in.program.word_lines.push_back(line);
      }
      return in;
    }
    case Format::Asm:
    case Format::Auto: {
      in.format = Format::Asm;
      in.text = bytes;
      AsmError e;
      auto p = parse_program(bytes, in.name, &e);
      if (!p) {
        print_asm_error(stderr, cmd, e, in.text);
        return std::nullopt;
      }
      in.program = std::move(*p);
      return in;
    }
  }
  return std::nullopt;
}

Generation pick_generation(const std::optional<Generation>& flag, const Program& p) {
  if (flag) return *flag;
  if (p.nc) return *p.nc;
  return Generation::V3;
}

std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::string>& row_labels,
                         const std::vector<std::vector<std::string>>& cells,
                         std::string_view indent) {
  std::size_t label_w = 0;
  for (const auto& l : row_labels) label_w = std::max(label_w, l.size());
  std::vector<std::size_t> w(headers.size(), 0);
  for (std::size_t c = 0; c < headers.size(); ++c) w[c] = headers[c].size();
  for (const auto& row : cells)
    for (std::size_t c = 0; c < row.size() && c < w.size(); ++c)
      w[c] = std::max(w[c], row[c].size());
  std::string out;
  auto line = [&](const std::string& label, const std::vector<std::string>& row) {
    std::string s = std::string(indent) + fmt::format("{:<{}}", label, label_w);
    for (std::size_t c = 0; c < w.size(); ++c)
      s += fmt::format("  {:>{}}", c < row.size() ? row[c] : "", w[c]);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out += s + '\n';
  };
  line("", headers);
  for (std::size_t r = 0; r < cells.size(); ++r)
    line(r < row_labels.size() ? row_labels[r] : "", cells[r]);
  return out;
}

}  // namespace gpsimd::cli
