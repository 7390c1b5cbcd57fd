// `gpsimd explain`: for an instruction, a plain-language account of what it will read
// and write (partitions, byte ranges, element counts, dtypes) and what it computes,
// on the machine state the program has reached at that word.
#include "gpsimd/explain.h"

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

std::string explain_word(const Input& in, std::size_t i, const Machine& m, bool strict) {
  const Word& w = in.program.words[i];
  const Generation g = m.generation();
  std::string out;
  auto d = decode(w);
  if (!d) {
    return fmt::format("{}: unknown opcode {:#04x} on {}: not an instruction, so nothing runs\n",
                       in.where(i), w[0], generation_name(g));
  }
  // An instruction that takes the engine as an input (SPEC §3.9) is explained on its
  // default engine.
  out += fmt::format("{}: {} (opcode {:#04x}, {}, {} engine{}) on {}\n", in.where(i),
                     d->def->mnemonic, w[0], d->def->struct_name, engine_name(d->def->engine),
                     d->def->engine_input ? ", the default" : "", generation_name(g));
  const Diagnostics diags = validate(w, g, ValidateOptions{strict});
  if (!diags.empty()) {
    out += labelled("invalid",
                    fmt::format("{} clause{} fail{}, so it would change nothing:", diags.size(),
                                diags.size() == 1 ? "" : "s", diags.size() == 1 ? "s" : ""));
    for (const Diagnostic& x : diags)
      out += labelled("", fmt::format("{}: {} = {}, {}", x.clause, x.field, x.value, x.allowed));
    return out;
  }
  for (const ExplainLine& line : explain(w, m)) out += labelled(line.label, line.text);
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
    AsmError e;
    auto p = parse_program(o.text, x.name, &e);
    if (!p) {
      print_asm_error(stderr, "explain", e, x.text);
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
