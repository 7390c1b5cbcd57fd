// `gpsimd explain`: for an instruction, a plain-language account of what it will read
// and write (partitions, byte ranges, element counts, dtypes) and what it computes,
// on the machine state the program has reached at that word.
#include <fmt/format.h>

#include <algorithm>

#include "cli.h"
#include "gpsimd/execute.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "gpsimd/validate.h"

namespace gpsimd::cli {
namespace {

constexpr std::size_t kWidth = 100;
constexpr std::string_view kIndent = "  ";
constexpr std::size_t kLabel = 11;

// Word-wraps `text` after a label: "  label    text..." with continuation lines aligned.
std::string labelled(std::string_view label, std::string_view text) {
  const std::string lead = std::string(kIndent) + fmt::format("{:<{}}", label, kLabel);
  const std::string cont(lead.size(), ' ');
  std::string out, line = lead;
  std::size_t pos = 0;
  bool first_word = true;
  while (pos < text.size()) {
    std::size_t sp = text.find(' ', pos);
    if (sp == std::string_view::npos) sp = text.size();
    const std::string_view word = text.substr(pos, sp - pos);
    pos = sp + 1;
    if (!first_word && line.size() + 1 + word.size() > kWidth) {
      out += line + '\n';
      line = cont + std::string(word);
    } else {
      if (!first_word) line += ' ';
      line += word;
    }
    first_word = false;
  }
  return out + line + '\n';
}

std::string parts_text(unsigned first, unsigned n) {
  return n == 1 ? fmt::format("partition {}", first)
                : fmt::format("partitions {}..{}", first, first + n - 1);
}

std::string dtype_str(uint64_t code) {
  auto n = dtype_name(static_cast<uint8_t>(code));
  return n ? std::string(*n) : fmt::format("{:#x}", code);
}

std::string space_upper(Space s) {
  return s == Space::SBUF ? "SBUF" : "PSUM";
}

std::string op_text(uint64_t op) {
  switch (static_cast<AluOp>(op)) {
    case AluOp::IS_EQ:
      return "==";
    case AluOp::IS_GT:
      return ">";
    case AluOp::IS_GE:
      return ">=";
    case AluOp::IS_LE:
      return "<=";
    case AluOp::IS_LT:
      return "<";
    default:
      return fmt::format("op {:#x}", op);
  }
}

// A static address, or the one a register holds; `via` says which register.
struct Resolved {
  std::optional<Location> loc;
  std::string via;
  std::string problem;
};
Resolved resolve(uint32_t addr, const Machine& m) {
  Resolved r;
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
  const Resolved r = resolve(t.addr, m);
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
      const Resolved r = src == 1 ? resolve(value, m) : resolve(0x80000000u | (value & 0xffu), m);
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

void explain_range_select(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t pair = d.integer("in_out_dtype");
  const uint64_t din = pair & 0xf, dout = pair >> 4;
  const TensorDesc& src = d.tensor("src_mem_pattern");
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "src_mem_pattern"), src, din, n, m));
  for (std::string_view b : {"bound0", "bound1"}) {
    const uint32_t v = u32(d, b);
    out += labelled("immediate", imm_text(row(d, b), d.integer(row(d, b).src_field), v, "FP32", 4,
                                          format_fp32(v), n, m));
  }
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), dout, n, m));
  const float base = fp32_from_bits(u32(d, "base"));
  const uint64_t count = src.count();
  const uint32_t fill_out = narrow_from_fp32(static_cast<Dtype>(dout), 0xff7fffffu);
  out += labelled(
      "effect",
      fmt::format(
          "element j of channel c passes when (base + j) {} bound0 and (base + j) {} "
          "bound1, with base = {}, so the indices run {} .. {}. A passing element {}; "
          "the others become -FLT_MAX{}.",
          op_text(d.integer("comp_op0")), op_text(d.integer("comp_op1")),
          format_fp32(u32(d, "base")), format_fp32(bits_from_fp32(base)),
          format_fp32(bits_from_fp32(base + static_cast<float>(count - 1))),
          conversion_text(din, dout),
          fill_out == 0xff7fffffu
              ? std::string()
              : fmt::format(", which is {} in {}", format_value(static_cast<Dtype>(dout), fill_out),
                            dtype_str(dout))));
  const Resolved r = resolve(src.addr, m);
  const std::string accs =
      r.loc ? fmt::format("accumulators {}..{}", r.loc->partition, r.loc->partition + n - 1)
            : std::string("the source partitions' accumulators");
  switch (d.integer("reduce_cmd")) {
    case 0:
      out += labelled("reduce", "none (IDLE): the accumulators are unchanged");
      break;
    case 2:
      out += labelled("reduce", fmt::format("writes {}: acc = max(acc, max over j of the FP32 "
                                            "results before conversion) (ACCUMULATE)",
                                            accs));
      break;
    case 3:
      out += labelled("reduce", fmt::format("writes {}: acc = max over j of the FP32 results "
                                            "before conversion (ZERO_ACCUMULATE)",
                                            accs));
      break;
    default:
      break;
  }
}

void explain_tensor_scalar_select(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t dt = d.integer("dtype"), pdt = d.integer("pred_imm_dtype");
  const unsigned width = dtype_size(static_cast<uint8_t>(dt)).value_or(4);
  const unsigned pwidth = dtype_size(static_cast<uint8_t>(pdt)).value_or(4);
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "src0_mem_pattern"),
                                       d.tensor("src0_mem_pattern"), dt, n, m));
  const uint32_t s1 = u32(d, "src1_imm"), pr = u32(d, "pred_imm");
  out += labelled("immediate",
                  imm_text(row(d, "src1_imm"), d.integer("src1_imm_src"), s1, dtype_str(dt), width,
                           format_value(static_cast<Dtype>(dt), s1), n, m));
  out += labelled("immediate",
                  imm_text(row(d, "pred_imm"), d.integer("pred_imm_src"), pr, dtype_str(pdt),
                           pwidth, format_value(static_cast<Dtype>(pdt), pr), n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), dt, n, m));
  const bool reversed = d.integer("reversed_pred") != 0;
  std::string effect = fmt::format(
      "channel c copies src0 where its predicate is {} and writes the scalar to every element "
      "otherwise (reversed_pred = {}); bits are copied, never converted.",
      reversed ? "zero" : "nonzero", reversed ? 1 : 0);
  if (d.integer("pred_imm_src") == 0)
    effect += (pr != 0) != reversed ? " Here every channel copies src0."
                                    : " Here every channel writes the scalar.";
  out += labelled("effect", effect);
}

void explain_get_sequence_bounds(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  const uint64_t count = d.tensor("src_mem_pattern").count();
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "src_mem_pattern"),
                                       d.tensor("src_mem_pattern"), din, n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), dout, n, m));
  out += labelled(
      "effect",
      fmt::format("the {} segment ids (compared as {}) form runs of equal adjacent ids; id 0 is "
                  "padding. Ordinals 0..{} of the destination get each element's run start, "
                  "ordinals {}..{} its run end (exclusive); padding gets start {} and end -1. "
                  "Written as {}.",
                  count, dtype_str(din), count - 1, count, 2 * count - 1, count, dtype_str(dout)));
}

void explain_sort(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t dt = d.integer("in_out_dtype") & 0xf;
  const unsigned width = dtype_size(static_cast<uint8_t>(dt)).value_or(4);
  const unsigned N = d.tensor("src_mem_pattern").num[0];
  const unsigned K = d.tensor("dst_mem_pattern").num[1];
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "src_mem_pattern"),
                                       d.tensor("src_mem_pattern"), dt, n, m));
  const uint32_t off = u32(d, "index_offset");
  out += labelled("immediate", imm_text(row(d, "index_offset"), d.integer("index_offset_src"), off,
                                        "UINT32", 4, std::to_string(off), n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), dt, n, m));
  const bool desc = d.integer("comparison") == static_cast<uint64_t>(AluOp::IS_GT);
  out += labelled(
      "effect",
      fmt::format("sorts the {} values of each partition {} and writes the first {}{} as "
                  "pairs: ordinal 2k gets the k-th value (bits unchanged), ordinal 2k+1 its "
                  "original position + index_offset as a {}-bit unsigned integer. Equal values "
                  "keep increasing position.",
                  N, desc ? "descending (IS_GT)" : "ascending (IS_LT)", K,
                  K < N ? fmt::format(" (top-K: K = {} < N = {})", K, N) : "", 8 * width));
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

void explain_affine_select(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t pair = d.integer("in_out_dtype");
  const uint64_t din = pair & 0xf, dout = pair >> 4;
  const auto mult = static_cast<int32_t>(u32(d, "channel_multiplier"));
  const unsigned reg = u32(d, "fill_reg");
  const uint8_t mode = static_cast<uint8_t>(d.integer("fill_mode"));
  static constexpr std::string_view kCmp[] = {"> 0", ">= 0", "== 0", "!= 0"};
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "src_mem_pattern"),
                                       d.tensor("src_mem_pattern"), din, n, m));
  const uint32_t fill = model::affine_select_fill(static_cast<uint8_t>(dout), m.registers[reg]);
  out += labelled("register", fmt::format("fill_reg = reg({}) = {:#010x} (FP32 {}), written as {} "
                                          "bits {:#x}",
                                          reg, m.registers[reg], format_fp32(m.registers[reg]),
                                          dtype_str(dout), fill));
  out += labelled("ramp", "mask_pattern: m = " + ramp_text(d.tensor("mask_pattern"), mult));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), dout, n, m));
  const bool ints = is_int_dtype(static_cast<Dtype>(din)) || is_int_dtype(static_cast<Dtype>(dout));
  const std::string conv =
      din == dout ? fmt::format("copied bit for bit ({})", dtype_str(din))
                  : fmt::format("converted from {} to {} through FP32 (round to nearest even{})",
                                dtype_str(din), dtype_str(dout),
                                ints ? "; integer results saturate, NaN becomes 0" : "");
  out += labelled("effect",
                  fmt::format("pairs the ramp, the source and the destination by ordinal j: where "
                              "m {} ({}) the source element is {}; elsewhere the destination gets "
                              "the fill value.",
                              kCmp[mode & 3], affine_select_cmp_name(mode).value_or("?"), conv));
}

void explain_iota(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t dt = d.integer("out_dtype");
  const auto mult = static_cast<int32_t>(u32(d, "channel_multiplier"));
  out += labelled("channels", channels_text(n));
  out += labelled("ramp", "src_data_pattern: v = " + ramp_text(d.tensor("src_data_pattern"), mult));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), dt, n, m));
  const bool is_int = is_int_dtype(static_cast<Dtype>(dt));
  out += labelled(
      "effect",
      fmt::format("reads nothing; writes ramp value j of channel c to destination ordinal j, {}.",
                  is_int
                      ? fmt::format("as {}: {}", dtype_str(dt),
                                    dtype_size(static_cast<uint8_t>(dt)).value_or(4) == 4
                                        ? std::string("the int32's 32 bits")
                                        : fmt::format("the low {} bits of the int32",
                                                      8 * *dtype_size(static_cast<uint8_t>(dt))))
                      : fmt::format("as {}: int32 to FP32 rounded to nearest even{}", dtype_str(dt),
                                    dtype_size(static_cast<uint8_t>(dt)).value_or(4) == 4
                                        ? ""
                                        : ", then rounded again to the narrow format")));
}

void explain_nonzero_with_count(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  const TensorDesc& src = d.tensor("src_mem_pattern");
  const TensorDesc& dst = d.tensor("dst_mem_pattern");
  const uint64_t count = src.count();
  // The channels that run: c % 16 == 0, counted from the start partitions.
  std::string chans, src_parts, dst_parts;
  unsigned processed = 0;
  const Resolved rs = resolve(src.addr, m), rd = resolve(dst.addr, m);
  for (unsigned c = 0; c < n; ++c) {
    if (!model::nonzero_channel_processed(c)) continue;
    const std::string sep = processed++ ? ", " : "";
    chans += sep + std::to_string(c);
    if (rs.loc) src_parts += sep + std::to_string(rs.loc->partition + c);
    if (rd.loc) dst_parts += sep + std::to_string(rd.loc->partition + c);
  }
  std::string where;
  if (rs.loc && rd.loc)
    where = src_parts == dst_parts
                ? fmt::format(", on partition{} {}", processed == 1 ? "" : "s", src_parts)
                : fmt::format(", reading partition{0} {1} and writing partition{0} {2}",
                              processed == 1 ? "" : "s", src_parts, dst_parts);
  out += labelled(
      "channels",
      fmt::format("{} ({}), of which only every 16th runs (one per GpSimd core): c = {}{}. The "
                  "other {} read and write nothing{}",
                  n, n == 1 ? std::string("c = 0") : fmt::format("c = 0..{}", n - 1), chans, where,
                  n - processed,
                  n > processed ? " (their addresses and pointers are still checked)" : ""));
  out += labelled("reads", tensor_text("reads", row(d, "src_mem_pattern"), src, din, n, m));
  const uint32_t off = u32(d, "index_offset"), pad = u32(d, "padding_val");
  out +=
      labelled("immediate", imm_text(row(d, "index_offset"), d.integer("index_offset_src"), off,
                                     "INT32", 4, std::to_string(static_cast<int32_t>(off)), n, m));
  out +=
      labelled("immediate", imm_text(row(d, "padding_val"), d.integer("padding_val_src"), pad,
                                     "INT32", 4, std::to_string(static_cast<int32_t>(pad)), n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"), dst, dout, n, m));
  out += labelled(
      "effect",
      fmt::format("a running channel writes, in order, j + index_offset for every source "
                  "ordinal j whose element is nonzero ({}), then padding_val in the remaining "
                  "slots up to ordinal {}, then the number of nonzero elements at ordinal {}; "
                  "all as INT32.",
                  din == static_cast<uint64_t>(Dtype::FP32)
                      ? "FP32: x != 0, so -0.0 is zero and NaN is nonzero"
                      : "INT32: any bit set",
                  count - 1, count));
}

void explain_copy_predicated_scalar(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t pdt = d.integer("pred_dtype"), din = d.integer("in_dtype");
  const unsigned width = dtype_size(static_cast<uint8_t>(din)).value_or(4);
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "pred_mem_pattern"),
                                       d.tensor("pred_mem_pattern"), pdt, n, m));
  const uint32_t s0 = u32(d, "src0_imm");
  out += labelled("immediate",
                  imm_text(row(d, "src0_imm"), d.integer("src0_imm_src"), s0, dtype_str(din), width,
                           format_value(static_cast<Dtype>(din), s0), n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), d.integer("out_dtype"), n, m));
  const bool reversed = d.integer("reversed_pred") != 0;
  out += labelled(
      "effect",
      fmt::format("element j of the destination gets the scalar where predicate element j is "
                  "{} (reversed_pred = {}; NKI's reverse_pred={} is this), and keeps its old "
                  "bytes elsewhere; bits are copied, never converted.",
                  reversed ? "nonzero" : "zero", reversed ? 1 : 0, reversed ? "False" : "True"));
}

void explain_dve_read_accumulator(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t dt = d.integer("dtype");
  const TensorDesc& dst = d.tensor("dst_mem_pattern");
  out += labelled("channels", channels_text(n));
  const Resolved r = resolve(dst.addr, m);
  out += labelled("reads",
                  r.loc ? fmt::format("the FP32 accumulators of {} (the destination's partitions)",
                                      parts_text(r.loc->partition, n))
                        : std::string("the accumulators of the destination's partitions"));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"), dst, dt, n, m));
  const bool negated = d.integer("negated") != 0;
  const bool exact =
      dt == static_cast<uint64_t>(Dtype::FP32) || dt == static_cast<uint64_t>(Dtype::FP32R);
  out += labelled(
      "effect",
      fmt::format("channel c writes {}accumulator (start partition + c) as {}{} at the start "
                  "offset of its partition; the accumulators are unchanged.",
                  negated ? "the negated (sign bit flipped) " : "", dtype_str(dt),
                  exact ? " (its 32 bits)" : " (rounded to nearest even; -FLT_MAX becomes -inf)"));
}

// The lanes of the search state a word uses: src start partition + c.
std::string lanes_text(const TensorDesc& src, unsigned n, const Machine& m) {
  const Resolved r = resolve(src.addr, m);
  if (!r.loc) return "the search lanes of the source's partitions (lane = partition)";
  return fmt::format("the search lanes of {} (lane = source partition)",
                     parts_text(r.loc->partition, n));
}

void explain_match_value_load(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const TensorDesc& src = d.tensor("src_mem_pattern");
  out += labelled("channels", channels_text(n));
  out += labelled("reads",
                  tensor_text("reads", row(d, "src_mem_pattern"), src, d.integer("dtype"), n, m));
  out += labelled("writes", lanes_text(src, n, m) + "; no memory");
  out += labelled("effect",
                  "source ordinal k, converted to FP32, becomes match value mv[7 - k] (the slots "
                  "load in reverse: ordinal 0 is slot 7); the lane is re-armed: no slot "
                  "matched, every index 0xFFFFFFFF.");
}

void explain_max8(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  out += labelled("channels", channels_text(n));
  out += labelled("reads", tensor_text("reads", row(d, "src_mem_pattern"),
                                       d.tensor("src_mem_pattern"), d.integer("in_dtype"), n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), d.integer("out_dtype"), n, m));
  out += labelled("effect",
                  "channel c writes the 8 largest source values (compared as FP32, NaNs left "
                  "out, -0.0 below +0.0, -inf filling in when fewer than 8 remain) smallest "
                  "first: destination ordinal 0 gets the 8th largest, ordinal 7 the largest. "
                  "The search state is not used.");
}

// FindIndex8 and MatchReplace8: the channels, the source, the lanes and the destination.
void explain_match_operands(const Decoded& d, const Machine& m, std::string& out) {
  const unsigned n = u32(d, "num_active_channels");
  const TensorDesc& src = d.tensor("src_mem_pattern");
  out += labelled("channels", channels_text(n));
  out += labelled(
      "reads", tensor_text("reads", row(d, "src_mem_pattern"), src, d.integer("in_dtype"), n, m));
  out += labelled("reads", lanes_text(src, n, m));
  out += labelled("writes", tensor_text("writes", row(d, "dst_mem_pattern"),
                                        d.tensor("dst_mem_pattern"), d.integer("out_dtype"), n, m));
}

void explain_find_index8(const Decoded& d, const Machine& m, std::string& out) {
  explain_match_operands(d, m, out);
  out += labelled("effect",
                  "each source element, in walk order and as FP32, is taken by the lowest slot "
                  "not yet matched whose match value equals it (NaN equals nothing, -0.0 == "
                  "+0.0); that slot records the element's ordinal and is marked matched. Then "
                  "destination ordinal n gets slot n's index (0xFFFFFFFF, or 0xFFFF as UINT16, "
                  "when it found nothing). Matched flags stay set until the next "
                  "MatchValueLoad.");
}

void explain_match_replace8(const Decoded& d, const Machine& m, std::string& out) {
  explain_match_operands(d, m, out);
  out += labelled(
      "effect",
      fmt::format("the match of FindIndex8 (lowest free slot with an equal match value takes "
                  "each element, in walk order); destination ordinal i gets the immediate {} "
                  "where element i was taken, and element i through FP32 elsewhere. The "
                  "lane's flags and indices are updated.",
                  format_value(Dtype::FP32, u32(d, "immediate"))));
}

std::string explain_word(const Input& in, std::size_t i, const Machine& m, bool strict) {
  const Word& w = in.program.words[i];
  const Generation g = m.generation();
  std::string out;
  auto d = decode(w);
  if (!d) {
    return fmt::format("{}: unknown opcode {:#04x} on {}: not an instruction, so nothing runs\n",
                       in.where(i), w[0], generation_name(g));
  }
  out +=
      fmt::format("{}: {} (opcode {:#04x}, {}, {} engine) on {}\n", in.where(i), d->def->mnemonic,
                  w[0], d->def->struct_name, engine_name(d->def->engine), generation_name(g));
  const Diagnostics diags = validate(w, g, ValidateOptions{strict});
  if (!diags.empty()) {
    out += labelled("invalid",
                    fmt::format("{} clause{} fail{}, so it would change nothing:", diags.size(),
                                diags.size() == 1 ? "" : "s", diags.size() == 1 ? "s" : ""));
    for (const Diagnostic& x : diags)
      out += labelled("", fmt::format("{}: {} = {}, {}", x.clause, x.field, x.value, x.allowed));
    return out;
  }
  switch (d->def->opcode) {
    case Opcode::RangeSelect:
      explain_range_select(*d, m, out);
      break;
    case Opcode::TensorScalarSelect:
      explain_tensor_scalar_select(*d, m, out);
      break;
    case Opcode::GetSequenceBounds:
      explain_get_sequence_bounds(*d, m, out);
      break;
    case Opcode::Sort:
      explain_sort(*d, m, out);
      break;
    case Opcode::AffineSelect:
      explain_affine_select(*d, m, out);
      break;
    case Opcode::Iota:
      explain_iota(*d, m, out);
      break;
    case Opcode::NonzeroWithCount:
      explain_nonzero_with_count(*d, m, out);
      break;
    case Opcode::CopyPredicatedScalar:
      explain_copy_predicated_scalar(*d, m, out);
      break;
    case Opcode::DveReadAccumulator:
      explain_dve_read_accumulator(*d, m, out);
      break;
    case Opcode::MatchValueLoad:
      explain_match_value_load(*d, m, out);
      break;
    case Opcode::Max8:
      explain_max8(*d, m, out);
      break;
    case Opcode::FindIndex8:
      explain_find_index8(*d, m, out);
      break;
    case Opcode::MatchReplace8:
      explain_match_replace8(*d, m, out);
      break;
  }
  if (auto e = events_text(d->events()); !e.empty()) out += labelled("events", e);
  // What actually happens from this state: the model runs the word on a copy.
  Machine copy(m);
  ExecResult r = execute(copy, w, ExecOptions{strict, nullptr, true});
  if (r.ok())
    out += labelled("outcome", "retires");
  else if (r.fault)
    out += labelled("outcome",
                    fmt::format("faults {}: {}", fault_name(r.fault->kind), r.fault->detail));
  return out;
}

}  // namespace

namespace {

// Explains the words of one input (or its word --index).
int explain_one(const ExplainOptions& o, Input& in) {
  const Program& p = in.program;
  if (o.index && *o.index >= p.words.size()) {
    fmt::print(stderr, "gpsimd explain: --index {} is out of range: {} has {} word{}\n", *o.index,
               in.name, p.words.size(), p.words.size() == 1 ? "" : "s");
    return kExitUsage;
  }
  Machine m(pick_generation(o.nc, p));
  if (auto err = apply_setup(p, m, in.base_dir)) {
    fmt::print(stderr, "gpsimd explain: {}\n", *err);
    return kExitUsage;
  }
  // Each word is explained on the state the words before it leave.
  for (std::size_t i = 0; i < p.words.size(); ++i) {
    if (!o.index || *o.index == i) {
      if (!o.index && i > 0) fmt::print("\n");
      fmt::print("{}", explain_word(in, i, m, o.strict));
    }
    if (o.index && *o.index == i) break;
    execute(m, p.words[i], ExecOptions{o.strict, nullptr, true});
  }
  return kExitOk;
}

}  // namespace

int cmd_explain(const ExplainOptions& o) {
  if (!o.text.empty()) {
    Input x;
    x.name = "<command line>";
    x.text = o.text;
    AsmErrors e;
    auto p = parse_program(o.text, x.name, &e);
    if (!p) {
      print_asm_errors(stderr, "explain", e, x.text);
      return kExitUsage;
    }
    x.program = std::move(*p);
    return explain_one(o, x);
  }
  // Several files: one after another, a blank line between them; the worst status.
  int status = kExitOk;
  bool printed = false;
  for (const std::string& path : o.inputs) {
    auto in = load_input(path, o.format, "explain");
    if (!in) {
      status = std::max(status, kExitUsage);
      continue;
    }
    if (printed && !in->program.words.empty()) fmt::print("\n");
    status = std::max(status, explain_one(o, *in));
    printed = printed || !in->program.words.empty();
  }
  return status;
}

}  // namespace gpsimd::cli
