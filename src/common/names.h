// Names of enumerations as tables: one row per value, and the lookups every such table
// needs (the name of a value, the value of a name, the names joined for a message), written
// once here instead of a switch and a parsing loop per enumeration.
//
// A table is any range of rows: Named<E> rows, whose members are `value` and `name`, or a
// table's own rows (kSpaces, kEngines), whose members the caller names:
//
//   constexpr Named<AccessKind> kAccessNames[] = {{AccessKind::Read, "read"}, ...};
//   name_of(kAccessNames, AccessKind::Read)                    // "read"
//   parse_name(kAccessNames, "read")                           // AccessKind::Read
//   name_of(kEngines, Engine::DVE, &EngineDef::engine, &EngineDef::id)  // "dve"
#pragma once

#include <algorithm>
#include <cctype>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>

namespace gpsimd {

// a == b but for the case of letters: the names that text may write in any case
// (mnemonics, dtypes, ALU ops, spaces).
inline bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// A row of a name table: a value and its name.
template <class E>
struct Named {
  E value;
  std::string_view name;
};

namespace names_detail {
template <class Rows>
using Row = std::ranges::range_value_t<const Rows&>;
template <class Rows>
using Value = decltype(Row<Rows>::value);
}  // namespace names_detail

// The first row of `rows` whose `key` is v; nullptr when none is.
template <class Rows, class Row = names_detail::Row<Rows>, class K>
constexpr const Row* find_row(const Rows& rows, const K& v, K Row::*key = &Row::value) {
  for (const Row& r : rows)
    if (r.*key == v) return &r;
  return nullptr;
}

// The name of v in `rows`, or "?" for a value that no row has (an enumeration's value out
// of range).
template <class Rows, class Row = names_detail::Row<Rows>, class K>
constexpr std::string_view name_of(const Rows& rows, const K& v, K Row::*key = &Row::value,
                                   std::string_view Row::*name = &Row::name) {
  const Row* r = find_row(rows, v, key);
  return r ? r->*name : "?";
}

// The value whose name is exactly s; nullopt when no row has that name.
template <class Rows, class Row = names_detail::Row<Rows>, class K = names_detail::Value<Rows>>
constexpr std::optional<K> parse_name(const Rows& rows, std::string_view s,
                                      K Row::*key = &Row::value,
                                      std::string_view Row::*name = &Row::name) {
  for (const Row& r : rows)
    if (r.*name == s) return r.*key;
  return std::nullopt;
}

// The names for a message, each between `quote`s, in the rows' order: "a, b or c" ("a or
// b" for two, "a" for one).
template <class Rows, class Row = names_detail::Row<Rows>>
std::string joined_names(const Rows& rows, std::string_view quote = "",
                         std::string_view Row::*name = &Row::name) {
  const auto count = std::ranges::size(rows);
  std::string out;
  std::size_t i = 0;
  for (const Row& r : rows) {
    if (i > 0) out += i + 1 == count ? " or " : ", ";
    out.append(quote).append(r.*name).append(quote);
    ++i;
  }
  return out;
}

}  // namespace gpsimd
