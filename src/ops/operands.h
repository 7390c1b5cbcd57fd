// An instruction family's operands, declared once as data: which fields hold them, what
// kind each is, whether it is read or written, and where its dtype comes from. From that
// one declaration the generic code below resolves the operands with their faults (SPEC
// §3.4-§3.6, in declaration order), notes the sources on the Writer, and gives the
// footprint of SPEC §8.5, so no instruction writes either again.
#pragma once

#include <array>
#include <optional>
#include <span>

#include "ops/explain.h"
#include "ops/op.h"

namespace gpsimd::detail {

// Where an operand's element dtype is read: a dtype field (the whole byte, or the low or
// high nibble of an in/out pair), or a dtype the instruction fixes.
struct DtypeRef {
  enum class Part : uint8_t { Byte, Low, High, Fixed };
  Part part = Part::Fixed;
  FieldDef field{};  // Byte, Low, High
  Dtype fixed = Dtype::UINT32;

  uint8_t code(const Word& w) const {
    switch (part) {
      case Part::Byte:
        return w[field.offset];
      case Part::Low:
        return w[field.offset] & 0xf;
      case Part::High:
        return w[field.offset] >> 4;
      case Part::Fixed:
        break;
    }
    return static_cast<uint8_t>(fixed);
  }
  // The element size; nullopt for a dtype without one (its dtype clause reports it).
  std::optional<unsigned> size(const Word& w) const { return dtype_size(code(w)); }
  // The dtype code of a decoded word.
  uint8_t code(const Decoded& d) const {
    if (part == Part::Fixed) return static_cast<uint8_t>(fixed);
    const auto v = static_cast<uint8_t>(d.integer(field.name));
    return part == Part::Byte ? v : part == Part::Low ? v & 0xf : static_cast<uint8_t>(v >> 4);
  }
};
constexpr DtypeRef dtype_byte(FieldDef f) {
  return DtypeRef{DtypeRef::Part::Byte, f, Dtype::UINT32};
}
constexpr DtypeRef dtype_low(FieldDef f) {
  return DtypeRef{DtypeRef::Part::Low, f, Dtype::UINT32};
}
constexpr DtypeRef dtype_high(FieldDef f) {
  return DtypeRef{DtypeRef::Part::High, f, Dtype::UINT32};
}
constexpr DtypeRef dtype_fixed(Dtype d) {
  return DtypeRef{DtypeRef::Part::Fixed, {}, d};
}

// The access a word makes to per-partition state, when it depends on other fields (a
// reduce command); nullopt: none.
using StateAccessFn = std::optional<AccessKind> (*)(const Word&);

// One operand of a family.
struct OperandDecl {
  enum class Kind : uint8_t {
    Tensor,        // a tensor descriptor field (ADDR4 + steps and counts)
    Immediate,     // an IMM_VAL field read per its IMM_SRC field (the row's src_field)
    Pointer,       // an IMM_VAL field always read as a pointer (the *_ptr forms)
    Accumulators,  // the per-partition accumulators of the channels (SPEC §2)
    Lanes,         // the DVE search lanes of the channels (SPEC §2)
  };
  Kind kind = Kind::Tensor;
  FieldDef field{};  // Tensor, Immediate, Pointer
  AccessKind access = AccessKind::Read;
  DtypeRef dtype{};  // Tensor: the element; Immediate, Pointer: the value's width
  // Accumulators, Lanes: the operand (an index into the declaration) whose resolved
  // partitions the state belongs to, and the access when it depends on the word.
  uint8_t partitions_of = 0;
  StateAccessFn access_of = nullptr;
  FieldDef src{};           // Immediate: its IMM_SRC field
  std::string_view role{};  // what explain adds after a tensor's line: "a, the left operand"

  bool is_immediate() const { return kind == Kind::Immediate || kind == Kind::Pointer; }
};

constexpr OperandDecl tensor_operand(FieldDef f, AccessKind a, DtypeRef dt,
                                     std::string_view role = {}) {
  return OperandDecl{OperandDecl::Kind::Tensor, f, a, dt, 0, nullptr, {}, role};
}
// The IMM_VAL field `name` of a row, read per the IMM_SRC field the row names for it.
consteval OperandDecl immediate_operand(std::span<const FieldDef> row, std::string_view name,
                                        DtypeRef dt) {
  const FieldDef value = field_of(row, name);
  return OperandDecl{OperandDecl::Kind::Immediate,  value, AccessKind::Read, dt, 0, nullptr,
                     field_of(row, value.src_field)};
}
constexpr OperandDecl pointer_operand(FieldDef f, DtypeRef dt) {
  return OperandDecl{OperandDecl::Kind::Pointer, f, AccessKind::Read, dt};
}
constexpr OperandDecl accumulators_of(uint8_t operand, AccessKind a, StateAccessFn fn = nullptr) {
  return OperandDecl{OperandDecl::Kind::Accumulators, {}, a, {}, operand, fn};
}
constexpr OperandDecl lanes_of(uint8_t operand, AccessKind a) {
  return OperandDecl{OperandDecl::Kind::Lanes, {}, a, {}, operand, nullptr};
}

inline constexpr unsigned kMaxOperands = 6;

struct ResolvedOperands;
// A family's faults between resolution and the walk limit (a shape-mismatch of
// register-mode walks, both sources in PSUM, ...); nullopt when there is none.
using OperandChecksFn = std::optional<Fault> (*)(const Word&, const ResolvedOperands&);

// SPEC §9.3's terms of one tensor operand (the timeline's cost of a word): count(T), the
// elements per channel from the word's own num_elem fields; space(T), that of its
// resolved address; contiguous(T), step_elem[0] == 1.
struct CostTerm {
  uint64_t count = 0;
  Space space = Space::SBUF;
  bool contiguous = true;
};
// The terms of a word's tensor operands, in declaration order (one per tensor operand).
using CostTerms = InlineVector<CostTerm, kMaxOperands>;
// A family's X(w) of SPEC §9.3 in cycles of `engine` (before the MIN_II floor, the
// divisor of §9.4 and the dependency overhead, which are the timeline's), from the terms
// and the word's own fields.
using CostFn = uint64_t (*)(const Word&, Engine, const CostTerms&);

// A family's operands in resolution order, with what they share.
struct Operands {
  std::span<const OperandDecl> list;
  FieldDef channels{};  // num_active_channels
  // Only the channels c with c % every == 0 run (NonzeroWithCount, SPEC §4.11).
  unsigned every = 1;
  OperandChecksFn checks = nullptr;
  // The vendor's names of the operand clauses, where the family's differ from SPEC §3.6's
  // (tensor<dims>d_valid, start_addr_active_channels, has_valid_immediates).
  std::string_view tensor_clause{};
  std::string_view channels_clause = "start_addr_active_channels";
  std::string_view immediate_clause = "has_valid_immediates";
  // The family's row of SPEC §9.3's cost table; nullptr until the timeline gives it one.
  CostFn cost = nullptr;
};

// The PSUM rule of SPEC §3.9 item 1, for every operand of every instruction: an engine
// whose row says so (every one but POOL) may touch PSUM; a PSUM write needs a 4-byte
// dtype.
inline OperandRule operand_rule(Engine e, AccessKind a) {
  return OperandRule{engine_def(e).touches_psum, a != AccessKind::Read};
}

// The operands of one word after resolution (register addresses and register pointers
// read, their faults returned), indexed as declared.
struct ResolvedOperands {
  // One slot per declared operand: a tensor's descriptor as the word holds it and its
  // resolution, or an immediate's resolution (state operands keep an empty slot).
  struct Slot {
    TensorDesc desc;
    Operand tensor;
    Immediate immediate;
  };
  const Operands* decl = nullptr;
  unsigned n = 0;                          // active channels
  InlineVector<Slot, kMaxOperands> slots;  // only the declared ones are constructed
  const Operand& tensor(std::size_t i) const { return slots[i].tensor; }
  const Immediate& immediate(std::size_t i) const { return slots[i].immediate; }
  const TensorDesc& desc(std::size_t i) const { return slots[i].desc; }
};

// The operand clauses of SPEC §3.4-§3.6 from the declaration, for the engine the word is
// validated for: each tensor operand's tensor clause (address, space, PSUM width,
// num_elem, bounds), then each one's start partition + channels <= 128.
void check_tensor_operands(const Operands& ops, const Word& w, Generation g, Engine engine,
                           DiagSink& d);
// has_valid_immediates (or the family's name for it) for each immediate operand: the
// instruction immediate fits its width, a pointer is a valid address for every channel.
// `report_bad_src`: whether the clause reports an IMM_SRC outside the enumeration.
void check_immediate_operands(const Operands& ops, const Word& w, Generation g, Engine engine,
                              DiagSink& d, bool report_bad_src = true);

// Resolves every memory operand of a valid word in declaration order (the first fault
// wins), for the engine the word runs on.
std::optional<Fault> resolve_operands(const Operands& ops, const Word& w, const Machine& m,
                                      Engine engine, ResolvedOperands& out);

// SPEC §4's execution rule up to the first write, for a valid word: resolve every operand
// (bad-address), the family's checks (shape-mismatch, ...), the walk limit of SPEC §3.6
// for every tensor operand (too-large), then note every operand read from memory on the
// Writer. Returns the first fault; then nothing was noted.
std::optional<Fault> prepare_operands(const Operands& ops, const Word& w, const Machine& m,
                                      Engine engine, Writer& out, ResolvedOperands& r);

// The shape rule of the families whose walks pair up by ordinal: when a tensor operand's
// address comes from a register (its counts were not checked statically), every tensor
// operand must visit the same number of elements (shape-mismatch).
std::optional<Fault> same_count(const Word& w, const ResolvedOperands& r);

// What `explain` says of the operands, from the declaration, in this order: the channels,
// each tensor read, the search lanes read, each immediate, each tensor written. The
// accumulators and lanes a word only writes are the family's to describe.
void explain_operands(const Operands& ops, const Decoded& d, const Machine& m, Explainer& x);

// SPEC §8.5 from the declaration: the footprint of a valid word on `engine`, with the
// registers of `m`; never reads memory. Returns the fault of a word whose resolution
// faults (it has no footprint).
std::optional<Fault> operand_footprint(const Operands& ops, const Word& w, const Machine& m,
                                       Engine engine, FootprintSink& fp);

// SPEC §9.3's terms of a valid word's tensor operands, from the declaration, with the
// registers of `m` (a register-mode address is resolved through its register, as the
// footprint does); never reads memory. Returns the fault of a word whose resolution
// faults (it does not retire, so it has no cost).
std::optional<Fault> cost_terms(const Operands& ops, const Word& w, const Machine& m, Engine engine,
                                CostTerms& out);

}  // namespace gpsimd::detail
