// `.dump` tables: values in the dump's dtype, large tables elided like NumPy's printing
// (head ... tail on both axes), or the rows and columns the directive chooses.
#include <fmt/format.h>

#include <algorithm>

#include "cli.h"

namespace gpsimd::cli {
namespace {

// A value in a table: as format_value writes it, except FP32's +-FLT_MAX, which is
// RangeSelect's fill and would be the widest column by far.
std::string cell_text(Dtype dt, uint32_t bits) {
  if (dt == Dtype::FP32 || dt == Dtype::FP32R) {
    if (bits == 0xff7fffffu) return "-FLT_MAX";
    if (bits == 0x7f7fffffu) return "FLT_MAX";
  }
  return format_value(dt, bits);
}

constexpr std::size_t kGap = static_cast<std::size_t>(-1);  // a "..." row or column

// The indices of an axis of length n to show, with kGap where indices are left out.
// `chosen` (inclusive ranges of labels starting at `first`) wins; else the first and last
// `edge` indices when `summarize` and n > 2 * edge (NumPy's edgeitems), else all.
std::vector<std::size_t> axis(std::size_t n, std::size_t first,
                              const std::vector<IndexRange>& chosen, bool summarize,
                              std::size_t edge) {
  std::vector<std::size_t> out;
  auto push = [&](std::size_t i) {
    if (!out.empty() && out.back() != kGap && i != out.back() + 1) out.push_back(kGap);
    if (out.empty() && i != 0 && !chosen.empty()) out.push_back(kGap);
    out.push_back(i);
  };
  if (!chosen.empty()) {
    for (const IndexRange& r : chosen)
      for (std::size_t i = r.first - first; i <= r.last - first && i < n; ++i) push(i);
    if (!out.empty() && out.back() != kGap && out.back() + 1 < n) out.push_back(kGap);
    return out;
  }
  if (!summarize || n <= 2 * edge) {
    for (std::size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (std::size_t i = 0; i < edge; ++i) out.push_back(i);
  out.push_back(kGap);
  for (std::size_t i = n - edge; i < n; ++i) out.push_back(i);
  return out;
}

std::size_t shown(const std::vector<std::size_t>& a) {
  return static_cast<std::size_t>(
      std::count_if(a.begin(), a.end(), [](std::size_t i) { return i != kGap; }));
}

}  // namespace

std::string render_dump(const DumpResult& d, const PrintOptions& po, std::string_view indent) {
  // Wide tables wrap into blocks of 16 columns, as NumPy wraps long rows.
  constexpr std::size_t kBlock = 16;
  const bool acc = d.directive.region.kind == RegionKind::ACC;
  const bool match = d.directive.region.kind == RegionKind::MATCH;
  const std::size_t rows = d.values.size();
  const std::size_t cols = rows ? d.values[0].size() : 0;
  const bool summarize = rows * cols > po.threshold;
  const std::vector<std::size_t> r_idx =
      axis(rows, d.directive.region.partition, d.directive.rows, summarize, po.edgeitems);
  // A search lane's 17 columns are one record: never elided.
  const std::vector<std::size_t> c_idx =
      axis(cols, 0, d.directive.cols, summarize && !match, po.edgeitems);

  std::vector<std::string> labels;
  for (std::size_t r : r_idx)
    labels.push_back(r == kGap ? std::string("...")
                               : fmt::format("{}{}",
                                             acc     ? "acc"
                                             : match ? "lane"
                                                     : "p",
                                             d.directive.region.partition + r));
  // A search lane: mv0..mv7 as FP32, matched in hex, idx0..idx7 ("-" for none), on one row.
  const std::size_t block = match ? kMatchDumpColumns : kBlock;
  auto header = [&](std::size_t c) {
    if (c == kGap) return std::string("...");
    if (acc) return std::string("FP32");
    if (!match) return std::to_string(c);
    return c < 8    ? fmt::format("mv{}", c)
           : c == 8 ? std::string("matched")
                    : fmt::format("idx{}", c - 9);
  };
  auto cell = [&](std::size_t r, std::size_t c) {
    if (r == kGap || c == kGap) return std::string("...");
    const uint32_t v = d.values[r][c];
    if (!match) return cell_text(d.directive.dtype, v);
    if (c < 8) return cell_text(Dtype::FP32, v);
    if (c == 8) return fmt::format("{:#04x}", v);
    return v == kNoMatchIndex ? std::string("-") : std::to_string(v);
  };
  std::string out;
  for (std::size_t c0 = 0; c0 < c_idx.size(); c0 += block) {
    const std::size_t c1 = std::min(c_idx.size(), c0 + block);
    std::vector<std::string> headers;
    for (std::size_t c = c0; c < c1; ++c) headers.push_back(header(c_idx[c]));
    std::vector<std::vector<std::string>> cells;
    for (std::size_t r : r_idx) {
      std::vector<std::string> row;
      for (std::size_t c = c0; c < c1; ++c) row.push_back(cell(r, c_idx[c]));
      cells.push_back(std::move(row));
    }
    if (c0 > 0) out += '\n';
    out += render_table(headers, labels, cells, indent);
  }
  const std::size_t sr = shown(r_idx), sc = shown(c_idx);
  if (sr < rows || sc < cols)
    out += fmt::format("{}({} x {} {}: showing {} of {} {} and {} of {} {})\n", indent, rows, cols,
                       dtype_name(static_cast<uint8_t>(d.directive.dtype)).value_or("?"), sr, rows,
                       acc     ? "accumulators"
                       : match ? "lanes"
                               : "partitions",
                       sc, cols, match ? "columns" : "elements");
  return out;
}

}  // namespace gpsimd::cli
