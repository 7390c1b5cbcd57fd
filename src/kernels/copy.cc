// Copy and Cast (SPEC §4.16, §4.17), one channel: the walks a run at a time
// (walk_cursor.h: dense runs in place, strided 4-byte runs through stream.h's permuting
// reads), the elements through the conversion piece's vector loops (convert.h).
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/convert.h"
#include "kernels/kernels.h"
#include "kernels/stream.h"
#include "kernels/walk_cursor.h"

namespace gpsimd::kernels {
namespace {

thread_local std::vector<uint8_t> t_in, t_out;

}  // namespace

bool copy_channel(const uint8_t* partition, const Walk& src, Dtype in, uint8_t* dst,
                  const Walk& dst_walk, Dtype out, bool through_fp32) {
  const unsigned isz = src.elem, osz = dst_walk.elem;
  const uint64_t count = src.count();
  const Rows sr = Rows::of(src), dr = Rows::of(dst_walk);
  const bool copy = in == out && !through_fp32;
  auto convert = [&](const uint8_t* x, uint64_t m, uint8_t* y) {
    if (through_fp32)
      simd::through_fp32(in, out, x, m, y);
    else
      simd::cast(in, out, x, m, y);
  };
  // Both walks one dense run: one call, no buffers. (A destination that overlaps the
  // source is a shadow copy the Writer made, never the source itself.)
  if (sr.dense() && dr.dense()) {
    if (copy)
      std::memcpy(dst + dr.start, partition + sr.start, count * isz);
    else
      convert(partition + sr.start, count, dst + dr.start);
    return true;
  }
  Cursor dc(dr);
  // Rows of 4-byte elements a step apart (a transposed pair of dimensions: rows of a
  // large step), as many whole rows at a time as fill a chunk: one call reads them all.
  if (isz == 4 && sr.n2 == 1 && sr.n3 == 1 && sr.n1 > 1 && sr.step != 1 && sr.len >= 16 &&
      sr.len <= kChunk) {
    const uint64_t per = std::max<uint64_t>(1, kChunk / sr.len);
    uint8_t* inbuf = scratch(t_in, kChunk * 4);
    uint8_t* outbuf = scratch(t_out, kChunk * 4);
    for (uint64_t r0 = 0; r0 < sr.n1; r0 += per) {
      const uint64_t rows = std::min(per, sr.n1 - r0), m = rows * sr.len;
      uint8_t* o = dc.direct(dst, m);
      uint8_t* x = copy && o ? o : inbuf;
      stream::read_rows32(partition + sr.start + static_cast<int64_t>(r0) * sr.step1 * 4,
                          sr.step * 4, sr.len, sr.step1 * 4, rows, x);
      if (copy) {
        if (!o) write_run(dc, osz, dst, m, x);
      } else {
        convert(x, m, o ? o : outbuf);
        if (!o) write_run(dc, osz, dst, m, outbuf);
      }
    }
    return true;
  }
  // BF16 a word apart into FP32 (a step-2 walk; the conversion adds nothing to FP32's
  // bits): each run widened from the partition's words in one pass, straight into a dense
  // destination run, instead of a compacting read and a conversion.
  if (in == Dtype::BF16 && (out == Dtype::FP32 || out == Dtype::FP32R) && sr.step == 2) {
    Cursor sc(sr);
    uint8_t* outbuf = scratch(t_out, kChunk * 4);
    for (uint64_t j0 = 0; j0 < count;) {
      const Cursor::Run run = sc.next(std::min(kChunk, count - j0));
      uint8_t* o = dc.direct(dst, run.count);
      simd::widen_bf16_words(partition + run.offset, run.count, o ? o : outbuf);
      if (!o) write_run(dc, osz, dst, run.count, outbuf);
      j0 += run.count;
    }
    return true;
  }
  Cursor sc(sr);
  if (copy) {
    copy_runs(sc, partition, dc, dst, isz, count, scratch(t_in, kCopyChunk * 4));
    return true;
  }
  uint8_t* inbuf = scratch(t_in, kChunk * 4);
  uint8_t* outbuf = scratch(t_out, kChunk * 4);
  for (uint64_t j0 = 0; j0 < count;) {
    const uint64_t m = std::min(kChunk, count - j0);
    const uint8_t* x = read_run(sc, isz, partition, m, inbuf);
    uint8_t* o = dc.direct(dst, m);
    convert(x, m, o ? o : outbuf);
    if (!o) write_run(dc, osz, dst, m, outbuf);
    j0 += m;
  }
  return true;
}

}  // namespace gpsimd::kernels
