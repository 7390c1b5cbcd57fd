// The pieces every instruction file shares: the diagnostic sink, the operand checks
// of SPEC §3.4-§3.6 (static and at execution), and the Writer that makes execution
// all-or-nothing. No instruction does its own address arithmetic.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/explain.h"
#include "gpsimd/inline_vector.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/model.h"
#include "gpsimd/validate.h"

namespace gpsimd::detail {

// Collects the failing clauses of one instruction.
class DiagSink {
 public:
  DiagSink(Diagnostics& out, std::string_view instruction) : out_(out), instr_(instruction) {}
  void fail(std::string_view clause, std::string_view field, std::string value,
            std::string allowed) {
    out_.push_back(Diagnostic{std::string(instr_), std::string(clause), std::string(field),
                              std::move(value), std::move(allowed)});
  }
  std::string_view instruction() const { return instr_; }

 private:
  Diagnostics& out_;
  std::string_view instr_;
};

std::string hex32(uint32_t v);                 // "0x0000abcd"
std::string hex8(unsigned v);                  // "0xab"
std::string dtype_text(uint8_t code);          // "FP32 (0xa)" or "0x11 (unknown)"
std::string tensor_text(const TensorDesc& t);  // "addr=0x... step=[..] num=[..]"
std::string hex_offset(int64_t v);             // "0x100", "-0x20"
// The rule a static ADDR4 with this problem breaks, for a diagnostic's `allowed`.
std::string static_addr_rule(Generation g, AddrProblem p);

// How an operand may use memory.
struct OperandRule {
  bool allow_psum = true;  // the engine may touch PSUM (its row of kEngines: not POOL)
  bool write = false;      // a PSUM write needs a 4-byte dtype
};

// ---- static checks (validation) --------------------------------------------------------

// Validation runs for every word, so each check below is an inline test of the common
// case (the operand or field is fine: no call, no text) in front of an out-of-line part
// that finds the failing rule and writes its diagnostic.

// Which rule a resolved static address breaks, with plain arithmetic (no text).
enum class LocIssue { None, Psum, PsumWidth, Align, ZeroNum, Outside };
inline LocIssue location_issue(const Location& loc, const TensorDesc& t, unsigned elem,
                               Generation g, OperandRule rule) {
  if (loc.space == Space::PSUM && !rule.allow_psum) return LocIssue::Psum;
  if (loc.space == Space::PSUM && rule.write && elem != 4) return LocIssue::PsumWidth;
  if (loc.offset % elem != 0) return LocIssue::Align;
  for (unsigned d = 0; d < t.dims; ++d)
    if (t.num[d] == 0) return LocIssue::ZeroNum;
  const Walk w = Walk::of(t, loc.offset, elem);
  const int64_t size = loc.space == Space::SBUF ? sbuf_partition_bytes(g) : kPsumPartitionBytes;
  if (w.lo() < 0 || w.hi() > size) return LocIssue::Outside;
  return LocIssue::None;
}

// The tensor clause (tensor{N}d_valid or the instruction's own shape clause): ADDR4
// well-formed and aligned, space allowed, PSUM writes 4-byte, num_elem >= 1, and every
// touched byte inside the partition. Register-mode addresses: only the register id and
// num_elem. Not evaluated when `elem` is nullopt (a dtype without a size).
void check_tensor_slow(DiagSink& d, std::string_view clause, std::string_view field,
                       const TensorDesc& t, unsigned elem, Generation g, OperandRule rule);
inline void check_tensor(DiagSink& d, std::string_view clause, std::string_view field,
                         const TensorDesc& t, std::optional<unsigned> elem, Generation g,
                         OperandRule rule) {
  if (!elem) return;  // SPEC §3.6: the dtype clause reports a dtype without a size
  if (!t.register_mode()) {
    const StaticAddr a = check_static_addr(t.addr, g);
    if (a.problem == AddrProblem::None &&
        location_issue(a.loc, t, *elem, g, rule) == LocIssue::None)
      return;
  }
  check_tensor_slow(d, clause, field, t, *elem, g, rule);
}

// start_addr_active_channels: start_partition + n <= 128, for every static address whose
// start partition can be decoded, also when its offset breaks a rule of SPEC §3.4 (SPEC
// §3.6; the tensor clause reports that too). `clause` is the instruction's name for it
// (TensorScalar: check_m3d_active_channels).
void start_channels_fail(DiagSink& d, std::string_view field, unsigned partition, unsigned n,
                         std::string_view clause);
inline void check_start_channels(DiagSink& d, std::string_view field, const TensorDesc& t,
                                 unsigned n, Generation g,
                                 std::string_view clause = "start_addr_active_channels") {
  if (t.register_mode()) return;  // checked at execution
  const std::optional<uint32_t> p = static_start_partition(t.addr, g);
  if (!p) return;  // mode bits, bits 25-28: the tensor clause reports the address
  if (*p + n > model::kMaxPartitionEnd) start_channels_fail(d, field, *p, n, clause);
}

// has_valid_immediates (or the instruction's own name for it, `clause`) for one IMM_VAL
// field read per its IMM_SRC code. `report_bad_src`: whether this clause reports an
// IMM_SRC outside the enumeration. Not evaluated when `width` is nullopt.
void check_immediate_slow(DiagSink& d, std::string_view field, uint8_t src, uint32_t value,
                          std::optional<unsigned> width, bool allow_psum, unsigned n, Generation g,
                          bool report_bad_src, std::string_view clause);
inline void check_immediate(DiagSink& d, std::string_view field, uint8_t src, uint32_t value,
                            std::optional<unsigned> width, bool allow_psum, unsigned n,
                            Generation g, bool report_bad_src,
                            std::string_view clause = "has_valid_immediates") {
  // An instruction immediate that fits its width (the usual case).
  if (src == static_cast<uint8_t>(ImmSrc::INSTRUCTION_IMMEDIATE) &&
      (!width || *width >= 4 || (value >> (8 * *width)) == 0))
    return;
  check_immediate_slow(d, field, src, value, width, allow_psum, n, g, report_bad_src, clause);
}

// A one-byte enumeration clause: the field's value must be one of `allowed`.
void one_of_fail(DiagSink& d, std::string_view clause, std::string_view field, unsigned value,
                 std::string_view allowed_text);
inline void check_one_of(DiagSink& d, std::string_view clause, std::string_view field,
                         unsigned value, std::initializer_list<unsigned> allowed,
                         std::string_view allowed_text) {
  for (unsigned a : allowed)
    if (a == value) return;
  one_of_fail(d, clause, field, value, allowed_text);
}

// is_valid_dtype's allow-list (SPEC §3.6): the twelve data dtypes, and FP32R where the
// instruction allows it.
constexpr bool valid_data_dtype(uint8_t code, bool allow_fp32r) {
  switch (static_cast<Dtype>(code)) {
    case Dtype::INT8:
    case Dtype::UINT8:
    case Dtype::INT16:
    case Dtype::UINT16:
    case Dtype::BF16:
    case Dtype::FP16:
    case Dtype::INT32:
    case Dtype::UINT32:
    case Dtype::FP32:
    case Dtype::FP8_E3:
    case Dtype::FP8_E4:
    case Dtype::FP8_E5:
      return true;
    case Dtype::FP32R:
      return allow_fp32r;
    default:  // INVALID, UINT64, INT64, FP4_E2, CPTC*, unknown codes
      return false;
  }
}
// is_valid_dtype (or an instruction's clause with its rules) for one dtype field.
void dtype_fail(DiagSink& d, std::string_view clause, std::string_view field, uint8_t code,
                bool allow_fp32r);
inline void check_valid_dtype(DiagSink& d, std::string_view clause, std::string_view field,
                              uint8_t code, bool allow_fp32r) {
  if (!valid_data_dtype(code, allow_fp32r)) dtype_fail(d, clause, field, code, allow_fp32r);
}
// is_valid_dtype for an instruction's input and output dtype fields, FP32R only as the
// output. Returns their codes (input, output).
inline std::pair<uint8_t, uint8_t> check_in_out_dtypes(DiagSink& d, const Word& w,
                                                       const FieldDef& in, const FieldDef& out) {
  check_valid_dtype(d, "is_valid_dtype", in.name, w[in.offset], false);
  check_valid_dtype(d, "is_valid_dtype", out.name, w[out.offset], true);
  return {w[in.offset], w[out.offset]};
}

// The clause of an instruction that V2 does not have (`mnemonic`: its name).
inline void check_v3_or_later(DiagSink& d, std::string_view clause, Generation g,
                              std::string_view mnemonic) {
  if (g == Generation::V2)
    d.fail(clause, "generation", std::string(generation_name(g)),
           fmt::format("must be v3, v4 or v5 (the generations that have {})", mnemonic));
}

// ---- allowed sets as data ---------------------------------------------------------------

// A set of dtypes a clause allows: the test and the message come from the one list, so
// they cannot drift apart.
using DtypeSet = std::initializer_list<Dtype>;
inline bool dtype_in(DtypeSet allowed, uint8_t code) {
  for (Dtype a : allowed)
    if (static_cast<uint8_t>(a) == code) return true;
  return false;
}
// "must be INT32 or FP32" / "must be FP16, BF16 or FP32".
std::string must_be_one_of(DtypeSet allowed);
// The clause fails when `code` is not in `allowed`.
void dtype_fail(DiagSink& d, std::string_view clause, std::string_view field, uint8_t code,
                DtypeSet allowed);
inline void check_dtype_in(DiagSink& d, std::string_view clause, std::string_view field,
                           uint8_t code, DtypeSet allowed) {
  if (!dtype_in(allowed, code)) dtype_fail(d, clause, field, code, allowed);
}

// The integer dtypes of a predicate or integer datapath (is_valid_int_dtype_datapath).
inline constexpr DtypeSet kIntDtypes = {Dtype::INT8,  Dtype::INT16,  Dtype::INT32,
                                        Dtype::UINT8, Dtype::UINT16, Dtype::UINT32};

// The channel-count clause (check_active_channels, has_valid_active_channel_range, ...):
// num_active_channels is 1..128.
inline void check_channel_range(DiagSink& d, std::string_view clause, std::string_view field,
                                unsigned n) {
  if (n < 1 || n > kPartitions) d.fail(clause, field, std::to_string(n), "must be 1..128");
}

// A 0/1 flag (has_valid_reversed_pred, d1_rd_has_valid_negated_field, ...).
inline void check_flag(DiagSink& d, std::string_view clause, std::string_view field,
                       uint8_t value) {
  if (value > 1) d.fail(clause, field, hex8(value), "must be 0 or 1");
}

// A reserved field must be all zero.
void reserved_fail(DiagSink& d, std::string_view clause, const Word& w, const FieldDef& f);
inline void check_reserved(DiagSink& d, std::string_view clause, const Word& w, const FieldDef& f) {
  uint8_t any = 0;
  for (unsigned i = 0; i < f.size; ++i) any |= w[f.offset + i];
  if (any != 0) reserved_fail(d, clause, w, f);
}

// ---- execution: resolution with faults -------------------------------------------------

// A tensor operand after register resolution: where its walk lives on channel 0.
struct Operand {
  Location loc;  // start partition and offset
  Walk walk;     // offsets within each partition
  uint32_t partition(unsigned c) const { return loc.partition + c; }
};

// Resolves a tensor operand into `out`: a static address as validated, or the static
// ADDR4 held by its register, checked with the same rules. Returns the bad-address fault
// when they are broken (then `out` is unspecified).
std::optional<Fault> resolve_tensor(const Machine& m, std::string_view field, const TensorDesc& t,
                                    unsigned elem, OperandRule rule, unsigned n, Operand& out);

// An immediate after resolution: one value for every channel, or a per-channel pointer.
struct Immediate {
  unsigned width = 4;
  bool pointer = false;
  uint32_t value = 0;  // instruction immediate: the low `width` bytes
  Location loc;        // pointer: channel c reads partition loc.partition + c
  uint32_t read(const Machine& m, unsigned c) const;
};
// Resolves an immediate read per its IMM_SRC code into `out`; returns the bad-address
// fault of a register pointer that breaks the rules (then `out` is unspecified).
std::optional<Fault> resolve_immediate(const Machine& m, std::string_view field, uint8_t src,
                                       uint32_t value, unsigned width, bool allow_psum, unsigned n,
                                       Immediate& out);

// The walk limit (SPEC §3.6): more than 2^24 elements per channel faults too-large.
std::optional<Fault> check_walk_limit(std::string_view field, const TensorDesc& t);

// Little-endian element access inside a partition.
inline uint32_t load_elem(const uint8_t* p, unsigned size) {
  uint32_t v = 0;
  for (unsigned i = 0; i < size; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}
inline void store_elem(uint8_t* p, unsigned size, uint32_t v) {
  for (unsigned i = 0; i < size; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// ---- the Writer: all-or-nothing --------------------------------------------------------

// Instructions read the machine through a const reference and write only through a
// Writer. Before asking for a destination region an instruction notes every source
// range it will read; a destination that overlaps none of them is written in place,
// one that overlaps gets a shadow copy applied at commit. An instruction asks for
// regions only after every fault check has passed, so a fault never leaves a write.
class Writer {
 public:
  // With a journal, the Writer saves each destination's bytes in it before handing the
  // destination out (the undo of a batch of words, Journal in machine.h).
  explicit Writer(Machine& m, Journal* journal = nullptr) : m_(m), journal_(journal) {}

  // A source range: bytes [lo, hi) of `count` partitions from `partition` on.
  void note_source(Space s, unsigned partition, unsigned count, int64_t lo, int64_t hi);
  void note_source(const Operand& op, unsigned n);
  void note_immediate(const Immediate& imm, unsigned n);

  // Writable bytes mirroring [lo, hi) of a partition: index i is offset lo + i. Bytes not
  // written keep their current value.
  std::span<uint8_t> region(Space s, unsigned partition, uint32_t lo, uint32_t hi);
  // The regions of a destination operand's n channels at once: out[c] mirrors bytes
  // [walk.lo(), walk.hi()) of channel c's partition. Returns the destination walk with
  // offsets relative to those regions. An instruction asks for all its regions before it
  // writes (after noting every source): the Writer is not thread-safe, and the fast
  // paths may then run channels in parallel.
  // With `every` > 1 only the channels c with c % every == 0 get a region (the others
  // get nullptr, and are neither written nor traced).
  Walk regions(const Operand& dst, unsigned n, uint8_t** out, unsigned every = 1);
  void set_accumulator(unsigned index, uint32_t bits);
  // The new state of a search lane, applied at commit (traced only when it changes).
  void set_match_lane(unsigned lane, const MatchLane& state);

  bool touched() const { return !regions_.empty() || !accs_.empty() || !lanes_.empty(); }
  // Applies shadows and accumulators, and reports every write to the trace.
  void commit(TraceSink* trace);

 private:
  struct Source {
    Space space;
    unsigned first, count;  // partitions [first, first + count)
    int64_t lo, hi;
  };
  struct Region {
    Space space;
    unsigned partition;
    uint32_t lo, hi;
    uint8_t* shadow;  // null when written in place
  };
  Machine& m_;
  Journal* journal_;
  // An instruction notes a few sources (one per operand, each over its channels) and
  // asks for at most one region per destination partition, so these stay inline: an
  // instruction allocates only for shadows, which overlapping operands need.
  InlineVector<Source, 8> sources_;
  InlineVector<Region, 2 * kPartitions> regions_;
  std::vector<std::unique_ptr<uint8_t[]>> shadows_;
  struct Acc {
    unsigned index;
    uint32_t bits;
  };
  InlineVector<Acc, kPartitions> accs_;
  struct Lane {
    unsigned index;
    MatchLane state;
  };
  InlineVector<Lane, kPartitions> lanes_;  // at most one per lane
};

// ---- an instruction's semantics (its op file, pointed to by its table row) -------------

class Explainer;  // src/ops/explain.h

// An instruction's own clauses (header, events and the opcode clause are common).
// `opts.engine` is always set: the engine the word is validated for (SPEC §3.9).
using ValidateFn = void (*)(const Word&, Generation, const ValidateOptions&, DiagSink&);
// What execution knows besides the word and the machine.
struct ExecEnv {
  Engine engine;  // the engine the word runs on (SPEC §3.9: the input, or its row's)
  bool fast;      // use the fast kernels
};
struct ResolvedOperands;  // src/ops/operands.h
// The effect (SPEC §4's execution rule after validation, the wait, unsupported-op and the
// operands' resolution, faults and walk limits, which the family's declaration drives):
// read the machine and the resolved operands, write through the Writer (whose sources
// are already noted). A fault found here must come before the first write.
using ExecuteFn = std::optional<Fault> (*)(const Word&, const Machine&, const ResolvedOperands&,
                                           Writer&, const ExecEnv&);
// SPEC §3.9: unsupported-op for what the model does not run on an engine, checked after
// the wait and before any operand is resolved; nullptr: the instruction runs everywhere
// it is valid.
using UnsupportedFn = std::optional<Fault> (*)(const Word&, Engine);
// The same for what the model does not run on a generation (SPEC §4.25: SelectReduce on
// V2), checked right after `unsupported`; nullptr: none.
using GenerationUnsupportedFn = std::optional<Fault> (*)(const Word&, Generation);
// What a valid word reads, writes and computes on the machine's state, for `explain`.
using ExplainFn = void (*)(const Decoded&, const Machine&, Explainer&);
// A valid word of one channel in `partition`: 16 source elements at offset 0 (8 for
// MatchValueLoad, none for Iota, the accumulator for DveReadAccumulator), the
// destination at offset 256. It validates clean on every generation where the
// instruction exists, in default and strict mode. Tools, fuzzers and the bench start
// from it.
using SampleFn = Word (*)(unsigned partition);
// The dtypes of the destination's ordinals, where the generic rule (the destination's
// out_dtype, in_out_dtype's output or dtype for every ordinal) does not hold.
using DestinationFn = std::optional<DestinationDtypes> (*)(const Decoded&);

// What a word may read and write (SPEC §8.5), as its op file lists it: operand walks over
// its channels, pointer immediates, accumulators and search lanes. The race detector
// turns these into byte ranges (src/program/).
class FootprintSink {
 public:
  // walk(T, dtype, channels) of SPEC §8.5: the walk's bytes in partitions first + c, for
  // the channels c < channels with c % every == 0.
  struct MemWalk {
    AccessKind access;
    Space space;
    unsigned first, channels, every;
    Walk walk;
  };
  // acc[first + c] or lane[first + c], c < channels.
  struct StateAccess {
    AccessKind access;
    LocationSpace space;  // ACC or MATCH
    unsigned first, channels;
  };
  // An operand's walk on its resolved partitions.
  void walk(AccessKind a, const Operand& op, unsigned n, unsigned every = 1) {
    walks.push_back(MemWalk{a, op.loc.space, op.loc.partition, n, every, op.walk});
  }
  // pointer(imm, width, channels): the immediate's `width` bytes per channel; nothing
  // for an instruction immediate.
  void pointer(AccessKind a, const Immediate& imm, unsigned n, unsigned every = 1) {
    if (!imm.pointer) return;
    Walk w;
    w.start = imm.loc.offset;
    w.elem = imm.width;
    walks.push_back(MemWalk{a, imm.loc.space, imm.loc.partition, n, every, w});
  }
  void accumulators(AccessKind a, unsigned first, unsigned n) {
    states.push_back(StateAccess{a, LocationSpace::ACC, first, n});
  }
  void lanes(AccessKind a, unsigned first, unsigned n) {
    states.push_back(StateAccess{a, LocationSpace::MATCH, first, n});
  }
  void clear() {
    walks.clear();
    states.clear();
  }
  InlineVector<MemWalk, 8> walks;
  InlineVector<StateAccess, 4> states;
};
struct Operands;  // src/ops/operands.h: a family's operands, declared once

struct OpSemantics {
  ValidateFn validate;
  ExecuteFn execute;
  ExplainFn explain;
  SampleFn sample;
  std::string_view sample_label;        // what the sample word is: "RangeSelect fp32"
  DestinationFn destination = nullptr;  // nullptr: the generic rule
  // The family's operand declaration: resolution, sources and the footprint of SPEC §8.5
  // derive from it (src/ops/operands.h); every row of the table has one.
  const Operands* operands = nullptr;
  UnsupportedFn unsupported = nullptr;
  // The [model] order rule a valid word's result rests on (explain.h's order_rule);
  // nullptr: none, in every order the same.
  std::optional<model::OrderRule> (*order_rule)(const Word&) = nullptr;
  GenerationUnsupportedFn unsupported_on = nullptr;
};

// SPEC §4's execution rule after validation and the wait check (a program validates every
// word first and issues only ready heads, SPEC §8.2): the instruction's own checks and
// effect, then the commit and the semaphore update, reported to `trace`. Returns the
// fault, if any; then nothing changed.
// With a journal, what the word overwrites is saved in it first.
std::optional<Fault> execute_validated(Machine& m, const Word& w, const InstrDef& def,
                                       Engine engine, bool fast, TraceSink* trace,
                                       Journal* journal = nullptr);

// SPEC §3.2: the sync-would-block fault of a single word or a stream word whose wait does
// not hold (nothing else runs that could satisfy it); nullopt when it holds.
std::optional<Fault> wait_fault(const Machine& m, const Events& e);

// The semantics of a table row.
inline const OpSemantics& semantics(const InstrDef& def) {
  return *def.semantics;
}

// ---- sample words -------------------------------------------------------------------

// A word with only the header (SPEC §3.1) of `op`.
Word header_word(Opcode op);
// A static SBUF tensor descriptor of `dims` dimensions in `partition` at `offset`:
// `count` contiguous elements along dimension 0, every other dimension one element.
TensorDesc sample_tensor(unsigned dims, unsigned partition, uint32_t offset, uint16_t count);
inline void put_u8(Word& w, const FieldDef& f, uint8_t v) {
  store_u8(w, f.offset, v);
}
inline void put_u32(Word& w, const FieldDef& f, uint32_t v) {
  store_u32(w, f.offset, v);
}
inline void put_tensor(Word& w, const FieldDef& f, const TensorDesc& t) {
  store_tensor(w, f.offset, t);
}

// The opcode clause every instruction has (its table row's opcode_clause).
void check_opcode(DiagSink& d, const Word& w, const InstrDef& def);

}  // namespace gpsimd::detail
