// The assembler: statements -> instruction words and program directives. Instruction
// fields are read by walking the instruction table's rows, one parser per FieldKind.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <type_traits>

#include "asm/lexer.h"
#include "asm/syntax.h"
#include "common/names.h"
#include "gpsimd/asm.h"
#include "gpsimd/types.h"

namespace gpsimd {

namespace {
// The length of the UTF-8 sequence at s[i], or 0 when it is not a valid one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t len = c >= 0xc2 && c <= 0xdf   ? 2
                    : c >= 0xe0 && c <= 0xef ? 3
                    : c >= 0xf0 && c <= 0xf4 ? 4
                                             : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  // Overlong three- and four-byte forms, UTF-16 surrogates and code points past U+10FFFF.
  if ((c == 0xe0 && b(i + 1) < 0xa0) || (c == 0xed && b(i + 1) >= 0xa0) ||
      (c == 0xf0 && b(i + 1) < 0x90) || (c == 0xf4 && b(i + 1) >= 0x90))
    return 0;
  return len;
}
}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if (const std::size_t len = utf8_length(text, i)) {
        out.append(text.substr(i, len));
        i += len;
        continue;
      }
    }
    if ((c < 0x20 && c != '\t') || c >= 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
    ++i;
  }
  return out;
}

std::string AsmError::to_string() const {
  const std::string where =
      token.empty() ? std::string("at end of line") : fmt::format("at '{}'", printable(token));
  return fmt::format("{}:{}:{}: error: {} ({})", file, line, column, message, where);
}

namespace {
// Line `line` (1-based) of a text, without its newline (and a CR before it).
std::string_view line_of(std::string_view text, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  if (pos > text.size()) return {};
  std::string_view rest = text.substr(pos);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return rest;
}
}  // namespace

std::string format_asm_error(const AsmError& e, std::string_view text, std::string_view prefix) {
  std::string out = fmt::format("{}{}\n", prefix, e.to_string());
  const std::string_view src = line_of(text, e.line);
  if (src.empty() && e.line <= 0) return out;
  const std::string num = std::to_string(e.line);
  out += fmt::format("  {} | {}\n", num, printable(src));
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
  out +=
      fmt::format("  {} | {}^{}\n", std::string(num.size(), ' '), pad, std::string(len - 1, '~'));
  return out;
}

std::string AsmErrors::to_string(std::string_view text, std::string_view prefix) const {
  std::string out;
  for (const AsmError& e : errors) out += format_asm_error(e, text, prefix);
  if (truncated && !errors.empty())
    out += fmt::format("{}{}: too many errors: stopped after {} (line {})\n", prefix,
                       errors.back().file, errors.size(), errors.back().line);
  else if (errors.size() > 1)
    out += fmt::format("{}{}: {} errors\n", prefix, errors.back().file, errors.size());
  return out;
}

namespace {
using namespace asmtext;

// Thrown inside the parser only; parse_program turns it into an AsmError.
struct ParseFail {
  int line;
  int col;
  std::string token;
  std::string message;
  // Found by a check of the whole statement (a missing field, the rows of a .data), which
  // reports at an earlier token than the one it needed.
  bool whole = false;
};

std::vector<std::string> enum_name_list(const EnumField& e, unsigned max) {
  std::vector<std::string> out;
  for (unsigned c = 0; c <= max; ++c)
    if (auto n = e.name(static_cast<uint8_t>(c))) out.emplace_back(*n);
  return out;
}
std::string enum_names(const EnumField& e, unsigned max) {
  std::string s;
  for (const std::string& n : enum_name_list(e, max)) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// "PROBLEM: did you mean X? (CHOICES)" when a name is near `typed`, else
// "PROBLEM: CHOICES".
std::string with_hint(std::string_view problem, std::string_view typed,
                      const std::vector<std::string>& candidates, std::string_view choices) {
  const std::string hint = did_you_mean(typed, candidates);
  if (hint.empty()) return fmt::format("{}: {}", problem, choices);
  return fmt::format("{}: {} ({})", problem, hint, choices);
}

// How an IMM_VAL was written.
enum class ImmForm { Number, Pointer, Register };

// One field as written, before the fields it depends on are known.
struct Given {
  Token name;
  Token value;  // the first token of the value
  FieldValue parsed;
  ImmForm form = ImmForm::Number;
};

// A message, or a callable that builds it: the parser builds its "expected ..." texts
// only when it fails.
template <class M>
std::string text_of(M&& m) {
  if constexpr (std::is_invocable_v<M>)
    return m();
  else
    return std::string(m);
}

class StmtParser {
 public:
  explicit StmtParser(const Statement& st) : st_(st) {}

  bool at_end() const { return i_ >= st_.tokens.size(); }
  const Token* peek(std::size_t ahead = 0) const {
    return i_ + ahead < st_.tokens.size() ? &st_.tokens[i_ + ahead] : nullptr;
  }
  bool peek_punct(std::string_view p, std::size_t ahead = 0) const {
    const Token* t = peek(ahead);
    return t && t->kind == Tok::Punct && t->text == p;
  }
  template <class M>
  const Token& next(M&& expected) {
    if (at_end()) fail_end("expected " + text_of(expected));
    return st_.tokens[i_++];
  }

  [[noreturn]] void fail(const Token& t, std::string msg) const {
    throw ParseFail{t.line, t.col, t.text, std::move(msg), whole_};
  }
  [[noreturn]] void fail_end(std::string msg) const {
    throw ParseFail{st_.end_line, st_.end_col, "", std::move(msg), whole_};
  }
  // Fails at the next token, or at the end of the statement.
  [[noreturn]] void fail_here(std::string msg) const {
    if (const Token* t = peek()) fail(*t, std::move(msg));
    fail_end(std::move(msg));
  }

  template <class M>
  void expect_punct(std::string_view p, M&& context) {
    if (peek_punct(p)) {
      ++i_;
      return;
    }
    fail_here(fmt::format("expected '{}' {}", p, text_of(context)));
  }
  template <class M>
  const Token& expect_ident(M&& expected) {
    const Token& t = next(expected);
    if (t.kind != Tok::Ident) fail(t, "expected " + text_of(expected));
    return t;
  }
  void expect_end(std::string_view after) const {
    if (!at_end()) fail(*peek(), fmt::format("expected the end of the statement after {}", after));
  }

  // An integer in [lo, hi]; `what` names it in messages.
  template <class M>
  int64_t integer(int64_t lo, int64_t hi, M&& what) {
    const Token& t = next([&] { return text_of(what) + " (an integer)"; });
    if (t.kind != Tok::Number) fail(t, fmt::format("expected {} (an integer)", text_of(what)));
    std::string why;
    auto v = parse_int(t.text, lo, hi, &why);
    if (!v) fail(t, fmt::format("{}: {}", text_of(what), why));
    return *v;
  }
  template <class M>
  uint32_t u32(M&& what) {
    return static_cast<uint32_t>(integer(0, 0xffffffffll, what));
  }
  // An int32: a signed decimal in its range, or 0x bits (the 32 bits as they are, so
  // 0xffffffff is -1). Returns the 32 bits.
  uint32_t int32(std::string_view what) {
    const Token& t = next([&] { return fmt::format("{} (an int32)", what); });
    if (t.kind != Tok::Number) fail(t, fmt::format("expected {} (an int32)", what));
    std::string_view digits = t.text;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    const bool hex =
        digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    std::string why;
    auto v = hex ? parse_int(t.text, INT32_MIN, 0xffffffffLL, &why)
                 : parse_int(t.text, INT32_MIN, INT32_MAX, &why);
    if (!v) {
      if (why.find("out of range") != std::string::npos)
        fail(t, fmt::format("{} (an int32): {} is out of range: expected {}..{} in decimal, or "
                            "the 32 bits in hex (0x0..0xffffffff)",
                            what, t.text, INT32_MIN, INT32_MAX));
      fail(t, fmt::format("{}: {}", what, why));
    }
    return static_cast<uint32_t>(*v);
  }
  // A number-like token: a Number, or inf/nan written without a sign.
  template <class M>
  const Token& number_token(M&& expected) {
    const Token& t = next(expected);
    if (t.kind == Tok::Number) return t;
    if (t.kind == Tok::Ident &&
        (iequals(t.text, "inf") || iequals(t.text, "infinity") || iequals(t.text, "nan")))
      return t;
    fail(t, "expected " + text_of(expected));
  }
  uint32_t fp32(std::string_view what) {
    const Token& t =
        number_token([&] { return fmt::format("{} (an FP32 number or 0x bits)", what); });
    std::string why;
    auto v = parse_fp32(t.text, &why);
    if (!v) fail(t, fmt::format("{}: {}", what, why));
    return *v;
  }

  // The items of a list after its '[', separated by commas, and its closing ']':
  // item() reads one. `list` names the list in the error ("the list of values").
  template <class M, class Item>
  void list_items(M&& list, Item&& item) {
    while (!peek_punct("]")) {
      item();
      if (peek_punct(",")) {
        ++i_;
        continue;
      }
      if (!peek_punct("]")) fail_here("expected ',' or ']' in " + text_of(list));
    }
    ++i_;
  }

  // `[a, b, ...]` of integers in [lo, hi].
  template <class M>
  std::vector<int64_t> int_list(int64_t lo, int64_t hi, M&& what) {
    expect_punct("[", [&] { return "to open the list of " + text_of(what); });
    std::vector<int64_t> out;
    list_items([&] { return "the list of " + text_of(what); },
               [&] { out.push_back(integer(lo, hi, what)); });
    return out;
  }

  bool peek_addr_form() const {
    const Token* t = peek();
    if (!t || t->kind != Tok::Ident) return false;
    if (iequals(t->text, "sbuf") || iequals(t->text, "psum")) return peek_punct("[", 1);
    if (iequals(t->text, "reg") || iequals(t->text, "addr")) return peek_punct("(", 1);
    return false;
  }

  // `p=..., off=...` inside sbuf[...] / psum[...]; a partition range when `range`.
  struct PartOff {
    unsigned first = 0, count = 1;
    uint32_t offset = 0;
    bool has_offset = false;
  };
  PartOff part_off(const Token& space, bool range, bool with_offset, uint32_t max_off) {
    PartOff r;
    bool have_p = false;
    expect_punct("[", "after the memory space");
    while (true) {
      const Token& key = expect_ident(with_offset ? "'p' or 'off'" : "'p'");
      expect_punct("=", [&] { return fmt::format("after '{}'", key.text); });
      if (key.text == "p" && !have_p) {
        have_p = true;
        r.first = static_cast<unsigned>(integer(0, kPartitions - 1, "partition p"));
        if (peek_punct("..")) {
          const Token& dots = *peek();
          if (!range) fail(dots, "a partition range is not allowed here (one partition: p=N)");
          ++i_;
          const auto last = static_cast<unsigned>(integer(0, kPartitions - 1, "last partition"));
          if (last < r.first)
            fail(dots, fmt::format("partition range {}..{} is empty", r.first, last));
          r.count = last - r.first + 1;
        }
      } else if (key.text == "off" && with_offset && !r.has_offset) {
        r.has_offset = true;
        r.offset =
            static_cast<uint32_t>(integer(0, max_off, [&] { return space.text + " offset"; }));
      } else if (key.text == "p" || (key.text == "off" && with_offset)) {
        fail(key, fmt::format("'{}' is given twice", key.text));
      } else {
        fail(key, with_offset ? "expected 'p' or 'off'" : "expected 'p'");
      }
      if (peek_punct(",")) {
        ++i_;
        continue;
      }
      if (peek_punct("]")) break;
      fail_here(fmt::format("expected ',' or ']' in {}[...]", space.text));
    }
    ++i_;
    if (!have_p) fail(space, fmt::format("{}[...] needs the partition: p=N", space.text));
    if (with_offset && !r.has_offset)
      fail(space, fmt::format("{}[...] needs the byte offset: off=N", space.text));
    return r;
  }

  // An ADDR4: sbuf[p=, off=], psum[p=, off=], reg(N) or addr(X). Returns the bits and
  // whether it is register mode.
  std::pair<uint32_t, bool> addr4(bool allow_reg) {
    const Token& t = *peek();
    ++i_;
    if (iequals(t.text, "sbuf") || iequals(t.text, "psum")) {
      const bool psum = iequals(t.text, "psum");
      const PartOff po = part_off(t, false, true, psum ? kPsumPartitionBytes - 1 : 0x3ffff);
      const Location loc{psum ? Space::PSUM : Space::SBUF, po.first, po.offset};
      return {encode_static_addr(loc), false};
    }
    const bool reg = iequals(t.text, "reg");
    if (reg && !allow_reg) fail(t, "a register holds a static address: reg(N) is not allowed here");
    expect_punct("(", [&] { return fmt::format("after '{}'", t.text); });
    const uint32_t v =
        reg ? static_cast<uint32_t>(integer(0, 255, "register id")) : u32("the ADDR4 bits");
    expect_punct(")", [&] { return fmt::format("to close {}(...)", t.text); });
    return {reg ? (0x80000000u | v) : v, reg};
  }

  // A directive region: sbuf[p=A..B, off=O], psum[...] or (when allowed) acc[p=A..B].
  Region region(bool allow_acc) {
    const Token& t =
        expect_ident(allow_acc ? "a region: sbuf[...], psum[...], acc[...] or match[...]"
                               : "a region: sbuf[...] or psum[...]");
    Region r;
    if (iequals(t.text, "sbuf"))
      r.kind = RegionKind::SBUF;
    else if (iequals(t.text, "psum"))
      r.kind = RegionKind::PSUM;
    else if (iequals(t.text, "acc") && allow_acc)
      r.kind = RegionKind::ACC;
    else if (iequals(t.text, "match") && allow_acc)
      r.kind = RegionKind::MATCH;
    else
      fail(t, allow_acc ? "expected a region: sbuf[...], psum[...], acc[...] or match[...]"
                        : "expected a region: sbuf[...] or psum[...]");
    const bool acc = r.kind == RegionKind::ACC || r.kind == RegionKind::MATCH;
    const PartOff po =
        part_off(t, true, !acc, r.kind == RegionKind::PSUM ? kPsumPartitionBytes - 1 : 0x3ffff);
    r.partition = po.first;
    r.partitions = po.count;
    r.offset = po.offset;
    return r;
  }

  Dtype data_dtype() {
    const Token& t = expect_ident("a dtype (FP32, BF16, INT32, ...)");
    auto d = parse_dtype(t.text);
    if (!d)
      fail(t, with_hint("unknown dtype", t.text,
                        {"FP32", "FP32R", "BF16", "FP16", "FP8_E3", "FP8_E4", "FP8_E5", "INT8",
                         "UINT8", "INT16", "UINT16", "INT32", "UINT32"},
                        "expected FP32, FP32R, BF16, FP16, FP8_E3, FP8_E4, FP8_E5, "
                        "INT8, UINT8, INT16, UINT16, INT32 or UINT32"));
    if (!is_data_dtype(*d))
      fail(t, fmt::format("dtype {} cannot hold data values here: expected FP32, FP32R, BF16, "
                          "FP16, FP8_E3, FP8_E4, FP8_E5, INT8, UINT8, INT16, UINT16, INT32 or "
                          "UINT32",
                          *dtype_name(static_cast<uint8_t>(*d))));
    return *d;
  }

  std::size_t pos() const { return i_; }
  void advance() { ++i_; }
  // From now on the failures are checks of the whole statement (ParseFail::whole).
  void checking_whole() { whole_ = true; }

 private:
  const Statement& st_;
  std::size_t i_ = 0;
  bool whole_ = false;
};

// ---- instructions ----------------------------------------------------------------------

class InstructionParser {
 public:
  InstructionParser(StmtParser& p, const Token& mnemonic, const InstrDef& def)
      : p_(p), mnem_(mnemonic), def_(def) {}

  Word parse() {
    read_fields();
    p_.checking_whole();
    return build();
  }

 private:
  bool has_events() const {
    return std::any_of(def_.fields.begin(), def_.fields.end(),
                       [](const FieldDef& f) { return f.kind == FieldKind::Events; });
  }
  bool is_event_field(std::string_view n) const {
    return has_events() &&
           std::find(kEventFields.begin(), kEventFields.end(), n) != kEventFields.end();
  }
  const FieldDef* row(std::string_view n) const {
    for (const FieldDef& f : def_.fields)
      if (f.name == n && f.kind != FieldKind::Events) return &f;
    return nullptr;
  }
  std::vector<std::string> field_names() const {
    std::vector<std::string> out;
    for (const FieldDef& f : def_.fields) {
      if (f.kind == FieldKind::Events) {
        for (auto e : kEventFields) out.emplace_back(e);
      } else {
        out.emplace_back(f.name);
      }
    }
    return out;
  }
  std::string field_list() const {
    std::string s;
    for (const std::string& n : field_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
  }

  void read_fields() {
    if (p_.at_end()) return;
    while (true) {
      const Token& name =
          p_.expect_ident([&] { return fmt::format("a field name of {}", def_.mnemonic); });
      const FieldDef* f = row(name.text);
      if (!f && !is_event_field(name.text)) {
        const std::string hint = did_you_mean(name.text, field_names());
        p_.fail(name, fmt::format("{} has no field '{}'{} (fields: {})", def_.mnemonic, name.text,
                                  hint.empty() ? "" : ": " + hint, field_list()));
      }
      if (auto it = given_.find(name.text); it != given_.end())
        p_.fail(name, fmt::format("field '{}' is given twice (first at column {})", name.text,
                                  it->second.name.col));
      p_.expect_punct("=", [&] { return fmt::format("after the field name '{}'", name.text); });
      if (p_.at_end()) p_.fail_end(fmt::format("expected a value for '{}'", name.text));
      Given g{name, *p_.peek(), {}, ImmForm::Number};
      if (f)
        read_value(*f, g);
      else
        read_event_value(g);
      given_.emplace(name.text, std::move(g));
      if (p_.at_end()) return;
      p_.expect_punct(
          ",", [&] { return fmt::format("between fields (after the value of '{}')", name.text); });
    }
  }

  void read_event_value(Given& g) {
    const std::string& n = g.name.text;
    if (n == "wait_mode" || n == "update_mode") {
      const bool wait = n == "wait_mode";
      const Token& t = p_.next("an event mode");
      uint64_t v = 0;
      if (t.kind == Tok::Ident) {
        std::optional<uint8_t> code;
        if (wait) {
          if (auto m = parse_wait_mode(t.text)) code = static_cast<uint8_t>(*m);
        } else if (auto m = parse_update_mode(t.text)) {
          code = static_cast<uint8_t>(*m);
        }
        if (!code)
          p_.fail(t, wait ? with_hint("unknown wait_mode", t.text, {"NONE", "GE", "EQ"},
                                      "expected NONE, GE, EQ or a code 0..255")
                          : with_hint("unknown update_mode", t.text, {"NONE", "SET", "INC", "DEC"},
                                      "expected NONE, SET, INC, DEC or a code 0..255"));
        v = *code;
      } else if (t.kind == Tok::Number) {
        std::string why;
        auto x = parse_int(t.text, 0, 255, &why);
        if (!x) p_.fail(t, fmt::format("{}: {}", n, why));
        v = static_cast<uint64_t>(*x);
      } else {
        p_.fail(t, fmt::format("expected a {} name or code", n));
      }
      g.parsed = v;
    } else if (n == "value") {
      g.parsed = static_cast<uint64_t>(p_.u32("the event value"));
    } else {
      g.parsed = static_cast<uint64_t>(p_.integer(0, 255, n));
    }
  }

  void read_value(const FieldDef& f, Given& g) {
    switch (f.kind) {
      case FieldKind::Header:
        g.parsed = static_cast<uint64_t>(p_.u32("header"));
        return;
      case FieldKind::U8:
        g.parsed = static_cast<uint64_t>(p_.integer(0, 255, f.name));
        return;
      case FieldKind::I32:
        g.parsed = static_cast<uint64_t>(p_.int32(f.name));
        return;
      case FieldKind::U32:
        g.parsed = static_cast<uint64_t>(p_.integer(0, 0xffffffffll, f.name));
        return;
      case FieldKind::Dtype:
      case FieldKind::AluOp:
      case FieldKind::AccumCmd:
      case FieldKind::ImmSrc:
      case FieldKind::AffineCmp:
      case FieldKind::RevOps:
        g.parsed = static_cast<uint64_t>(enum_value(f, *enum_field(f.kind), 255));
        return;
      case FieldKind::DtypePair: {
        if (p_.peek_punct("(")) {
          p_.advance();
          const EnumField& info = *enum_field(FieldKind::Dtype);
          const uint8_t in = enum_value(f, info, 15);
          p_.expect_punct(",", "between the input and output dtypes");
          const uint8_t out = enum_value(f, info, 15);
          p_.expect_punct(")", "to close the (input, output) dtype pair");
          g.parsed = static_cast<uint64_t>(in | (out << 4));
        } else {
          g.parsed = static_cast<uint64_t>(p_.integer(0, 255, f.name));
        }
        return;
      }
      case FieldKind::Fp32:
        g.parsed = static_cast<uint64_t>(p_.fp32(f.name));
        return;
      case FieldKind::ImmVal:
        if (p_.peek_addr_form()) {
          auto [bits, reg] = p_.addr4(true);
          g.form = reg ? ImmForm::Register : ImmForm::Pointer;
          // A register pointer keeps only the id in byte 0 (SPEC §3.5).
          g.parsed = static_cast<uint64_t>(reg ? (bits & 0xffu) : bits);
        } else {
          g.form = ImmForm::Number;
          p_.number_token([&] {
            return fmt::format(
                "a value for {}: a number, sbuf[...], psum[...], addr(...) or "
                "reg(N)",
                f.name);
          });
        }
        return;
      case FieldKind::Tensor:
        g.parsed = tensor(f);
        return;
      case FieldKind::Data4D:
        g.parsed = data4d(f);
        return;
      case FieldKind::Reserved: {
        auto bytes = p_.int_list(0, 255, [&] { return fmt::format("{} bytes", f.name); });
        if (bytes.size() != f.size)
          p_.fail(g.value, fmt::format("{} has {} bytes, got {}", f.name, f.size, bytes.size()));
        ReservedBytes b(bytes.begin(), bytes.end());
        g.parsed = std::move(b);
        return;
      }
      case FieldKind::Events:
        break;
    }
    p_.fail(g.name, "internal: unexpected field kind");
  }

  uint8_t enum_value(const FieldDef& f, const EnumField& info, unsigned max) {
    const Token& t = p_.next([&] { return fmt::format("a {} name or code", info.what); });
    if (t.kind == Tok::Number) {
      std::string why;
      auto v = parse_int(t.text, 0, max, &why);
      if (!v) p_.fail(t, fmt::format("{}: {}", f.name, why));
      return static_cast<uint8_t>(*v);
    }
    if (t.kind == Tok::Ident) {
      for (unsigned c = 0; c < 256; ++c) {
        auto n = info.name(static_cast<uint8_t>(c));
        if (n && iequals(*n, t.text)) {
          if (c > max)
            p_.fail(t, fmt::format("{} ({:#x}) does not fit in 4 bits: a DTYPE_PAIR holds dtypes "
                                   "0x0..0xf",
                                   *n, c));
          return static_cast<uint8_t>(c);
        }
      }
    }
    // 65 names: the list is docs/assembly.md's, the message names a few.
    if (f.kind == FieldKind::AluOp)
      p_.fail(t, with_hint(fmt::format("unknown ALU op for {}", f.name), t.text,
                           enum_name_list(info, max),
                           fmt::format("expected an ALU_OP name of SPEC §3.8 (docs/assembly.md "
                                       "lists them: IS_LT, ADD, BITWISE_AND, ...) or a code 0..{}",
                                       max)));
    p_.fail(t, with_hint(
                   fmt::format("unknown {} for {}", info.what, f.name), t.text,
                   enum_name_list(info, max),
                   fmt::format("expected one of {}, or a code 0..{}", enum_names(info, max), max)));
  }

  TensorDesc tensor(const FieldDef& f) {
    if (!p_.peek_addr_form())
      p_.fail_here(
          fmt::format("expected the address of {}: sbuf[p=N, off=N], psum[p=N, off=N], "
                      "reg(N) or addr(0x...)",
                      f.name));
    TensorDesc t;
    t.addr = p_.addr4(true).first;
    steps_and_nums(f, t);
    return t;
  }

  // A DATA4D (SPEC §3.7): the int32 base, then num=[...] and optionally step=[...].
  TensorDesc data4d(const FieldDef& f) {
    TensorDesc t;
    t.addr = p_.int32(fmt::format("the base of {}", f.name));
    steps_and_nums(f, t);
    return t;
  }

  // The `step=[...] num=[...]` of a descriptor, in either order.
  void steps_and_nums(const FieldDef& f, TensorDesc& t) {
    t.dims = f.dims;
    const std::string kind =
        f.kind == FieldKind::Data4D ? std::string("DATA4D") : fmt::format("TENSOR{}D", f.dims);
    std::optional<std::vector<int64_t>> step, num;
    Token num_tok{}, step_tok{};
    while (const Token* k = p_.peek()) {
      if (k->kind != Tok::Ident || (k->text != "step" && k->text != "num")) break;
      const Token key = *k;
      p_.advance();
      auto& slot = key.text == "step" ? step : num;
      if (slot) p_.fail(key, fmt::format("'{}' is given twice", key.text));
      p_.expect_punct("=", [&] { return fmt::format("after '{}'", key.text); });
      const Token& open = p_.peek() ? *p_.peek() : key;
      if (key.text == "step") {
        step_tok = open;
        slot = p_.int_list(-32768, 32767, "step_elem");
      } else {
        num_tok = open;
        slot = p_.int_list(0, 65535, "num_elem");
      }
      if (slot->size() != f.dims)
        p_.fail(open, fmt::format("{} is a {}: {} needs {} entr{}, got {}", f.name, kind, key.text,
                                  f.dims, f.dims == 1 ? "y" : "ies", slot->size()));
    }
    if (!num)
      p_.fail_here(
          fmt::format("expected num=[...] for {} (the element counts, innermost first)", f.name));
    int64_t dense = 1;
    for (unsigned d = 0; d < f.dims; ++d) {
      t.num[d] = static_cast<uint16_t>((*num)[d]);
      // Without step=[...] the walk is dense, row-major (innermost first).
      if (step) {
        t.step[d] = static_cast<int16_t>((*step)[d]);
      } else {
        if (dense > 32767)
          p_.fail(num_tok, fmt::format("the dense steps of {} do not fit in int16: give "
                                       "step=[...]",
                                       f.name));
        t.step[d] = static_cast<int16_t>(dense);
        dense *= std::max<int64_t>((*num)[d], 1);
      }
    }
  }

  const Given* given(std::string_view n) const {
    auto it = given_.find(std::string(n));
    return it == given_.end() ? nullptr : &it->second;
  }

  Word build() {
    Decoded d = default_fields(def_);
    std::vector<std::string> missing;
    // Every row except IMM_SRC / IMM_VAL pairs, which need the dtypes first.
    for (std::size_t i = 0; i < def_.fields.size(); ++i) {
      const FieldDef& f = def_.fields[i];
      FieldValue& v = d.values[i];
      switch (f.kind) {
        case FieldKind::Events: {
          uint64_t sub[kEventFields.size()] = {};
          for (std::size_t k = 0; k < kEventFields.size(); ++k)
            if (const Given* g = given(kEventFields[k])) sub[k] = std::get<uint64_t>(g->parsed);
          v = Events{static_cast<uint8_t>(sub[0]), static_cast<uint8_t>(sub[1]),
                     static_cast<uint8_t>(sub[2]), static_cast<uint8_t>(sub[3]),
                     static_cast<uint32_t>(sub[4])};
          break;
        }
        case FieldKind::ImmVal:
          break;
        case FieldKind::ImmSrc:
          if (imm_of_src(def_, f) != nullptr) break;  // set with its immediate, below
          [[fallthrough]];
        case FieldKind::Header:
        case FieldKind::Reserved:
          if (const Given* g = given(f.name)) v = g->parsed;
          break;
        default:
          if (const Given* g = given(f.name)) {
            v = g->parsed;
          } else if (auto def = integer_default(f)) {
            v = *def;
          } else {
            missing.emplace_back(f.name);
          }
      }
    }
    for (std::size_t i = 0; i < def_.fields.size(); ++i) {
      const FieldDef& f = def_.fields[i];
      if (f.kind != FieldKind::ImmVal) continue;
      const Given* g = given(f.name);
      const Given* gs = given(f.src_field);
      if (!g && !integer_default(f)) {
        missing.emplace_back(f.name);
        continue;
      }
      std::size_t src_index = 0;
      for (std::size_t k = 0; k < def_.fields.size(); ++k)
        if (def_.fields[k].name == f.src_field) src_index = k;
      // The source: as written, or implied by the form of the value.
      uint64_t src = 0;
      if (gs) {
        src = std::get<uint64_t>(gs->parsed);
      } else if (g && g->form == ImmForm::Pointer) {
        src = static_cast<uint64_t>(ImmSrc::POINTER_IMMEDIATE);
      } else if (g && g->form == ImmForm::Register) {
        src = static_cast<uint64_t>(ImmSrc::REG_PTR_IMMEDIATE);
      }
      if (gs && g && g->form != ImmForm::Number) {
        const uint64_t implied = static_cast<uint64_t>(
            g->form == ImmForm::Pointer ? ImmSrc::POINTER_IMMEDIATE : ImmSrc::REG_PTR_IMMEDIATE);
        if (src != implied) {
          auto n = imm_src_name(static_cast<uint8_t>(src));
          p_.fail(g->value,
                  fmt::format("{} is written as {}, which means {}={}, but {} is {}", f.name,
                              g->form == ImmForm::Pointer ? "an address" : "a register pointer",
                              f.src_field, *imm_src_name(static_cast<uint8_t>(implied)),
                              f.src_field, n ? std::string(*n) : fmt::format("{:#x}", src)));
        }
      }
      d.values[src_index] = src;
      uint64_t value = 0;
      if (!g) {
        value = *integer_default(f);
      } else if (g->form != ImmForm::Number) {
        value = std::get<uint64_t>(g->parsed);
      } else {
        const ImmType t = src == 0 ? imm_type(def_, f) : ImmType{ImmType::U32, {}};
        uint8_t dtype = 0;
        if (t.kind == ImmType::DtypeOf) dtype = static_cast<uint8_t>(d.integer(t.dtype_field));
        std::string why;
        auto x = parse_imm(t, dtype, g->value.text, &why);
        if (!x) p_.fail(g->value, fmt::format("{}: {}", f.name, why));
        value = *x;
      }
      d.values[i] = value;
    }
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
      p_.fail(mnem_, fmt::format("{} is missing required field{}: {}", def_.mnemonic,
                                 missing.size() > 1 ? "s" : "", list));
    }
    EncodeResult r = encode(d);
    if (r.error) {
      const Given* h = given("header");
      p_.fail(h ? h->value : mnem_, *r.error);
    }
    return r.word;
  }

  StmtParser& p_;
  const Token& mnem_;
  const InstrDef& def_;
  std::map<std::string, Given> given_;
};

// ---- directives ------------------------------------------------------------------------

void parse_data_values(StmtParser& p, DataDirective& d) {
  // Either a flat list (split evenly over the partitions) or one list per partition.
  const Token* open = p.peek();
  p.expect_punct("[", "to open the list of values");
  std::vector<std::vector<uint32_t>> rows;
  bool nested = p.peek_punct("[");
  std::vector<uint32_t> flat;
  auto value = [&](std::vector<uint32_t>& out) {
    const Token& t = p.number_token("a value (a number, inf, nan or 0x bits)");
    std::string why;
    auto v = parse_value(d.dtype, t.text, &why);
    if (!v) p.fail(t, why);
    out.push_back(*v);
  };
  p.list_items("the list of values", [&] {
    if (nested) {
      std::vector<uint32_t> row;
      p.expect_punct("[", "to open the values of the next partition");
      p.list_items("the list of values", [&] { value(row); });
      rows.push_back(std::move(row));
    } else {
      value(flat);
    }
  });
  p.checking_whole();
  const unsigned parts = d.region.partitions;
  if (nested) {
    if (rows.size() != parts)
      p.fail(*open, fmt::format("{} rows of values for {} partition{}: give one [...] per "
                                "partition",
                                rows.size(), parts, parts > 1 ? "s" : ""));
    for (const auto& r : rows) {
      if (r.size() != rows[0].size())
        p.fail(*open, fmt::format("the rows have different lengths ({} and {})", rows[0].size(),
                                  r.size()));
      flat.insert(flat.end(), r.begin(), r.end());
    }
  } else if (flat.size() % parts != 0) {
    p.fail(*open,
           fmt::format("{} values do not split evenly over {} partitions", flat.size(), parts));
  }
  if (flat.empty()) p.fail(*open, "the list of values is empty");
  d.values = std::move(flat);
}

std::string path_token(StmtParser& p, std::string_view arrow) {
  p.expect_punct(arrow, arrow == "->" ? "before the output file" : "before the input file");
  const Token& t = p.next("a file name");
  if ((t.kind != Tok::Path && t.kind != Tok::String) || t.text.empty())
    p.fail(t, "expected a file name");
  // Strings have no escapes: a name with a quote in it could not be printed back.
  if (t.text.find('"') != std::string::npos) p.fail(t, "a file name cannot contain '\"'");
  // Nor would control characters (a carriage return, a tab) inside a quoted name: the
  // lexer takes them for spaces when the name is printed back.
  for (const unsigned char c : t.text)
    if (c < 0x20 || c == 0x7f)
      p.fail(t, fmt::format("a file name cannot contain control characters (byte 0x{:02x})", c));
  return t.text;
}

// The digits of a token of hex digits written with or without 0x ("6c10", "0x6c", "bc"),
// or nullopt.
std::optional<std::string_view> hex_digits_of(const Token& t) {
  if (t.kind != Tok::Number && t.kind != Tok::Ident) return std::nullopt;
  std::string_view d = t.text;
  if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d.remove_prefix(2);
  if (d.empty() || !std::all_of(d.begin(), d.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
      }))
    return std::nullopt;
  return d;
}

// A word written in hex as the tool's hex reader takes it (docs/cli.md): 128 digits,
// bytes in address order, in tokens of any even length, each with or without 0x,
// separated by spaces or commas. Reads the rest of the statement; `first` is its first
// token. `pasted`: the statement stands where an instruction may (no .word).
Word hex_word(StmtParser& p, const Token& first, bool pasted) {
  const std::string_view what = pasted ? "hex digits where an instruction is expected" : ".word";
  std::string digits;
  while (!p.at_end()) {
    const Token& t = *p.peek();
    if (t.kind == Tok::Punct && t.text == ",") {
      p.advance();
      continue;
    }
    const auto d = hex_digits_of(t);
    if (!d)
      p.fail(t, fmt::format("{}: expected the word as hex digits (0-9, a-f), two per byte, with "
                            "or without 0x",
                            what));
    if (d->size() % 2 != 0)
      p.fail(t, fmt::format("{}: {} hex digit{}: an odd number, each byte needs two", what,
                            d->size(), d->size() == 1 ? "" : "s"));
    digits += *d;
    p.advance();
  }
  p.checking_whole();
  if (digits.size() != 2 * kWordBytes) {
    if (pasted)
      p.fail(first, fmt::format("{} hex digits where an instruction is expected: a pasted "
                                "word reads as .word 0x... does, and needs exactly 128 digits "
                                "(64 bytes in address order), one word per statement; several "
                                "words read as a hex file (--format hex)",
                                digits.size()));
    p.fail(first, fmt::format(".word: {} hex digits, a word needs exactly 128 (64 bytes in address "
                              "order)",
                              digits.size()));
  }
  return *word_from_hex(digits);
}

// What the directives before a statement have set: the engine input of stream words
// (`.engine`), the queue words go to (`.queue`), and where the words and `.engine`
// directives are that a program (a text with a `.queue`) does not allow (SPEC §8.9).
struct ParseState {
  std::optional<Engine> engine;
  std::optional<Engine> queue;
  struct Where {
    int line, col;
    std::string token;
  };
  std::vector<Where> engine_directives;
  std::vector<Where> unqueued_words;
};

void parse_directive(StmtParser& p, const Token& dir, Program& prog, ParseState& state) {
  const std::string name = dir.text;
  const int line = dir.line;
  // A setup directive (.reg, .sem, .acc, .data, .load), in order, with its line.
  const auto add_setup = [&](auto directive) {
    prog.setup.emplace_back(std::move(directive));
    prog.setup_lines.push_back(line);
  };
  if (name == ".engine" || name == ".queue") {
    // SPEC §8.9: exactly an engine's id (dve, pool or act). `.engine` sets the engine input
    // of the stream words after it; `.queue` starts (or continues) the queue of an engine.
    const bool queue = name == ".queue";
    constexpr std::string_view kNames = kEngineIdsText;
    const Token& t = p.next(fmt::format("{}: {}", queue ? "a queue" : "an engine", kNames));
    auto e = t.kind == Tok::Ident ? parse_engine_id(t.text) : std::nullopt;
    if (!e && queue) {
      // Still a program: the words after a misspelt .queue are not also "outside a queue".
      prog.queued = true;
      if (!state.queue) state.queue = Engine::DVE;
    }
    if (!e) {
      std::vector<std::string> ids;
      for (const EngineDef& d : kEngines) ids.emplace_back(d.id);
      p.fail(t, with_hint(queue ? "unknown queue" : "unknown engine", t.text, ids,
                          fmt::format("expected {}", kNames)));
    }
    p.expect_end(queue ? "the queue" : "the engine");
    if (queue) {
      state.queue = *e;
      prog.queued = true;
    } else {
      state.engine = *e;
      state.engine_directives.push_back({dir.line, dir.col, dir.text});
    }
  } else if (name == ".nc") {
    const Token& t = p.next(fmt::format("a generation: {}", kNcNames));
    auto g = parse_nc(t.text);
    if (!g || t.kind == Tok::Punct) p.fail(t, fmt::format("expected a generation: {}", kNcNames));
    if (prog.nc) p.fail(dir, "the generation is already set by an earlier .nc");
    prog.nc = *g;
    p.expect_end(".nc v3");
  } else if (name == ".reg") {
    RegDirective r;
    r.index = static_cast<unsigned>(p.integer(0, kRegisters - 1, "register id"));
    p.expect_punct("=", "after the register id");
    if (p.peek_addr_form())
      r.value = p.addr4(false).first;
    else
      r.value = p.u32("register value");
    p.expect_end("the register value");
    add_setup(std::move(r));
  } else if (name == ".sem") {
    SemDirective s;
    s.index = static_cast<unsigned>(p.integer(0, kSemaphores - 1, "semaphore id"));
    p.expect_punct("=", "after the semaphore id");
    s.value = p.u32("semaphore value");
    p.expect_end("the semaphore value");
    add_setup(std::move(s));
  } else if (name == ".acc") {
    AccDirective a;
    a.first = static_cast<unsigned>(p.integer(0, kPartitions - 1, "accumulator"));
    if (p.peek_punct("..")) {
      const Token dots = *p.peek();
      p.advance();
      const auto last = static_cast<unsigned>(p.integer(0, kPartitions - 1, "last accumulator"));
      if (last < a.first)
        p.fail(dots, fmt::format("accumulator range {}..{} is empty", a.first, last));
      a.count = last - a.first + 1;
    }
    p.expect_punct("=", "after the accumulator index");
    a.bits = p.fp32("accumulator value");
    p.expect_end("the accumulator value");
    add_setup(std::move(a));
  } else if (name == ".data") {
    DataDirective d;
    d.region = p.region(false);
    d.dtype = p.data_dtype();
    p.expect_punct("=", "before the list of values");
    parse_data_values(p, d);
    p.expect_end("the list of values");
    add_setup(std::move(d));
  } else if (name == ".load") {
    LoadDirective l;
    l.region = p.region(false);
    l.path = path_token(p, "<-");
    p.expect_end("the file name");
    add_setup(std::move(l));
  } else if (name == ".dump") {
    DumpDirective d;
    d.region = p.region(true);
    if (d.region.kind == RegionKind::ACC) {
      d.dtype = Dtype::FP32;
      d.count = 1;
    } else if (d.region.kind == RegionKind::MATCH) {
      d.dtype = Dtype::UINT32;
      d.count = kMatchDumpColumns;
    } else {
      d.dtype = p.data_dtype();
      p.expect_punct("[", "before the element count per partition, as in [16]");
      d.count = static_cast<uint32_t>(p.integer(1, 0x40000, "element count"));
      p.expect_punct("]", "after the element count");
      if (const Token* t = p.peek(); t && t->kind == Tok::Ident && t->text == "step") {
        p.advance();
        p.expect_punct("=", "after 'step'");
        d.step = static_cast<uint32_t>(p.integer(1, 0x40000, "step (in elements)"));
      }
    }
    // Display options: rows=[A..B, C] (partitions) and cols=[A..B] (element indices).
    const unsigned first_row = d.region.partition;
    const unsigned last_row = d.region.partition + d.region.partitions - 1;
    while (const Token* t = p.peek()) {
      if (t->kind != Tok::Ident || (t->text != "rows" && t->text != "cols")) break;
      const bool rows = t->text == "rows";
      auto& list = rows ? d.rows : d.cols;
      if (!list.empty()) p.fail(*t, fmt::format("{} is given twice", t->text));
      p.advance();
      p.expect_punct("=", [&] { return fmt::format("after '{}'", rows ? "rows" : "cols"); });
      const int64_t lo = rows ? first_row : 0, hi = rows ? last_row : int64_t{d.count} - 1;
      auto what = [&] {
        return rows ? fmt::format("row (a partition of the dump, {}..{})", lo, hi)
                    : fmt::format("column (an element index of the dump, {}..{})", lo, hi);
      };
      p.expect_punct("[", [&] { return "to open the list of " + what() + " ranges"; });
      p.list_items("the list of ranges", [&] {
        IndexRange r;
        r.first = r.last = static_cast<uint32_t>(p.integer(lo, hi, what));
        if (p.peek_punct("..")) {
          p.advance();
          r.last = static_cast<uint32_t>(p.integer(r.first, hi, what));
        }
        list.push_back(r);
      });
      if (list.empty()) p.fail(*t, fmt::format("{}=[] selects nothing", rows ? "rows" : "cols"));
    }
    if (!p.at_end()) d.path = path_token(p, "->");
    p.expect_end("the dump");
    prog.dumps.push_back(std::move(d));
    prog.dump_lines.push_back(line);
  } else if (name == ".word") {
    if (p.at_end()) p.fail_end("expected the word: 128 hex digits (64 bytes in address order)");
    const Token& first = *p.peek();
    prog.words.push_back(hex_word(p, first, false));
    prog.word_lines.push_back(line);
  } else {
    p.fail(dir, with_hint("unknown directive", dir.text,
                          {".nc", ".queue", ".engine", ".reg", ".sem", ".acc", ".data", ".load",
                           ".dump", ".word"},
                          "expected .nc, .queue, .engine, .reg, .sem, .acc, .data, .load, .dump or "
                          ".word"));
  }
}

// True when a statement is nothing but hex digits (tokens with or without 0x, commas
// between them allowed): a word, or its bytes, pasted where an instruction belongs. A
// single short name of hex letters ("add", "Bead") is taken for a mistyped mnemonic.
bool pasted_hex(const Statement& st) {
  std::size_t digits = 0;
  bool prefixed = false;
  for (const Token& t : st.tokens) {
    if (t.kind == Tok::Punct && t.text == ",") continue;
    const auto d = hex_digits_of(t);
    if (!d) return false;
    digits += d->size();
    prefixed = prefixed || d->size() != t.text.size();
  }
  return st.tokens.front().kind == Tok::Number || st.tokens.size() > 1 || prefixed || digits >= 16;
}

void parse_statement(const Statement& st, Program& prog, ParseState& state) {
  StmtParser p(st);
  const Token& first = p.next("an instruction or a directive");
  if (first.kind == Tok::Directive) {
    parse_directive(p, first, prog, state);
    return;
  }
  const InstrDef* def = first.kind == Tok::Ident ? find_instruction(first.text) : nullptr;
  if (def == nullptr && pasted_hex(st)) {
    // The same word as `.word 0x...`.
    StmtParser whole(st);
    prog.words.push_back(hex_word(whole, first, true));
    prog.word_lines.push_back(first.line);
    return;
  }
  if (def == nullptr) {
    std::string names;
    std::vector<std::string> mnemonics;
    for (const InstrDef& d : instructions()) {
      names += fmt::format("{}{}", names.empty() ? "" : ", ", d.mnemonic);
      mnemonics.emplace_back(d.mnemonic);
    }
    const std::string choices =
        fmt::format("expected {} or a directive (.data, .dump, ...)", names);
    p.fail(first, first.kind == Tok::Ident
                      ? with_hint("unknown instruction", first.text, mnemonics, choices)
                      : "unknown instruction: " + choices);
  }
  InstructionParser ip(p, first, *def);
  prog.words.push_back(ip.parse());
  prog.word_lines.push_back(first.line);
}

}  // namespace

std::optional<Program> parse_program(std::string_view text, std::string_view file,
                                     AsmErrors* errors) {
  Program prog;
  prog.file = std::string(file);
  AsmErrors found;
  ParseState state;
  for (const Statement& st : lex(text)) {
    std::optional<ParseFail> fail;
    const std::size_t words_before = prog.words.size();
    try {
      if (!st.tokens.empty()) parse_statement(st, prog, state);
    } catch (const ParseFail& f) {
      fail = f;
    }
    prog.word_engines.resize(prog.words.size(), state.engine);
    prog.word_queues.resize(prog.words.size(), state.queue.value_or(Engine::DVE));
    if (prog.words.size() > words_before && !state.queue)
      state.unqueued_words.push_back(
          {st.tokens.front().line, st.tokens.front().col, st.tokens.front().text});
    // A statement with a lexical error is still parsed: a mistake in the tokens before it
    // is the statement's first error; else the lexical one is.
    std::optional<AsmError> e;
    if (st.error) {
      const LexError& le = *st.error;
      // Earlier: at a token that ends before the lexical error (not one cut short by it,
      // as "caf" of "café", nor the end of what is left of the statement).
      const bool earlier =
          fail && !fail->whole && !fail->token.empty() &&
          (fail->line < le.line ||
           (fail->line == le.line && fail->col + static_cast<int>(fail->token.size()) < le.col));
      e = earlier ? AsmError{prog.file, fail->line, fail->col, fail->token, fail->message}
                  : AsmError{prog.file, le.line, le.col, le.token, le.message};
    } else if (fail) {
      e = AsmError{prog.file, fail->line, fail->col, fail->token, fail->message};
    }
    if (!e) continue;
    if (found.errors.size() == kMaxAsmErrors) {
      found.truncated = true;
      break;
    }
    found.errors.push_back(std::move(*e));
  }
  if (prog.queued) {
    // SPEC §8.9: a text with a .queue is a program: every word belongs to a queue and the
    // queue is the engine. These errors are known only at the end; they take their place
    // among the others by position.
    std::vector<AsmError> late;
    for (const ParseState::Where& w : state.unqueued_words)
      late.push_back(AsmError{prog.file, w.line, w.col, w.token,
                              "instruction outside a queue: put `.queue ENGINE` before it"});
    for (const ParseState::Where& w : state.engine_directives)
      late.push_back(AsmError{prog.file, w.line, w.col, w.token,
                              "`.engine` is for streams: in a program the queue is the engine"});
    if (!late.empty()) {
      found.errors.insert(found.errors.end(), late.begin(), late.end());
      std::stable_sort(found.errors.begin(), found.errors.end(),
                       [](const AsmError& a, const AsmError& b) {
                         return std::pair(a.line, a.column) < std::pair(b.line, b.column);
                       });
      if (found.errors.size() > kMaxAsmErrors) {
        found.errors.resize(kMaxAsmErrors);
        found.truncated = true;
      }
    }
    prog.word_engines.assign(prog.words.size(), std::nullopt);
  } else {
    prog.word_queues.clear();
  }
  const bool ok = found.empty();
  if (errors) *errors = std::move(found);
  if (!ok) return std::nullopt;
  return prog;
}

std::optional<Program> parse_program(std::string_view text, std::string_view file,
                                     AsmError* error) {
  AsmErrors all;
  auto p = parse_program(text, file, &all);
  if (!p && error) *error = all.errors.front();
  return p;
}

std::optional<std::vector<Word>> assemble(std::string_view text, std::string_view file,
                                          AsmError* error) {
  auto p = parse_program(text, file, error);
  if (!p) return std::nullopt;
  return std::move(p->words);
}

std::optional<std::vector<Word>> assemble(std::string_view text, std::string_view file,
                                          AsmErrors* errors) {
  auto p = parse_program(text, file, errors);
  if (!p) return std::nullopt;
  return std::move(p->words);
}

}  // namespace gpsimd
