// The ALU instructions' channel kernels (alu_stream.h): walks a chunk at a time, the
// conversions of SPEC §5 / §5.1 on the FP32 path, the ALU's vector loops. The element
// work is all in SIMD loops compiled per target and dispatched at run time (alu/simd.cc,
// convert.cc); what is here only moves chunks, so it is compiled once.
#include "kernels/alu_stream.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "alu/eval.h"
#include "gpsimd/format.h"
#include "kernels/convert.h"
#include "kernels/walk_cursor.h"

namespace gpsimd::kernels {
namespace {

namespace as = alu::simd;

bool is_fp32(Dtype dt) {
  return dt == Dtype::FP32 || dt == Dtype::FP32R;
}
bool is_int32(Dtype dt) {
  return dt == Dtype::INT32 || dt == Dtype::UINT32;
}
// A dtype the FP32 path converts here: FP32, the narrow floats and the six integer dtypes,
// all through the conversion piece's vector loops (convert.h).
bool converts(Dtype dt) {
  return is_fp32(dt) || is_int_dtype(dt) || minifloat_format(dt) != nullptr;
}

// Per thread, so that channels may run in parallel: the raw chunks of the sources and
// the destination (4 bytes an element at most), and the FP32 chunks.
thread_local std::vector<uint8_t> t_raw0, t_raw1, t_rawd;
thread_local std::vector<uint32_t> t_f0, t_f1, t_fr;

// The m elements of dt at x as FP32 patterns (SPEC §5.1's to_fp32): x itself for FP32,
// otherwise converted into buf by the conversion piece's vector loops.
const void* fp32_chunk(Dtype dt, const uint8_t* x, uint64_t m, uint32_t* buf) {
  if (is_fp32(dt)) return x;
  simd::to_fp32(dt, x, m, buf);
  return buf;
}

// The m FP32 patterns r converted to dt (from_fp32) into out; dt is not FP32.
void store_from_fp32(Dtype dt, const uint32_t* r, uint64_t m, uint8_t* out) {
  simd::from_fp32(dt, r, m, out);
}

// The FP32 path's result: compute(into) writes m FP32 patterns; straight into the
// destination's bytes when it is FP32, else into `buf` (an operand's converted chunk,
// which the ALU loops may overwrite in place, or t_fr) and through the conversion.
template <class Compute>
bool fp32_result(Dtype out, uint64_t m, uint8_t* target, uint32_t* buf, Compute&& compute) {
  if (is_fp32(out)) return compute(static_cast<void*>(target));
  uint32_t* r = buf ? buf : scratch(t_fr, kChunk);
  if (!compute(static_cast<void*>(r))) return false;
  store_from_fp32(out, r, m, target);
  return true;
}

// Elements per chunk on the FP32 path with conversions: the narrow operands, their FP32
// chunks and the result stay in L1 together.
constexpr uint64_t kConvertChunk = 1024;

}  // namespace

bool tensor_tensor_handles(const TensorTensorOp& k) {
  switch (k.path) {
    case AluPath::RawBits: {
      const auto s = dtype_size(k.out);
      return alu::bits_path_has(k.op) && s && *s <= 4 && dtype_size(k.lo) == s &&
             dtype_size(k.hi) == s;
    }
    case AluPath::NativeInteger:
      return alu::native_path_has(k.op) && is_int32(k.lo) && is_int32(k.hi) && is_int_dtype(k.out);
    case AluPath::Fp32:
      return alu::fp32_path_has(k.op) && converts(k.lo) && converts(k.hi) && converts(k.out);
  }
  return false;
}

bool tensor_tensor_channel(const TensorTensorOp& k, const uint8_t* in0, const Walk& w0,
                           const uint8_t* in1, const Walk& w1, uint8_t* dst, const Walk& wd) {
  if (!tensor_tensor_handles(k)) return false;
  const unsigned s0 = w0.elem, s1 = w1.elem, sd = wd.elem;
  const uint64_t count = wd.count();
  if (w0.count() != count || w1.count() != count) return false;
  uint8_t* raw0 = scratch(t_raw0, kChunk * 4);
  uint8_t* raw1 = scratch(t_raw1, kChunk * 4);
  uint8_t* rawd = scratch(t_rawd, kChunk * 4);
  uint32_t* f0 = scratch(t_f0, kChunk);
  uint32_t* f1 = scratch(t_f1, kChunk);
  const Rows r0 = Rows::of(w0), r1 = Rows::of(w1), rd = Rows::of(wd);
  // Three dense runs with nothing to convert are one call, in place.
  const bool raw = k.path != AluPath::Fp32 || (is_fp32(k.lo) && is_fp32(k.hi) && is_fp32(k.out));
  const uint64_t chunk =
      raw ? (r0.dense() && r1.dense() && rd.dense() ? count : kChunk) : kConvertChunk;
  Cursor c0(r0), c1(r1), cd(rd);
  for (uint64_t j0 = 0; j0 < count;) {
    const uint64_t m = std::min(chunk, count - j0);
    const uint8_t* x0 = read_run(c0, s0, in0, m, raw0);
    const uint8_t* x1 = read_run(c1, s1, in1, m, raw1);
    uint8_t* o = cd.direct(dst, m);
    uint8_t* target = o ? o : rawd;
    bool ok = false;
    switch (k.path) {
      case AluPath::RawBits:
        ok = as::bits_binary(k.op, 8 * sd, x0, x1, m, target);
        break;
      case AluPath::NativeInteger:
        ok = as::native_binary(k.op, k.lo, x0, k.hi, x1, m, k.out, target);
        break;
      case AluPath::Fp32: {
        const void* a = fp32_chunk(k.lo, x0, m, f0);
        const void* b = fp32_chunk(k.hi, x1, m, f1);
        ok = fp32_result(k.out, m, target,
                         a == f0   ? f0
                         : b == f1 ? f1
                                   : nullptr,
                         [&](void* r) { return as::fp32_binary(k.op, a, b, m, r); });
        break;
      }
    }
    if (!ok) return false;
    if (!o) write_run(cd, sd, dst, m, rawd);
    j0 += m;
  }
  return true;
}

bool tensor_scalar_handles(const TensorScalarOp& k) {
  if (k.bitvec) {
    const auto s = dtype_size(k.din);
    return alu::bits_path_has(k.op0) && alu::bits_path_has(k.op1) && s && *s <= 4 &&
           dtype_size(k.dout) == s;
  }
  return alu::fp32_path_has(k.op0) && alu::fp32_path_has(k.op1) && converts(k.din) &&
         converts(k.dout);
}

bool tensor_scalar_channel(const TensorScalarOp& k, uint32_t s0, uint32_t s1, const uint8_t* in,
                           const Walk& src, uint8_t* dst, const Walk& wd) {
  if (!tensor_scalar_handles(k)) return false;
  const unsigned si = src.elem, sd = wd.elem;
  const uint64_t count = wd.count();
  if (src.count() != count) return false;
  const as::ScalarOp op0{k.op0, s0, k.rev0}, op1{k.op1, s1, k.rev1};
  uint8_t* raw = scratch(t_raw0, kChunk * 4);
  uint8_t* rawd = scratch(t_rawd, kChunk * 4);
  uint32_t* f = scratch(t_f0, kChunk);
  const Rows rs = Rows::of(src), rd = Rows::of(wd);
  // Two dense runs with nothing to convert are one call, in place.
  const bool same = k.bitvec || (is_fp32(k.din) && is_fp32(k.dout));
  const uint64_t chunk = same ? (rs.dense() && rd.dense() ? count : kChunk) : kConvertChunk;
  Cursor cs(rs), cd(rd);
  for (uint64_t j0 = 0; j0 < count;) {
    const uint64_t m = std::min(chunk, count - j0);
    const uint8_t* x = read_run(cs, si, in, m, raw);
    uint8_t* o = cd.direct(dst, m);
    uint8_t* target = o ? o : rawd;
    bool ok = false;
    if (k.bitvec) {
      ok = as::bits_scalar2(op0, op1, 8 * si, x, m, target);
    } else {
      const void* xf = fp32_chunk(k.din, x, m, f);
      ok = fp32_result(k.dout, m, target, xf == f ? f : nullptr,
                       [&](void* r) { return as::fp32_scalar2(op0, op1, xf, m, r); });
    }
    if (!ok) return false;
    if (!o) write_run(cd, sd, dst, m, rawd);
    j0 += m;
  }
  return true;
}

}  // namespace gpsimd::kernels
