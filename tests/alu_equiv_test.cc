// The ALU evaluator's vector loops (src/alu/simd.h) against its scalar reference
// (src/alu/eval.h), bit for bit, on every SIMD target compiled in that this CPU supports:
// every op of each datapath, every form (two runs, run and scalar, scalar and run,
// TensorScalar's two ops), every width of the bits path, every output width of the
// native path. The inputs are all pairs of each datapath's edge values (NaN payloads
// quiet and signalling of both signs, ±0, ±inf, subnormals, FLT_MAX; INT32/UINT32 values
// beyond 2^24, INT32_MIN; shift counts 0, w-1, w, w+1, all ones) plus random patterns,
// over lengths 0..70 and long runs, at misaligned addresses, with the bytes around the
// output checked untouched. SPEC §3.8.2's own examples are checked on their own, and so
// is the refusal (false, nothing written) of every op outside a datapath.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "alu/eval.h"
#include "alu/simd.h"
#include "gpsimd/alu.h"
#include "gpsimd/format.h"

namespace gpsimd {
namespace {

using alu::simd::ScalarOp;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

// Runs f once for every SIMD target compiled in and supported here, then restores the
// default choice.
template <class F>
void for_each_target(F f) {
  hwy::SetSupportedTargetsForTest(0);
  const int64_t supported = hwy::SupportedTargets() | HWY_SCALAR;
  int ran = 0;
  for (int64_t t : {int64_t{HWY_AVX3}, int64_t{HWY_AVX2}, int64_t{HWY_SCALAR}}) {
    if ((supported & t) == 0) continue;
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(alu::simd::target_name());
    f();
    ++ran;
  }
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_GE(ran, 2);  // at least one SIMD target and the fallback
}

std::vector<uint8_t> all_op_codes() {
  std::vector<uint8_t> v;
  for (const alu::OpRow& r : alu::kOps) v.push_back(r.code);
  return v;
}
std::vector<uint8_t> ops_where(bool (*has)(uint8_t)) {
  std::vector<uint8_t> v;
  for (uint8_t op : all_op_codes())
    if (has(op)) v.push_back(op);
  return v;
}

// ---- inputs --------------------------------------------------------------------------

const std::vector<uint32_t> kFp32Edges = {
    0x00000000, 0x80000000,                                                  // ±0
    0x7f800000, 0xff800000,                                                  // ±inf
    0x7fc00000, 0xffc00000, 0x7fc00001, 0xffd23456,                          // quiet NaNs, payloads
    0x7f800001, 0xff800001, 0x7fbfffff, 0xffa00000,                          // signalling NaNs
    0x7fffffff, 0xffffffff,                                                  // all-ones payloads
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x80000003,  // subnormals
    0x00800000, 0x80800000,                                                  // smallest normals
    0x7f7fffff, 0xff7fffff, 0x7f000000,                                      // FLT_MAX, 2^127
    0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x40400000, 0xc0a00000,  // 1, -1, .5, 2, 3, -5
    0x4b800000, 0x4b800001, 0xcb800001,                                      // 2^24, beyond it
    0x1f800000, 0x9f800000, 0x20000000,  // 2^-64: squares underflow to subnormals
    0x3fffffff, 0x3f800001, 0x33800000,  // rounding neighbours
};

const std::vector<uint32_t> kIntEdges = {
    0x00000000, 0x00000001, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 0x00000002, 0xfffffffe,
    0x7ffffffe, 0x01000001, 0x01000000, 0x00ffffff, 0xff000001, 0x12345678, 0x9abcdef0, 0x00000064,
    0xffffff9c, 0x0000ffff, 0x00010000, 0x000000ff, 0x00000100, 0xffff0000, 0x0000b504, 0x00010001,
};

std::vector<uint32_t> bits_edges(unsigned w) {
  const uint32_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
  std::vector<uint32_t> v = {0,
                             1,
                             w - 1,
                             w,
                             w + 1,
                             2 * w,
                             mask,
                             mask - 1,
                             1u << (w - 1),
                             (1u << (w - 1)) | 1,
                             mask >> 1,
                             0x55555555u & mask,
                             0xaaaaaaaau & mask,
                             0x12345678u & mask,
                             3,
                             7,
                             8,
                             15,
                             16,
                             31};
  for (uint32_t& x : v) x &= mask;
  return v;
}

// Every pair of edge values (a = edges[i / m], b = edges[i % m]), then `random` random
// pairs, some of which reuse an edge value on one side. `pattern` turns 64 random bits
// into an element.
struct Pairs {
  std::vector<uint32_t> a, b;
  size_t size() const { return a.size(); }
};
Pairs make_pairs(const std::vector<uint32_t>& edges, size_t random, uint64_t seed,
                 uint32_t mask = 0xffffffffu) {
  Pairs p;
  for (uint32_t x : edges)
    for (uint32_t y : edges) p.a.push_back(x & mask), p.b.push_back(y & mask);
  uint64_t s = seed;
  for (size_t i = 0; i < random; ++i) {
    uint32_t x = static_cast<uint32_t>(splitmix(s)), y = static_cast<uint32_t>(splitmix(s));
    const uint64_t r = splitmix(s);
    if (r % 4 == 0) x = edges[(r >> 8) % edges.size()];
    if (r % 4 == 1) y = edges[(r >> 8) % edges.size()];
    p.a.push_back(x & mask), p.b.push_back(y & mask);
  }
  return p;
}

// ---- the run harness -----------------------------------------------------------------

// n elements of `size` bytes, v[first..first+n), at byte offset `off` of a fresh buffer.
struct Placed {
  std::vector<uint8_t> buf;
  const uint8_t* at;
};
Placed place(const std::vector<uint32_t>& v, size_t first, size_t n, unsigned size, unsigned off) {
  Placed p;
  if (first + n > v.size()) throw std::logic_error("place: beyond the inputs");
  p.buf.assign(off + n * size + 8, 0xee);
  for (size_t i = 0; i < n; ++i) std::memcpy(&p.buf[off + i * size], &v[first + i], size);
  p.at = p.buf.data() + off;
  return p;
}

// Runs `run(out)` into a buffer whose element run starts at byte offset `off`, with
// guard bytes around it; expects element i to be expect(i) (its low osz bytes) and the
// guards untouched, and `run` to return true.
void check_run(const std::string& what, size_t n, unsigned osz, unsigned off,
               const std::function<bool(uint8_t*)>& run,
               const std::function<uint32_t(size_t)>& expect) {
  constexpr uint8_t kGuard = 0xa5;
  std::vector<uint8_t> out(off + n * osz + 72, kGuard);
  ASSERT_TRUE(run(out.data() + off)) << what;
  for (size_t i = 0; i < off; ++i) ASSERT_EQ(out[i], kGuard) << what << ": wrote before the run";
  for (size_t i = off + n * osz; i < out.size(); ++i)
    ASSERT_EQ(out[i], kGuard) << what << ": wrote past the run (n = " << n << ")";
  for (size_t i = 0; i < n; ++i) {
    uint32_t got = 0;
    std::memcpy(&got, &out[off + i * osz], osz);
    const uint32_t mask = osz == 4 ? 0xffffffffu : (1u << (8 * osz)) - 1;
    const uint32_t want = expect(i) & mask;
    if (got != want) {
      FAIL() << what << ", n = " << n << ", element " << i << ": got 0x" << std::hex << got
             << ", want 0x" << want;
    }
  }
}

// The lengths of the short-run sweep: 0..70 (every tail of every vector width, one and
// two vectors of 16 lanes and more), and where in the pair list each starts.
constexpr size_t kShortMax = 70;

// Calls body(first, n, offset) for the long run (every pair, offset 0 and an odd offset)
// and for each short length at a spread of starts and misaligned offsets.
void sweep(size_t pairs, const std::function<void(size_t, size_t, unsigned)>& body) {
  body(0, pairs, 0);
  if (testing::Test::HasFatalFailure()) return;
  body(1, pairs - 1, 3);
  for (size_t n = 0; n <= kShortMax && !testing::Test::HasFatalFailure(); ++n)
    body((n * 37) % (pairs - kShortMax), n, static_cast<unsigned>(n % 4));
}

std::string dt_name(Dtype dt) {
  return std::string(dtype_name(static_cast<uint8_t>(dt)).value_or("?"));
}
std::string op_name(uint8_t op) {
  const alu::OpRow* r = alu::find_op(op);
  return r ? std::string(r->name) : std::to_string(op);
}

// ---- the FP32 path -------------------------------------------------------------------

TEST(AluEquivTest, Fp32Binary) {
  const Pairs p = make_pairs(kFp32Edges, 1500, 1);
  const std::vector<uint8_t> ops = ops_where(alu::fp32_path_has);
  ASSERT_EQ(ops.size(), 21u);  // SPEC §3.8: the 21 is_general_arith_op ops of V4/V5
  for_each_target([&] {
    for (uint8_t op : ops) {
      sweep(p.size(), [&](size_t first, size_t n, unsigned off) {
        const Placed a = place(p.a, first, n, 4, off), b = place(p.b, first, n, 4, (off + 1) % 4);
        check_run(
            "fp32_binary " + op_name(op), n, 4, (off + 2) % 4,
            [&](uint8_t* out) { return alu::simd::fp32_binary(op, a.at, b.at, n, out); },
            [&](size_t i) { return alu::eval_fp32(op, p.a[first + i], p.b[first + i]); });
      });
      if (HasFatalFailure()) return;
    }
  });
}

TEST(AluEquivTest, Fp32BinaryInPlace) {
  const Pairs p = make_pairs(kFp32Edges, 300, 2);
  for_each_target([&] {
    for (uint8_t op : ops_where(alu::fp32_path_has)) {
      for (int which = 0; which < 2; ++which) {
        std::vector<uint32_t> a = p.a, b = p.b;
        ASSERT_TRUE(alu::simd::fp32_binary(op, a.data(), b.data(), a.size(),
                                           which == 0 ? a.data() : b.data()));
        const std::vector<uint32_t>& got = which == 0 ? a : b;
        for (size_t i = 0; i < p.size(); ++i)
          ASSERT_EQ(got[i], alu::eval_fp32(op, p.a[i], p.b[i])) << op_name(op) << " " << i;
      }
    }
  });
}

TEST(AluEquivTest, Fp32Scalar) {
  const Pairs p = make_pairs(kFp32Edges, 700, 3);
  std::vector<uint32_t> scalars = kFp32Edges;
  uint64_t s = 33;
  for (int i = 0; i < 4; ++i) scalars.push_back(static_cast<uint32_t>(splitmix(s)));
  for_each_target([&] {
    for (uint8_t op : ops_where(alu::fp32_path_has)) {
      for (uint32_t sc : scalars) {
        for (bool rev : {false, true}) {
          // The long run over every x, and a few short ones.
          for (size_t n : {p.size(), size_t{0}, size_t{1}, size_t{15}, size_t{17}, size_t{33}}) {
            const unsigned off = static_cast<unsigned>(n % 3);
            const Placed x = place(p.a, 0, n, 4, off);
            check_run(
                "fp32_scalar " + op_name(op) + (rev ? " reversed" : ""), n, 4, 1,
                [&](uint8_t* out) { return alu::simd::fp32_scalar(op, x.at, sc, rev, n, out); },
                [&](size_t i) {
                  return rev ? alu::eval_fp32(op, sc, p.a[i]) : alu::eval_fp32(op, p.a[i], sc);
                });
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  });
}

// SPEC §4.15's formula, written from SPEC: BYPASS passes the data side.
uint32_t two_ops_fp32(ScalarOp o0, ScalarOp o1, uint32_t x) {
  const auto step = [](ScalarOp o, uint32_t v) {
    if (o.op == static_cast<uint8_t>(AluOp::BYPASS)) return v;
    return o.reverse ? alu::eval_fp32(o.op, o.s, v) : alu::eval_fp32(o.op, v, o.s);
  };
  return step(o1, step(o0, x));
}

TEST(AluEquivTest, Fp32Scalar2) {
  const Pairs p = make_pairs(kFp32Edges, 400, 4);  // x = p.a: every edge, many times
  const std::vector<uint8_t> ops = ops_where(alu::fp32_path_has);
  const uint32_t s0s[] = {0x3fc00000, 0x80000000, 0x7f800001,
                          0x00000001};  // 1.5, -0, sNaN, subnormal
  const uint32_t s1s[] = {0xc0200000, 0x00000000, 0xff800000,
                          0x7f7fffff};  // -2.5, +0, -inf, FLT_MAX
  for_each_target([&] {
    int k = 0;
    for (uint8_t op0 : ops) {
      for (uint8_t op1 : ops) {
        for (int rev = 0; rev < 4; ++rev, ++k) {
          const ScalarOp o0{op0, s0s[k % 4], (rev & 1) != 0};
          const ScalarOp o1{op1, s1s[(k / 4) % 4], (rev & 2) != 0};
          // Lengths across the two-pass pieces (512 FP32 elements) and short tails.
          const size_t n = k % 3 == 0 ? p.size() : k % 3 == 1 ? 1030 : static_cast<size_t>(k % 71);
          const unsigned off = static_cast<unsigned>(k % 4);
          const Placed x = place(p.a, 0, n, 4, off);
          check_run(
              "fp32_scalar2 " + op_name(op0) + ", " + op_name(op1) + " rev " + std::to_string(rev),
              n, 4, (off + 1) % 4,
              [&](uint8_t* out) { return alu::simd::fp32_scalar2(o0, o1, x.at, n, out); },
              [&](size_t i) { return two_ops_fp32(o0, o1, p.a[i]); });
          if (HasFatalFailure()) return;
        }
      }
    }
    // In place, the way an instruction updating its own source would call it.
    std::vector<uint32_t> x = p.a;
    const ScalarOp mul{static_cast<uint8_t>(AluOp::MULT), 0x3fc00000, false};
    const ScalarOp add{static_cast<uint8_t>(AluOp::ADD), 0xc0200000, true};
    ASSERT_TRUE(alu::simd::fp32_scalar2(mul, add, x.data(), x.size(), x.data()));
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x[i], two_ops_fp32(mul, add, p.a[i]));
  });
}

// SPEC §3.8.2 and §4.15's examples and the no-flush rule, from SPEC's text (not from
// eval.cc), through the vector loops of every target.
TEST(AluEquivTest, Fp32SpecExamples) {
  struct Ex {
    AluOp op;
    uint32_t a, b, want;
  };
  const Ex examples[] = {
      {AluOp::ADD, 0x3f800000, 0x7f800001, 0x7fc00000},
      {AluOp::MAX, 0x80000000, 0x00000000, 0x00000000},
      {AluOp::MAX, 0x00000000, 0x80000000, 0x00000000},
      {AluOp::MIN, 0x80000000, 0x00000000, 0x80000000},
      {AluOp::MIN, 0x7fc00001, 0xc0000000, 0xc0000000},
      {AluOp::MAX, 0x7fc00001, 0xff800001, 0x7fc00000},  // two NaNs
      {AluOp::ABS_MAX, 0xc0a00000, 0x40400000, 0xc0a00000},
      {AluOp::ABS_MAX, 0x3f800000, 0xbf800000, 0xbf800000},  // a tie gives b
      {AluOp::ABS_MIN, 0x40a00000, 0xc0400000, 0xc0400000},
      {AluOp::ABS_MAX, 0x7f800001, 0x3f800000, 0x3f800000},  // NaN: b
      {AluOp::IS_NE, 0x7fc00000, 0x7fc00000, 0x3f800000},
      {AluOp::IS_EQ, 0x80000000, 0x00000000, 0x3f800000},
      {AluOp::IS_EQ, 0x7fc00000, 0x7fc00000, 0x00000000},
      {AluOp::IS_GE, 0x7fc00000, 0x3f800000, 0x00000000},
      {AluOp::RE_LU, 0xffc00000, 0x00000000, 0x00000000},
      {AluOp::RE_LU, 0x80000000, 0x00000000, 0x00000000},
      {AluOp::LOGICAL_AND, 0x7fc00000, 0x80000001, 0x3f800000},
      {AluOp::LOGICAL_OR, 0x80000000, 0x00000000, 0x00000000},
      {AluOp::BYPASS, 0x7f800001, 0x00000000, 0x7f800001},  // payload kept
      {AluOp::ABSOLUTE_VALUE, 0xff800001, 0x00000000, 0x7fc00000},
      {AluOp::SUBTRACT, 0x7f800000, 0x7f800000, 0x7fc00000},
      {AluOp::MULT, 0x00000000, 0xff800000, 0x7fc00000},
      {AluOp::ADD, 0x80000000, 0x80000000, 0x80000000},
      {AluOp::SUBTRACT, 0x80000000, 0x00000000, 0x80000000},
      {AluOp::ADD, 0x3f800000, 0xbf800000, 0x00000000},
      {AluOp::MULT, 0x7f7fffff, 0x40000000, 0x7f800000},
      // Subnormals kept: nothing flushes inputs or results.
      {AluOp::ADD, 0x00000001, 0x00000001, 0x00000002},
      {AluOp::SUBTRACT, 0x00800000, 0x00000001, 0x007fffff},
      {AluOp::MULT, 0x00800000, 0x3f000000, 0x00400000},
      {AluOp::SQUARE, 0x1f800000, 0x00000000, 0x00200000},  // (2^-64)^2 = 2^-128
  };
  for_each_target([&] {
    for (const Ex& e : examples) {
      for (size_t n : {size_t{1}, size_t{37}}) {
        const std::vector<uint32_t> a(n, e.a), b(n, e.b);
        std::vector<uint32_t> out(n, 0xdeadbeef);
        const uint8_t op = static_cast<uint8_t>(e.op);
        ASSERT_TRUE(alu::simd::fp32_binary(op, a.data(), b.data(), n, out.data()));
        for (uint32_t r : out)
          ASSERT_EQ(r, e.want) << op_name(op) << std::hex << " 0x" << e.a << ", 0x" << e.b;
        ASSERT_EQ(alu::eval_fp32(op, e.a, e.b), e.want) << "the reference: " << op_name(op);
      }
    }
    // TensorScalar's unary rule: ABSOLUTE_VALUE reversed computes on the scalar.
    const std::vector<uint32_t> x(20, 0xc0a00000);
    std::vector<uint32_t> out(20);
    const ScalarOp abs_rev{static_cast<uint8_t>(AluOp::ABSOLUTE_VALUE), 0x40400000, true};
    const ScalarOp bypass{static_cast<uint8_t>(AluOp::BYPASS), 0x12345678, true};
    ASSERT_TRUE(alu::simd::fp32_scalar2(abs_rev, bypass, x.data(), 20, out.data()));
    for (uint32_t r : out) ASSERT_EQ(r, 0x40400000u);
    // BYPASS op0 passes the data side even reversed.
    ASSERT_TRUE(alu::simd::fp32_scalar2(bypass, bypass, x.data(), 20, out.data()));
    for (uint32_t r : out) ASSERT_EQ(r, 0xc0a00000u);
  });
}

// ---- the native integer path ---------------------------------------------------------

int64_t value_of(Dtype dt, uint32_t bits) {
  return dt == Dtype::INT32 ? static_cast<int64_t>(static_cast<int32_t>(bits))
                            : static_cast<int64_t>(bits);
}
const Dtype kNativeIn[] = {Dtype::INT32, Dtype::UINT32};
const Dtype kNativeOut[] = {Dtype::INT32,  Dtype::UINT32, Dtype::INT16,
                            Dtype::UINT16, Dtype::INT8,   Dtype::UINT8};

TEST(AluEquivTest, NativeBinary) {
  const Pairs p = make_pairs(kIntEdges, 1000, 5);
  const std::vector<uint8_t> ops = ops_where(alu::native_path_has);
  ASSERT_GT(ops.size(), 21u);
  for_each_target([&] {
    for (uint8_t op : ops) {
      for (Dtype da : kNativeIn) {
        for (Dtype db : kNativeIn) {
          for (Dtype dout : kNativeOut) {
            const unsigned osz = *dtype_size(dout);
            sweep(p.size(), [&](size_t first, size_t n, unsigned off) {
              const Placed a = place(p.a, first, n, 4, off), b = place(p.b, first, n, 4, 3 - off);
              check_run(
                  "native_binary " + op_name(op) + " " + dt_name(da) + ", " + dt_name(db) + " -> " +
                      dt_name(dout),
                  n, osz, (off + 1) % 4,
                  [&](uint8_t* out) {
                    return alu::simd::native_binary(op, da, a.at, db, b.at, n, dout, out);
                  },
                  [&](size_t i) {
                    return static_cast<uint32_t>(alu::eval_native(op, value_of(da, p.a[first + i]),
                                                                  value_of(db, p.b[first + i])));
                  });
            });
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  });
}

TEST(AluEquivTest, NativeScalar) {
  const Pairs p = make_pairs(kIntEdges, 600, 6);  // 1176 pairs
  for_each_target([&] {
    for (uint8_t op : ops_where(alu::native_path_has)) {
      for (Dtype dx : kNativeIn) {
        for (Dtype ds : kNativeIn) {
          for (uint32_t s : kIntEdges) {
            for (bool rev : {false, true}) {
              for (Dtype dout : {Dtype::INT32, Dtype::UINT8}) {
                const size_t n = dout == Dtype::INT32 ? p.size() : 1100;  // pieces of 512
                const Placed x = place(p.a, 0, n, 4, 1);
                check_run(
                    "native_scalar " + op_name(op) + (rev ? " reversed" : ""), n, *dtype_size(dout),
                    2,
                    [&](uint8_t* out) {
                      return alu::simd::native_scalar(op, dx, x.at, ds, s, rev, n, dout, out);
                    },
                    [&](size_t i) {
                      const int64_t vx = value_of(dx, p.a[i]), vs = value_of(ds, s);
                      return static_cast<uint32_t>(rev ? alu::eval_native(op, vs, vx)
                                                       : alu::eval_native(op, vx, vs));
                    });
                if (HasFatalFailure()) return;
              }
            }
          }
        }
      }
    }
  });
}

// SPEC §3.8.2's native examples, from SPEC's text.
TEST(AluEquivTest, NativeSpecExamples) {
  struct Ex {
    AluOp op;
    Dtype da;
    uint32_t a;
    Dtype db;
    uint32_t b;
    Dtype dout;
    uint32_t want;
  };
  const Ex examples[] = {
      {AluOp::ADD, Dtype::INT32, 0x7fffffff, Dtype::INT32, 1, Dtype::INT32, 0x80000000},
      {AluOp::ABSOLUTE_VALUE, Dtype::INT32, 0x80000000, Dtype::INT32, 0, Dtype::INT32, 0x80000000},
      {AluOp::IS_GT, Dtype::UINT32, 0xffffffff, Dtype::INT32, 0xffffffff, Dtype::INT32, 1},
      {AluOp::IS_EQ, Dtype::UINT32, 0xffffffff, Dtype::INT32, 0xffffffff, Dtype::INT32, 0},
      {AluOp::MAX, Dtype::INT32, 0xffffffff, Dtype::UINT32, 5, Dtype::UINT32, 5},
      {AluOp::MIN_UINT, Dtype::UINT32, 0xffffffff, Dtype::INT32, 0xffffffff, Dtype::INT32,
       0xffffffff},  // -1 < 2^32 - 1: the INT32 operand's bits
      {AluOp::ADD_INT, Dtype::INT32, 100, Dtype::INT32, 100, Dtype::INT8, 0xc8},
      {AluOp::ADD, Dtype::UINT32, 16777217, Dtype::UINT32, 0, Dtype::UINT32, 16777217},
      {AluOp::ABS_DIFF_INT, Dtype::INT32, 0x80000000, Dtype::UINT32, 0xffffffff, Dtype::UINT32,
       0x7fffffff},  // 2^32 - 1 + 2^31 = 0x17fffffff, wrapped
  };
  for_each_target([&] {
    for (const Ex& e : examples) {
      const std::vector<uint32_t> a(19, e.a), b(19, e.b);
      std::vector<uint32_t> out(19, 0);
      ASSERT_TRUE(alu::simd::native_binary(static_cast<uint8_t>(e.op), e.da, a.data(), e.db,
                                           b.data(), 19, e.dout, out.data()));
      const unsigned osz = *dtype_size(e.dout);
      for (size_t i = 0; i < 19; ++i) {
        uint32_t got = 0;
        std::memcpy(&got, reinterpret_cast<const uint8_t*>(out.data()) + i * osz, osz);
        ASSERT_EQ(got, e.want) << op_name(static_cast<uint8_t>(e.op));
      }
    }
  });
}

// ---- the raw-bits path ---------------------------------------------------------------

TEST(AluEquivTest, BitsBinary) {
  const std::vector<uint8_t> ops = ops_where(alu::bits_path_has);
  ASSERT_EQ(ops.size(), 9u);
  for_each_target([&] {
    for (unsigned w : {8u, 16u, 32u}) {
      const uint32_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
      const Pairs p = make_pairs(bits_edges(w), 1200, 7 + w, mask);
      for (uint8_t op : ops) {
        sweep(p.size(), [&](size_t first, size_t n, unsigned off) {
          const Placed a = place(p.a, first, n, w / 8, off),
                       b = place(p.b, first, n, w / 8, (off + 3) % 4);
          check_run(
              "bits_binary " + op_name(op) + " w" + std::to_string(w), n, w / 8, (off + 1) % 4,
              [&](uint8_t* out) { return alu::simd::bits_binary(op, w, a.at, b.at, n, out); },
              [&](size_t i) { return alu::eval_bits(op, p.a[first + i], p.b[first + i], w); });
        });
        if (HasFatalFailure()) return;
      }
    }
  });
}

TEST(AluEquivTest, BitsScalar) {
  for_each_target([&] {
    for (unsigned w : {8u, 16u, 32u}) {
      const uint32_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
      const Pairs p = make_pairs(bits_edges(w), 600, 9 + w, mask);
      std::vector<uint32_t> scalars = bits_edges(w);
      scalars.push_back(0xffffffffu);  // bits above the width are ignored
      scalars.push_back(0xffff0003u);
      scalars.push_back(0x00000100u | (w - 1));
      for (uint8_t op : ops_where(alu::bits_path_has)) {
        for (uint32_t s : scalars) {
          for (bool rev : {false, true}) {
            for (size_t n : {p.size(), size_t{0}, size_t{5}, size_t{63}, size_t{65}, size_t{70}}) {
              const unsigned off = static_cast<unsigned>(n % 4);
              const Placed x = place(p.a, 0, n, w / 8, off);
              check_run(
                  "bits_scalar " + op_name(op) + " w" + std::to_string(w) + " s " +
                      std::to_string(s) + (rev ? " reversed" : ""),
                  n, w / 8, (off + 2) % 4,
                  [&](uint8_t* out) { return alu::simd::bits_scalar(op, w, x.at, s, rev, n, out); },
                  [&](size_t i) {
                    return rev ? alu::eval_bits(op, s, p.a[i], w)
                               : alu::eval_bits(op, p.a[i], s, w);
                  });
              if (HasFatalFailure()) return;
            }
          }
        }
      }
    }
  });
}

uint32_t two_ops_bits(ScalarOp o0, ScalarOp o1, uint32_t x, unsigned w) {
  const auto step = [w](ScalarOp o, uint32_t v) {
    if (o.op == static_cast<uint8_t>(AluOp::BYPASS)) return v;
    return o.reverse ? alu::eval_bits(o.op, o.s, v, w) : alu::eval_bits(o.op, v, o.s, w);
  };
  return step(o1, step(o0, x));
}

TEST(AluEquivTest, BitsScalar2) {
  const std::vector<uint8_t> ops = ops_where(alu::bits_path_has);
  for_each_target([&] {
    for (unsigned w : {8u, 16u, 32u}) {
      const uint32_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
      const Pairs p = make_pairs(bits_edges(w), 1500, 11 + w, mask);
      const std::vector<uint32_t> counts = bits_edges(w);
      int k = 0;
      for (uint8_t op0 : ops) {
        for (uint8_t op1 : ops) {
          for (int rev = 0; rev < 4; ++rev, ++k) {
            const ScalarOp o0{op0, counts[static_cast<size_t>(k) % counts.size()], (rev & 1) != 0};
            const ScalarOp o1{op1, counts[static_cast<size_t>(k / 3) % counts.size()],
                              (rev & 2) != 0};
            const size_t n = k % 2 == 0 ? p.size() : static_cast<size_t>(k % 71);
            const unsigned off = static_cast<unsigned>(k % 4);
            const Placed x = place(p.a, 0, n, w / 8, off);
            check_run(
                "bits_scalar2 " + op_name(op0) + ", " + op_name(op1) + " w" + std::to_string(w), n,
                w / 8, 3 - off,
                [&](uint8_t* out) { return alu::simd::bits_scalar2(o0, o1, w, x.at, n, out); },
                [&](size_t i) { return two_ops_bits(o0, o1, p.a[i], w); });
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  });
}

// SPEC §3.8.2 and §4.15's raw-bits examples (INT16), from SPEC's text.
TEST(AluEquivTest, BitsSpecExamples) {
  struct Ex {
    AluOp op;
    uint32_t a, b, want;
  };
  const Ex examples[] = {
      {AluOp::ARITH_SHIFT_RIGHT, 0x8000, 3, 0xf000},
      {AluOp::ARITH_SHIFT_RIGHT, 0x8000, 0x0010, 0xffff},
      {AluOp::LOGICAL_SHIFT_RIGHT, 0x8000, 0xffff, 0x0000},
      {AluOp::LOGICAL_SHIFT_LEFT, 0x1234, 4, 0x2340},
  };
  for_each_target([&] {
    for (const Ex& e : examples) {
      const uint8_t op = static_cast<uint8_t>(e.op);
      const std::vector<uint16_t> a(41, static_cast<uint16_t>(e.a)),
          b(41, static_cast<uint16_t>(e.b));
      std::vector<uint16_t> out(41), out_s(41);
      ASSERT_TRUE(alu::simd::bits_binary(op, 16, a.data(), b.data(), 41, out.data()));
      ASSERT_TRUE(alu::simd::bits_scalar(op, 16, a.data(), e.b, false, 41, out_s.data()));
      for (size_t i = 0; i < 41; ++i) {
        ASSERT_EQ(out[i], e.want) << op_name(op);
        ASSERT_EQ(out_s[i], e.want) << op_name(op) << " by a scalar";
      }
    }
    const std::vector<uint16_t> x(9, 0x1234);
    std::vector<uint16_t> out(9);
    const ScalarOp not_rev{static_cast<uint8_t>(AluOp::BITWISE_NOT), 0x00ff, true};
    const ScalarOp bypass{static_cast<uint8_t>(AluOp::BYPASS), 0, false};
    ASSERT_TRUE(alu::simd::bits_scalar2(not_rev, bypass, 16, x.data(), 9, out.data()));
    for (uint16_t r : out) ASSERT_EQ(r, 0xff00);
  });
}

// ---- what each datapath refuses ------------------------------------------------------

TEST(AluEquivTest, RefusesWhatItDoesNotVectorise) {
  for_each_target([&] {
    const std::vector<uint32_t> a(40, 0x3f800000), b(40, 0x40000000);
    for (unsigned code = 0; code < 256; ++code) {
      const uint8_t op = static_cast<uint8_t>(code);
      std::vector<uint32_t> out(40, 0xdeadbeef);
      const auto untouched = [&] {
        return std::all_of(out.begin(), out.end(), [](uint32_t v) { return v == 0xdeadbeef; });
      };
      const ScalarOp ok{static_cast<uint8_t>(AluOp::ADD), 0, false};
      const ScalarOp other{op, 0, false};
      EXPECT_EQ(alu::simd::fp32_binary(op, a.data(), b.data(), 40, out.data()),
                alu::fp32_path_has(op));
      EXPECT_EQ(alu::simd::fp32_scalar(op, a.data(), 1, true, 40, out.data()),
                alu::fp32_path_has(op));
      EXPECT_EQ(alu::simd::fp32_scalar2(other, ok, a.data(), 40, out.data()),
                alu::fp32_path_has(op));
      EXPECT_EQ(alu::simd::fp32_scalar2(ok, other, a.data(), 40, out.data()),
                alu::fp32_path_has(op));
      if (!alu::fp32_path_has(op)) {
        EXPECT_TRUE(untouched()) << op_name(op);
      }
      out.assign(40, 0xdeadbeef);
      EXPECT_EQ(alu::simd::native_binary(op, Dtype::INT32, a.data(), Dtype::UINT32, b.data(), 40,
                                         Dtype::INT32, out.data()),
                alu::native_path_has(op));
      EXPECT_EQ(alu::simd::native_scalar(op, Dtype::INT32, a.data(), Dtype::INT32, 3, false, 40,
                                         Dtype::UINT8, out.data()),
                alu::native_path_has(op));
      if (!alu::native_path_has(op)) {
        EXPECT_TRUE(untouched()) << op_name(op);
      }
      out.assign(40, 0xdeadbeef);
      const ScalarOp bok{static_cast<uint8_t>(AluOp::BITWISE_XOR), 1, false};
      for (unsigned w : {8u, 16u, 32u}) {
        EXPECT_EQ(alu::simd::bits_binary(op, w, a.data(), b.data(), 40, out.data()),
                  alu::bits_path_has(op));
        EXPECT_EQ(alu::simd::bits_scalar(op, w, a.data(), 3, false, 40, out.data()),
                  alu::bits_path_has(op));
        EXPECT_EQ(alu::simd::bits_scalar2(other, bok, w, a.data(), 40, out.data()),
                  alu::bits_path_has(op));
      }
      if (!alu::bits_path_has(op)) {
        EXPECT_TRUE(untouched()) << op_name(op);
      }
    }
    // Widths and dtypes outside the datapaths.
    std::vector<uint32_t> out(40, 0xdeadbeef);
    const uint8_t band = static_cast<uint8_t>(AluOp::BITWISE_AND);
    const uint8_t add = static_cast<uint8_t>(AluOp::ADD);
    for (unsigned w : {0u, 1u, 4u, 7u, 24u, 64u}) {
      EXPECT_FALSE(alu::simd::bits_binary(band, w, a.data(), b.data(), 40, out.data()));
      EXPECT_FALSE(alu::simd::bits_scalar(band, w, a.data(), 1, false, 40, out.data()));
      EXPECT_FALSE(
          alu::simd::bits_scalar2({band, 1, false}, {band, 1, false}, w, a.data(), 40, out.data()));
    }
    for (Dtype bad : {Dtype::FP32, Dtype::INT16, Dtype::UINT8, Dtype::INT64, Dtype::BF16}) {
      EXPECT_FALSE(alu::simd::native_binary(add, bad, a.data(), Dtype::INT32, b.data(), 40,
                                            Dtype::INT32, out.data()));
      EXPECT_FALSE(alu::simd::native_binary(add, Dtype::INT32, a.data(), bad, b.data(), 40,
                                            Dtype::INT32, out.data()));
      EXPECT_FALSE(alu::simd::native_scalar(add, Dtype::UINT32, a.data(), bad, 1, true, 40,
                                            Dtype::INT32, out.data()));
    }
    for (Dtype bad : {Dtype::FP32, Dtype::BF16, Dtype::INT64, Dtype::UINT64, Dtype::INVALID})
      EXPECT_FALSE(alu::simd::native_binary(add, Dtype::INT32, a.data(), Dtype::INT32, b.data(), 40,
                                            bad, out.data()));
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](uint32_t v) { return v == 0xdeadbeef; }));
  });
}

}  // namespace
}  // namespace gpsimd
