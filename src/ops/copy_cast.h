// What Copy (0x46, SPEC §4.16) and Cast (0x47, §4.17) share, written once: the S4D4_TR
// layout, every clause but Copy's s4d4_tr_same_src_dst_type, the effect (a 4-D walk to a
// 4-D walk converting each element by §5.1's cast, or through FP32 on ACT on V2), the
// fast path and the explanation. Defined in copy.cc; cast.cc adds only its opcode's
// wrapper, explain wording and sample.
#pragma once

#include <cstdint>
#include <optional>

#include "ops/explain.h"
#include "ops/op.h"

namespace gpsimd::detail {

// is_valid_copy (SPEC §4.16), or with `cast` is_valid_cast (§4.17): the clauses but the
// common three (header, events, opcode), for the engine opts.engine.
void validate_s4d4_tr(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d,
                      bool cast);

// The effect of both opcodes (validated words only): resolve src then dst
// (bad-address), the walk limit (too-large), then every channel's source walk read and
// its destination walk written, element j converted by §5.1's cast (convert) or, on ACT
// on V2, by both halves (convert_through_fp32).
std::optional<Fault> execute_s4d4_tr(const Word& w, const Machine& m, Writer& out,
                                     const ExecEnv& env);

// SPEC §8.5 for both opcodes: the source walk read, the destination walk written, on the
// engine's rules (PSUM off POOL).
std::optional<Fault> footprint_s4d4_tr(const Word& w, const Machine& m, Engine engine,
                                       FootprintSink& fp);

// What a word reads and writes; `cast` words say how their pair converts.
void explain_s4d4_tr(const Decoded& d, const Machine& m, Explainer& x, bool cast);

// A valid word of one channel in `partition`: 16 `in` elements at offset 0, the
// destination at offset 256.
Word sample_s4d4_tr(Opcode op, unsigned partition, Dtype in, Dtype out);

}  // namespace gpsimd::detail
