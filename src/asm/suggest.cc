// "Did you mean ...?": the nearest names to a mistyped one, for the assembler's errors
// (mnemonics, field names, enumeration and dtype names, directives).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "gpsimd/asm.h"

namespace gpsimd {

std::size_t name_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  const std::size_t n = a.size(), m = b.size();
  // d[i][j]: the distance between a[0..i) and b[0..j), three rows at a time.
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::vector<std::string> nearest_names(std::string_view typed,
                                       const std::vector<std::string>& candidates) {
  constexpr std::size_t kMaxSuggestions = 3;
  std::size_t best = SIZE_MAX;
  std::vector<std::string> out;
  for (const std::string& c : candidates) {
    const std::size_t d = name_distance(typed, c);
    const std::size_t longest = std::max(typed.size(), c.size());
    if (d > longest / 3 || d > best) continue;
    if (d < best) {
      best = d;
      out.clear();
    }
    if (out.size() < kMaxSuggestions && std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  }
  return out;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& candidates) {
  const std::vector<std::string> near = nearest_names(typed, candidates);
  if (near.empty()) return "";
  std::string s = "did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i)
    s += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + near[i];
  return s + "?";
}

}  // namespace gpsimd
