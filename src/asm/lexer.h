// The assembler's lexer: splits a text into statements and statements into tokens,
// keeping each token's line and column for error messages.
//
// A statement is one line, continued on the next line while a bracket is open or when
// the line ends with a comma. Comments run from '#' or ';' to the end of the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpsimd::asmtext {

enum class Tok {
  Ident,      // RangeSelect, fp32, sbuf, inf
  Directive,  // .data
  Number,     // 12, -3, 0x1f, 1.5e-3, -inf
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

struct Statement {
  std::vector<Token> tokens;
  int end_line = 0;  // where the statement ends, for "expected ... at end of line"
  int end_col = 0;
};

struct LexError {
  int line = 0;
  int col = 0;
  std::string token;
  std::string message;
};

// Splits a text into statements; false with `err` set on a lexical error.
bool lex(std::string_view text, std::vector<Statement>* out, LexError* err);

}  // namespace gpsimd::asmtext
