// Operand checks (SPEC §3.4-§3.6) shared by all instructions: statically in validation
// and again, with faults, for what validation cannot see (register-mode addresses).
#include "ops/operands.h"

#include <algorithm>
#include <cstring>

#include "common/check.h"
#include "gpsimd/model.h"

namespace gpsimd::detail {

std::string hex32(uint32_t v) {
  return fmt::format("{:#010x}", v);
}
std::string hex8(unsigned v) {
  return fmt::format("{:#04x}", v);
}

std::string dtype_text(uint8_t code) {
  if (auto n = dtype_name(code)) return fmt::format("{} ({:#x})", *n, code);
  return fmt::format("{:#x} (unknown)", code);
}

std::string tensor_text(const TensorDesc& t) {
  std::string steps, nums;
  for (unsigned d = 0; d < t.dims; ++d) {
    steps += fmt::format("{}{}", d ? "," : "", t.step[d]);
    nums += fmt::format("{}{}", d ? "," : "", t.num[d]);
  }
  return fmt::format("addr={:#010x} step=[{}] num=[{}]", t.addr, steps, nums);
}

namespace {

// The diagnostics state the rule in `allowed`; facts about the broken operand (the bytes
// its walk touches, its element size) go with its value.

std::string zero_num_rule(const TensorDesc& t) {
  for (unsigned d = 0; d < t.dims; ++d)
    if (t.num[d] == 0) return fmt::format("num_elem[{}] must be >= 1", d);
  return {};
}

struct Problem {
  std::string fact;  // added to the value: what the operand does
  std::string rule;  // what is allowed
};

Problem location_problem(const Location& loc, const TensorDesc& t, unsigned elem, Generation g,
                         OperandRule rule) {
  switch (location_issue(loc, t, elem, g, rule)) {
    case LocIssue::None:
      return {};
    case LocIssue::Psum:
      return {"in PSUM", "must be in SBUF (this engine cannot access PSUM)"};
    case LocIssue::PsumWidth:
      return {fmt::format("a PSUM write of {}-byte elements", elem),
              "a PSUM write must have a 4-byte dtype (INT32, UINT32, FP32, FP32R)"};
    case LocIssue::Align:
      return {fmt::format("start offset {:#x}, {}-byte elements", loc.offset, elem),
              "the start offset must be aligned to the element size"};
    case LocIssue::ZeroNum:
      return {"", zero_num_rule(t)};
    case LocIssue::Outside: {
      const Walk w = Walk::of(t, loc.offset, elem);
      const int64_t size = loc.space == Space::SBUF ? sbuf_partition_bytes(g) : kPsumPartitionBytes;
      return {fmt::format("touches bytes [{}, {})", hex_offset(w.lo()), hex_offset(w.hi())),
              fmt::format("every byte the walk touches must lie inside the {} partition [0x0, "
                          "{:#x})",
                          space_name(loc.space), size)};
    }
  }
  return {};
}

std::string with_fact(std::string value, const std::string& fact) {
  return fact.empty() ? value : value + " (" + fact + ")";
}

}  // namespace

std::string hex_offset(int64_t v) {
  return v < 0 ? fmt::format("-{:#x}", -v) : fmt::format("{:#x}", v);
}

std::string static_addr_rule(Generation g, AddrProblem p) {
  switch (p) {
    case AddrProblem::None:
      break;
    case AddrProblem::RegisterMode:
      return "must be a static ADDR4 (bit 31 clear)";
    case AddrProblem::ModeBits:
      return "ADDR4 mode bits 29-30 must be 0";
    case AddrProblem::PsumOffset:
      return "a PSUM ADDR4's offset must be below 16 KiB (0x4000)";
    case AddrProblem::NotPsumBits:
      return "ADDR4 bits 25-28 must be 0 (SBUF) or place the address in the PSUM window "
             "[0x2000000, 0x2400000)";
    case AddrProblem::SbufOffset:
      return fmt::format(
          "an SBUF ADDR4's offset (bits 0-17) must be below the {} partition size {:#x}",
          generation_name(g), sbuf_partition_bytes(g));
  }
  return {};
}

void check_tensor_slow(DiagSink& d, std::string_view clause, std::string_view field,
                       const TensorDesc& t, unsigned elem, Generation g, OperandRule rule) {
  if (t.register_mode()) {
    if (t.addr & 0x7fffff00u) {
      d.fail(clause, field, tensor_text(t), "a register-mode ADDR4's bits 8-30 must be 0");
      return;
    }
    if ((t.addr & 0xffu) >= kRegisters) {
      d.fail(clause, field, tensor_text(t),
             fmt::format("a register-mode ADDR4 must name a register < {}", kRegisters));
      return;
    }
    if (auto z = zero_num_rule(t); !z.empty()) d.fail(clause, field, tensor_text(t), z);
    return;
  }
  const StaticAddr a = check_static_addr(t.addr, g);
  if (a.problem != AddrProblem::None) {
    d.fail(clause, field, tensor_text(t), static_addr_rule(g, a.problem));
    return;
  }
  if (auto p = location_problem(a.loc, t, elem, g, rule); !p.rule.empty())
    d.fail(clause, field, with_fact(tensor_text(t), p.fact), p.rule);
}

void start_channels_fail(DiagSink& d, std::string_view field, unsigned partition, unsigned n,
                         std::string_view clause) {
  d.fail(
      clause, field, fmt::format("start partition {} + {} channels", partition, n),
      fmt::format("start partition + num_active_channels must be <= {}", model::kMaxPartitionEnd));
}

namespace {

// The rule a pointer immediate's static ADDR4 breaks (empty when it holds), and the
// fact that breaks it.
struct PointerProblem {
  std::string fact, rule;
};
PointerProblem pointer_problem(uint32_t addr, unsigned width, bool allow_psum, unsigned n,
                               Generation g) {
  const StaticAddr a = check_static_addr(addr, g);
  if (a.problem == AddrProblem::RegisterMode)
    return {"", "a pointer must be a static ADDR4 (bit 31 clear)"};
  if (a.problem != AddrProblem::None)
    return {"", "a pointer must be a well-formed static ADDR4: " + static_addr_rule(g, a.problem)};
  const Location& loc = a.loc;
  if (loc.space == Space::PSUM && !allow_psum)
    return {"in PSUM", "a pointer must be in SBUF (this engine cannot access PSUM)"};
  if (loc.offset % width != 0)
    return {fmt::format("offset {:#x}, {}-byte immediate", loc.offset, width),
            "a pointer's offset must be aligned to the immediate's width"};
  if (loc.partition + n > kPartitions)
    return {fmt::format("partitions {}..{}", loc.partition, loc.partition + n - 1),
            fmt::format("a pointer's partitions (start + num_active_channels) must be < {}",
                        kPartitions)};
  return {};
}

}  // namespace

void check_immediate_slow(DiagSink& d, std::string_view field, uint8_t src, uint32_t value,
                          std::optional<unsigned> width, bool allow_psum, unsigned n, Generation g,
                          bool report_bad_src, std::string_view clause) {
  if (src > static_cast<uint8_t>(ImmSrc::REG_PTR_IMMEDIATE)) {
    if (report_bad_src)
      d.fail(clause, fmt::format("{}_src", field), hex8(src),
             "must be INSTRUCTION_IMMEDIATE (0), POINTER_IMMEDIATE (1) or REG_PTR_IMMEDIATE (2)");
    return;
  }
  if (!width) return;
  switch (static_cast<ImmSrc>(src)) {
    case ImmSrc::INSTRUCTION_IMMEDIATE:
      if (*width < 4 && (value >> (8 * *width)) != 0)
        d.fail(clause, field, hex32(value),
               fmt::format("an instruction immediate of {} byte(s) must have its upper {} "
                           "byte(s) zero",
                           *width, 4 - *width));
      return;
    case ImmSrc::POINTER_IMMEDIATE:
      if (auto p = pointer_problem(value, *width, allow_psum, n, g); !p.rule.empty())
        d.fail(clause, field, with_fact(hex32(value), p.fact), p.rule);
      return;
    case ImmSrc::REG_PTR_IMMEDIATE:
      if ((value & 0xffu) >= kRegisters || (value >> 8) != 0)
        d.fail(clause, field, hex32(value),
               fmt::format("a register pointer must be a register id < {} with bytes 1-3 zero",
                           kRegisters));
      return;
  }
}

std::string must_be_one_of(DtypeSet allowed) {
  std::string out = "must be ";
  std::size_t i = 0;
  for (Dtype a : allowed) {
    if (i > 0) out += i + 1 == allowed.size() ? " or " : ", ";
    out += *dtype_name(static_cast<uint8_t>(a));
    ++i;
  }
  return out;
}

void dtype_fail(DiagSink& d, std::string_view clause, std::string_view field, uint8_t code,
                DtypeSet allowed) {
  d.fail(clause, field, dtype_text(code), must_be_one_of(allowed));
}

void one_of_fail(DiagSink& d, std::string_view clause, std::string_view field, unsigned value,
                 std::string_view allowed_text) {
  d.fail(clause, field, hex8(value), fmt::format("must be {}", allowed_text));
}

void dtype_fail(DiagSink& d, std::string_view clause, std::string_view field, uint8_t code,
                bool allow_fp32r) {
  d.fail(clause, field, dtype_text(code),
         allow_fp32r ? "must not be INVALID, UINT64, INT64, FP4_E2, CPTC* or an unknown code"
                     : "must not be INVALID, FP32R, UINT64, INT64, FP4_E2, CPTC* or an unknown "
                       "code");
}

void reserved_fail(DiagSink& d, std::string_view clause, const Word& w, const FieldDef& f) {
  for (unsigned i = 0; i < f.size; ++i) {
    if (w[f.offset + i] != 0) {
      d.fail(clause, f.name,
             fmt::format("byte {:#04x} of the word = {}", f.offset + i, hex8(w[f.offset + i])),
             "reserved bytes must be zero");
      return;
    }
  }
}

void check_opcode(DiagSink& d, const Word& w, const InstrDef& def) {
  if (w[0] != static_cast<uint8_t>(def.opcode))
    d.fail(def.opcode_clause, "header", hex8(w[0]),
           fmt::format("opcode must be {}", hex8(static_cast<unsigned>(def.opcode))));
}

Word header_word(Opcode op) {
  Word w{};
  store_u32(w, 0, default_header(op));
  return w;
}

TensorDesc sample_tensor(unsigned dims, unsigned partition, uint32_t offset, uint16_t count) {
  TensorDesc t;
  t.addr = encode_static_addr({Space::SBUF, partition, offset});
  t.dims = static_cast<uint8_t>(dims);
  t.step = {1, 0, 0, 0};
  t.num = {count, 1, 1, 1};
  return t;
}

// ---- execution --------------------------------------------------------------------------

std::optional<Fault> resolve_tensor(const Machine& m, std::string_view field, const TensorDesc& t,
                                    unsigned elem, OperandRule rule, unsigned n, Operand& out) {
  uint32_t addr = t.addr;
  std::string via;
  if (t.register_mode()) {
    unsigned r = t.addr & 0xffu;  // well-formed: validated
    addr = m.registers[r];
    via = fmt::format(" (from register {})", r);
  }
  std::string why;
  auto loc = decode_static_addr(addr, m.generation(), &why);
  auto fault = [&](const std::string& p) {
    return Fault{FaultKind::BadAddress,
                 fmt::format("{}: address {:#010x}{}: {}", field, addr, via, p)};
  };
  if (!loc) return fault("ADDR4 " + why);
  if (t.register_mode()) {
    if (auto p = location_problem(*loc, t, elem, m.generation(), rule); !p.rule.empty())
      return fault(p.fact.empty() ? p.rule : p.fact + ", " + p.rule);
    if (loc->partition + n > model::kMaxPartitionEnd)
      return fault(fmt::format("start partition {} + {} channels must be <= {}", loc->partition, n,
                               model::kMaxPartitionEnd));
  }
  out.loc = *loc;
  out.walk = Walk::of(t, loc->offset, elem);
  return std::nullopt;
}

uint32_t Immediate::read(const Machine& m, unsigned c) const {
  if (!pointer) return value;
  auto part = m.partition(loc.space, loc.partition + c);
  return load_elem(part.data() + loc.offset, width);
}

std::optional<Fault> resolve_immediate(const Machine& m, std::string_view field, uint8_t src,
                                       uint32_t value, unsigned width, bool allow_psum, unsigned n,
                                       Immediate& imm) {
  imm = Immediate{};
  imm.width = width;
  switch (static_cast<ImmSrc>(src)) {
    case ImmSrc::INSTRUCTION_IMMEDIATE:
      imm.value = width < 4 ? (value & ((1u << (8 * width)) - 1)) : value;
      return std::nullopt;
    case ImmSrc::POINTER_IMMEDIATE:
      break;  // validated statically
    case ImmSrc::REG_PTR_IMMEDIATE: {
      const unsigned r = value & 0xffu;
      value = m.registers[r];
      if (auto p = pointer_problem(value, width, allow_psum, n, m.generation()); !p.rule.empty())
        return Fault{FaultKind::BadAddress,
                     fmt::format("{}: register {} holds {:#010x}{}: {}", field, r, value,
                                 p.fact.empty() ? "" : " (" + p.fact + ")", p.rule)};
      break;
    }
  }
  imm.pointer = true;
  imm.loc = *decode_static_addr(value, m.generation());
  return std::nullopt;
}

std::optional<Fault> check_walk_limit(std::string_view field, const TensorDesc& t) {
  if (t.count() > model::kWalkLimit)
    return Fault{FaultKind::TooLarge,
                 fmt::format("{}: the walk visits {} elements per channel, the limit is 2^24 "
                             "({})",
                             field, t.count(), model::kWalkLimit)};
  return std::nullopt;
}

// ---- Writer ------------------------------------------------------------------------------

void Writer::note_source(Space s, unsigned partition, unsigned count, int64_t lo, int64_t hi) {
  GPSIMD_CHECK(regions_.empty());  // every source is noted before the first write
  sources_.push_back(Source{s, partition, count, lo, hi});
}

void Writer::note_source(const Operand& op, unsigned n) {
  note_source(op.loc.space, op.partition(0), n, op.walk.lo(), op.walk.hi());
}

void Writer::note_immediate(const Immediate& imm, unsigned n) {
  if (!imm.pointer) return;
  note_source(imm.loc.space, imm.loc.partition, n, imm.loc.offset, imm.loc.offset + imm.width);
}

std::span<uint8_t> Writer::region(Space s, unsigned partition, uint32_t lo, uint32_t hi) {
  GPSIMD_CHECK(lo <= hi && hi <= m_.partition_bytes(s));
  uint8_t* bytes = m_.partition(s, partition).data() + lo;
  const bool overlaps = std::any_of(sources_.begin(), sources_.end(), [&](const Source& x) {
    return x.space == s && partition - x.first < x.count && x.lo < hi && lo < x.hi;
  });
  uint8_t* shadow = nullptr;
  if (overlaps) {
    shadows_.push_back(std::make_unique_for_overwrite<uint8_t[]>(hi - lo));
    shadow = shadows_.back().get();
    std::memcpy(shadow, bytes, hi - lo);
  }
  if (journal_) journal_->save(m_, s, partition, lo, hi);
  regions_.push_back(Region{s, partition, lo, hi, shadow});
  return {shadow ? shadow : bytes, hi - lo};
}

Walk Writer::regions(const Operand& dst, unsigned n, uint8_t** out, unsigned every) {
  const Space s = dst.loc.space;
  const auto lo = static_cast<uint32_t>(dst.walk.lo()), hi = static_cast<uint32_t>(dst.walk.hi());
  GPSIMD_CHECK(lo <= hi && hi <= m_.partition_bytes(s) && dst.partition(0) + n <= kPartitions);
  // The sources whose bytes meet [lo, hi) in this space; a channel needs a shadow when
  // one of them covers its partition.
  InlineVector<const Source*, decltype(sources_)::capacity()> near;
  for (const Source& x : sources_)
    if (x.space == s && x.lo < hi && lo < x.hi) near.push_back(&x);
  uint8_t* base = m_.space(s).data() + lo;
  const std::size_t stride = m_.partition_bytes(s);
  // `phase` is c % every, counted (a division per channel costs more than the rest).
  for (unsigned c = 0, phase = 0; c < n; ++c, phase = phase + 1 == every ? 0 : phase + 1) {
    const unsigned p = dst.partition(c);
    if (phase != 0) {
      out[c] = nullptr;
      continue;
    }
    if (std::any_of(near.begin(), near.end(),
                    [p](const Source* x) { return p - x->first < x->count; })) {
      out[c] = region(s, p, lo, hi).data();
    } else {
      if (journal_) journal_->save(m_, s, p, lo, hi);
      regions_.push_back(Region{s, p, lo, hi, nullptr});
      out[c] = base + p * stride;
    }
  }
  Walk relative = dst.walk;
  relative.start -= lo;
  return relative;
}

void Writer::set_accumulator(unsigned index, uint32_t bits) {
  GPSIMD_CHECK(index < kPartitions);
  accs_.push_back(Acc{index, bits});
}

void Writer::set_match_lane(unsigned lane, const MatchLane& state) {
  GPSIMD_CHECK(lane < kPartitions);
  lanes_.push_back(Lane{lane, state});
}

void Writer::commit(TraceSink* trace) {
  for (const Region& r : regions_) {
    uint8_t* bytes = m_.partition(r.space, r.partition).data() + r.lo;
    const std::size_t len = r.hi - r.lo;
    if (r.shadow) std::memcpy(bytes, r.shadow, len);
    if (trace) trace->memory(r.space, r.partition, r.lo, {bytes, len});
  }
  for (auto [i, bits] : accs_) {
    const uint32_t before = m_.accumulators[i];
    m_.accumulators[i] = bits;
    if (trace) trace->accumulator(i, before, bits);
  }
  for (const Lane& l : lanes_) {
    if (!trace) {  // unchanged lanes are left out of the trace only
      m_.match[l.index] = l.state;
      continue;
    }
    const MatchLane before = m_.match[l.index];
    if (before == l.state) continue;
    m_.match[l.index] = l.state;
    trace->match_lane(l.index, before, l.state);
  }
}

}  // namespace gpsimd::detail

// ---- operands declared once per family (ops/operands.h) ---------------------------------

namespace gpsimd::detail {

void check_tensor_operands(const Operands& ops, const Word& w, Generation g, Engine engine,
                           DiagSink& d) {
  for (const OperandDecl& o : ops.list) {
    if (o.kind != OperandDecl::Kind::Tensor) continue;
    static constexpr std::string_view kByDims[] = {"", "tensor1d_valid", "tensor2d_valid",
                                                   "tensor3d_valid", "tensor4d_valid"};
    const std::string_view clause = ops.tensor_clause.empty()
                                        ? kByDims[std::min<unsigned>(o.field.dims, 4)]
                                        : ops.tensor_clause;
    check_tensor(d, clause, o.field.name, load_tensor(w, o.field), o.dtype.size(w), g,
                 operand_rule(engine, o.access));
  }
  const unsigned n = w[ops.channels.offset];
  for (const OperandDecl& o : ops.list)
    if (o.kind == OperandDecl::Kind::Tensor)
      check_start_channels(d, o.field.name, load_tensor(w, o.field), n, g, ops.channels_clause);
}

void check_immediate_operands(const Operands& ops, const Word& w, Generation g, Engine engine,
                              DiagSink& d, bool report_bad_src) {
  const unsigned n = w[ops.channels.offset];
  for (const OperandDecl& o : ops.list) {
    if (!o.is_immediate()) continue;
    const uint8_t src = o.kind == OperandDecl::Kind::Pointer
                            ? static_cast<uint8_t>(ImmSrc::POINTER_IMMEDIATE)
                            : w[o.src.offset];
    check_immediate(d, o.field.name, src, load_u32(w, o.field.offset), o.dtype.size(w),
                    operand_rule(engine, o.access).allow_psum, n, g, report_bad_src,
                    ops.immediate_clause);
  }
}

std::optional<Fault> resolve_operands(const Operands& ops, const Word& w, const Machine& m,
                                      Engine engine, ResolvedOperands& out) {
  GPSIMD_CHECK(ops.list.size() <= kMaxOperands);
  const unsigned n = w[ops.channels.offset];
  out.decl = &ops;
  out.n = n;
  out.slots.clear();
  for (const OperandDecl& o : ops.list) {
    const OperandRule rule = operand_rule(engine, o.access);
    ResolvedOperands::Slot& slot = out.slots.emplace_back();
    switch (o.kind) {
      case OperandDecl::Kind::Tensor: {
        slot.desc = load_tensor(w, o.field);
        if (auto f =
                resolve_tensor(m, o.field.name, slot.desc, *o.dtype.size(w), rule, n, slot.tensor))
          return f;
        break;
      }
      case OperandDecl::Kind::Immediate:
      case OperandDecl::Kind::Pointer: {
        const uint8_t src = o.kind == OperandDecl::Kind::Pointer
                                ? static_cast<uint8_t>(ImmSrc::POINTER_IMMEDIATE)
                                : w[o.src.offset];
        if (auto f = resolve_immediate(m, o.field.name, src, load_u32(w, o.field.offset),
                                       *o.dtype.size(w), rule.allow_psum, n, slot.immediate))
          return f;
        break;
      }
      case OperandDecl::Kind::Accumulators:
      case OperandDecl::Kind::Lanes:
        break;  // no address: the channels' own state
    }
  }
  return std::nullopt;
}

std::optional<Fault> prepare_operands(const Operands& ops, const Word& w, const Machine& m,
                                      Engine engine, Writer& out, ResolvedOperands& r) {
  if (auto f = resolve_operands(ops, w, m, engine, r)) return f;
  if (ops.checks)
    if (auto f = ops.checks(w, r)) return f;
  for (std::size_t i = 0; i < ops.list.size(); ++i)
    if (ops.list[i].kind == OperandDecl::Kind::Tensor)
      if (auto f = check_walk_limit(ops.list[i].field.name, r.desc(i))) return f;
  for (std::size_t i = 0; i < ops.list.size(); ++i) {
    const OperandDecl& o = ops.list[i];
    if (o.access != AccessKind::Read) continue;
    if (o.kind == OperandDecl::Kind::Tensor) out.note_source(r.tensor(i), r.n);
    if (o.is_immediate()) out.note_immediate(r.immediate(i), r.n);
  }
  return std::nullopt;
}

std::optional<Fault> same_count(const Word&, const ResolvedOperands& r) {
  const auto& list = r.decl->list;
  bool from_register = false;
  for (std::size_t i = 0; i < list.size(); ++i)
    from_register =
        from_register || (list[i].kind == OperandDecl::Kind::Tensor && r.desc(i).register_mode());
  if (!from_register) return std::nullopt;  // validation checked the counts
  bool differ = false;
  std::optional<uint64_t> first;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].kind != OperandDecl::Kind::Tensor) continue;
    differ = differ || (first && *first != r.desc(i).count());
    if (!first) first = r.desc(i).count();
  }
  if (!differ) return std::nullopt;
  // The fault's text, only when there is one: "src_mem_pattern visits 8 elements,
  // dst_mem_pattern 16: they must be equal".
  std::string counts;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].kind == OperandDecl::Kind::Tensor)
      counts += counts.empty()
                    ? fmt::format("{} visits {} elements", list[i].field.name, r.desc(i).count())
                    : fmt::format(", {} {}", list[i].field.name, r.desc(i).count());
  return Fault{FaultKind::ShapeMismatch, counts + ": they must be equal"};
}

void explain_operands(const Operands& ops, const Decoded& d, const Machine& m, Explainer& x) {
  const auto n = static_cast<unsigned>(d.integer(ops.channels.name));
  x.line("channels", channels_text(n));
  auto tensors = [&](bool read, std::string_view verb) {
    for (const OperandDecl& o : ops.list)
      if (o.kind == OperandDecl::Kind::Tensor && (o.access == AccessKind::Read) == read)
        x.line(verb, tensor_text(verb, o.field, d.tensor(o.field.name), o.dtype.code(d), n, m) +
                         (o.role.empty() ? std::string() : fmt::format(" ({})", o.role)));
  };
  tensors(true, "reads");
  for (const OperandDecl& o : ops.list)
    if (o.kind == OperandDecl::Kind::Lanes && o.access != AccessKind::Write)
      x.line("reads", lanes_text(d.tensor(ops.list[o.partitions_of].field.name), n, m));
  for (const OperandDecl& o : ops.list) {
    if (!o.is_immediate()) continue;
    const uint8_t dt = o.dtype.code(d);
    const auto v = static_cast<uint32_t>(d.integer(o.field.name));
    const uint64_t src = o.kind == OperandDecl::Kind::Pointer
                             ? static_cast<uint64_t>(ImmSrc::POINTER_IMMEDIATE)
                             : d.integer(o.src.name);
    x.line("immediate", imm_text(o.field, src, v, dtype_str(dt), dtype_size(dt).value_or(4),
                                 format_value(static_cast<Dtype>(dt), v), n, m));
  }
  tensors(false, "writes");
}

std::optional<Fault> operand_footprint(const Operands& ops, const Word& w, const Machine& m,
                                       Engine engine, FootprintSink& fp) {
  ResolvedOperands r;
  if (auto f = resolve_operands(ops, w, m, engine, r)) return f;
  for (std::size_t i = 0; i < ops.list.size(); ++i) {
    const OperandDecl& o = ops.list[i];
    switch (o.kind) {
      case OperandDecl::Kind::Tensor:
        fp.walk(o.access, r.tensor(i), r.n, ops.every);
        break;
      case OperandDecl::Kind::Immediate:
      case OperandDecl::Kind::Pointer:
        fp.pointer(o.access, r.immediate(i), r.n, ops.every);
        break;
      case OperandDecl::Kind::Accumulators:
      case OperandDecl::Kind::Lanes: {
        const std::optional<AccessKind> a = o.access_of ? o.access_of(w) : o.access;
        if (!a) break;
        const unsigned first = r.tensor(o.partitions_of).partition(0);
        if (o.kind == OperandDecl::Kind::Accumulators)
          fp.accumulators(*a, first, r.n);
        else
          fp.lanes(*a, first, r.n);
        break;
      }
    }
  }
  return std::nullopt;
}

std::optional<Fault> cost_terms(const Operands& ops, const Word& w, const Machine& m, Engine engine,
                                CostTerms& out) {
  ResolvedOperands r;
  if (auto f = resolve_operands(ops, w, m, engine, r)) return f;
  out.clear();
  for (std::size_t i = 0; i < ops.list.size(); ++i) {
    if (ops.list[i].kind != OperandDecl::Kind::Tensor) continue;
    const TensorDesc& t = r.desc(i);
    out.push_back(CostTerm{t.count(), r.tensor(i).loc.space, t.step[0] == 1});
  }
  return std::nullopt;
}

}  // namespace gpsimd::detail
