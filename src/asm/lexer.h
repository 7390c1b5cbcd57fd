// The assembler's lexer: splits a text into statements and statements into tokens,
// keeping each token's line and column for error messages.
//
// A statement is one line, continued on the next line while a bracket is open or when
// the line ends with a comma. Comments run from '#' or ';' to the end of the line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpsimd::asmtext {

enum class Tok {
  Ident,      // RangeSelect, fp32, sbuf, inf, and hex digits that start with a letter
  Directive,  // .data
  Number,     // 12, -3, 0x1f, 1.5e-3, -inf, and hex digits that start with a digit (6c10)
  String,     // "a path" (quotes removed)
  Path,       // the unquoted path after -> or <-
  Punct,      // = , [ ] ( ) .. -> <-
};

struct Token {
  Tok kind;
  std::string text;
  int line = 0;
  int col = 0;
};

struct LexError {
  int line = 0;
  int col = 0;
  std::string token;
  std::string message;
};

struct Statement {
  std::vector<Token> tokens;
  int end_line = 0;  // where the statement ends, for "expected ... at end of line"
  int end_col = 0;
  // The statement's first lexical error: the statement is reported with it, not parsed.
  std::optional<LexError> error;
};

// Splits a text into statements. A lexical error is kept with its statement (the first
// one of each statement), and lexing goes on after it, so that every statement of a text
// is there to be reported. A line that starts with a directive or a mnemonic always
// starts a statement: one still open before it (an unclosed bracket, a trailing comma)
// ends there with an error, rather than swallowing the rest of the file.
std::vector<Statement> lex(std::string_view text);

}  // namespace gpsimd::asmtext
