// The expectations of `gpsimd demo` (demo_reference.h, compiled into gpsimd when it is
// built) against the other independent reference of the tests: reference_model.h running
// the demo's words on its inputs. Two restatements of SPEC that share no code with each
// other or with the model, so that a slip in the demo's expectations shows up here rather
// than as a demo that checks the wrong thing.
#include "demo_reference.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "gpsimd/asm.h"
#include "gpsimd/execute.h"
#include "gpsimd/program.h"
#include "reference_model.h"

namespace {

using gpsimd::Machine;
using namespace gpsimd::demo;

gpsimd::Program demo_program() {
  std::ifstream in(GPSIMD_SOURCE_DIR "/examples/demo.gpsimd", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  gpsimd::AsmError err;
  auto p = gpsimd::parse_program(text.str(), "examples/demo.gpsimd", &err);
  EXPECT_TRUE(p) << err.to_string();
  return p ? *p : gpsimd::Program{};
}

// The demo's results in a machine after its run, read where demo.cc reads them.
Expected observed(const Machine& m) {
  Expected o{};
  using demoref::load;
  for (unsigned p = 0; p < kRows; ++p) {
    for (unsigned k = 0; k < kKeys; ++k) {
      o.masked[p][k] = load(m, p, kMasked + 2 * k, 2);
      o.blended[p][k] = load(m, p, kBlended + 2 * k, 2);
      o.causal[p][k] = load(m, p, kCausal + 4 * k, 4);
      o.scaled[p][k] = load(m, p, kScaled + 4 * k, 4);
      o.attn[p][k] = load(m, p, kAttn + 4 * k, 4);
      o.shifted[p][k] = load(m, p, kShifted + 4 * k, 4);
    }
    o.row_max[p] = m.accumulators[p];
    for (unsigned k = 0; k < kTopK; ++k) {
      o.top_value[p][k] = load(m, p, kTop + 8 * k, 4);
      o.top_index[p][k] = load(m, p, kTop + 8 * k + 4, 4);
    }
    o.read_back[p] = load(m, p, kRowMax, 2);
    for (unsigned k = 0; k < kExperts; ++k) {
      o.rank_value[p][k] = load(m, p, kBest8 + 4 * k, 4);
      o.rank_index[p][k] = load(m, p, kExperts8 + 4 * k, 4);
    }
    o.attn_max[p] = load(m, p, kAttnMax, 4);
    o.reduced_max[p] = load(m, p, kReducedMax, 4);
    for (unsigned k = 0; k < kAccCols; ++k) o.tile16[p][k] = load(m, p, kTile16 + 2 * k, 2);
  }
  for (unsigned i = 0; i < kTokens; ++i) {
    o.start[i] = static_cast<int32_t>(load(m, 0, kBounds + 4 * i, 4));
    o.end[i] = static_cast<int32_t>(load(m, 0, kBounds + 4 * (kTokens + i), 4));
  }
  for (unsigned r = 0; r < kRoutingRows; ++r)
    for (unsigned t = 0; t <= kTokens; ++t)
      o.tokens[r][t] = load(m, kRoutingPartitions[r], kTokenList + 4 * t, 4);
  for (unsigned t = 0; t < kTokens; ++t) o.running[t] = load(m, 0, kRunning + 4 * t, 4);
  return o;
}

// The names of the fields where two sets of expectations differ.
std::string differences(const Expected& a, const Expected& b) {
  std::string d;
  auto field = [&](const char* name, const auto& x, const auto& y) {
    if (std::memcmp(&x, &y, sizeof x) != 0) d += std::string(d.empty() ? "" : ", ") + name;
  };
  field("masked", a.masked, b.masked);
  field("row_max", a.row_max, b.row_max);
  field("top_value", a.top_value, b.top_value);
  field("top_index", a.top_index, b.top_index);
  field("start", a.start, b.start);
  field("end", a.end, b.end);
  field("blended", a.blended, b.blended);
  field("causal", a.causal, b.causal);
  field("read_back", a.read_back, b.read_back);
  field("tokens", a.tokens, b.tokens);
  field("rank_value", a.rank_value, b.rank_value);
  field("rank_index", a.rank_index, b.rank_index);
  field("scaled", a.scaled, b.scaled);
  field("attn", a.attn, b.attn);
  field("attn_max", a.attn_max, b.attn_max);
  field("shifted", a.shifted, b.shifted);
  field("tile16", a.tile16, b.tile16);
  field("reduced_max", a.reduced_max, b.reduced_max);
  field("running", a.running, b.running);
  field("queue_top", a.queue_top, b.queue_top);
  if (d.empty() && !(a == b)) d = "a field differences() does not list";
  return d;
}

// Step 11's two words, run in the order the reference schedule issues them: with the
// wait, pool:0 then dve:0; without it, dve:0 first. Returns Max8's output.
void queue_run(bool wait, uint32_t (&top)[8]) {
  const std::string text =
      fmt::format(fmt::runtime(kQueueProgram), wait ? kQueueUpdate : "", wait ? kQueueWait : "");
  auto p = gpsimd::parse_program(text, "demo");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->words.size(), 2u);  // pool:0 (Iota), dve:0 (Max8)
  Machine m(gpsimd::Generation::V3);
  const std::size_t order[2] = {wait ? 0u : 1u, wait ? 1u : 0u};
  for (std::size_t i : order) ASSERT_FALSE(refmodel::execute(m, p->words[i]).fault) << i;
  for (unsigned k = 0; k < 8; ++k) top[k] = demoref::load(m, 0, kRampTop + 4 * k, 4);
}

TEST(DemoReference, AgreesWithTheReferenceModelRunningTheDemo) {
  const gpsimd::Program p = demo_program();
  Machine m(p.nc.value_or(gpsimd::Generation::V3));
  ASSERT_FALSE(gpsimd::apply_setup(p, m, ""));
  const Expected want = demoref::expect(demoref::read_inputs(m));
  for (std::size_t i = 0; i < p.words.size(); ++i) {
    const refmodel::Outcome r = refmodel::execute(m, p.words[i], gpsimd::word_engine(p, i));
    ASSERT_FALSE(r.fault) << "word " << i;
  }
  Expected got = observed(m);
  queue_run(true, got.queue_top[0]);
  queue_run(false, got.queue_top[1]);
  EXPECT_EQ(differences(got, want), "");
}

// What `gpsimd demo` checks: the model's run of the demo program gives every expectation.
TEST(DemoReference, TheModelMeetsTheExpectations) {
  const gpsimd::Program p = demo_program();
  Machine m(p.nc.value_or(gpsimd::Generation::V3));
  ASSERT_FALSE(gpsimd::apply_setup(p, m, ""));
  const Expected want = demoref::expect(demoref::read_inputs(m));
  const gpsimd::ProgramResult r = gpsimd::run_program(m, p.words, p.word_engines, {});
  ASSERT_TRUE(r.ok()) << r.failure.message();
  Expected got = observed(m);
  std::memcpy(got.queue_top, want.queue_top, sizeof want.queue_top);  // not this program's
  EXPECT_EQ(differences(got, want), "");
}

}  // namespace
