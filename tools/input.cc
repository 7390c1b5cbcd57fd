// Reading the tool's inputs and printing what goes wrong with them.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli.h"

namespace gpsimd::cli {
namespace {

// Reads up to `limit` bytes from an open stream; false when there are more.
bool read_stream(std::FILE* f, std::size_t limit, std::string* out, int* err) {
  char buf[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    if (n > 0) {
      if (out->size() + n > limit) return false;
      out->append(buf, n);
    }
    if (n < sizeof buf) {
      if (std::ferror(f)) *err = errno;
      return true;
    }
  }
}

// The tokens of a line of hex words: text before a # or ; comment, split at spaces,
// tabs and commas (and a CR before the newline). `col` is 1-based.
struct HexToken {
  int col;
  std::string_view text;
};
std::vector<HexToken> hex_tokens(std::string_view line) {
  line = line.substr(0, line.find_first_of("#;"));
  std::vector<HexToken> out;
  std::size_t i = 0;
  const auto sep = [](char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; };
  while (i < line.size()) {
    if (sep(line[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && !sep(line[j])) ++j;
    out.push_back({static_cast<int>(i) + 1, line.substr(i, j - i)});
    i = j;
  }
  return out;
}

// The digits of a hex token: without its 0x, if any.
std::string_view hex_digits(std::string_view t) {
  if (t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  return t;
}
bool is_hex_digit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

// Calls f(line number, line) for each line of a text.
template <typename F>
void for_each_line(std::string_view text, F f) {
  std::size_t pos = 0;
  int line = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    f(++line, text.substr(pos, nl - pos));
    pos = nl + 1;
  }
}

bool looks_like_hex(std::string_view text) {
  bool any = false, all = true;
  for_each_line(text, [&](int, std::string_view line) {
    for (const HexToken& t : hex_tokens(line)) {
      const std::string_view d = hex_digits(t.text);
      if (d.empty() || !std::all_of(d.begin(), d.end(), is_hex_digit)) all = false;
      any = true;
    }
  });
  return any && all;
}

// Reads hex words as people paste them: 128 hex digits per word, bytes in address
// order, in tokens of any even length with or without 0x, separated by spaces, commas
// or newlines (a word may span lines). On error fills `e` with the line, the column and
// the offending part of the token.
std::optional<Program> parse_hex_words(std::string_view text, const std::string& name,
                                       AsmError* e) {
  Program p;
  p.file = name;
  Word w{};
  std::size_t n = 0;      // bytes of the current word
  HexToken first{0, {}};  // where the current word starts
  int first_line = 0;
  std::optional<AsmError> error;
  for_each_line(text, [&](int line, std::string_view src) {
    if (error) return;
    for (const HexToken& t : hex_tokens(src)) {
      const std::string_view d = hex_digits(t.text);
      const int digits_col = t.col + static_cast<int>(t.text.size() - d.size());
      const auto bad = std::find_if_not(d.begin(), d.end(), is_hex_digit);
      if (d.empty() || bad != d.end()) {
        const std::size_t at = static_cast<std::size_t>(bad - d.begin());
        error = AsmError{name, line, digits_col + static_cast<int>(at),
                         std::string(d.empty() ? t.text : d.substr(at)),
                         "expected hex digits (0-9, a-f), two per byte, with or without 0x"};
        return;
      }
      if (d.size() % 2 != 0) {
        error =
            AsmError{name, line, t.col, std::string(t.text),
                     fmt::format("{} hex digits: an odd number, each byte needs two", d.size())};
        return;
      }
      for (std::size_t i = 0; i < d.size(); i += 2) {
        if (n == 0) {
          first = {digits_col + static_cast<int>(i), d.substr(i)};
          first_line = line;
        }
        w[n++] = static_cast<uint8_t>(std::stoi(std::string(d.substr(i, 2)), nullptr, 16));
        if (n == kWordBytes) {
          p.words.push_back(w);
          p.word_lines.push_back(first_line);
          n = 0;
        }
      }
    }
  });
  if (!error && n != 0)
    error = AsmError{name, first_line, first.col, std::string(first.text.substr(0, 2 * n)),
                     fmt::format("the input ends {} hex digits into this word: a word needs "
                                 "128 (64 bytes)",
                                 2 * n)};
  if (error) {
    *e = *error;
    return std::nullopt;
  }
  return p;
}

// True when the bytes are valid UTF-8 (text may hold "§" and "—"; words hardly ever do).
bool is_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80           ? 1
                          : (c >> 5) == 0x6  ? 2
                          : (c >> 4) == 0xe  ? 3
                          : (c >> 3) == 0x1e ? 4
                                             : 0;
    if (n == 0 || i + n > s.size() || (n == 2 && c < 0xc2)) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

Format detect(const std::string& path, std::string_view bytes) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".bin") return Format::Bin;
  if (ext == ".hex") return Format::Hex;
  if (ext == ".gpsimd" || ext == ".s" || ext == ".asm") return Format::Asm;
  if (bytes.find('\0') != std::string_view::npos || !is_utf8(bytes)) return Format::Bin;
  return looks_like_hex(bytes) ? Format::Hex : Format::Asm;
}

}  // namespace

bool read_input(const std::string& path, std::size_t limit, std::string* out, std::string* error) {
  out->clear();
  const std::string name = path == "-" ? "<stdin>" : path;
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = fmt::format("{}: cannot read the file: {}", name, std::strerror(errno));
    return false;
  }
  int err = 0;
  const bool whole = read_stream(f, limit, out, &err);
  if (f != stdin) std::fclose(f);
  if (!whole) {
    out->clear();
    *error = fmt::format("{}: the input is too large: more than {} bytes (the limit is {} MiB)",
                         name, limit, limit >> 20);
    return false;
  }
  if (err != 0) {
    out->clear();
    *error = fmt::format("{}: cannot read the file: {}", name, std::strerror(err));
    return false;
  }
  return true;
}

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

void print_asm_errors(std::FILE* out, std::string_view cmd, const AsmErrors& e,
                      std::string_view text) {
  fmt::print(out, "{}", e.to_string(text, fmt::format("gpsimd {}: ", cmd)));
}

std::optional<Input> load_input(const std::string& path, Format format, std::string_view cmd) {
  Input in;
  in.name = path == "-" ? "<stdin>" : path;
  std::string bytes, error;
  if (!read_input(path, kMaxInputBytes, &bytes, &error)) {
    fmt::print(stderr, "gpsimd {}: {}\n", cmd, error);
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
      AsmError e;
      auto p = parse_hex_words(bytes, in.name, &e);
      if (!p) {
        print_asm_errors(stderr, cmd, AsmErrors{{e}, false}, in.text);
        return std::nullopt;
      }
      in.program = std::move(*p);
      return in;
    }
    case Format::Asm:
    case Format::Auto: {
      in.format = Format::Asm;
      in.text = bytes;
      AsmErrors e;
      auto p = parse_program(bytes, in.name, &e);
      if (!p) {
        print_asm_errors(stderr, cmd, e, in.text);
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
