// The shared vocabulary of the instructions' explanations (explain.h), and explain().
#include "ops/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "common/names.h"
#include "gpsimd/format.h"
#include "ops/op.h"

namespace gpsimd {
namespace detail {

std::string parts_text(unsigned first, unsigned n) {
  return n == 1 ? fmt::format("partition {}", first)
                : fmt::format("partitions {}..{}", first, first + n - 1);
}

std::string dtype_str(uint64_t code) {
  auto n = dtype_name(static_cast<uint8_t>(code));
  return n ? std::string(*n) : fmt::format("{:#x}", code);
}

std::string space_upper(Space s) {
  return std::string(space_def(s).upper);
}

std::string op_text(uint64_t op) {
  static constexpr Named<AluOp> kComparisons[] = {
      {AluOp::IS_EQ, "=="}, {AluOp::IS_GT, ">"}, {AluOp::IS_GE, ">="},
      {AluOp::IS_LE, "<="}, {AluOp::IS_LT, "<"},
  };
  if (const Named<AluOp>* r = find_row(kComparisons, static_cast<AluOp>(op)))
    return std::string(r->name);
  return fmt::format("op {:#x}", op);
}

ResolvedAddr resolve_addr(uint32_t addr, const Machine& m) {
  ResolvedAddr r;
  if (addr >> 31) {
    const unsigned reg = addr & 0xffu;
    addr = m.registers[reg];
    r.via = fmt::format(" (address from reg({}) = {:#010x})", reg, addr);
  }
  r.loc = decode_static_addr(addr, m.generation(), &r.problem);
  return r;
}

std::string tensor_text(std::string_view verb, const FieldDef& f, const TensorDesc& t,
                        uint64_t dtype, unsigned n, const Machine& m) {
  const ResolvedAddr r = resolve_addr(t.addr, m);
  const unsigned elem = dtype_size(static_cast<uint8_t>(dtype)).value_or(1);
  std::string steps, nums;
  for (unsigned d = 0; d < t.dims; ++d) {
    steps += fmt::format("{}{}", d ? "," : "", t.step[d]);
    nums += fmt::format("{}{}", d ? "," : "", t.num[d]);
  }
  const uint64_t count = t.count();
  std::string s =
      fmt::format("{}: {} {} element{} per partition {} ", f.name, count, dtype_str(dtype),
                  count == 1 ? "" : "s", verb == "reads" ? "from" : "to");
  if (!r.loc) return s + fmt::format("an address that does not resolve{}: {}", r.via, r.problem);
  const Walk w = Walk::of(t, r.loc->offset, elem);
  const std::string missing =
      r.loc->partition + n > kPartitions
          ? fmt::format(" (partitions past {} do not exist)", kPartitions - 1)
          : "";
  s += fmt::format(
      "{} {}{}{}, {}-D walk num=[{}] step=[{}]: bytes [{:#x}, {:#x}) of each "
      "partition, {}",
      space_upper(r.loc->space), parts_text(r.loc->partition, n), missing, r.via, t.dims, nums,
      steps, w.lo(), w.hi(), w.contiguous() ? "contiguous" : "strided");
  return s;
}

// An immediate of `width` bytes: its value, or where each channel reads it.
std::string imm_text(const FieldDef& f, uint64_t src, uint32_t value, std::string_view type,
                     unsigned width, const std::string& value_text, unsigned n, const Machine& m) {
  switch (src) {
    case 0:
      return fmt::format("{} = {} ({}, an instruction immediate: the same for every channel)",
                         f.name, value_text, type);
    case 1:
    case 2: {
      const ResolvedAddr r =
          src == 1 ? resolve_addr(value, m) : resolve_addr(0x80000000u | (value & 0xffu), m);
      if (!r.loc)
        return fmt::format("{}: a pointer that does not resolve{}: {}", f.name, r.via, r.problem);
      return fmt::format("{}: one {} per channel from {} {}{}, bytes [{:#x}, {:#x}) of each ({})",
                         f.name, type, space_upper(r.loc->space), parts_text(r.loc->partition, n),
                         r.via, r.loc->offset, r.loc->offset + width,
                         src == 1 ? "POINTER_IMMEDIATE" : "REG_PTR_IMMEDIATE");
    }
    default:
      return fmt::format("{}: unknown IMM_SRC {:#x}", f.name, src);
  }
}

const FieldDef& row(const Decoded& d, std::string_view name) {
  return *find_field(d.def->fields, name);
}
uint32_t u32(const Decoded& d, std::string_view name) {
  return static_cast<uint32_t>(d.integer(name));
}

// The channel line: which partitions the channels use.
std::string channels_text(unsigned n) {
  return fmt::format(
      "{} ({}): channel c works on partition (start partition + c) of every "
      "operand",
      n, n == 1 ? std::string("c = 0") : fmt::format("c = 0..{}", n - 1));
}

// How a RangeSelect element travels from the input dtype to the output dtype.
std::string conversion_text(uint64_t din, uint64_t dout) {
  const std::string in = din == static_cast<uint64_t>(Dtype::FP32)
                             ? "keeps its FP32 value"
                             : fmt::format("is widened exactly from {} to FP32", dtype_str(din));
  const bool exact =
      dout == static_cast<uint64_t>(Dtype::FP32) || dout == static_cast<uint64_t>(Dtype::FP32R);
  return fmt::format("{} and is written as {}{}", in, dtype_str(dout),
                     exact ? " unchanged" : " (rounded to nearest even)");
}

std::string events_text(const Events& e) {
  std::string s;
  if (e.wait_mode == 1 || e.wait_mode == 2)
    s += fmt::format(
        "waits until sem[{}] {} {} (in one instruction stream it must already "
        "hold, or the word faults sync-would-block)",
        e.wait_idx, e.wait_mode == 1 ? ">=" : "==", e.value);
  std::string u;
  switch (e.update_mode) {
    case 1:
      u = fmt::format("sets sem[{}] = {}", e.update_idx, e.value);
      break;
    case 2:
      u = fmt::format("increments sem[{}]", e.update_idx);
      break;
    case 3:
      u = fmt::format("decrements sem[{}]", e.update_idx);
      break;
    default:
      break;
  }
  if (!u.empty()) s += (s.empty() ? "after it retires, " : "; after it retires, ") + u;
  return s;
}

// A DATA4D ramp in words: its formula and its values on channel 0.
std::string ramp_text(const TensorDesc& p, int32_t mult) {
  std::string terms = std::to_string(data_base(p));
  static constexpr std::string_view kIdx[] = {"i0", "i1", "i2", "i3"};
  std::string ranges;
  for (unsigned d = 0; d < kMaxDims; ++d) {
    if (p.num[d] != 1 && p.step[d] != 0)
      terms += fmt::format(" {} {}*{}", p.step[d] < 0 ? "-" : "+", std::abs(p.step[d]), kIdx[d]);
    if (p.num[d] != 1)
      ranges += fmt::format("{}{} < {}", ranges.empty() ? "" : ", ", kIdx[d], p.num[d]);
  }
  if (mult != 0) terms += fmt::format(" {} {}*c", mult < 0 ? "-" : "+", std::abs(int64_t{mult}));
  std::string first;
  const uint64_t shown = std::min<uint64_t>(p.count(), 6);
  Ramp::of(p, mult, 0).for_each([&](uint64_t j, int32_t v) {
    if (j < shown) first += fmt::format("{}{}", j ? ", " : "", v);
  });
  return fmt::format("{} ({} value{}{}{}; int32, wrapping); channel 0 starts [{}{}]", terms,
                     p.count(), p.count() == 1 ? "" : "s", ranges.empty() ? "" : ", ", ranges,
                     first, p.count() > shown ? ", ..." : "");
}

// The lanes of the search state a word uses: src start partition + c.
std::string lanes_text(const TensorDesc& src, unsigned n, const Machine& m) {
  const ResolvedAddr r = resolve_addr(src.addr, m);
  if (!r.loc) return "the search lanes of the source's partitions (lane = partition)";
  return fmt::format("the search lanes of {} (lane = source partition)",
                     parts_text(r.loc->partition, n));
}

}  // namespace detail

std::vector<ExplainLine> explain(const Word& w, const Machine& m, std::optional<Engine> engine) {
  std::vector<ExplainLine> lines;
  auto d = decode(w);
  if (!d) return lines;
  detail::Explainer x(lines, d->def->engine_for(engine));
  detail::semantics(*d->def).explain(*d, m, x);
  if (auto r = order_rule(w)) x.line("order", order_rule_text(*r));
  if (auto e = detail::events_text(d->events()); !e.empty()) x.line("events", e);
  return lines;
}

std::optional<model::OrderRule> order_rule(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  if (!def) return std::nullopt;
  const auto fn = detail::semantics(*def).order_rule;
  return fn ? fn(w) : std::nullopt;
}

std::string order_rule_text(model::OrderRule r) {
  const model::OrderRuleDef& d = model::order_rule(r);
  return fmt::format(
      "the result rests on the [model] order rule {} ({}): {}. The hardware's order is not "
      "public; a result that rounds differently in another order may differ on hardware.",
      d.name, d.section, d.order);
}

std::optional<DestinationDtypes> destination_dtypes(const Word& w) {
  auto d = decode(w);
  if (!d) return std::nullopt;
  if (const auto fn = detail::semantics(*d->def).destination) return fn(*d);
  const auto& fields = d->def->fields;
  auto has = [&](std::string_view name) { return find_field(fields, name) != nullptr; };
  if (!has("dst_mem_pattern")) return std::nullopt;
  uint64_t code = 0;
  if (has("out_dtype"))
    code = d->integer("out_dtype");
  else if (has("in_out_dtype"))
    code = d->integer("in_out_dtype") >> 4;
  else if (has("dtype"))
    code = d->integer("dtype");
  else
    return std::nullopt;
  const auto dt = static_cast<Dtype>(code);
  const auto size = dtype_size(static_cast<uint8_t>(code));
  if (!size || *size > 4 || !is_data_dtype(dt)) return std::nullopt;
  return DestinationDtypes{dt, std::nullopt};
}

}  // namespace gpsimd
