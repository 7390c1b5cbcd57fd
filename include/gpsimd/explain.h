// What a word will do, in words (`gpsimd explain`): the partitions, byte ranges,
// element counts and dtypes it reads and writes and what it computes, on a given
// machine state. Each instruction says it in its own file (src/ops/); the caller
// formats the lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/model.h"

namespace gpsimd {

struct ExplainLine {
  std::string label;  // "channels", "reads", "immediate", "writes", "effect", "events", ...
  std::string text;   // one paragraph, unwrapped
};

// For a word that validates: what it reads, writes and computes on the state of `m`
// (register-mode addresses and pointers resolved through m's registers) on the engine it
// runs on (`engine`: the engine input of SPEC §3.9; nullopt: the opcode's default), then
// what its events do. Empty for an unknown opcode. The lines say nothing about validity
// or faults: validate() and execute() tell those.
std::vector<ExplainLine> explain(const Word& w, const Machine& m,
                                 std::optional<Engine> engine = std::nullopt);

// How the values a word writes to its destination (`dst_mem_pattern`) read: the dtype of
// each ordinal (`odd` for the odd ordinals when they differ: Sort writes value, index,
// value, index, ...). nullopt when the word has no destination tensor or its dtype has
// no value format.
struct DestinationDtypes {
  Dtype dtype = Dtype::UINT8;
  std::optional<Dtype> odd;
  Dtype at(uint64_t ordinal) const { return odd && ordinal % 2 ? *odd : dtype; }
};
std::optional<DestinationDtypes> destination_dtypes(const Word& w);

// The [model] order rule (SPEC §7 "model_rules", model.h's kOrderRules) the result of a
// valid word rests on — a TensorReduceArith sum, difference or product, a
// ScalarTensorTensorArith accumulation, a running TensorScalarCacheCumulative sum,
// difference or product —, or nullopt when its result is the same in every order.
// `explain` and the trace say it.
std::optional<model::OrderRule> order_rule(const Word& w);
// "rests on SPEC's [model] order rule reduce-order (SPEC §4.19): ..." for a rule.
std::string order_rule_text(model::OrderRule r);

}  // namespace gpsimd
