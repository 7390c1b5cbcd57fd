// The disassembler and the program printer: the canonical text of words and
// directives. Instruction fields are printed by walking the instruction table's rows;
// a field equal to its default (syntax.h) is left out, and an IMM_SRC is left out when
// the form of its immediate implies it.
#include <fmt/format.h>

#include <algorithm>

#include "asm/syntax.h"
#include "gpsimd/asm.h"

namespace gpsimd {
namespace {
using namespace asmtext;

std::string enum_text(std::optional<std::string_view> name, uint64_t code) {
  return name ? std::string(*name) : fmt::format("{:#x}", code);
}

std::string field_enum_text(FieldKind k, uint64_t v) {
  if (const EnumField* e = enum_field(k)) return enum_text(e->name(static_cast<uint8_t>(v)), v);
  if (k == FieldKind::I32) return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(v)));
  return std::to_string(v);
}

// An immediate's text, and whether that text implies its IMM_SRC.
struct ImmText {
  std::string text;
  bool implies_src;
};
ImmText imm_text(const Decoded& d, const FieldDef& f, uint8_t src, uint32_t value) {
  switch (src) {
    case static_cast<uint8_t>(ImmSrc::INSTRUCTION_IMMEDIATE): {
      const ImmType t = imm_type(*d.def, f);
      const uint8_t dtype =
          t.kind == ImmType::DtypeOf ? static_cast<uint8_t>(d.integer(t.dtype_field)) : 0;
      return {format_imm(t, dtype, value), true};
    }
    case static_cast<uint8_t>(ImmSrc::POINTER_IMMEDIATE): {
      std::string a = format_addr4(value);
      // reg(...) would mean a register pointer.
      if (a.starts_with("reg(")) a = fmt::format("addr({:#010x})", value);
      return {a, true};
    }
    case static_cast<uint8_t>(ImmSrc::REG_PTR_IMMEDIATE):
      if ((value >> 8) == 0) return {fmt::format("reg({})", value), true};
      return {fmt::format("{:#010x}", value), false};
    default:
      return {fmt::format("{:#010x}", value), false};
  }
}

// A descriptor's text: the address (TENSOR) or the base (DATA4D), then step and num.
std::string tensor_text(const TensorDesc& t, bool data) {
  std::string steps, nums;
  for (unsigned k = 0; k < t.dims; ++k) {
    steps += fmt::format("{}{}", k ? "," : "", t.step[k]);
    nums += fmt::format("{}{}", k ? "," : "", t.num[k]);
  }
  return fmt::format("{} step=[{}] num=[{}]",
                     data ? std::to_string(data_base(t)) : format_addr4(t.addr), steps, nums);
}

std::string print_decoded(const Decoded& d) {
  std::string out(d.def->mnemonic);
  bool first = true;
  auto add = [&](std::string_view name, const std::string& value) {
    out += first ? " " : ", ";
    first = false;
    out += name;
    out += '=';
    out += value;
  };
  const auto& fields = d.def->fields;
  auto index_of = [&](std::string_view name) {
    for (std::size_t k = 0; k < fields.size(); ++k)
      if (fields[k].name == name) return k;
    return fields.size();
  };
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const FieldDef& f = fields[i];
    const FieldValue& v = d.values[i];
    switch (f.kind) {
      case FieldKind::Header: {
        const uint64_t h = std::get<uint64_t>(v);
        if (h != default_header(d.def->opcode)) add(f.name, fmt::format("{:#010x}", h));
        break;
      }
      case FieldKind::Events: {
        const Events& e = std::get<Events>(v);
        if (e.wait_mode) add("wait_mode", enum_text(wait_mode_name(e.wait_mode), e.wait_mode));
        if (e.wait_idx) add("wait_idx", std::to_string(e.wait_idx));
        if (e.update_mode)
          add("update_mode", enum_text(update_mode_name(e.update_mode), e.update_mode));
        if (e.update_idx) add("update_idx", std::to_string(e.update_idx));
        if (e.value) add("value", std::to_string(e.value));
        break;
      }
      case FieldKind::Reserved: {
        const auto& b = std::get<ReservedBytes>(v);
        if (std::any_of(b.begin(), b.end(), [](uint8_t x) { return x != 0; })) {
          std::string s;
          for (std::size_t k = 0; k < b.size(); ++k)
            s += fmt::format("{}{:#04x}", k ? ", " : "", b[k]);
          add(f.name, "[" + s + "]");
        }
        break;
      }
      case FieldKind::ImmSrc: {
        const FieldDef* imm = imm_of_src(*d.def, f);
        const uint64_t src = std::get<uint64_t>(v);
        if (imm == nullptr) {
          if (src != 0) add(f.name, field_enum_text(f.kind, src));
          break;
        }
        const auto value = static_cast<uint32_t>(std::get<uint64_t>(d.values[index_of(imm->name)]));
        if (!imm_text(d, *imm, static_cast<uint8_t>(src), value).implies_src)
          add(f.name, field_enum_text(f.kind, src));
        break;
      }
      case FieldKind::ImmVal: {
        const auto src = static_cast<uint8_t>(d.integer(f.src_field));
        const auto value = static_cast<uint32_t>(std::get<uint64_t>(v));
        if (src == 0 && integer_default(f) == value) break;
        add(f.name, imm_text(d, f, src, value).text);
        break;
      }
      case FieldKind::Tensor:
      case FieldKind::Data4D:
        add(f.name, tensor_text(std::get<TensorDesc>(v), f.kind == FieldKind::Data4D));
        break;
      case FieldKind::DtypePair: {
        const uint64_t x = std::get<uint64_t>(v);
        add(f.name, fmt::format("({}, {})", field_enum_text(FieldKind::Dtype, x & 0xf),
                                field_enum_text(FieldKind::Dtype, x >> 4)));
        break;
      }
      case FieldKind::Fp32: {
        const uint64_t x = std::get<uint64_t>(v);
        if (integer_default(f) == x) break;
        add(f.name, format_fp32(static_cast<uint32_t>(x)));
        break;
      }
      default: {
        const uint64_t x = std::get<uint64_t>(v);
        if (integer_default(f) == x) break;
        add(f.name, field_enum_text(f.kind, x));
        break;
      }
    }
  }
  return out;
}

std::string path_text(const std::string& path) {
  if (path.find_first_of(" \t#;\"") != std::string::npos) return "\"" + path + "\"";
  return path;
}

std::string dtype_text(Dtype dt) {
  return std::string(*dtype_name(static_cast<uint8_t>(dt)));
}

}  // namespace

std::optional<std::string> disassemble(const Word& w) {
  auto d = decode(w);
  if (!d) return std::nullopt;
  return print_decoded(*d);
}

std::string Region::to_string() const {
  const std::string parts = partitions == 1
                                ? std::to_string(partition)
                                : fmt::format("{}..{}", partition, partition + partitions - 1);
  switch (kind) {
    case RegionKind::SBUF:
      return fmt::format("sbuf[p={}, off={:#x}]", parts, offset);
    case RegionKind::PSUM:
      return fmt::format("psum[p={}, off={:#x}]", parts, offset);
    case RegionKind::ACC:
      return fmt::format("acc[p={}]", parts);
    case RegionKind::MATCH:
      return fmt::format("match[p={}]", parts);
  }
  return "?";
}

std::string print_directive(const SetupDirective& sd) {
  return std::visit(
      [](const auto& d) -> std::string {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, RegDirective>) {
          return fmt::format(".reg {} = {:#010x}", d.index, d.value);
        } else if constexpr (std::is_same_v<T, SemDirective>) {
          return fmt::format(".sem {} = {}", d.index, d.value);
        } else if constexpr (std::is_same_v<T, AccDirective>) {
          const std::string idx = d.count == 1
                                      ? std::to_string(d.first)
                                      : fmt::format("{}..{}", d.first, d.first + d.count - 1);
          return fmt::format(".acc {} = {}", idx, format_fp32(d.bits));
        } else if constexpr (std::is_same_v<T, DataDirective>) {
          // One row of values per partition, 16 values to a line.
          const std::size_t per = d.values.size() / d.region.partitions;
          auto row = [&](std::size_t r, const char* indent) {
            std::string text = "[";
            for (std::size_t k = 0; k < per; ++k) {
              if (k) text += (k % 16 == 0) ? fmt::format(",\n{}", indent) : ", ";
              text += format_value(d.dtype, d.values[r * per + k]);
            }
            return text + "]";
          };
          std::string s = fmt::format(".data {} {} = ", d.region.to_string(), dtype_text(d.dtype));
          // One value per partition reads best as a flat list, which splits evenly.
          if (d.region.partitions == 1 || per == 1) {
            std::string flat = "[";
            for (std::size_t k = 0; k < d.values.size(); ++k)
              flat += (k == 0          ? ""
                       : (k % 16 == 0) ? ",\n    "
                                       : ", ") +
                      format_value(d.dtype, d.values[k]);
            return s + flat + "]";
          }
          s += "[\n";
          for (std::size_t r = 0; r < d.region.partitions; ++r)
            s += "    " + row(r, "     ") + (r + 1 < d.region.partitions ? ",\n" : "\n");
          return s + "]";
        } else {
          return fmt::format(".load {} <- {}", d.region.to_string(), path_text(d.path));
        }
      },
      sd);
}

std::string print_directive(const DumpDirective& d) {
  std::string s = ".dump " + d.region.to_string();
  if (d.region.kind != RegionKind::ACC && d.region.kind != RegionKind::MATCH)
    s += fmt::format(" {} [{}]", dtype_text(d.dtype), d.count);
  if (d.step != 1) s += fmt::format(" step={}", d.step);
  auto ranges = [](std::string_view name, const std::vector<IndexRange>& list) {
    std::string t = fmt::format(" {}=[", name);
    for (std::size_t i = 0; i < list.size(); ++i) {
      t += i ? ", " : "";
      t += list[i].first == list[i].last ? fmt::format("{}", list[i].first)
                                         : fmt::format("{}..{}", list[i].first, list[i].last);
    }
    return t + "]";
  };
  if (!d.rows.empty()) s += ranges("rows", d.rows);
  if (!d.cols.empty()) s += ranges("cols", d.cols);
  if (!d.path.empty()) s += " -> " + path_text(d.path);
  return s;
}

std::string disassemble_any(const Word& w) {
  if (auto text = disassemble(w)) return *text;
  return fmt::format(".word 0x{}  # unknown opcode {:#04x}", word_to_hex(w), w[0]);
}

std::string print_program(const Program& p) {
  std::string out;
  if (p.nc) out += fmt::format(".nc {}\n", generation_name(*p.nc));
  if (!p.setup.empty()) {
    if (!out.empty()) out += '\n';
    for (const auto& d : p.setup) out += print_directive(d) + '\n';
  }
  if (p.queued) {
    // A program of queues: a .queue line wherever the queue changes (and one for a
    // program without words, which still is a program).
    if (!out.empty()) out += '\n';
    std::optional<Engine> queue;
    for (std::size_t i = 0; i < p.words.size(); ++i) {
      const Engine q = i < p.word_queues.size() ? p.word_queues[i] : Engine::DVE;
      if (q != queue) out += fmt::format(".queue {}\n", engine_id(q));
      queue = q;
      out += disassemble_any(p.words[i]) + '\n';
    }
    if (p.words.empty()) out += ".queue dve\n";
  } else if (!p.words.empty()) {
    if (!out.empty()) out += '\n';
    std::optional<Engine> engine;
    for (std::size_t i = 0; i < p.words.size(); ++i) {
      const std::optional<Engine> e = i < p.word_engines.size() ? p.word_engines[i] : engine;
      if (e && e != engine) out += fmt::format(".engine {}\n", engine_id(*e));
      engine = e;
      out += disassemble_any(p.words[i]) + '\n';
    }
  }
  if (!p.dumps.empty()) {
    if (!out.empty()) out += '\n';
    for (const auto& d : p.dumps) out += print_directive(d) + '\n';
  }
  return out;
}

bool same_program(const Program& a, const Program& b) {
  return a.nc == b.nc && a.words == b.words && a.word_engines == b.word_engines &&
         a.queued == b.queued && a.word_queues == b.word_queues && a.setup == b.setup &&
         a.dumps == b.dumps;
}

QueueProgram queue_program(const Program& p, bool strict, std::vector<QueueWord>* index) {
  QueueProgram q;
  q.strict = strict;
  if (index) index->clear();
  for (std::size_t i = 0; i < p.words.size(); ++i) {
    const Engine e = i < p.word_queues.size() ? p.word_queues[i] : Engine::DVE;
    if (index) index->push_back(QueueWord{e, q.queue(e).size()});
    q.queue(e).push_back(p.words[i]);
  }
  return q;
}

}  // namespace gpsimd
