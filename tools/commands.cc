// The subcommands asm, dis, check and vectors.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "gpsimd/format.h"
#include "gpsimd/program_vectors.h"
#include "gpsimd/validate.h"
#include "gpsimd/vectors.h"

namespace gpsimd::cli {
namespace {

using json = nlohmann::ordered_json;

json enum_json(std::optional<std::string_view> name, uint64_t code) {
  json j;
  j["code"] = code;
  j["name"] = name ? json(std::string(*name)) : json(nullptr);
  return j;
}

// The name of an enumerated field's code (nullopt for an unknown code), by field kind.
std::optional<std::string_view> enum_name(FieldKind kind, uint64_t code) {
  const auto c = static_cast<uint8_t>(code);
  switch (kind) {
    case FieldKind::Dtype:
      return dtype_name(c);
    case FieldKind::AluOp:
      return alu_op_name(c);
    case FieldKind::AccumCmd:
      return accum_cmd_name(c);
    case FieldKind::ImmSrc:
      return imm_src_name(c);
    case FieldKind::AffineCmp:
      return affine_select_cmp_name(c);
    case FieldKind::RevOps:
      return rev_ops_name(c);
    default:
      return std::nullopt;
  }
}

json field_json(const Decoded& d, const FieldDef& f, const FieldValue& v) {
  switch (f.kind) {
    case FieldKind::Header:
      return fmt::format("{:#010x}", std::get<uint64_t>(v));
    case FieldKind::Events: {
      const Events& e = std::get<Events>(v);
      json j;
      j["wait_mode"] = enum_json(wait_mode_name(e.wait_mode), e.wait_mode);
      j["wait_idx"] = e.wait_idx;
      j["update_mode"] = enum_json(update_mode_name(e.update_mode), e.update_mode);
      j["update_idx"] = e.update_idx;
      j["value"] = e.value;
      return j;
    }
    case FieldKind::U8:
    case FieldKind::U32:
      return std::get<uint64_t>(v);
    case FieldKind::Dtype:
    case FieldKind::AluOp:
    case FieldKind::AccumCmd:
    case FieldKind::ImmSrc:
    case FieldKind::AffineCmp:
    case FieldKind::RevOps:
      return enum_json(enum_name(f.kind, std::get<uint64_t>(v)), std::get<uint64_t>(v));
    case FieldKind::I32:
      return static_cast<int32_t>(static_cast<uint32_t>(std::get<uint64_t>(v)));
    case FieldKind::DtypePair: {
      const uint64_t x = std::get<uint64_t>(v);
      json j;
      j["in"] = enum_json(dtype_name(static_cast<uint8_t>(x & 0xf)), x & 0xf);
      j["out"] = enum_json(dtype_name(static_cast<uint8_t>(x >> 4)), x >> 4);
      return j;
    }
    case FieldKind::Fp32: {
      const auto bits = static_cast<uint32_t>(std::get<uint64_t>(v));
      json j;
      j["bits"] = fmt::format("{:#010x}", bits);
      j["text"] = format_fp32(bits);
      return j;
    }
    case FieldKind::ImmVal: {
      json j;
      j["bits"] = fmt::format("{:#010x}", std::get<uint64_t>(v));
      j["src"] = enum_json(imm_src_name(static_cast<uint8_t>(d.integer(f.src_field))),
                           d.integer(f.src_field));
      return j;
    }
    case FieldKind::Tensor:
    case FieldKind::Data4D: {
      const TensorDesc& t = std::get<TensorDesc>(v);
      json j;
      if (f.kind == FieldKind::Data4D) {
        j["base"] = data_base(t);
      } else {
        j["addr"] = fmt::format("{:#010x}", t.addr);
        j["text"] = format_addr4(t.addr);
      }
      j["step"] = json::array();
      j["num"] = json::array();
      for (unsigned k = 0; k < t.dims; ++k) {
        j["step"].push_back(t.step[k]);
        j["num"].push_back(t.num[k]);
      }
      return j;
    }
    case FieldKind::Reserved: {
      std::string s;
      for (uint8_t b : std::get<ReservedBytes>(v)) s += fmt::format("{:02x}", b);
      return s;
    }
  }
  return nullptr;
}

json word_json(const Input& in, std::size_t i) {
  const Word& w = in.program.words[i];
  json j;
  j["index"] = i;
  if (in.format != Format::Bin && i < in.program.word_lines.size())
    j["line"] = in.program.word_lines[i];
  j["hex"] = word_to_hex(w);
  auto d = decode(w);
  if (!d) {
    j["mnemonic"] = nullptr;
    j["opcode"] = w[0];
    j["text"] = disassemble_any(w);
    return j;
  }
  j["mnemonic"] = std::string(d->def->mnemonic);
  j["opcode"] = w[0];
  j["text"] = *disassemble(w);
  json fields, layout = json::array();
  for (std::size_t k = 0; k < d->def->fields.size(); ++k) {
    const FieldDef& f = d->def->fields[k];
    fields[std::string(f.name)] = field_json(*d, f, d->values[k]);
    layout.push_back({{"field", std::string(f.name)},
                      {"offset", f.offset},
                      {"size", f.size},
                      {"hex", word_to_hex(w).substr(2 * f.offset, 2 * f.size)}});
  }
  j["fields"] = std::move(fields);
  j["layout"] = std::move(layout);
  return j;
}

std::string enum_text(std::optional<std::string_view> name, uint64_t code) {
  return fmt::format("{} ({:#x})", name ? *name : "unknown", code);
}

// A field's decoded value for `dis --annotate`.
std::string field_text(const Decoded& d, const FieldDef& f, const FieldValue& v) {
  switch (f.kind) {
    case FieldKind::Header: {
      const auto h = std::get<uint64_t>(v);
      return fmt::format("{:#010x}{}", h,
                         h == default_header(d.def->opcode) ? " (opcode, then 0x10)" : "");
    }
    case FieldKind::Events: {
      const Events& e = std::get<Events>(v);
      return fmt::format("wait_mode {} wait_idx {}, update_mode {} update_idx {}, value {}",
                         enum_text(wait_mode_name(e.wait_mode), e.wait_mode), e.wait_idx,
                         enum_text(update_mode_name(e.update_mode), e.update_mode), e.update_idx,
                         e.value);
    }
    case FieldKind::U8:
    case FieldKind::U32:
      return std::to_string(std::get<uint64_t>(v));
    case FieldKind::I32:
      return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(std::get<uint64_t>(v))));
    case FieldKind::Dtype:
    case FieldKind::AluOp:
    case FieldKind::AccumCmd:
    case FieldKind::ImmSrc:
    case FieldKind::AffineCmp:
    case FieldKind::RevOps:
      return enum_text(enum_name(f.kind, std::get<uint64_t>(v)), std::get<uint64_t>(v));
    case FieldKind::DtypePair: {
      const uint64_t x = std::get<uint64_t>(v);
      return fmt::format("in {} (low nibble), out {} (high nibble)",
                         enum_text(dtype_name(static_cast<uint8_t>(x & 0xf)), x & 0xf),
                         enum_text(dtype_name(static_cast<uint8_t>(x >> 4)), x >> 4));
    }
    case FieldKind::Fp32: {
      const auto bits = static_cast<uint32_t>(std::get<uint64_t>(v));
      return fmt::format("{} ({:#010x})", format_fp32(bits), bits);
    }
    case FieldKind::ImmVal:
      return fmt::format("{:#010x}, read as {}", std::get<uint64_t>(v),
                         enum_text(imm_src_name(static_cast<uint8_t>(d.integer(f.src_field))),
                                   d.integer(f.src_field)));
    case FieldKind::Tensor:
    case FieldKind::Data4D: {
      const TensorDesc& t = std::get<TensorDesc>(v);
      std::string steps, nums;
      for (unsigned k = 0; k < t.dims; ++k) {
        steps += fmt::format("{}{}", k ? "," : "", t.step[k]);
        nums += fmt::format("{}{}", k ? "," : "", t.num[k]);
      }
      const std::string head = f.kind == FieldKind::Data4D
                                   ? fmt::format("base {}", data_base(t))
                                   : fmt::format("{} ({:#010x})", format_addr4(t.addr), t.addr);
      return fmt::format("{} step=[{}] num=[{}]", head, steps, nums);
    }
    case FieldKind::Reserved: {
      const auto& b = std::get<ReservedBytes>(v);
      return std::all_of(b.begin(), b.end(), [](uint8_t x) { return x == 0; })
                 ? "zero"
                 : "NOT ZERO (reserved bytes must be zero)";
    }
  }
  return "";
}

// `dis --annotate`: each field's bytes (offsets in hex, 8 bytes a line) beside its name
// and decoded value, like an objdump listing.
std::string annotate(const Input& in, std::size_t i) {
  constexpr unsigned kPerLine = 8;
  const Word& w = in.program.words[i];
  std::string out;
  auto d = decode(w);
  out += fmt::format(
      "{}: {}\n", in.where(i),
      d ? fmt::format("{} (opcode {:#04x}, {})", d->def->mnemonic, w[0], d->def->struct_name)
        : fmt::format("unknown opcode {:#04x}", w[0]));
  auto bytes = [&](unsigned off, unsigned n) {
    std::string s;
    for (unsigned k = 0; k < n; ++k) s += fmt::format("{}{:02x}", k ? " " : "", w[off + k]);
    return s;
  };
  if (!d) {
    for (unsigned off = 0; off < kWordBytes; off += kPerLine)
      out += fmt::format("  {:#04x}  {}\n", off, bytes(off, kPerLine));
    return out;
  }
  for (std::size_t k = 0; k < d->def->fields.size(); ++k) {
    const FieldDef& f = d->def->fields[k];
    const std::string range =
        f.size == 1 ? fmt::format("{:#04x}", f.offset)
                    : fmt::format("{:#04x}..{:#04x}", f.offset, f.offset + f.size - 1);
    for (unsigned off = 0; off < f.size; off += kPerLine) {
      const unsigned n = std::min<unsigned>(kPerLine, f.size - off);
      if (off == 0)
        out += fmt::format("  {:<10}  {:<23}  {} = {}\n", range, bytes(f.offset, n), f.name,
                           field_text(*d, f, d->values[k]));
      else
        out += fmt::format("  {:<10}  {}\n", "", bytes(f.offset + off, n));
    }
  }
  return out;
}

}  // namespace

// Writes bytes to a file, or to standard output for "-"; on failure prints the reason.
bool write_output(const std::string& path, std::string_view bytes, std::string_view cmd) {
  std::FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    fmt::print(stderr, "gpsimd {}: {}: cannot write the file: {}\n", cmd, path,
               std::strerror(errno));
    return false;
  }
  errno = 0;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (f == stdout ? std::fflush(f) == 0 : std::fclose(f) == 0) && ok;
  if (!ok)
    fmt::print(stderr, "gpsimd {}: {}: cannot write the file: {}\n", cmd, output_name(path),
               std::strerror(errno != 0 ? errno : EIO));
  return ok;
}

namespace {

// The worse of two exit statuses (usage and input errors are the worst).
int worst(int a, int b) {
  return std::max(a, b);
}

}  // namespace

int cmd_asm(const AsmOptions& o) {
  auto in = load_input(o.input, o.format, "asm");
  if (!in) return kExitUsage;
  const Program& p = in->program;
  const std::string output = o.output.empty() ? "-" : o.output;
  // Hex text without -o (or with --hex), raw 64-byte words otherwise; "-" is stdout.
  std::string bytes;
  if (o.output.empty() || o.hex) {
    for (const Word& w : p.words) bytes += word_to_hex(w) + '\n';
  } else {
    for (const Word& w : p.words) bytes.append(reinterpret_cast<const char*>(w.data()), kWordBytes);
  }
  if (!write_output(output, bytes, "asm")) return kExitUsage;
  const std::size_t directives = p.setup.size() + p.dumps.size() + (p.nc ? 1 : 0);
  if (directives && !o.output.empty())
    fmt::print(stderr,
               "gpsimd asm: note: {} holds only the {} instruction word{}; the {} directive{} "
               "(.nc, .data, .dump, ...) stay in {}\n",
               output_name(o.output), p.words.size(), p.words.size() == 1 ? "" : "s", directives,
               directives == 1 ? "" : "s", in->name);
  if (p.queued)
    fmt::print(stderr,
               "gpsimd asm: note: {} is a program of queues (.queue): the words are written in "
               "file order, and the queue of each stays in {}\n",
               in->name, in->name);
  return kExitOk;
}

int cmd_dis(const DisOptions& o) {
  int status = kExitOk;
  const bool several = o.inputs.size() > 1;
  json files = json::array();
  for (std::size_t k = 0; k < o.inputs.size(); ++k) {
    auto in = load_input(o.inputs[k], o.format, "dis");
    if (!in) {
      status = worst(status, kExitUsage);
      continue;
    }
    if (o.json) {
      json words = json::array();
      for (std::size_t i = 0; i < in->program.words.size(); ++i) words.push_back(word_json(*in, i));
      if (!several) {
        fmt::print("{}\n", words.dump(2));
        continue;
      }
      json f;
      f["file"] = in->name;
      f["words"] = std::move(words);
      files.push_back(std::move(f));
      continue;
    }
    // Several files: each starts with a comment naming it (a comment, so that the words
    // of binary and hex files assemble back in order).
    if (several) fmt::print("{}# {}\n", k > 0 ? "\n" : "", in->name);
    if (o.annotate) {
      for (std::size_t i = 0; i < in->program.words.size(); ++i)
        fmt::print("{}{}", i ? "\n" : "", annotate(*in, i));
      continue;
    }
    if (in->format == Format::Asm) {
      fmt::print("{}", print_program(in->program));
      continue;
    }
    for (const Word& w : in->program.words) fmt::print("{}\n", disassemble_any(w));
  }
  if (o.json && several) fmt::print("{}\n", files.dump(2));
  return status;
}

namespace {

// Checks one input; adds its JSON object to `files` (with --json) or prints its lines.
int check_one(const CheckOptions& o, const std::string& path, bool several, json* files) {
  auto in = load_input(path, o.format, "check");
  if (!in) return kExitUsage;
  const Generation g = pick_generation(o.nc, in->program);
  const bool queued = in->program.queued;
  if (queued && o.engine) {
    fmt::print(stderr,
               "gpsimd check: --engine is for streams: {} is a program of queues, and each "
               "word's queue is its engine\n",
               in->name);
    return kExitUsage;
  }
  // A program of queues (SPEC §8.1): each word on its queue's engine, with the clause
  // has_valid_queue_engine; the sync hazards from the words and the initial semaphores.
  std::vector<QueueWord> where;
  const QueueProgram qp = queue_program(in->program, o.strict, &where);
  std::vector<Diagnostics> queued_diags(in->program.words.size());
  std::vector<SyncHazard> hazards;
  if (queued) {
    std::array<std::vector<std::size_t>, kEngineCount> file_index;
    for (std::size_t i = 0; i < where.size(); ++i)
      file_index[static_cast<std::size_t>(where[i].queue)].push_back(i);
    for (const InvalidWord& w : validate_queues(qp, g))
      queued_diags[file_index[static_cast<std::size_t>(w.word.queue)][w.word.index]] =
          w.diagnostics;
    std::array<uint32_t, kSemaphores> sems{};
    for (const SetupDirective& d : in->program.setup)
      if (const auto* sd = std::get_if<SemDirective>(&d)) sems[sd->index] = sd->value;
    hazards = sync_hazards(qp, sems);
  }
  std::size_t invalid = 0;
  json words = json::array();
  for (std::size_t i = 0; i < in->program.words.size(); ++i) {
    const Word& w = in->program.words[i];
    const std::optional<Engine> engine = engine_input(in->program, i, o.engine);
    const Diagnostics diags =
        queued ? queued_diags[i] : validate(w, g, ValidateOptions{o.strict, engine});
    const InstrDef* def = find_instruction(w[0]);
    const std::string mnemonic =
        def ? std::string(def->mnemonic) : fmt::format("opcode {:#04x}", w[0]);
    if (!diags.empty()) ++invalid;
    if (o.json) {
      json j;
      j["index"] = i;
      if (queued) {
        j["queue"] = std::string(engine_id(where[i].queue));
        j["queue_index"] = where[i].index;
      }
      if (in->format != Format::Bin && i < in->program.word_lines.size())
        j["line"] = in->program.word_lines[i];
      j["mnemonic"] = def ? json(std::string(def->mnemonic)) : json(nullptr);
      if (def && def->engine_input) j["engine"] = std::string(engine_id(def->engine_for(engine)));
      j["valid"] = diags.empty();
      json dj = json::array();
      for (const Diagnostic& d : diags)
        dj.push_back({{"clause", d.clause},
                      {"field", d.field},
                      {"value", d.value},
                      {"allowed", d.allowed},
                      {"message", d.message()}});
      j["diagnostics"] = std::move(dj);
      words.push_back(std::move(j));
      continue;
    }
    if (queued)
      fmt::print("{}: {} {}: {}\n", in->where(i), where[i].to_string(), mnemonic,
                 diags.empty() ? "ok" : "invalid");
    else
      fmt::print("{}: {}{}: {}\n", in->where(i), mnemonic, engine_note(w, engine),
                 diags.empty() ? "ok" : "invalid");
    for (const Diagnostic& d : diags)
      fmt::print("    {}: {} = {}, {}\n", d.clause, d.field, d.value, d.allowed);
  }
  const std::size_t n = in->program.words.size();
  if (o.json) {
    json j;
    j["file"] = in->name;
    j["nc"] = std::string(generation_name(g));
    j["strict"] = o.strict;
    j["words"] = std::move(words);
    j["invalid"] = invalid;
    if (queued) {
      json hz = json::array();
      for (const SyncHazard& h : hazards)
        hz.push_back({{"semaphore", h.semaphore}, {"kind", std::string(hazard_name(h.kind))}});
      json& queues = j["queues"] = json::object();
      for (const EngineDef& e : kEngines) queues[std::string(e.id)] = qp.queue(e.engine).size();
      j["sync_hazards"] = std::move(hz);
    }
    files->push_back(std::move(j));
  } else {
    if (queued) {
      std::string hz;
      for (const SyncHazard& h : hazards)
        hz += fmt::format("{}sem[{}] {}", hz.empty() ? "" : ", ", h.semaphore, hazard_name(h.kind));
      fmt::print("{}sync hazards: {}\n", several ? in->name + ": " : "", hz.empty() ? "none" : hz);
    }
    fmt::print("{}{} word{}, {} invalid ({}{}{})\n", several ? in->name + ": " : "", n,
               n == 1 ? "" : "s", invalid, generation_name(g), o.strict ? ", strict" : "",
               queued ? "; a program of queues: " + queue_sizes(qp) : "");
  }
  return invalid ? kExitFailed : kExitOk;
}

}  // namespace

int cmd_check(const CheckOptions& o) {
  int status = kExitOk;
  const bool several = o.inputs.size() > 1;
  json files = json::array();
  for (const std::string& path : o.inputs)
    status = worst(status, check_one(o, path, several, &files));
  // One file: its object; several: an array of them.
  if (o.json && (several || !files.empty()))
    fmt::print("{}\n", several ? files.dump(2) : files[0].dump(2));
  return status;
}

std::string engine_note(const Word& w, std::optional<Engine> input) {
  const InstrDef* def = find_instruction(w[0]);
  if (!def || !def->engine_input) return {};
  return fmt::format(" on {}", engine_id(def->engine_for(input)));
}

std::string queue_sizes(const QueueProgram& p) {
  std::string s;
  for (const EngineDef& e : kEngines)
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", e.id, p.queue(e.engine).size());
  return s;
}

int cmd_vectors(const VectorsOptions& o) {
  std::size_t passed = 0, failed = 0, pending = 0;
  ExecOptions opts;
  opts.fast = !o.reference;
  for (const std::string& f : o.files) {
    std::string err, text;
    std::optional<VectorFile> vf;
    if (!read_input(f, kMaxVectorFileBytes, &text, &err)) {
      fmt::print(stderr, "gpsimd vectors: {}\n", err);
      return kExitUsage;
    }
    const std::string name = f == "-" ? "<stdin>" : f;
    if (vector_file_format(text) == "gpsimd-programs/1") {
      // SPEC §8.8: programs on several queues; the queue is each word's engine.
      auto pf = parse_program_vectors(text, name, &err);
      if (!pf) {
        fmt::print(stderr, "gpsimd vectors: {}\n", err);
        return kExitUsage;
      }
      if (auto p = pending_program_file(*pf)) {
        pending += pf->vectors.size();
        fmt::print("PENDING {}: {} program{} using {}, which gpsimd does not model yet\n", f,
                   pf->vectors.size(), pf->vectors.size() == 1 ? "" : "s", p->text());
        continue;
      }
      QueueRunOptions qo;
      qo.fast = !o.reference;
      for (const ProgramVector& v : pf->vectors) {
        const ProgramVectorOutcome out = run_program_vector(v, qo);
        if (out.passed) {
          ++passed;
          continue;
        }
        ++failed;
        fmt::print("FAIL {}: {}\n", v.name, out.differences.front());
        for (std::size_t i = 1; i < out.differences.size(); ++i)
          fmt::print("    {}\n", out.differences[i]);
      }
      continue;
    }
    vf = parse_vectors(text, name, &err);
    if (!vf) {
      fmt::print(stderr, "gpsimd vectors: {}\n", err);
      return kExitUsage;
    }
    if (auto p = pending_instruction(*vf)) {
      // SPEC §7: counted and shown, never run and never passed.
      pending += vf->vectors.size();
      fmt::print("PENDING {}: {} vector{} of {}, which gpsimd does not model yet\n", f,
                 vf->vectors.size(), vf->vectors.size() == 1 ? "" : "s", p->text());
      continue;
    }
    for (auto v : vf->vectors) {
      if (!v.engine) v.engine = o.engine;  // the file's own "engine" keys win
      auto out = run_vector(v, opts);
      if (out.passed) {
        ++passed;
        continue;
      }
      ++failed;
      fmt::print("FAIL {}: {}\n", v.name, out.differences.front());
      for (std::size_t i = 1; i < out.differences.size(); ++i)
        fmt::print("    {}\n", out.differences[i]);
    }
  }
  if (pending)
    fmt::print("{} passed, {} failed, {} pending\n", passed, failed, pending);
  else
    fmt::print("{} passed, {} failed\n", passed, failed);
  return failed ? kExitFailed : kExitOk;
}

}  // namespace gpsimd::cli
