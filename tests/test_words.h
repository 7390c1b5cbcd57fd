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
//
// Each instruction's file in tests/instructions/ defines its valid word (valid_sort(), ...)
// beside the constants that describe it (sort_word::kSrcAddr, ...), and registers it
// (tests/instructions/registry.h).

// Returns the valid word of an instruction (from its registered file); aborts when none.
Word valid_word(Opcode op);

}  // namespace gpsimd::test_words
