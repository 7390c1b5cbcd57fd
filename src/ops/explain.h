// The shared vocabulary of the instructions' explanations (include/gpsimd/explain.h):
// each instruction's explain function, in its op file, says what its word reads, writes
// and computes through these pieces, so that every instruction describes operands,
// immediates, ramps and lanes the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/format.h"  // format_fp32, format_value
#include "gpsimd/explain.h"
#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd::detail {

// Collects an explanation's lines.
class Explainer {
 public:
  Explainer(std::vector<ExplainLine>& out, Engine engine) : out_(out), engine_(engine) {}
  void line(std::string_view label, std::string text) {
    out_.push_back(ExplainLine{std::string(label), std::move(text)});
  }
  // The engine the word runs on (SPEC §3.9: its engine input, or its row's engine).
  Engine engine() const { return engine_; }

 private:
  std::vector<ExplainLine>& out_;
  Engine engine_;
};

// "partition 3" / "partitions 3..10".
std::string parts_text(unsigned first, unsigned n);
// "FP32", or the code in hex when it names no dtype.
std::string dtype_str(uint64_t code);
// "SBUF" / "PSUM".
std::string space_upper(Space s);
// The comparison an ALU_OP of RangeSelect stands for: "==", ">", ">=", "<=", "<".
std::string op_text(uint64_t op);

// A static address, or the one a register holds; `via` says which register.
struct ResolvedAddr {
  std::optional<Location> loc;
  std::string via;
  std::string problem;
};
ResolvedAddr resolve_addr(uint32_t addr, const Machine& m);

// "src_mem_pattern: 16 FP32 elements per partition from SBUF partition 3, 1-D walk
// num=[16] step=[1]: bytes [0x0, 0x40) of each partition, contiguous". `verb` is
// "reads" or "writes".
std::string tensor_text(std::string_view verb, const FieldDef& f, const TensorDesc& t,
                        uint64_t dtype, unsigned n, const Machine& m);
// An immediate of `width` bytes: its value, or where each channel reads it.
std::string imm_text(const FieldDef& f, uint64_t src, uint32_t value, std::string_view type,
                     unsigned width, const std::string& value_text, unsigned n, const Machine& m);
// The table row of a decoded word's field, and a field's value as 32 bits.
const FieldDef& row(const Decoded& d, std::string_view name);
uint32_t u32(const Decoded& d, std::string_view name);
// The channel line: which partitions the channels use.
std::string channels_text(unsigned n);
// How an element travels from the input dtype through FP32 to the output dtype.
std::string conversion_text(uint64_t din, uint64_t dout);
// A DATA4D ramp in words: its formula and its values on channel 0.
std::string ramp_text(const TensorDesc& p, int32_t mult);
// The lanes of the search state a word uses: src start partition + c.
std::string lanes_text(const TensorDesc& src, unsigned n, const Machine& m);
// What the events do: the wait, then the semaphore update; empty when there are none.
std::string events_text(const Events& e);

}  // namespace gpsimd::detail
