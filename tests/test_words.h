// Valid words of each instruction, built through the instruction table's encode(), and
// mutators that change one field of a word by name. A test starts from a valid word and
// breaks exactly what it means to break:
//
//   Word w = valid_sort();
//   set(w, "stable", 2);                        // now fails sort_valid_stable only
//   set_addr(w, "src_mem_pattern", psum_addr(0, 0));
//
// Every valid word validates clean, in default and strict mode, on every generation
// where its opcode exists (SPEC §1). Its operands sit at small SBUF offsets, so they fit
// the smallest SBUF (V2, 192 KiB). The constants beside each builder describe the word,
// so that execution tests can place data where it reads and look where it writes.
//
// ADDR4 values are written out from SPEC §3.4 here, not taken from the machine model.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "gpsimd/isa.h"
#include "gpsimd/types.h"

namespace gpsimd::test_words {

// ---- values of SPEC §3 -------------------------------------------------------------------

// Returns the static SBUF ADDR4 of a partition and byte offset.
constexpr uint32_t sbuf_addr(uint32_t partition, uint32_t offset) {
  return partition << 18 | offset;
}
// Returns the static PSUM ADDR4 of a partition and byte offset.
constexpr uint32_t psum_addr(uint32_t partition, uint32_t offset) {
  return 0x2000000u + (partition << 15) + offset;
}
// Returns the register-mode ADDR4 naming register `reg`.
constexpr uint32_t reg_addr(uint32_t reg) {
  return 0x80000000u | reg;
}
// Returns a DTYPE_PAIR byte: input in the low nibble, output in the high nibble.
constexpr uint8_t dtype_pair(Dtype in, Dtype out) {
  return static_cast<uint8_t>(static_cast<unsigned>(in) | static_cast<unsigned>(out) << 4);
}
// Returns the FP32 bit pattern of `f`.
constexpr uint32_t f32_bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
inline constexpr uint32_t kNegFltMaxBits = 0xff7fffffu;  // the only legal fill_val

// Returns a tensor descriptor; its dims is the number of steps (= number of counts).
inline TensorDesc tensor(uint32_t addr, std::initializer_list<int16_t> steps,
                         std::initializer_list<uint16_t> nums) {
  if (steps.size() != nums.size() || steps.size() < 1 || steps.size() > 4) {
    std::fprintf(stderr, "test_words: tensor() needs 1-4 steps and as many counts\n");
    std::abort();
  }
  TensorDesc t;
  t.addr = addr;
  t.dims = static_cast<uint8_t>(steps.size());
  unsigned d = 0;
  for (int16_t s : steps) t.step[d++] = s;
  d = 0;
  for (uint16_t n : nums) t.num[d++] = n;
  return t;
}

// Returns a DATA4D (SPEC §3.7): the int32 base, four steps and four counts.
inline TensorDesc data4d(int32_t base, std::initializer_list<int16_t> steps,
                         std::initializer_list<uint16_t> nums) {
  if (steps.size() != 4 || nums.size() != 4) {
    std::fprintf(stderr, "test_words: data4d() needs 4 steps and 4 counts\n");
    std::abort();
  }
  TensorDesc t = tensor(static_cast<uint32_t>(base), steps, nums);
  return t;
}

// ---- field access by name ----------------------------------------------------------------

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "test_words: %s\n", what.c_str());
  std::abort();
}

// Returns the table row of the word's instruction, from byte 0; aborts when unknown.
// Mutators read byte 0, so a test that changes the opcode does it last.
inline const InstrDef& def_of(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  if (def == nullptr) fail("byte 0 is not a known opcode: " + std::to_string(w[0]));
  return *def;
}

// Returns the named field of the word's instruction; aborts when it has no such field.
inline const FieldDef& field(const Word& w, std::string_view name) {
  const InstrDef& def = def_of(w);
  const FieldDef* f = find_field(def.fields, name);
  if (f == nullptr) fail(std::string(def.mnemonic) + " has no field " + std::string(name));
  return *f;
}

// Writes a field through the table; aborts when the value does not fit (a test bug).
inline void put(Word& w, std::string_view name, const FieldValue& v) {
  if (auto e = write_field(w, field(w, name), v)) fail(*e);
}

// Sets an integer field (a byte, an enum, a dtype, an FP32 or IMM_VAL's raw bits).
inline void set(Word& w, std::string_view name, uint64_t v) {
  put(w, name, FieldValue{v});
}
inline void set_f32(Word& w, std::string_view name, float v) {
  set(w, name, f32_bits(v));
}
// Returns an integer field's value.
inline uint64_t get(const Word& w, std::string_view name) {
  return std::get<uint64_t>(read_field(w, field(w, name)));
}

inline TensorDesc get_tensor(const Word& w, std::string_view name) {
  return std::get<TensorDesc>(read_field(w, field(w, name)));
}
inline void set_tensor(Word& w, std::string_view name, const TensorDesc& t) {
  put(w, name, FieldValue{t});
}
// Changes one part of a tensor field, keeping the rest.
inline void set_addr(Word& w, std::string_view name, uint32_t addr) {
  TensorDesc t = get_tensor(w, name);
  t.addr = addr;
  set_tensor(w, name, t);
}
inline void set_step(Word& w, std::string_view name, unsigned dim, int16_t step) {
  TensorDesc t = get_tensor(w, name);
  t.step.at(dim) = step;
  set_tensor(w, name, t);
}
inline void set_num(Word& w, std::string_view name, unsigned dim, uint16_t num) {
  TensorDesc t = get_tensor(w, name);
  t.num.at(dim) = num;
  set_tensor(w, name, t);
}

inline void set_events(Word& w, const Events& e) {
  put(w, "events", FieldValue{e});
}

// Returns `w` after `mutate(w)`: for building variants inline.
template <class F>
Word with(Word w, F&& mutate) {
  mutate(w);
  return w;
}

// Returns the word encoded from the instruction's default fields (header, everything
// else zero) with `values` set by field name; aborts on an unknown name or a value that
// does not fit.
inline Word build(Opcode op,
                  std::initializer_list<std::pair<std::string_view, FieldValue>> values) {
  Decoded d = default_fields(instruction(op));
  for (const auto& [name, v] : values) d.get(name) = v;
  EncodeResult r = encode(d);
  if (r.error) fail(*r.error);
  return r.word;
}

// ---- one valid word per instruction --------------------------------------------------

// valid_range_select(): 2 channels. src: BF16, TENSOR2D steps {1, 8} counts {8, 4} (32
// elements, 64 dense bytes) at SBUF partition 0 offset 0x100. dst: FP32, same shape
// (128 bytes) at partition 0 offset 0x1000. base 10.0; keeps index base + j when
// IS_GE 12.0 and IS_LT 30.0 (instruction immediates); ZERO_ACCUMULATE with MAX.
namespace rs_word {
inline constexpr unsigned kChannels = 2;
inline constexpr Dtype kIn = Dtype::BF16, kOut = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(0, 0x100), kDstAddr = sbuf_addr(0, 0x1000);
inline constexpr float kBase = 10.0f, kBound0 = 12.0f, kBound1 = 30.0f;
}  // namespace rs_word

inline Word valid_range_select() {
  using namespace rs_word;
  return build(Opcode::RangeSelect,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_out_dtype", uint64_t{dtype_pair(kIn, kOut)}},
                {"reduce_cmd", uint64_t{static_cast<uint8_t>(AccumCmd::ZERO_ACCUMULATE)}},
                {"reduce_op", uint64_t{static_cast<uint8_t>(AluOp::MAX)}},
                {"base", uint64_t{f32_bits(kBase)}},
                {"fill_val", uint64_t{kNegFltMaxBits}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 8}, {8, 4})},
                {"comp_op0", uint64_t{static_cast<uint8_t>(AluOp::IS_GE)}},
                {"comp_op1", uint64_t{static_cast<uint8_t>(AluOp::IS_LT)}},
                {"bound0", uint64_t{f32_bits(kBound0)}},
                {"bound1", uint64_t{f32_bits(kBound1)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 8}, {8, 4})}});
}

// valid_tensor_scalar_select(): 4 channels, dtype INT16, pred_imm_dtype UINT16. src0:
// TENSOR3D steps {1, 4, 16} counts {4, 4, 2} (32 elements, 64 dense bytes) at SBUF
// partition 2 offset 0x200; dst: same shape at partition 2 offset 0x800. src1_imm
// 0x1234 and pred_imm 1, both instruction immediates; reversed_pred 0 (dst = src0).
namespace tss_word {
inline constexpr unsigned kChannels = 4;
inline constexpr Dtype kDtype = Dtype::INT16, kPredDtype = Dtype::UINT16;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(2, 0x200), kDstAddr = sbuf_addr(2, 0x800);
inline constexpr uint32_t kSrc1Imm = 0x1234, kPredImm = 1;
}  // namespace tss_word

inline Word valid_tensor_scalar_select() {
  using namespace tss_word;
  return build(Opcode::TensorScalarSelect,
               {{"src0_mem_pattern", tensor(kSrc0Addr, {1, 4, 16}, {4, 4, 2})},
                {"num_active_channels", uint64_t{kChannels}},
                {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"pred_imm_dtype", uint64_t{static_cast<uint8_t>(kPredDtype)}},
                {"src1_imm", uint64_t{kSrc1Imm}},
                {"pred_imm", uint64_t{kPredImm}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 16}, {4, 4, 2})}});
}

// valid_get_sequence_bounds(): 1 channel, INT32 in and out. src: TENSOR3D steps
// {1, 4, 8} counts {4, 2, 1} (8 ids, 32 dense bytes) at SBUF partition 0 offset 0x40;
// dst: steps {1, 4, 8} counts {4, 2, 2} (16 values: 8 starts then 8 ends, 64 dense
// bytes) at partition 0 offset 0x400.
namespace gsb_word {
inline constexpr unsigned kChannels = 1;
inline constexpr Dtype kIn = Dtype::INT32, kOut = Dtype::INT32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(0, 0x40), kDstAddr = sbuf_addr(0, 0x400);
}  // namespace gsb_word

inline Word valid_get_sequence_bounds() {
  using namespace gsb_word;
  return build(Opcode::GetSequenceBounds,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8}, {4, 2, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 8}, {4, 2, 2})}});
}

// valid_sort(): 2 channels, FP32 in and out, IS_LT (ascending), stable 1, index_offset
// 100 (instruction immediate). src: TENSOR1D step {1} count {16} (64 bytes) at SBUF
// partition 4 offset 0x100; dst: TENSOR2D steps {1, 2} counts {2, 16} (value, index
// pairs, 128 dense bytes) at partition 4 offset 0x400.
namespace sort_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 16;
inline constexpr Dtype kDtype = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(4, 0x100), kDstAddr = sbuf_addr(4, 0x400);
inline constexpr uint32_t kIndexOffset = 100;
}  // namespace sort_word

inline Word valid_sort() {
  using namespace sort_word;
  return build(Opcode::Sort, {{"num_active_channels", uint64_t{kChannels}},
                              {"in_out_dtype", uint64_t{dtype_pair(kDtype, kDtype)}},
                              {"comparison", uint64_t{static_cast<uint8_t>(AluOp::IS_LT)}},
                              {"src_mem_pattern", tensor(kSrcAddr, {1}, {kN})},
                              {"dst_mem_pattern", tensor(kDstAddr, {1, 2}, {2, kN})},
                              {"index_offset", uint64_t{kIndexOffset}},
                              {"stable", uint64_t{1}}});
}

// valid_nonzero_with_count(): 17 channels from partition 0 (channels 0 and 16 are
// processed, SPEC §4.11), INT32 in and out. src: TENSOR3D steps {1, 4, 16} counts
// {4, 4, 1} (16 ids, 64 dense bytes) at SBUF partition 0 offset 0x100; dst: steps
// {1, 17, 17} counts {17, 1, 1} (16 indices or paddings, then the count: 68 dense bytes)
// at partition 0 offset 0x400. index_offset 16 and padding_val -1, both instruction
// immediates.
namespace nwc_word {
inline constexpr unsigned kChannels = 17;
inline constexpr unsigned kN = 16;  // count(src); dst has kN + 1
inline constexpr Dtype kIn = Dtype::INT32, kOut = Dtype::INT32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(0, 0x100), kDstAddr = sbuf_addr(0, 0x400);
inline constexpr uint32_t kIndexOffset = 16, kPadding = 0xffffffffu;
}  // namespace nwc_word

inline Word valid_nonzero_with_count() {
  using namespace nwc_word;
  return build(Opcode::NonzeroWithCount,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4, 16}, {4, 4, 1})},
                {"index_offset", uint64_t{kIndexOffset}},
                {"padding_val", uint64_t{kPadding}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 17, 17}, {17, 1, 1})}});
}

// valid_copy_predicated_scalar(): 2 channels. pred: UINT8, TENSOR3D steps {1, 4, 16}
// counts {4, 4, 1} (16 elements, 16 dense bytes) at SBUF partition 0 offset 0x100; dst:
// FP32, same shape (64 dense bytes) at partition 0 offset 0x200. in and out FP32;
// src0_imm -9984.0 (instruction immediate); reversed_pred 1 (writes where pred != 0).
namespace cps_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 16;
inline constexpr Dtype kPredDtype = Dtype::UINT8, kDtype = Dtype::FP32;
inline constexpr uint32_t kPredAddr = sbuf_addr(0, 0x100), kDstAddr = sbuf_addr(0, 0x200);
inline constexpr float kScalar = -9984.0f;
}  // namespace cps_word

inline Word valid_copy_predicated_scalar() {
  using namespace cps_word;
  return build(Opcode::CopyPredicatedScalar,
               {{"pred_mem_pattern", tensor(kPredAddr, {1, 4, 16}, {4, 4, 1})},
                {"pred_dtype", uint64_t{static_cast<uint8_t>(kPredDtype)}},
                {"reversed_pred", uint64_t{1}},
                {"num_active_channels", uint64_t{kChannels}},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"src0_imm", uint64_t{f32_bits(kScalar)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 16}, {4, 4, 1})}});
}

// valid_dve_read_accumulator(): 4 channels, BF16, negated 0. dst: TENSOR1D step {1}
// count {1} at SBUF partition 2 offset 0x300 (channel c writes one BF16 at offset 0x300
// of partition 2 + c, from accumulator 2 + c); dst_element_count 1.
namespace dra_word {
inline constexpr unsigned kChannels = 4;
inline constexpr Dtype kDtype = Dtype::BF16;
inline constexpr unsigned kPartition = 2, kOffset = 0x300;
inline constexpr uint32_t kDstAddr = sbuf_addr(kPartition, kOffset);
}  // namespace dra_word

inline Word valid_dve_read_accumulator() {
  using namespace dra_word;
  return build(Opcode::DveReadAccumulator, {{"dst_element_count", uint64_t{1}},
                                            {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                                            {"num_active_channels", uint64_t{kChannels}},
                                            {"dst_mem_pattern", tensor(kDstAddr, {1}, {1})}});
}

// valid_affine_select(): 3 channels from partition 1, FP32 in and out, fill_mode GT,
// fill_reg 7, channel_multiplier 1. mask: base -2, steps {-1, 0, 0, 0} counts
// {4, 2, 1, 1} (8 values: c - 2 - i0). src: TENSOR2D steps {1, 4} counts {4, 2} (32
// dense bytes) at SBUF partition 1 offset 0x100; dst: same shape at offset 0x300.
namespace as_word {
inline constexpr unsigned kChannels = 3;
inline constexpr Dtype kIn = Dtype::FP32, kOut = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(1, 0x100), kDstAddr = sbuf_addr(1, 0x300);
inline constexpr int32_t kBase = -2, kMultiplier = 1;
inline constexpr unsigned kFillReg = 7;
}  // namespace as_word

inline Word valid_affine_select() {
  using namespace as_word;
  return build(Opcode::AffineSelect,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_out_dtype", uint64_t{dtype_pair(kIn, kOut)}},
                {"fill_mode", uint64_t{0}},
                {"fill_reg", uint64_t{kFillReg}},
                {"mask_pattern", data4d(kBase, {-1, 0, 0, 0}, {4, 2, 1, 1})},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4}, {4, 2})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4}, {4, 2})},
                {"channel_multiplier", uint64_t{static_cast<uint32_t>(kMultiplier)}}});
}

// valid_iota(): 2 channels from partition 3, out_dtype INT32, channel_multiplier 100.
// src: base 5, steps {1, 10, 0, 0} counts {3, 2, 1, 1} (6 values). dst: TENSOR4D steps
// {1, 3, 6, 6} counts {3, 2, 1, 1} (24 dense bytes) at SBUF partition 3 offset 0x80.
namespace iota_word {
inline constexpr unsigned kChannels = 2;
inline constexpr Dtype kOut = Dtype::INT32;
inline constexpr uint32_t kDstAddr = sbuf_addr(3, 0x80);
inline constexpr int32_t kBase = 5, kMultiplier = 100;
}  // namespace iota_word

inline Word valid_iota() {
  using namespace iota_word;
  return build(Opcode::Iota, {{"src_data_pattern", data4d(kBase, {1, 10, 0, 0}, {3, 2, 1, 1})},
                              {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                              {"num_active_channels", uint64_t{kChannels}},
                              {"channel_multiplier", uint64_t{static_cast<uint32_t>(kMultiplier)}},
                              {"dst_mem_pattern", tensor(kDstAddr, {1, 3, 6, 6}, {3, 2, 1, 1})}});
}

// valid_match_value_load(): 2 channels from partition 4, FP32. src: TENSOR2D steps {1, 4}
// counts {4, 2} (8 dense FP32, 32 bytes) at SBUF partition 4 offset 0x100: ordinal k
// loads slot 7 - k of lane 4 + c.
namespace mvl_word {
inline constexpr unsigned kChannels = 2;
inline constexpr Dtype kDtype = Dtype::FP32;
inline constexpr unsigned kPartition = 4;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100);
}  // namespace mvl_word

inline Word valid_match_value_load() {
  using namespace mvl_word;
  return build(Opcode::MatchValueLoad, {{"src_mem_pattern", tensor(kSrcAddr, {1, 4}, {4, 2})},
                                        {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                                        {"num_active_channels", uint64_t{kChannels}}});
}

// valid_max8() / valid_find_index8(): 2 channels from partition 5. src: FP32, TENSOR4D
// steps {1, 8, 16, 16} counts {8, 2, 1, 1} (16 dense FP32, 64 bytes) at SBUF partition 5
// offset 0x100. dst: TENSOR2D steps {1, 8} counts {8, 1} at offset 0x200, FP32 (Max8)
// or UINT32 (FindIndex8). even_count and odd_count 0.0.
namespace s4d2_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 16;
inline constexpr unsigned kPartition = 5;
inline constexpr Dtype kIn = Dtype::FP32, kMax8Out = Dtype::FP32, kIndexOut = Dtype::UINT32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x200);
}  // namespace s4d2_word

inline Word valid_s4d2_bn(Opcode op, Dtype out) {
  using namespace s4d2_word;
  return build(op, {{"src_mem_pattern", tensor(kSrcAddr, {1, 8, 16, 16}, {8, 2, 1, 1})},
                    {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 8}, {8, 1})}});
}
inline Word valid_max8() {
  return valid_s4d2_bn(Opcode::Max8, s4d2_word::kMax8Out);
}
inline Word valid_find_index8() {
  return valid_s4d2_bn(Opcode::FindIndex8, s4d2_word::kIndexOut);
}

// valid_match_replace8(): 2 channels from partition 6, FP32 in and out, immediate -1.0.
// src: TENSOR4D steps {1, 4, 8, 8} counts {4, 3, 1, 1} (12 dense FP32) at SBUF partition
// 6 offset 0x100; dst: the same shape at offset 0x200.
namespace mr_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 12;
inline constexpr unsigned kPartition = 6;
inline constexpr Dtype kIn = Dtype::FP32, kOut = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x200);
inline constexpr float kImmediate = -1.0f;
}  // namespace mr_word

inline Word valid_match_replace8() {
  using namespace mr_word;
  return build(Opcode::MatchReplace8,
               {{"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8, 8}, {4, 3, 1, 1})},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"immediate", uint64_t{f32_bits(kImmediate)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 8, 8}, {4, 3, 1, 1})}});
}

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14, S3S3D3_TT) ----

// valid_tensor_tensor_arith(): 3 channels from partition 2, ADD of BF16 src0 and FP32
// src1 into FP32. src0: TENSOR3D steps {1, 4, 16} counts {4, 4, 1} (16 BF16, 32 dense
// bytes) at SBUF partition 2 offset 0x100; src1: steps {1, 8, 16} counts {8, 2, 1} (16
// FP32, 64 bytes) at offset 0x200; dst: steps {1, 16, 16} counts {16, 1, 1} (16 FP32) at
// offset 0x400. Three shapes, one count.
namespace tta_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kPartition = 2;
inline constexpr Dtype kLo = Dtype::BF16, kHi = Dtype::FP32, kOut = Dtype::FP32;
inline constexpr AluOp kOp = AluOp::ADD;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(kPartition, 0x100),
                          kSrc1Addr = sbuf_addr(kPartition, 0x200),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
}  // namespace tta_word

// valid_tensor_tensor_bitvec(): 2 channels from partition 1, BITWISE_AND of UINT16s into
// UINT16. src0: steps {1, 8, 8} counts {8, 1, 1} (8 UINT16, 16 bytes) at SBUF partition 1
// offset 0x80; src1: steps {1, 2, 8} counts {2, 4, 1} at offset 0x100; dst: steps
// {1, 8, 8} counts {8, 1, 1} at offset 0x180.
namespace ttb_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kPartition = 1;
inline constexpr Dtype kDtype = Dtype::UINT16;
inline constexpr AluOp kOp = AluOp::BITWISE_AND;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(kPartition, 0x80),
                          kSrc1Addr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x180);
}  // namespace ttb_word

inline Word valid_tensor_tensor_arith() {
  using namespace tta_word;
  return build(Opcode::TensorTensorArith,
               {{"in0_in1_dtype", uint64_t{dtype_pair(kLo, kHi)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"op", uint64_t{static_cast<uint8_t>(kOp)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"src0_mem_pattern", tensor(kSrc0Addr, {1, 4, 16}, {4, 4, 1})},
                {"src1_mem_pattern", tensor(kSrc1Addr, {1, 8, 16}, {8, 2, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 16, 16}, {16, 1, 1})}});
}

inline Word valid_tensor_tensor_bitvec() {
  using namespace ttb_word;
  return build(Opcode::TensorTensorBitvec,
               {{"in0_in1_dtype", uint64_t{dtype_pair(kDtype, kDtype)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"op", uint64_t{static_cast<uint8_t>(kOp)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"src0_mem_pattern", tensor(kSrc0Addr, {1, 8, 8}, {8, 1, 1})},
                {"src1_mem_pattern", tensor(kSrc1Addr, {1, 2, 8}, {2, 4, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 8, 8}, {8, 1, 1})}});
}

// ---- TensorScalar (SPEC §4.15, S3D3_TS) ----------------------------------------------
//
// valid_tensor_scalar_arith(): 3 channels from partition 4. src: FP16, TENSOR3D steps
// {1, 4, 8} counts {4, 2, 1} (8 elements, 16 dense bytes) at SBUF partition 4 offset
// 0x100; dst: FP32, steps {1, 2, 8} counts {2, 4, 1} (8 elements, 32 dense bytes) at
// offset 0x400. op0 SUBTRACT imm0 1.0, op1 MULT imm1 0.5 (FP32 instruction immediates),
// reverse_operands NONE: dst = (x - 1.0) * 0.5.
// valid_tensor_scalar_bitvec(): the same walks, INT16 in and out; op0 BITWISE_AND imm0
// 0x00ff, op1 LOGICAL_SHIFT_LEFT imm1 4 (INT16 instruction immediates):
// dst = (x & 0xff) << 4.
// valid_tensor_scalar_ptr_arith() / _ptr_bitvec(): the arith / bitvec word as the pointer
// form: imm0_src = imm1_src = 0, imm0 and imm1 the static SBUF ADDR4s of partition 4
// offsets 0x600 and 0x604 (channel c reads partition 4 + c).
namespace ts_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kPartition = 4;
inline constexpr unsigned kN = 8;
inline constexpr Dtype kArithIn = Dtype::FP16, kArithOut = Dtype::FP32, kBitvec = Dtype::INT16;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
inline constexpr uint32_t kPtr0 = sbuf_addr(kPartition, 0x600),
                          kPtr1 = sbuf_addr(kPartition, 0x604);
inline constexpr float kImm0 = 1.0f, kImm1 = 0.5f;
inline constexpr uint32_t kMask = 0x00ff, kShift = 4;
}  // namespace ts_word

inline Word valid_s3d3_ts(Opcode op) {
  using namespace ts_word;
  const bool bitvec = op == Opcode::TensorScalarBitvec || op == Opcode::TensorScalarPtrBitvec;
  const bool pointer = op == Opcode::TensorScalarPtrArith || op == Opcode::TensorScalarPtrBitvec;
  const Dtype in = bitvec ? kBitvec : kArithIn, out = bitvec ? kBitvec : kArithOut;
  const AluOp op0 = bitvec ? AluOp::BITWISE_AND : AluOp::SUBTRACT;
  const AluOp op1 = bitvec ? AluOp::LOGICAL_SHIFT_LEFT : AluOp::MULT;
  const uint32_t imm0 = pointer ? kPtr0 : bitvec ? kMask : f32_bits(kImm0);
  const uint32_t imm1 = pointer ? kPtr1 : bitvec ? kShift : f32_bits(kImm1);
  return build(op, {{"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8}, {4, 2, 1})},
                    {"in_dtype", uint64_t{static_cast<uint8_t>(in)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"op0", uint64_t{static_cast<uint8_t>(op0)}},
                    {"op1", uint64_t{static_cast<uint8_t>(op1)}},
                    {"imm0", uint64_t{imm0}},
                    {"imm1", uint64_t{imm1}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 2, 8}, {2, 4, 1})}});
}
inline Word valid_tensor_scalar_arith() {
  return valid_s3d3_ts(Opcode::TensorScalarArith);
}
inline Word valid_tensor_scalar_bitvec() {
  return valid_s3d3_ts(Opcode::TensorScalarBitvec);
}
inline Word valid_tensor_scalar_ptr_arith() {
  return valid_s3d3_ts(Opcode::TensorScalarPtrArith);
}
inline Word valid_tensor_scalar_ptr_bitvec() {
  return valid_s3d3_ts(Opcode::TensorScalarPtrBitvec);
}

// valid_copy() / valid_cast(): 3 channels from partition 2 (engine: the default, POOL).
// src: TENSOR4D steps {1, 4, 8, 8} counts {4, 2, 1, 1} (8 dense elements) at SBUF
// partition 2 offset 0x100; dst: steps {1, 2, 8, 8} counts {2, 4, 1, 1} (8 dense
// elements, another shape of the same count) at offset 0x400. Copy: FP32 in and out;
// Cast: FP32 in, BF16 out. op BYPASS, op_dim UNUSED, mask_enable and negated 0.
namespace s4d4_tr_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kN = 8;
inline constexpr unsigned kPartition = 2;
inline constexpr Dtype kIn = Dtype::FP32, kCopyOut = Dtype::FP32, kCastOut = Dtype::BF16;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
}  // namespace s4d4_tr_word

inline Word valid_s4d4_tr(Opcode op, Dtype out) {
  using namespace s4d4_tr_word;
  return build(op, {{"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8, 8}, {4, 2, 1, 1})},
                    {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 2, 8, 8}, {2, 4, 1, 1})}});
}
inline Word valid_copy() {
  return valid_s4d4_tr(Opcode::Copy, s4d4_tr_word::kCopyOut);
}
inline Word valid_cast() {
  return valid_s4d4_tr(Opcode::Cast, s4d4_tr_word::kCastOut);
}

// Returns the valid word of an instruction.
inline Word valid_word(Opcode op) {
  switch (op) {
    case Opcode::RangeSelect:
      return valid_range_select();
    case Opcode::TensorScalarSelect:
      return valid_tensor_scalar_select();
    case Opcode::GetSequenceBounds:
      return valid_get_sequence_bounds();
    case Opcode::Sort:
      return valid_sort();
    case Opcode::NonzeroWithCount:
      return valid_nonzero_with_count();
    case Opcode::CopyPredicatedScalar:
      return valid_copy_predicated_scalar();
    case Opcode::DveReadAccumulator:
      return valid_dve_read_accumulator();
    case Opcode::AffineSelect:
      return valid_affine_select();
    case Opcode::Iota:
      return valid_iota();
    case Opcode::MatchValueLoad:
      return valid_match_value_load();
    case Opcode::Max8:
      return valid_max8();
    case Opcode::FindIndex8:
      return valid_find_index8();
    case Opcode::MatchReplace8:
      return valid_match_replace8();
    case Opcode::TensorTensorArith:
      return valid_tensor_tensor_arith();
    case Opcode::TensorTensorBitvec:
      return valid_tensor_tensor_bitvec();
    case Opcode::TensorScalarArith:
      return valid_tensor_scalar_arith();
    case Opcode::TensorScalarBitvec:
      return valid_tensor_scalar_bitvec();
    case Opcode::TensorScalarPtrArith:
      return valid_tensor_scalar_ptr_arith();
    case Opcode::TensorScalarPtrBitvec:
      return valid_tensor_scalar_ptr_bitvec();
    case Opcode::Copy:
      return valid_copy();
    case Opcode::Cast:
      return valid_cast();
  }
  fail("no valid word for this opcode");
}

}  // namespace gpsimd::test_words
