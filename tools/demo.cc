// `gpsimd demo`: runs examples/demo.gpsimd (built into the binary), prints the program,
// its inputs and results as tables, and checks every result against its expectation.
// The expectations are values (demo_expected.h), computed from the program's inputs when
// gpsimd is built by tests/demo_reference.h, an independent restatement of SPEC that
// lives with the tests: the binary holds no model of its own for them.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cli.h"
#include "demo_expected.h"
#include "demo_layout.h"
#include "demo_program.h"
#include "gpsimd/execute.h"
#include "gpsimd/program.h"

namespace gpsimd::cli {
namespace {

using namespace demo;

uint32_t load(const Machine& m, unsigned p, uint32_t off, unsigned size,
              Space space = Space::SBUF) {
  uint32_t v = 0;
  auto part = m.partition(space, p);
  for (unsigned b = 0; b < size; ++b) v |= static_cast<uint32_t>(part[off + b]) << (8 * b);
  return v;
}
std::string fp32s(uint32_t bits) {
  return format_value(Dtype::FP32, bits);
}
std::string bf16s(uint32_t bits) {
  return format_value(Dtype::BF16, bits);
}

struct Check {
  std::size_t compared = 0;
  std::vector<std::string> misses;
  void expect(const std::string& what, uint32_t want, uint32_t got) {
    ++compared;
    if (want != got)
      misses.push_back(fmt::format("{}: expected {:#x}, the model wrote {:#x}", what, want, got));
  }
};

// Prints the check line; returns whether it passed.
bool report(const Check& c, std::string_view what) {
  if (c.misses.empty()) {
    fmt::print("   check: ok, {} ({} values)\n", what, c.compared);
    return true;
  }
  fmt::print("   check: FAILED, {} of {} values differ from {}\n", c.misses.size(), c.compared,
             what);
  for (std::size_t i = 0; i < c.misses.size() && i < 8; ++i) fmt::print("     {}\n", c.misses[i]);
  return false;
}

std::vector<std::string> numbered(unsigned n, unsigned from = 0) {
  std::vector<std::string> h;
  for (unsigned i = 0; i < n; ++i) h.push_back(std::to_string(from + i));
  return h;
}
std::vector<std::string> row_labels(std::string_view prefix) {
  std::vector<std::string> l;
  for (unsigned p = 0; p < kRows; ++p) l.push_back(fmt::format("{}{}", prefix, p));
  return l;
}

// 1. RangeSelect x2: causal masking with a running row max.
bool causal_mask(const Machine& in, const Machine& out) {
  fmt::print(
      "1. Causal masking of an attention score tile, with a running row max "
      "(RangeSelect [0] and [1])\n"
      "   Partition c holds query c, which may see keys 0..qpos[c]. Each RangeSelect "
      "covers a tile of\n"
      "   6 keys (base 0, then base 6); hidden scores become -FLT_MAX, which BF16 stores "
      "as -inf.\n"
      "   ZERO_ACCUMULATE starts each row's max on tile 0, ACCUMULATE folds in tile 1; the "
      "max sees\n"
      "   the FP32 values, before the BF16 rounding (1.003 is 1.0 in BF16).\n\n");
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> headers = {"qpos"};
  for (const auto& h : numbered(kKeys)) headers.push_back(h);
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> row = {fp32s(load(in, p, kQpos, 4))};
    for (unsigned k = 0; k < kKeys; ++k) row.push_back(fp32s(load(in, p, kScores + 4 * k, 4)));
    cells.push_back(row);
  }
  fmt::print(
      "   scores (FP32, sbuf[p=0..3, off=0x0]), keys 0..11, and qpos (sbuf[p=0..3, "
      "off=0x40])\n{}\n",
      render_table(headers, row_labels("p"), cells, "   "));

  Check c;
  cells.clear();
  std::vector<std::string> max_cells;
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> row;
    for (unsigned k = 0; k < kKeys; ++k) {
      const uint32_t got = load(out, p, kMasked + 2 * k, 2);
      c.expect(fmt::format("masked p{} key {}", p, k), kExpected.masked[p][k], got);
      row.push_back(bf16s(got));
    }
    cells.push_back(row);
    const uint32_t acc = out.accumulators[p];
    c.expect(fmt::format("row max acc[{}]", p), kExpected.row_max[p], acc);
    max_cells.push_back(fp32s(acc));
  }
  fmt::print("   masked scores (BF16, sbuf[p=0..3, off=0x80])\n{}\n",
             render_table(numbered(kKeys), row_labels("p"), cells, "   "));
  std::vector<std::vector<std::string>> mc;
  for (const auto& s : max_cells) mc.push_back({s});
  fmt::print("   row max (accumulators, FP32)\n{}\n",
             render_table({"max"}, row_labels("acc"), mc, "   "));
  return report(c, "masked scores and row maxima as SPEC §4.1 defines them");
}

// 2. Sort: top-K with indices.
bool top_k(const Machine& in, const Machine& out) {
  fmt::print(
      "2. Top-K with indices (Sort [2])\n"
      "   Mixture-of-experts routing: 4 tokens x 8 expert logits. Sort descending "
      "(IS_GT) with\n"
      "   K = 3 < N = 8 writes each token's 3 best (value, expert index) pairs; equal "
      "logits keep\n"
      "   increasing index.\n\n");
  std::vector<std::vector<std::string>> cells;
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> row;
    for (unsigned e = 0; e < kExperts; ++e) row.push_back(fp32s(load(in, p, kLogits + 4 * e, 4)));
    cells.push_back(row);
  }
  fmt::print("   router logits (FP32, sbuf[p=0..3, off=0x200]), experts 0..7\n{}\n",
             render_table(numbered(kExperts), row_labels("p"), cells, "   "));
  Check c;
  cells.clear();
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> row;
    for (unsigned k = 0; k < kTopK; ++k) {
      const uint32_t value = load(out, p, kTop + 8 * k, 4),
                     index = load(out, p, kTop + 8 * k + 4, 4);
      c.expect(fmt::format("p{} top {} value", p, k), kExpected.top_value[p][k], value);
      c.expect(fmt::format("p{} top {} index", p, k), kExpected.top_index[p][k], index);
      row.push_back(fmt::format("{} @ {}", fp32s(value), index));
    }
    cells.push_back(row);
  }
  fmt::print("   top-3 (value @ expert, sbuf[p=0..3, off=0x240])\n{}\n",
             render_table({"1st", "2nd", "3rd"}, row_labels("p"), cells, "   "));
  return report(c, "the top-3 of each row found by selection");
}

// 3. GetSequenceBounds: segment bounds of a packed batch.
bool segment_bounds(const Machine& in, const Machine& out) {
  fmt::print(
      "3. Segment bounds of a packed batch (GetSequenceBounds [3])\n"
      "   16 tokens: 4 packed sequences (ids 1..4), then padding (id 0). Each token gets "
      "its sequence's\n"
      "   [start, end); padding gets start 16 and end -1.\n\n");
  Check c;
  std::vector<std::string> r_ids, r_start, r_end;
  for (unsigned i = 0; i < kTokens; ++i) {
    const auto id = static_cast<int32_t>(load(in, 0, kIds + 4 * i, 4));
    const auto s = static_cast<int32_t>(load(out, 0, kBounds + 4 * i, 4));
    const auto e = static_cast<int32_t>(load(out, 0, kBounds + 4 * (kTokens + i), 4));
    c.expect(fmt::format("start[{}]", i), static_cast<uint32_t>(kExpected.start[i]),
             static_cast<uint32_t>(s));
    c.expect(fmt::format("end[{}]", i), static_cast<uint32_t>(kExpected.end[i]),
             static_cast<uint32_t>(e));
    r_ids.push_back(std::to_string(id));
    r_start.push_back(std::to_string(s));
    r_end.push_back(std::to_string(e));
  }
  fmt::print(
      "   ids (INT32, sbuf[p=0, off=0x300]) and bounds (INT32, sbuf[p=0, off=0x400])\n{}\n",
      render_table(numbered(kTokens), {"id", "start", "end"}, {r_ids, r_start, r_end}, "   "));
  return report(c, "the bounds of SPEC §4.3's loops");
}

// 4. TensorScalarSelect: per-partition predicated blend.
bool blend(const Machine& in, const Machine& out) {
  fmt::print(
      "4. Per-partition predicated blend (TensorScalarSelect [4])\n"
      "   Each partition's INT16 live flag, read through a pointer immediate, keeps the "
      "masked scores\n"
      "   of a live query and writes the scalar 0.0 to a finished one; bits are copied, "
      "never converted.\n\n");
  Check c;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> headers = {"live"};
  for (const auto& h : numbered(kKeys)) headers.push_back(h);
  for (unsigned p = 0; p < kRows; ++p) {
    const uint32_t live = load(in, p, kLive, 2);
    std::vector<std::string> row = {std::to_string(live)};
    for (unsigned k = 0; k < kKeys; ++k) {
      const uint32_t got = load(out, p, kBlended + 2 * k, 2);
      c.expect(fmt::format("blended p{} key {}", p, k), kExpected.blended[p][k], got);
      row.push_back(bf16s(got));
    }
    cells.push_back(row);
  }
  fmt::print("   blended (BF16, sbuf[p=0..3, off=0x100])\n{}\n",
             render_table(headers, row_labels("p"), cells, "   "));
  return report(c, "live ? masked : 0.0, row by row");
}

// 5. AffineSelect: the causal mask as a lower triangle.
bool causal_affine(const Machine& out) {
  fmt::print(
      "5. Causal mask of the score tile without positions in memory (AffineSelect [5])\n"
      "   Query c sits at position 8 + c of the 12 keys. AffineSelect keeps a score where "
      "the ramp\n"
      "   m = 8 + c - k is >= 0 and writes register 1 (-9984.0) elsewhere: the kept scores "
      "are\n   numpy.tril(ones(4, 12), 8).\n\n");
  Check c;
  std::vector<std::vector<std::string>> cells;
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> row;
    for (unsigned k = 0; k < kKeys; ++k) {
      const uint32_t got = load(out, p, kCausal + 4 * k, 4);
      c.expect(fmt::format("causal p{} key {}", p, k), kExpected.causal[p][k], got);
      row.push_back(fp32s(got));
    }
    cells.push_back(row);
  }
  fmt::print("   causal scores (FP32, sbuf[p=0..3, off=0x500])\n{}\n",
             render_table(numbered(kKeys), row_labels("p"), cells, "   "));
  return report(c, "the scores where tril(ones(4, 12), 8) is 1, -9984.0 elsewhere");
}

// 6. DveReadAccumulator: the row maxima of step 1, read back as BF16.
bool read_back(const Machine& out) {
  fmt::print(
      "6. The row maxima, read back through the instruction (DveReadAccumulator [6])\n"
      "   Channel c reads the FP32 accumulator of its destination partition and writes it "
      "as BF16\n"
      "   (round to nearest even); the accumulators are unchanged.\n\n");
  Check c;
  std::vector<std::vector<std::string>> cells;
  for (unsigned p = 0; p < kRows; ++p) {
    const uint32_t acc = out.accumulators[p];
    const uint32_t got = load(out, p, kRowMax, 2);
    c.expect(fmt::format("row max p{}", p), kExpected.read_back[p], got);
    cells.push_back({fp32s(acc), bf16s(got)});
  }
  fmt::print(
      "   accumulators (FP32) and what the instruction wrote (BF16, sbuf[p=0..3, "
      "off=0xe0])\n{}\n",
      render_table({"acc", "read"}, row_labels("p"), cells, "   "));
  return report(c, "each accumulator rounded to BF16");
}

// 7. NonzeroWithCount: each expert's tokens.
bool routing(const Machine& out) {
  fmt::print(
      "7. Mixture-of-experts routing: the tokens of each expert (NonzeroWithCount [7])\n"
      "   Expert e's routing mask (1 = token routed to it) is in partition 16e: one GpSimd "
      "core serves\n"
      "   16 partitions and reads only its first, so 113 channels run 8 of them. Each writes "
      "its\n"
      "   expert's token indices, -1 padding, then the count; partition 1 (all ones) is "
      "skipped.\n\n");
  Check c;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> labels;
  std::vector<std::string> headers = numbered(kTokens);
  headers.push_back("count");
  for (unsigned r = 0; r < kRoutingRows; ++r) {
    const unsigned p = kRoutingPartitions[r];
    std::vector<std::string> row;
    for (unsigned i = 0; i <= kTokens; ++i) {
      const uint32_t got = load(out, p, kTokenList + 4 * i, 4);
      c.expect(fmt::format("p{} slot {}", p, i), kExpected.tokens[r][i], got);
      row.push_back(std::to_string(static_cast<int32_t>(got)));
    }
    cells.push_back(row);
    labels.push_back(p % 16 == 0 ? fmt::format("expert {} (p{})", p / 16, p)
                                 : fmt::format("skipped (p{})", p));
  }
  fmt::print("   tokens (INT32, sbuf[p, off=0x680])\n{}\n",
             render_table(headers, labels, cells, "   "));
  return report(c, "the nonzero indices of each processed row, the rest untouched");
}

// 8. Max8 + MatchValueLoad + FindIndex8: the top-k of step 2 through the search
// instructions.
bool search_top_k(const Machine& out) {
  fmt::print(
      "8. The same top-K through the search instructions (Max8 [8], MatchValueLoad [9], "
      "FindIndex8 [10])\n"
      "   As NKI kernels build a top-k: Max8 writes each token's 8 largest logits (largest "
      "first, its\n"
      "   destination walking down), MatchValueLoad loads them as the lane's match values "
      "and\n"
      "   FindIndex8 finds each one's expert; equal logits take increasing indices, as in "
      "Sort's.\n\n");
  Check c;
  std::vector<std::vector<std::string>> cells;
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> row;
    for (unsigned k = 0; k < kExperts; ++k) {
      const uint32_t value = load(out, p, kBest8 + 4 * k, 4);
      const uint32_t index = load(out, p, kExperts8 + 4 * k, 4);
      c.expect(fmt::format("p{} rank {} value", p, k), kExpected.rank_value[p][k], value);
      c.expect(fmt::format("p{} rank {} index", p, k), kExpected.rank_index[p][k], index);
      if (k < kTopK) {
        // Beside step 2: the same pair as Sort's.
        c.expect(fmt::format("p{} rank {} value = Sort's", p, k), load(out, p, kTop + 8 * k, 4),
                 value);
        c.expect(fmt::format("p{} rank {} index = Sort's", p, k), load(out, p, kTop + 8 * k + 4, 4),
                 index);
        row.push_back(fmt::format("{} @ {}", fp32s(value), index));
      }
    }
    cells.push_back(row);
  }
  fmt::print("   top-3 (value @ expert; Max8 sbuf[p=0..3, off=0x800], FindIndex8 off=0x840)\n{}\n",
             render_table({"1st", "2nd", "3rd"}, row_labels("p"), cells, "   "));
  return report(c, "all 8 ranks found by selection, the top 3 equal to Sort's");
}

std::string_view demo_text() {
  return {reinterpret_cast<const char*>(kDemoProgram), sizeof(kDemoProgram) - 1};
}

// "ten" for 10: counts as the demo's sentences say them (digits past twenty).
std::string number_word(std::size_t n) {
  static constexpr const char* kWords[] = {
      "zero",     "one",     "two",     "three",     "four",     "five",     "six",
      "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",   "thirteen",
      "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
  return n < std::size(kWords) ? kWords[n] : std::to_string(n);
}

// The number of different instructions among a program's words.
std::size_t distinct_instructions(const Program& p) {
  std::vector<uint8_t> opcodes;
  for (const Word& w : p.words)
    if (std::find(opcodes.begin(), opcodes.end(), w[0]) == opcodes.end()) opcodes.push_back(w[0]);
  return opcodes.size();
}

// 9. TensorScalarArith + AffineSelect + Max8 + TensorScalarArith: the first steps of
// attention on the score tile.
bool attention(const Machine& out) {
  fmt::print(
      "9. The first steps of attention on the score tile (TensorScalarArith [11], "
      "AffineSelect [12],\n"
      "   Max8 [13], TensorScalarArith [14])\n"
      "   Softmax's preparation, as a kernel writes it: scale the scores by 1/sqrt(d) for "
      "a head\n"
      "   dimension d = 64 (op0 MULT by an FP32 immediate), mask them causally "
      "(AffineSelect, as in\n"
      "   step 5), take each row's max (Max8's largest), and subtract it per partition "
      "(op0 SUBTRACT\n"
      "   with a pointer scalar: channel c reads partition c's max). Checked against "
      "numpy's float32:\n"
      "   s = scores * float32(1 / sqrt(64)); a = where(tril(ones(4, 12), 8), s, -9984.0);\n"
      "   a - a.max(axis=1, keepdims=True).\n\n");
  Check cs, ca, cm, cd;
  std::vector<std::vector<std::string>> scaled_cells, attn_cells, shifted_cells;
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> srow, arow, drow;
    for (unsigned k = 0; k < kKeys; ++k) {
      const uint32_t s = load(out, p, kScaled + 4 * k, 4);
      const uint32_t a = load(out, p, kAttn + 4 * k, 4);
      const uint32_t d = load(out, p, kShifted + 4 * k, 4);
      cs.expect(fmt::format("scaled p{} key {}", p, k), kExpected.scaled[p][k], s);
      ca.expect(fmt::format("masked p{} key {}", p, k), kExpected.attn[p][k], a);
      cd.expect(fmt::format("shifted p{} key {}", p, k), kExpected.shifted[p][k], d);
      srow.push_back(fp32s(s));
      arow.push_back(fp32s(a));
      drow.push_back(fp32s(d));
    }
    const uint32_t m = load(out, p, kAttnMax, 4);
    cm.expect(fmt::format("row max p{}", p), kExpected.attn_max[p], m);
    drow.insert(drow.begin(), fp32s(m));
    scaled_cells.push_back(srow);
    attn_cells.push_back(arow);
    shifted_cells.push_back(drow);
  }
  fmt::print("   scaled (FP32, sbuf[p=0..3, off=0x900])\n{}\n",
             render_table(numbered(kKeys), row_labels("p"), scaled_cells, "   "));
  const bool scaled_ok = report(cs, "scores * float32(1 / sqrt(64)), one rounding each");
  fmt::print("\n   causally masked (FP32, sbuf[p=0..3, off=0x940])\n{}\n",
             render_table(numbered(kKeys), row_labels("p"), attn_cells, "   "));
  const bool masked_ok = report(ca, "where(tril(ones(4, 12), 8), s, -9984.0)");
  std::vector<std::string> headers = {"max"};
  for (const auto& h : numbered(kKeys)) headers.push_back(h);
  fmt::print(
      "\n   row max (Max8's largest, sbuf[p=0..3, off=0x980]) and the masked scores minus "
      "it\n   (FP32, sbuf[p=0..3, off=0x9c0])\n{}\n",
      render_table(headers, row_labels("p"), shifted_cells, "   "));
  const bool max_ok = report(cm, "a.max(axis=1)");
  const bool shifted_ok = report(cd, "a - a.max(axis=1, keepdims=True)");
  return scaled_ok && masked_ok && max_ok && shifted_ok;
}

// The index of the first word of `op` in the program (its number in the demo's listing).
std::size_t word_index(const Program& prog, Opcode op) {
  std::size_t at = 0;
  while (at < prog.words.size() && prog.words[at][0] != static_cast<uint8_t>(op)) ++at;
  return at;
}

// 10. Cast on the Vector engine: an FP32 tile out of PSUM into SBUF as BF16.
bool psum_to_bf16(const Machine& before, const Machine& m, const Program& prog) {
  const std::size_t at = word_index(prog, Opcode::Cast);
  if (at == prog.words.size()) return false;
  const Word& cast = prog.words[at];
  fmt::print(
      "10. An FP32 result tile out of PSUM into SBUF as BF16 (Cast [{}], on the Vector "
      "engine)\n"
      "   The engine is an input of Cast (SPEC §3.9): it runs on POOL (GpSimd, the default), "
      "DVE\n"
      "   (Vector) or ACT (Scalar); the program names DVE with `.engine dve`. On POOL the "
      "same word\n"
      "   is invalid, GpSimd cannot access PSUM:\n",
      at);
  const Diagnostics pool = validate(cast, m.generation(), ValidateOptions{false, Engine::POOL});
  for (const Diagnostic& d : pool) fmt::print("     {}\n", d.message());
  fmt::print("\n");
  Check c;
  c.expect(
      "the word is invalid on POOL", 1,
      pool.size() == 1 && pool[0].clause == "tensor4d_valid" && pool[0].field == "src_mem_pattern");
  std::vector<std::vector<std::string>> in_cells, out_cells;
  for (unsigned p = 0; p < kRows; ++p) {
    std::vector<std::string> in_row, out_row;
    for (unsigned k = 0; k < kAccCols; ++k) {
      const uint32_t x = load(before, p, kAcc + 4 * k, 4, Space::PSUM);
      const uint32_t got = load(m, p, kTile16 + 2 * k, 2);
      c.expect(fmt::format("p{} element {}", p, k), kExpected.tile16[p][k], got);
      in_row.push_back(fp32s(x));
      out_row.push_back(bf16s(got));
    }
    in_cells.push_back(in_row);
    out_cells.push_back(out_row);
  }
  fmt::print("   the tile (FP32, psum[p=0..3, off=0x100])\n{}\n",
             render_table(numbered(kAccCols), row_labels("p"), in_cells, "   "));
  fmt::print("   moved to SBUF (BF16, sbuf[p=0..3, off=0xa00])\n{}\n",
             render_table(numbered(kAccCols), row_labels("p"), out_cells, "   "));
  return report(c,
                "the nearest BF16 of each value, ties to even (numpy's rounding), and the "
                "POOL word's clause");
}

// 11. TensorReduceArith + Memset + TensorTensorScan: softmax's row max in one word, and a
// cumsum for MoE routing.
bool reductions(const Machine& out, const Program& prog) {
  fmt::print(
      "11. Softmax's row max in one word, and a cumsum for MoE routing (TensorReduceArith "
      "[{}], Memset [{}],\n"
      "   TensorTensorScan [{}])\n"
      "   TensorReduceArith MAX folds each row of step 9's masked scores into one value "
      "(NKI's\n"
      "   nl.max(a, axis=1)); it equals Max8's largest. Memset fills a tile of ones and "
      "TensorTensorScan\n"
      "   runs s = 1 * s + routed[t] from s = 0 along expert 0's routing row (step 7's "
      "partition 0),\n"
      "   nki-library's cumsum: each token's running count of the tokens routed to expert "
      "0.\n\n",
      word_index(prog, Opcode::TensorReduceArith), word_index(prog, Opcode::Memset),
      word_index(prog, Opcode::TensorTensorScan));
  Check cm, cs;
  std::vector<std::vector<std::string>> max_cells;
  for (unsigned p = 0; p < kRows; ++p) {
    const uint32_t m = load(out, p, kReducedMax, 4);
    cm.expect(fmt::format("row max p{}", p), kExpected.reduced_max[p], m);
    cm.expect(fmt::format("row max p{} = Max8's", p), load(out, p, kAttnMax, 4), m);
    max_cells.push_back({fp32s(m)});
  }
  fmt::print("   row max (FP32, sbuf[p=0..3, off=0xa40])\n{}\n",
             render_table({"max"}, row_labels("p"), max_cells, "   "));
  const bool max_ok = report(cm, "a.max(axis=1), equal to Max8's largest");
  std::vector<std::string> routed_row, running_row;
  for (unsigned t = 0; t < kTokens; ++t) {
    const uint32_t r = load(out, 0, kRunning + 4 * t, 4);
    cs.expect(fmt::format("token {}", t), kExpected.running[t], r);
    routed_row.push_back(fmt::format("{}", load(out, 0, kRouted + 4 * t, 4)));
    running_row.push_back(fp32s(r));
  }
  fmt::print(
      "\n   expert 0's routing row (INT32, sbuf[p=0, off=0x600]) and its cumsum (FP32, "
      "off=0xac0)\n{}\n",
      render_table(numbered(kTokens), {"routed", "cumsum"}, {routed_row, running_row}, "   "));
  const bool sum_ok = report(cs, "np.cumsum(routed, dtype=float32)");
  return max_ok && sum_ok;
}

// 12. Two engines and a semaphore (SPEC §8): the producer/consumer of examples/
// producer_consumer.gpsimd (demo_layout.h's kQueueProgram), then the same without the wait.
bool engine_queues() {
  fmt::print(
      "12. Two engines, one semaphore (a program of queues, SPEC §8)\n"
      "   POOL's Iota writes the ramp 0..15 into sbuf[p=0, off=0x100] and increments "
      "semaphore 1;\n"
      "   DVE's Max8 waits for semaphore 1 >= 1, then takes the 8 largest. Without the wait "
      "the\n"
      "   reference schedule issues dve:0 first, it reads zeros, and the race detector "
      "reports it.\n\n");
  Check c;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> labels;
  for (bool wait : {true, false}) {
    const std::string text =
        fmt::format(fmt::runtime(kQueueProgram), wait ? kQueueUpdate : "", wait ? kQueueWait : "");
    auto p = parse_program(text, "demo");
    if (!p) {
      fmt::print("   the built-in program of queues does not assemble\n");
      return false;
    }
    Machine m(Generation::V3);
    const QueueRun r = run_queues(m, queue_program(*p, false));
    // Expected: with the wait, pool:0 issues first and no race; without it, the race of
    // dve:0's read with pool:0's write. Max8's output: kExpected.queue_top.
    const auto what = [&](std::string_view x) {
      return fmt::format("{} ({})", x, wait ? "with the wait" : "without it");
    };
    c.expect(what("status ok"), 1, r.status == ProgramStatus::Ok);
    c.expect(what("pool:0 issues first"), wait ? 1 : 0,
             !r.schedule.empty() && r.schedule[0].word.queue == Engine::POOL);
    c.expect(what("race reported"), wait ? 0 : 1, r.race.has_value());
    if (!wait && r.race) {
      c.expect("race: first word dve:0 reads", 1,
               r.race->first.word == QueueWord{Engine::DVE, 0} &&
                   r.race->first.access == AccessKind::Read);
      c.expect("race: second word pool:0 writes", 1,
               r.race->second.word == QueueWord{Engine::POOL, 0} &&
                   r.race->second.access == AccessKind::Write);
      c.expect("race: at sbuf partition 0, byte 0x100", 1,
               r.race->location == RaceLocation{LocationSpace::SBUF, 0, 0x100});
    }
    std::vector<std::string> row;
    for (unsigned k = 0; k < 8; ++k) {
      const uint32_t got = load(m, 0, kRampTop + 4 * k, 4);
      c.expect(what(fmt::format("Max8 slot {}", k)), kExpected.queue_top[wait ? 0 : 1][k], got);
      row.push_back(fp32s(got));
    }
    cells.push_back(std::move(row));
    labels.push_back(wait ? "with wait" : "no wait");
    std::string sched;
    for (const ScheduleStep& st : r.schedule)
      sched += (sched.empty() ? "" : ", ") + st.word.to_string();
    fmt::print(
        "   {}: status {}, schedule {}, race {}\n", labels.back(), program_status_name(r.status),
        sched,
        r.race ? fmt::format("at {}: {} {}, {} {}", r.race->location.to_string(),
                             r.race->first.word.to_string(), access_name(r.race->first.access),
                             r.race->second.word.to_string(), access_name(r.race->second.access))
               : std::string("none"));
  }
  fmt::print("\n   Max8's output (FP32, sbuf[p=0, off=0x200])\n{}\n",
             render_table(numbered(8), labels, cells, "   "));
  return report(c, "the schedule, the race and the results");
}

}  // namespace

std::string demo_summary() {
  auto p = parse_program(demo_text(), "examples/demo.gpsimd");
  return fmt::format(
      "A tour of {} instructions on built-in data, checked against independent "
      "expectations",
      p ? number_word(distinct_instructions(*p)) : std::string("the"));
}

int cmd_demo() {
  const std::string_view text = demo_text();
  AsmError err;
  auto p = parse_program(text, "examples/demo.gpsimd", &err);
  if (!p) {
    fmt::print(stderr, "gpsimd demo: the built-in program does not assemble: {}\n",
               err.to_string());
    return kExitFailed;
  }
  const Generation g = p->nc.value_or(Generation::V3);
  Machine m(g);
  if (auto e = apply_setup(*p, m, "")) {
    fmt::print(stderr, "gpsimd demo: {}\n", *e);
    return kExitFailed;
  }
  const Machine before(m);
  // Each word on its engine input (.engine: step 10's Cast runs on DVE).
  ProgramResult r = run_program(m, p->words, p->word_engines, ExecOptions{});

  fmt::print("gpsimd demo: {} instructions on a NeuronCore {} model, on built-in data\n\n",
             number_word(distinct_instructions(*p)), generation_name(g));
  fmt::print(
      "The program (examples/demo.gpsimd) puts its inputs in SBUF and PSUM with .data directives, "
      "then runs {} words:\n\n",
      p->words.size());
  for (std::size_t i = 0; i < p->words.size(); ++i) {
    const std::string wrapped = wrap_statement(*disassemble(p->words[i]), 94);
    std::string prefix = fmt::format("  [{}] ", i);
    std::size_t pos = 0;
    while (pos < wrapped.size()) {
      std::size_t nl = wrapped.find('\n', pos);
      if (nl == std::string::npos) nl = wrapped.size();
      fmt::print("{}{}\n", prefix, std::string_view(wrapped).substr(pos, nl - pos));
      prefix = "      ";
      pos = nl + 1;
    }
  }
  fmt::print("\n");
  if (!r.ok()) {
    fmt::print("word {} ({}) did not retire: {}\n", *r.failed,
               find_instruction(p->words[*r.failed][0])->mnemonic, r.failure.message());
    return kExitFailed;
  }
  fmt::print(
      "All {} words retired. Every result below is checked against values computed from the "
      "inputs,\nwhen gpsimd was built, by plain loops that restate SPEC.md "
      "(tests/demo_reference.h).\n\n",
      r.retired);
  unsigned passed = 0;
  passed += causal_mask(before, m);
  fmt::print("\n");
  passed += top_k(before, m);
  fmt::print("\n");
  passed += segment_bounds(before, m);
  fmt::print("\n");
  passed += blend(before, m);
  fmt::print("\n");
  passed += causal_affine(m);
  fmt::print("\n");
  passed += read_back(m);
  fmt::print("\n");
  passed += routing(m);
  fmt::print("\n");
  passed += search_top_k(m);
  fmt::print("\n");
  passed += attention(m);
  fmt::print("\n");
  passed += psum_to_bf16(before, m, *p);
  fmt::print("\n");
  passed += reductions(m, *p);
  fmt::print("\n");
  passed += engine_queues();
  constexpr unsigned kChecks = 12;
  fmt::print("\n{} of {} checks passed.\n", passed, kChecks);
  if (passed == kChecks)
    fmt::print(
        "Next: `gpsimd run examples/demo.gpsimd --trace` shows every write; "
        "docs/cli.md has the rest.\n");
  return passed == kChecks ? kExitOk : kExitFailed;
}

}  // namespace gpsimd::cli
