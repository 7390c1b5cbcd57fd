// execute(): the execution rule of SPEC §4 — validate, wait, let the instruction
// resolve, check and compute through a Writer, then commit and update the semaphore.
#include "gpsimd/execute.h"

#include "common/check.h"
#include "common/names.h"
#include "ops/operands.h"

namespace gpsimd {
namespace {

constexpr Named<FaultKind> kFaultNames[] = {
    {FaultKind::BadAddress, "bad-address"},          {FaultKind::ShapeMismatch, "shape-mismatch"},
    {FaultKind::SyncWouldBlock, "sync-would-block"}, {FaultKind::TooLarge, "too-large"},
    {FaultKind::UnsupportedOp, "unsupported-op"},
};

}  // namespace

std::string_view fault_name(FaultKind k) {
  return name_of(kFaultNames, k);
}
std::optional<FaultKind> parse_fault(std::string_view s) {
  return parse_name(kFaultNames, s);
}

std::string_view status_name(Status s) {
  static constexpr Named<Status> kNames[] = {
      {Status::Retired, "ok"},
      {Status::Invalid, "invalid"},
      {Status::Faulted, "fault"},
  };
  return name_of(kNames, s);
}

std::string ExecResult::message() const {
  switch (status) {
    case Status::Retired:
      return "ok";
    case Status::Faulted:
      return fmt::format("fault {}: {}", fault_name(fault->kind), fault->detail);
    case Status::Invalid: {
      std::string s = "invalid:";
      for (const Diagnostic& d : diagnostics) s += "\n  " + d.message();
      return s;
    }
  }
  return "?";
}

namespace {

void update_semaphore(Machine& m, const Events& e, TraceSink* trace) {
  uint32_t& sem = m.semaphores[e.update_idx];
  const uint32_t before = sem;
  switch (static_cast<UpdateMode>(e.update_mode)) {
    case UpdateMode::NONE:
      return;
    case UpdateMode::SET:
      sem = e.value;
      break;
    case UpdateMode::INC:
      sem = before + 1u;
      break;  // wraps modulo 2^32
    case UpdateMode::DEC:
      sem = before - 1u;
      break;
  }
  if (trace) trace->semaphore(e.update_idx, before, sem);
}

}  // namespace

ExecResult execute(Machine& m, const Word& w, const ExecOptions& opts) {
  ExecResult r;
  r.diagnostics = validate(w, m.generation(), ValidateOptions{opts.strict, opts.engine});
  if (!r.diagnostics.empty()) {
    r.status = Status::Invalid;
    return r;
  }
  const InstrDef& def = *find_instruction(w[0]);
  const Events ev = load_events(w);
  if (auto f = detail::wait_fault(m, ev)) {
    r.status = Status::Faulted;
    r.fault = std::move(f);
    return r;
  }
  if (auto f = detail::execute_validated(m, w, def, def.engine_for(opts.engine), opts.fast,
                                         opts.trace, opts.journal)) {
    r.status = Status::Faulted;
    r.fault = std::move(f);
  }
  return r;
}

namespace detail {

// SPEC §3.2: a wait that is not satisfied now never will be (one instruction stream).
std::optional<Fault> wait_fault(const Machine& m, const Events& e) {
  if (e.wait_mode == static_cast<uint8_t>(WaitMode::NONE)) return std::nullopt;
  const uint32_t sem = m.semaphores[e.wait_idx];
  const bool ge = e.wait_mode == static_cast<uint8_t>(WaitMode::GE);
  const bool ok = ge ? sem >= e.value : sem == e.value;
  if (ok) return std::nullopt;
  return Fault{FaultKind::SyncWouldBlock,
               fmt::format("waits for semaphore {} {} {:#010x}, it holds {:#010x} and nothing "
                           "else runs",
                           e.wait_idx, ge ? ">=" : "==", e.value, sem)};
}

std::optional<Fault> execute_validated(Machine& m, const Word& w, const InstrDef& def,
                                       Engine engine, bool fast, TraceSink* trace,
                                       Journal* journal) {
  const OpSemantics& ops = semantics(def);
  if (ops.unsupported)
    if (auto f = ops.unsupported(w, engine)) return f;
  if (ops.unsupported_on)
    if (auto f = ops.unsupported_on(w, m.generation())) return f;
  Writer writer(m, journal);
  ResolvedOperands operands;
  if (auto f = prepare_operands(*ops.operands, w, m, engine, writer, operands)) return f;
  const ExecEnv env{engine, fast};
  if (auto f = ops.execute(w, m, operands, writer, env)) {
    GPSIMD_CHECK(!writer.touched());  // faults come before the first write
    return f;
  }
  if (trace) trace->retire(w, def);
  writer.commit(trace);  // the journal, if any, holds the bytes it overwrites
  update_semaphore(m, load_events(w), trace);
  return std::nullopt;
}

}  // namespace detail

}  // namespace gpsimd
