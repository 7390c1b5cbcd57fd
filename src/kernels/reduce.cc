// Memset and TensorReduce fast kernels (kernels/reduce.h). Plain loops over contiguous
// bytes that the compiler vectorizes where the order allows it (a fill, MAX/MIN as
// maxNum/minNum keys, the logical and bitwise folds); ADD, SUBTRACT and MULT stay one FP32
// operation per element in walk order, the rule reduce-order of SPEC §4.19.
#include "kernels/reduce.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstring>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/convert.h"

namespace gpsimd::kernels {
namespace {

constexpr uint32_t kDefaultNaN = 0x7fc00000u;
constexpr uint64_t kChunk = 4096;

bool is_nan(uint32_t b) {
  return (b & 0x7fffffffu) > 0x7f800000u;
}

// FP32 patterns as signed keys in maxNum's order (-0.0 < +0.0); key_bits undoes it.
// INT32_MIN and INT32_MAX are the keys of NaN patterns, so they serve as "no value yet".
int32_t order_key(uint32_t b) {
  const auto neg = static_cast<uint32_t>(static_cast<int32_t>(b) >> 31);
  return static_cast<int32_t>(b ^ (neg & 0x7fffffffu));
}
uint32_t key_bits(int32_t k) {
  const auto neg = static_cast<uint32_t>(k >> 31);
  return static_cast<uint32_t>(k) ^ (neg & 0x7fffffffu);
}

// The loops over a run of FP32 patterns (`p`: n of them, 4 bytes each). The ones whose
// order does not matter are compiled for AVX2 too and picked at load time.
uint32_t at(const uint8_t* p, uint64_t i) {
  uint32_t x;
  std::memcpy(&x, p + 4 * i, 4);
  return x;
}
#define GPSIMD_VECTOR_LOOP __attribute__((target_clones("avx2", "default")))
GPSIMD_VECTOR_LOOP int32_t max_key(const uint8_t* p, uint64_t n, int32_t k) {
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t b = at(p, i);
    k = std::max(k, is_nan(b) ? INT32_MIN : order_key(b));
  }
  return k;
}
GPSIMD_VECTOR_LOOP int32_t min_key(const uint8_t* p, uint64_t n, int32_t k) {
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t b = at(p, i);
    k = std::min(k, is_nan(b) ? INT32_MAX : order_key(b));
  }
  return k;
}
GPSIMD_VECTOR_LOOP uint64_t count_true(const uint8_t* p, uint64_t n) {
  uint32_t t = 0;  // n <= 2^24 per run (the walk limit)
  for (uint64_t i = 0; i < n; ++i) t += (at(p, i) & 0x7fffffffu) != 0;
  return t;
}
#undef GPSIMD_VECTOR_LOOP

// One group's FP32 accumulator, fed runs of FP32 patterns in walk order.
struct Fold {
  uint8_t op;
  bool started = false;
  float acc = 0.0f;               // ADD, SUBTRACT, MULT
  int32_t key = 0;                // MAX (INT32_MIN: none yet), MIN (INT32_MAX)
  uint64_t trues = 0, count = 0;  // the logical ops

  explicit Fold(uint8_t o) : op(o) {
    key = op == static_cast<uint8_t>(AluOp::MAX) ? INT32_MIN : INT32_MAX;
  }

  void run(const uint8_t* p, uint64_t n) {
    switch (static_cast<AluOp>(op)) {
      case AluOp::ADD:
      case AluOp::SUBTRACT:
      case AluOp::MULT: {
        uint64_t i = 0;
        float a = acc;
        if (!started && n > 0) {
          a = std::bit_cast<float>(at(p, 0));  // init: the first element (a NaN stays one)
          i = 1;
        }
        if (op == static_cast<uint8_t>(AluOp::ADD))
          for (; i < n; ++i) a += std::bit_cast<float>(at(p, i));
        else if (op == static_cast<uint8_t>(AluOp::SUBTRACT))
          for (; i < n; ++i) a -= std::bit_cast<float>(at(p, i));
        else
          for (; i < n; ++i) a *= std::bit_cast<float>(at(p, i));
        acc = a;
        break;
      }
      case AluOp::MAX:
        key = max_key(p, n, key);
        break;
      case AluOp::MIN:
        key = min_key(p, n, key);
        break;
      default:  // LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR: t(x) is x != +-0.0, NaN true
        trues += count_true(p, n);
        count += n;
        break;
    }
    started = started || n > 0;
  }

  // The group's FP32 result (every NaN the default NaN).
  uint32_t result() const {
    switch (static_cast<AluOp>(op)) {
      case AluOp::ADD:
      case AluOp::SUBTRACT:
      case AluOp::MULT: {
        const uint32_t b = std::bit_cast<uint32_t>(acc);
        return is_nan(b) ? kDefaultNaN : b;
      }
      case AluOp::MAX:
        return key == INT32_MIN ? kDefaultNaN : key_bits(key);
      case AluOp::MIN:
        return key == INT32_MAX ? kDefaultNaN : key_bits(key);
      case AluOp::LOGICAL_AND:
        return trues == count ? 0x3f800000u : 0u;
      case AluOp::LOGICAL_OR:
        return trues != 0 ? 0x3f800000u : 0u;
      default:  // LOGICAL_XOR
        return (trues & 1) != 0 ? 0x3f800000u : 0u;
    }
  }
};

bool fp32_op(uint8_t op) {
  for (uint8_t o : model::kReduceArithOps)
    if (o == op) return true;
  return false;
}

template <class T>
uint32_t fold_bits(uint8_t op, const uint8_t* p, uint64_t n) {
  auto at = [p](uint64_t i) {
    T x;
    std::memcpy(&x, p + i * sizeof(T), sizeof(T));
    return x;
  };
  T acc = at(0);
  if (op == static_cast<uint8_t>(AluOp::BITWISE_AND))
    for (uint64_t i = 1; i < n; ++i) acc = static_cast<T>(acc & at(i));
  else if (op == static_cast<uint8_t>(AluOp::BITWISE_OR))
    for (uint64_t i = 1; i < n; ++i) acc = static_cast<T>(acc | at(i));
  else
    for (uint64_t i = 1; i < n; ++i) acc = static_cast<T>(acc ^ at(i));
  return acc;
}

thread_local std::vector<uint32_t> t_wide, t_results;

}  // namespace

bool memset_channel(uint8_t* dst, const Walk& dst_walk, unsigned size, uint32_t pattern) {
  if (!dst_walk.contiguous() || size == 0 || size > 4) return false;
  uint8_t* p = dst + dst_walk.lo();
  const uint64_t bytes = dst_walk.count() * size;
  if (size == 1) {
    std::memset(p, static_cast<int>(pattern & 0xff), bytes);
    return true;
  }
  // The first element, then the filled prefix doubled.
  for (unsigned i = 0; i < size; ++i) p[i] = static_cast<uint8_t>(pattern >> (8 * i));
  for (uint64_t done = size; done < bytes;) {
    const uint64_t n = std::min(done, bytes - done);
    std::memcpy(p + done, p, n);
    done += n;
  }
  return true;
}

bool tensor_reduce_channel(const Reduction& r, const uint8_t* partition, const Walk& src,
                           uint64_t group, uint8_t* dst, const Walk& dst_walk) {
  if (!src.contiguous() || group == 0) return false;
  const auto isz = dtype_size(r.in), osz = dtype_size(r.out);
  if (!isz || !osz || src.count() % group != 0) return false;
  const uint64_t groups = src.count() / group;
  if (groups != dst_walk.count()) return false;
  const uint8_t* in = partition + src.lo();
  std::vector<uint32_t>& res = t_results;
  res.resize(groups);
  if (r.bitvec) {
    for (uint64_t k = 0; k < groups; ++k) {
      const uint8_t* g = in + k * group * *isz;
      switch (*isz) {
        case 1:
          res[k] = fold_bits<uint8_t>(r.op, g, group);
          break;
        case 2:
          res[k] = fold_bits<uint16_t>(r.op, g, group);
          break;
        case 4:
          res[k] = fold_bits<uint32_t>(r.op, g, group);
          break;
        default:
          return false;
      }
    }
  } else {
    if (!fp32_op(r.op)) return false;
    std::vector<uint32_t>& wide = t_wide;
    for (uint64_t k = 0; k < groups; ++k) {
      Fold f(r.op);
      const uint8_t* g = in + k * group * *isz;
      if (r.in == Dtype::FP32) {
        f.run(g, group);
      } else {
        for (uint64_t j = 0; j < group; j += kChunk) {
          const uint64_t n = std::min(kChunk, group - j);
          wide.resize(n);
          simd::to_fp32(r.in, g + j * *isz, n, wide.data());
          f.run(reinterpret_cast<const uint8_t*>(wide.data()), n);
        }
      }
      uint32_t acc = f.result();
      // negated: the FP32 MULT by -1.0 (a NaN stays the default NaN, the rest flip sign).
      if (r.negated && !is_nan(acc)) acc ^= 0x80000000u;
      res[k] = from_fp32(r.out, acc);
    }
  }
  dst_walk.for_each([&](uint64_t k, uint32_t off) {
    const uint32_t v = res[k];
    for (unsigned i = 0; i < *osz; ++i) dst[off + i] = static_cast<uint8_t>(v >> (8 * i));
  });
  return true;
}

}  // namespace gpsimd::kernels
