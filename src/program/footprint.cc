// Footprints (SPEC §8.5): from what an op file reports to byte ranges per partition, and
// the public footprint() of one word.
#include "program/footprint.h"

#include <algorithm>
#include <bit>

#include "common/check.h"

namespace gpsimd::program {
namespace {

// A walk with more element runs than this is drawn into a bitmap instead of sorted.
constexpr uint64_t kSortedRuns = 1024;

// Appends interval [lo, hi) to a sorted list, merging it with the last one when they
// touch and have the same access.
void append(std::vector<Interval>& out, uint32_t lo, uint32_t hi, AccessKind a) {
  if (!out.empty() && out.back().hi >= lo && out.back().access == a) {
    out.back().hi = std::max(out.back().hi, hi);
    return;
  }
  out.push_back(Interval{lo, hi, a});
}

}  // namespace

void walk_intervals(const Walk& w, std::vector<Interval>& out, AccessKind access) {
  out.clear();
  // The walk's offsets are lo + Σ i[d]·|step[d]|·elem once every negative step is turned
  // around (the set of offsets is the same). Dimensions of one element or a zero step add
  // nothing.
  struct Dim {
    uint64_t step;  // bytes
    uint64_t num;
  };
  std::array<Dim, kMaxDims> dims{};
  unsigned nd = 0;
  for (unsigned d = 0; d < w.dims && d < kMaxDims; ++d) {
    if (w.num[d] <= 1 || w.step[d] == 0) continue;
    const auto s = static_cast<uint64_t>(w.step[d] < 0 ? -w.step[d] : w.step[d]);
    dims[nd++] = Dim{s * w.elem, w.num[d]};
  }
  for (unsigned a = 1; a < nd; ++a)  // by step, ascending (insertion: at most 4)
    for (unsigned b = a; b > 0 && dims[b].step < dims[b - 1].step; --b)
      std::swap(dims[b], dims[b - 1]);
  const int64_t lo = w.lo();
  GPSIMD_CHECK(lo >= 0 && w.hi() <= int64_t{1} << 32);
  const auto base = static_cast<uint64_t>(lo);
  // The innermost dimensions whose step does not exceed the run so far extend the run: the
  // elements [0, run) repeated every `step` bytes, num times, are one run.
  uint64_t run = w.elem;
  unsigned k = 0;
  while (k < nd && dims[k].step <= run) {
    run += dims[k].step * (dims[k].num - 1);
    ++k;
  }
  uint64_t runs = 1;
  for (unsigned d = k; d < nd; ++d) runs *= dims[d].num;  // at most 2^24 (the walk limit)
  // The runs' starts, odometer-style over the remaining dimensions.
  auto for_each_run = [&](auto&& f) {
    std::array<uint64_t, kMaxDims> i{};
    uint64_t off = 0;
    for (;;) {
      f(off);
      unsigned d = k;
      for (; d < nd; ++d) {
        if (++i[d] < dims[d].num) {
          off += dims[d].step;
          break;
        }
        off -= dims[d].step * (dims[d].num - 1);
        i[d] = 0;
      }
      if (d == nd) return;
    }
  };
  if (runs == 1) {
    out.push_back(Interval{static_cast<uint32_t>(base), static_cast<uint32_t>(base + run), access});
    return;
  }
  if (runs <= kSortedRuns) {
    thread_local std::vector<uint64_t> starts;
    starts.clear();
    for_each_run([&](uint64_t off) { starts.push_back(off); });
    std::sort(starts.begin(), starts.end());
    for (uint64_t s : starts)
      append(out, static_cast<uint32_t>(base + s), static_cast<uint32_t>(base + s + run), access);
    return;
  }
  // Many runs: mark the covered bytes of [lo, hi) in a bitmap, then read its runs.
  const auto span = static_cast<uint64_t>(w.hi() - lo);
  thread_local std::vector<uint64_t> bits;
  bits.assign((span + 63) / 64, 0);
  for_each_run([&](uint64_t off) {
    for (uint64_t b = off; b < off + run;) {
      const uint64_t word = b / 64, bit = b % 64;
      const uint64_t n = std::min<uint64_t>(64 - bit, off + run - b);
      const uint64_t mask = n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1) << bit;
      bits[word] |= mask;
      b += n;
    }
  });
  const uint64_t nwords = bits.size();
  uint64_t b = 0;
  while (b < span) {
    uint64_t wi = b / 64;  // the next set bit at or after b starts a run
    uint64_t cur = bits[wi] & (~uint64_t{0} << (b % 64));
    while (cur == 0 && ++wi < nwords) cur = bits[wi];
    if (cur == 0) break;
    const uint64_t start = wi * 64 + static_cast<uint64_t>(std::countr_zero(cur));
    wi = start / 64;  // the next clear bit after it ends the run
    uint64_t inv = ~bits[wi] & (~uint64_t{0} << (start % 64));
    while (inv == 0 && ++wi < nwords) inv = ~bits[wi];
    const uint64_t end = std::min(
        span, inv == 0 ? nwords * 64 : wi * 64 + static_cast<uint64_t>(std::countr_zero(inv)));
    append(out, static_cast<uint32_t>(base + start), static_cast<uint32_t>(base + end), access);
    b = end;
  }
}

void FootprintBuilder::build(const detail::FootprintSink& sink, CompactFootprint& out) {
  // Forget the previous word's lists (their buffers stay for reuse).
  for (auto [s, p] : out.touched) out.list_of[s][p] = CompactFootprint::kNone;
  out.touched.clear();
  out.nlists = 0;
  auto new_list = [&out]() -> std::vector<Interval>& {
    if (out.nlists == out.lists.size()) out.lists.emplace_back();
    std::vector<Interval>& l = out.lists[out.nlists++];
    l.clear();
    return l;
  };
  const std::size_t nw = sink.walks.size();
  GPSIMD_CHECK(nw <= walk_iv_.size());
  for (std::size_t i = 0; i < nw; ++i)
    walk_intervals(sink.walks[i].walk, walk_iv_[i], sink.walks[i].access);

  // Memory: partition p of a space is touched by the walks whose channels cover it; the
  // partitions covered by the same walks share one merged list. `touched` lists the
  // locations in SPEC §8.6's order: the byte spaces come first in the table.
  static_assert([] {
    bool bytes = true;
    for (const LocationSpaceDef& row : kLocationSpaceDefs) {
      if (row.memory && !bytes) return false;
      bytes = row.memory.has_value();
    }
    return true;
  }());
  for (const LocationSpaceDef& row : kLocationSpaceDefs) {
    if (!row.memory) continue;
    const Space space = *row.memory;
    const auto s = static_cast<unsigned>(row.space);
    // Only the partitions some walk of this space covers.
    unsigned p_lo = kPartitions, p_hi = 0;
    for (std::size_t i = 0; i < nw; ++i) {
      const auto& mw = sink.walks[i];
      if (mw.space != space) continue;
      p_lo = std::min(p_lo, mw.first);
      p_hi = std::max<unsigned>(p_hi, std::min<unsigned>(kPartitions, mw.first + mw.channels));
    }
    if (p_lo >= p_hi) continue;
    std::array<int16_t, 256> list_of_mask;
    list_of_mask.fill(CompactFootprint::kNone);
    for (unsigned p = p_lo; p < p_hi; ++p) {
      unsigned mask = 0;
      for (std::size_t i = 0; i < nw; ++i) {
        const auto& mw = sink.walks[i];
        if (mw.space != space || p < mw.first) continue;
        const unsigned c = p - mw.first;
        if (c < mw.channels && c % mw.every == 0) mask |= 1u << i;
      }
      if (mask == 0) continue;
      int16_t& slot = list_of_mask[mask];
      if (slot == CompactFootprint::kNone) {
        slot = static_cast<int16_t>(out.nlists);
        std::vector<Interval>& merged = new_list();
        if (std::has_single_bit(mask)) {
          merged = walk_iv_[static_cast<std::size_t>(std::countr_zero(mask))];
        } else {
          // Several walks: sweep their interval ends, counting the readers and writers
          // that cover each stretch.
          events_.clear();
          for (std::size_t i = 0; i < nw; ++i) {
            if (!(mask >> i & 1u)) continue;
            for (const Interval& iv : walk_iv_[i]) {
              const auto r = static_cast<int8_t>((static_cast<unsigned>(iv.access) & 1u) != 0);
              const auto wr = static_cast<int8_t>((static_cast<unsigned>(iv.access) & 2u) != 0);
              events_.push_back(Event{iv.lo, r, wr});
              events_.push_back(Event{iv.hi, static_cast<int8_t>(-r), static_cast<int8_t>(-wr)});
            }
          }
          std::sort(events_.begin(), events_.end(),
                    [](const Event& a, const Event& b) { return a.pos < b.pos; });
          int reads = 0, writes = 0;
          uint32_t prev = 0;
          for (std::size_t e = 0; e < events_.size();) {
            const uint32_t pos = events_[e].pos;
            if ((reads > 0 || writes > 0) && pos > prev)
              append(merged, prev, pos,
                     static_cast<AccessKind>((reads > 0 ? 1 : 0) | (writes > 0 ? 2 : 0)));
            for (; e < events_.size() && events_[e].pos == pos; ++e) {
              reads += events_[e].reads;
              writes += events_[e].writes;
            }
            prev = pos;
          }
        }
      }
      out.list_of[s][p] = slot;
      out.touched.emplace_back(static_cast<uint8_t>(s), static_cast<uint8_t>(p));
    }
  }
  // Accumulators and search lanes: one location per partition.
  for (const LocationSpaceDef& row : kLocationSpaceDefs) {
    if (row.memory) continue;
    const LocationSpace space = row.space;
    if (std::none_of(sink.states.begin(), sink.states.end(),
                     [&](const auto& st) { return st.space == space; }))
      continue;
    std::array<unsigned, kPartitions> flags{};
    bool any = false;
    for (const auto& st : sink.states) {
      if (st.space != space) continue;
      GPSIMD_CHECK(st.first + st.channels <= kPartitions);
      for (unsigned c = 0; c < st.channels; ++c)
        flags[st.first + c] |= static_cast<unsigned>(st.access);
      any = true;
    }
    if (!any) continue;
    std::array<int16_t, 4> list_of_access;
    list_of_access.fill(CompactFootprint::kNone);
    const auto s = static_cast<unsigned>(space);
    for (unsigned p = 0; p < kPartitions; ++p) {
      if (flags[p] == 0) continue;
      int16_t& slot = list_of_access[flags[p]];
      if (slot == CompactFootprint::kNone) {
        slot = static_cast<int16_t>(out.nlists);
        new_list().push_back(Interval{0, 1, static_cast<AccessKind>(flags[p])});
      }
      out.list_of[s][p] = slot;
      out.touched.emplace_back(static_cast<uint8_t>(s), static_cast<uint8_t>(p));
    }
  }
}

std::vector<FootprintRange> ranges_of(const CompactFootprint& fp) {
  std::vector<FootprintRange> out;
  for (unsigned s = 0; s < kLocationSpaces; ++s)
    for (unsigned p = 0; p < kPartitions; ++p)
      for (const Interval& iv : fp.at(s, p))
        out.push_back(FootprintRange{static_cast<LocationSpace>(s), p, iv.lo, iv.hi, iv.access});
  // The touched list names exactly those partitions, in the same order.
  std::size_t n = 0;
  for (auto [s, p] : fp.touched) {
    GPSIMD_CHECK(!fp.at(s, p).empty());
    n += fp.at(s, p).size();
  }
  GPSIMD_CHECK(n == out.size());
  return out;
}

}  // namespace gpsimd::program

namespace gpsimd {

std::optional<AccessKind> Footprint::access(const RaceLocation& where) const {
  for (const FootprintRange& r : ranges)
    if (r.space == where.space && r.partition == where.partition && r.lo <= where.offset &&
        where.offset < r.hi)
      return r.access;
  return std::nullopt;
}

Footprint footprint(const Word& w, const Machine& m, Engine engine, bool strict) {
  Footprint out;
  out.invalid = validate(w, m.generation(), ValidateOptions{strict, engine});
  if (!out.invalid.empty()) return out;
  const InstrDef& def = *find_instruction(w[0]);
  const detail::OpSemantics& ops = detail::semantics(def);
  GPSIMD_CHECK(ops.operands != nullptr);
  // SPEC §8.5: a word that faults has no footprint. The faults that come before the
  // operands are resolved (unsupported-op) and after (shape-mismatch, too-large) are
  // found by executing the word on a scratch machine with the same registers (the wait is
  // not checked: SPEC §8.5 is about what a word touches once it issues).
  {
    Machine scratch(m.generation());  // the faults depend on the registers, never on memory
    scratch.registers = m.registers;
    if (auto f =
            detail::execute_validated(scratch, w, def, def.engine_for(engine), false, nullptr)) {
      out.fault = std::move(f);
      return out;
    }
  }
  detail::FootprintSink sink;
  if (auto f = detail::operand_footprint(*ops.operands, w, m, def.engine_for(engine), sink)) {
    out.fault = std::move(f);
    return out;
  }
  program::FootprintBuilder builder;
  program::CompactFootprint compact;
  builder.build(sink, compact);
  out.ranges = program::ranges_of(compact);
  return out;
}

}  // namespace gpsimd
