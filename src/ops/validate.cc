// validate(): the common clauses (header, events, known opcode) and dispatch to the
// instruction's own clauses.
#include "gpsimd/validate.h"

#include "ops/op.h"

namespace gpsimd {

std::string Diagnostic::message() const {
  return fmt::format("{}: {}: {} = {}, {}", instruction, clause, field, value, allowed);
}

bool has_clause(const Diagnostics& d, std::string_view clause) {
  for (const Diagnostic& x : d)
    if (x.clause == clause) return true;
  return false;
}

namespace detail {
namespace {

void check_header(DiagSink& d, const Word& w) {
  if (w[1] != 0x10 || w[2] != 0 || w[3] != 0)
    d.fail("has_valid_neuron_header", "header", hex32(load_u32(w, 0)),
           "must be the opcode, then 0x10 (16 words), then two zero bytes");
}

// SPEC §3.2.
void check_events(DiagSink& d, const Word& w) {
  constexpr std::string_view kClause = "has_valid_neuron_events";
  const Events e = load_events(w);
  const auto text = [&] {
    return fmt::format("wait_mode={} wait_idx={} update_mode={} update_idx={} value={}",
                       e.wait_mode, e.wait_idx, e.update_mode, e.update_idx, hex32(e.value));
  };
  if (e.wait_mode > 2)
    d.fail(kClause, "events.wait_mode", std::to_string(e.wait_mode),
           "must be NONE (0), GE (1) or EQ (2)");
  if (e.update_mode > 3)
    d.fail(kClause, "events.update_mode", std::to_string(e.update_mode),
           "must be NONE (0), SET (1), INC (2) or DEC (3)");
  if (e.wait_mode == 0 && e.wait_idx != 0)
    d.fail(kClause, "events.wait_idx", std::to_string(e.wait_idx),
           "must be 0 when wait_mode is NONE");
  if (e.update_mode == 0 && e.update_idx != 0)
    d.fail(kClause, "events.update_idx", std::to_string(e.update_idx),
           "must be 0 when update_mode is NONE");
  const bool value_used = e.wait_mode == 1 || e.wait_mode == 2 || e.update_mode == 1;
  if (!value_used && e.value != 0)
    d.fail(kClause, "events.value", text(),
           "must be 0 unless wait_mode is GE/EQ or update_mode is SET");
}

}  // namespace

}  // namespace detail

Diagnostics validate_as(const InstrDef& def, const Word& w, Generation g,
                        const ValidateOptions& opts) {
  Diagnostics out;
  detail::DiagSink d(out, def.mnemonic);
  detail::check_header(d, w);
  detail::check_events(d, w);
  detail::check_opcode(d, w, def);
  ValidateOptions resolved = opts;
  resolved.engine = def.engine_for(opts.engine);  // SPEC §3.9
  detail::semantics(def).validate(w, g, resolved, d);
  return out;
}

Diagnostics validate(const Word& w, Generation g, const ValidateOptions& opts) {
  const InstrDef* def = find_instruction(w[0]);
  if (def == nullptr) {
    return {Diagnostic{"unknown", "has_known_opcode", "header", detail::hex8(w[0]),
                       "opcode must be one of " + known_opcodes_text()}};
  }
  return validate_as(*def, w, g, opts);
}

}  // namespace gpsimd
