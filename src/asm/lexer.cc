// The assembler's lexer (see lexer.h).
#include "asm/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "gpsimd/asm.h"
#include "gpsimd/isa.h"

namespace gpsimd::asmtext {
namespace {

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
bool is_comment(char c) {
  return c == '#' || c == ';';
}
bool is_hex_digit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

class LineLexer {
 public:
  LineLexer(std::string_view line, int line_no, std::vector<Token>* out, std::vector<Token>* open,
            std::optional<LexError>* err)
      : s_(line), line_(line_no), out_(out), open_(open), err_(err) {}

  // Lexes the line. An error is recorded (the statement's first only) and lexing goes on
  // after the offending text, so that the brackets and the end of the statement are
  // still found.
  void run() {
    bool path_next = false;
    while (true) {
      while (i_ < s_.size() && is_space(s_[i_])) ++i_;
      if (i_ >= s_.size() || is_comment(s_[i_])) return;
      const std::size_t start = i_;
      const char c = s_[i_];
      if (path_next) {
        path_next = false;
        if (c == '"') {
          quoted();
          continue;
        }
        while (i_ < s_.size() && !is_space(s_[i_]) && !is_comment(s_[i_])) ++i_;
        push(Tok::Path, start);
        continue;
      }
      if (c == '"') {
        quoted();
      } else if (c == '.' && i_ + 1 < s_.size() && s_[i_ + 1] == '.') {
        i_ += 2;
        push(Tok::Punct, start);
      } else if (c == '.' && i_ + 1 < s_.size() && is_ident_start(s_[i_ + 1])) {
        ++i_;
        while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
        push(Tok::Directive, start);
      } else if ((c == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '>') ||
                 (c == '<' && i_ + 1 < s_.size() && s_[i_ + 1] == '-')) {
        i_ += 2;
        push(Tok::Punct, start);
        path_next = true;
      } else if (is_digit(c) || ((c == '-' || c == '+') && i_ + 1 < s_.size() &&
                                 (is_digit(s_[i_ + 1]) || is_ident_start(s_[i_ + 1])))) {
        number();
      } else if (is_ident_start(c)) {
        while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
        push(Tok::Ident, start);
      } else if (c == '[' || c == '(') {
        ++i_;
        push(Tok::Punct, start);
        open_->push_back(out_->back());
      } else if (c == ']' || c == ')') {
        ++i_;
        push(Tok::Punct, start);
        if (open_->empty()) {
          const Token& t = out_->back();
          fail(LexError{t.line, t.col, t.text, fmt::format("unbalanced '{}'", t.text)});
        } else {
          open_->pop_back();
        }
      } else if (c == '=' || c == ',') {
        ++i_;
        push(Tok::Punct, start);
      } else {
        // The whole character when it is UTF-8 text, else the byte, named by its code.
        const unsigned char u = static_cast<unsigned char>(c);
        std::size_t len = 1;
        while (u >= 0xc0 && len < 4 && start + len < s_.size() &&
               (static_cast<unsigned char>(s_[start + len]) & 0xc0) == 0x80)
          ++len;
        const std::string tok(s_.substr(start, len));
        const std::string shown = printable(tok);
        const std::string what = shown == tok ? fmt::format("unexpected character '{}'", tok)
                                              : fmt::format("unexpected byte 0x{:02x}", u);
        fail(LexError{line_, static_cast<int>(start) + 1, tok,
                      what + ": expected a name, a .directive, a number, a quoted file name or one "
                             "of = , ( ) [ ] .. -> <- (# and ; start a comment)"});
        i_ = start + len;
      }
    }
  }

 private:
  void push(Tok k, std::size_t start) {
    out_->push_back(
        Token{k, std::string(s_.substr(start, i_ - start)), line_, static_cast<int>(start) + 1});
  }

  void fail(LexError e) {
    if (!*err_) *err_ = std::move(e);
  }

  void quoted() {
    const std::size_t start = i_;
    const std::size_t end = s_.find('"', i_ + 1);
    if (end == std::string_view::npos) {
      fail(LexError{line_, static_cast<int>(start) + 1, std::string(s_.substr(start)),
                    "unterminated string: expected a closing '\"' on the same line"});
      i_ = s_.size();
      return;
    }
    out_->push_back(Token{Tok::String, std::string(s_.substr(start + 1, end - start - 1)), line_,
                          static_cast<int>(start) + 1});
    i_ = end + 1;
  }

  // A number: an optional sign, then 0x hex digits, decimal digits with an optional
  // fraction and exponent, or a word (inf, nan), checked by whoever reads it. Hex digits
  // without 0x that start with a digit ("6c10...", the bytes of a pasted word) are a
  // number too, read as hex by whoever expects hex.
  void number() {
    const std::size_t start = i_;
    if (s_[i_] == '-' || s_[i_] == '+') ++i_;
    if (is_ident_start(s_[i_])) {
      while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
    } else if (s_[i_] == '0' && i_ + 1 < s_.size() && (s_[i_ + 1] == 'x' || s_[i_ + 1] == 'X')) {
      i_ += 2;
      while (i_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    } else {
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      if (i_ < s_.size() && s_[i_] == '.' && !(i_ + 1 < s_.size() && s_[i_ + 1] == '.')) {
        ++i_;
        while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      }
      if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
        std::size_t k = i_ + 1;
        if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
        if (k < s_.size() && is_digit(s_[k])) {
          i_ = k;
          while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
        }
      }
    }
    if (i_ < s_.size() && (is_ident_char(s_[i_]) || s_[i_] == '.') &&
        !(s_[i_] == '.' && i_ + 1 < s_.size() && s_[i_ + 1] == '.')) {
      std::size_t e = i_;
      while (e < s_.size() && (is_ident_char(s_[e]) || s_[e] == '.')) ++e;
      const std::string_view run = s_.substr(start, e - start);
      i_ = e;
      if (std::all_of(run.begin(), run.end(), is_hex_digit)) {
        push(Tok::Number, start);
        return;
      }
      fail(LexError{line_, static_cast<int>(start) + 1, std::string(run), "malformed number"});
      return;
    }
    push(Tok::Number, start);
  }

  std::string_view s_;
  int line_;
  std::vector<Token>* out_;
  std::vector<Token>* open_;  // the brackets still open, innermost last
  std::optional<LexError>* err_;
  std::size_t i_ = 0;
};

// True when a line starts with a directive or a mnemonic, which only ever start a
// statement.
bool starts_statement(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i + 1 < line.size() && line[i] == '.' && is_ident_start(line[i + 1])) return true;
  if (i >= line.size() || !is_ident_start(line[i])) return false;
  std::size_t e = i;
  while (e < line.size() && is_ident_char(line[e])) ++e;
  return find_instruction(line.substr(i, e - i)) != nullptr;
}

}  // namespace

std::vector<Statement> lex(std::string_view text) {
  std::vector<Statement> out;
  Statement cur;
  std::vector<Token> open;  // brackets open in the current statement
  int line_no = 0;
  std::size_t pos = 0;
  // Ends the current statement at the end of the file (next_line 0) or before line
  // next_line, which starts a statement; an open bracket or a trailing comma there is
  // the statement's error.
  auto finish = [&](int next_line) {
    if (cur.tokens.empty()) return;
    const bool comma = cur.tokens.back().kind == Tok::Punct && cur.tokens.back().text == ",";
    if (!open.empty() && !cur.error) {
      const Token& t = open.front();
      cur.error = LexError{
          t.line, t.col, t.text,
          next_line == 0
              ? fmt::format("unclosed '{}': the statement reaches the end of the file", t.text)
              : fmt::format("unclosed '{}': expected its closing bracket before line {}, "
                            "which starts the next statement",
                            t.text, next_line)};
    } else if (comma && !cur.error) {
      cur.error =
          LexError{cur.end_line, cur.end_col, "",
                   next_line == 0
                       ? std::string("the statement ends with ',' at the end of the file: expected "
                                     "another field")
                       : fmt::format("the statement ends with ',' but line {} starts the next "
                                     "statement: expected another field",
                                     next_line)};
    }
    out.push_back(std::move(cur));
    cur = Statement{};
    open.clear();
  };
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    ++line_no;
    if (!cur.tokens.empty() && starts_statement(line)) finish(line_no);
    const std::size_t before = cur.tokens.size();
    LineLexer lx(line, line_no, &cur.tokens, &open, &cur.error);
    lx.run();
    if (cur.tokens.size() > before) {
      // The end of the statement so far: just after its last token.
      const Token& last = cur.tokens.back();
      cur.end_line = last.line;
      cur.end_col =
          last.col + static_cast<int>(last.text.size()) + (last.kind == Tok::String ? 2 : 0);
    } else if (cur.tokens.empty() && cur.error) {
      // A line of nothing but a lexical error is a statement of its own.
      cur.end_line = line_no;
      out.push_back(std::move(cur));
      cur = Statement{};
      open.clear();
    }
    const bool continues =
        !cur.tokens.empty() &&
        (!open.empty() || (cur.tokens.back().kind == Tok::Punct && cur.tokens.back().text == ","));
    if (!cur.tokens.empty() && !continues) finish(0);
    pos = nl + 1;
  }
  finish(0);
  return out;
}

}  // namespace gpsimd::asmtext
