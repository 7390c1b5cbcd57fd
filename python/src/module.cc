// The gpsimd extension module (gpsimd._core): the machine with zero-copy NumPy views of
// its state, the instruction table and its codec, validation, execution with the GIL
// released, and the number formats vectorised over NumPy arrays. The public Python API
// (python/gpsimd/) wraps these; exceptions are raised there, from the values returned
// here, because errors are values in the C++ API.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bindings.h"
#include "gpsimd/alu.h"
#include "gpsimd/execute.h"
#include "gpsimd/explain.h"
#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/program.h"
#include "gpsimd/types.h"
#include "gpsimd/validate.h"

namespace py = pybind11;

namespace gpsimd::python {

Word word_from_bytes(const py::bytes& b) {
  const std::string_view s = b;
  if (s.size() != kWordBytes)
    throw py::value_error(
        fmt::format("an instruction word is {} bytes, got {}", kWordBytes, s.size()));
  Word w;
  std::memcpy(w.data(), s.data(), kWordBytes);
  return w;
}

py::bytes bytes_from_word(const Word& w) {
  return py::bytes(reinterpret_cast<const char*>(w.data()), w.size());
}

namespace {

// Returns repr(h), for messages.
std::string show(py::handle h) {
  return py::repr(h).cast<std::string>();
}

// Returns the generation named by "v2".."v5" (any case, or "2".."5"), by a name SPEC §1
// gives one ("trn2", "cayman", ...: parse_nc) or by the int 2..5.
Generation to_generation(py::handle h) {
  if (py::isinstance<py::str>(h)) {
    if (auto g = parse_nc(h.cast<std::string>())) return *g;
  } else if (py::isinstance<py::int_>(h)) {
    const long v = h.cast<long>();
    if (v >= 2 && v <= 5) return static_cast<Generation>(v);
  }
  throw py::value_error(
      fmt::format("generation {}: must be one of 'v2', 'v3', 'v4', 'v5' (or 2..5), or a name of "
                  "one: 'trn1', 'inf2', 'sunda' (v2), 'trn2', 'cayman' (v3), 'mariana' (v4), "
                  "'maverick' (v5)",
                  show(h)));
}

}  // namespace

namespace {

// Returns the memory space named "sbuf" or "psum" (any case).
Space to_space(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (auto space = parse_space(s)) return *space;
  throw py::value_error(fmt::format("space '{}': must be {}", s, space_names_text("'")));
}

// Returns the value of an integer-like object (int, bool, NumPy integer) within
// [lo, hi]; raises TypeError for anything else and ValueError outside the range.
int64_t to_int(py::handle v, std::string_view what, int64_t lo, int64_t hi) {
  PyObject* idx = PyNumber_Index(v.ptr());
  if (idx == nullptr) {
    PyErr_Clear();
    throw py::type_error(fmt::format("{}: expected an integer, got {}", what, show(v)));
  }
  py::object o = py::reinterpret_steal<py::object>(idx);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi)
    throw py::value_error(fmt::format("{}: {} is outside [{}, {}]", what, show(o), lo, hi));
  return x;
}

// Returns an integer-like object as a u32 (raises outside [0, 2^32)).
uint32_t to_u32(py::handle v, std::string_view what) {
  return static_cast<uint32_t>(to_int(v, what, 0, 0xffffffffLL));
}

// ---- enumerations ---------------------------------------------------------------------

using NameFn = std::optional<std::string_view> (*)(uint8_t);

std::optional<std::string_view> dtype_name_u8(uint8_t c) {
  return dtype_name(c);
}
std::optional<std::string_view> alu_op_name_u8(uint8_t c) {
  return alu_op_name(c);
}
std::optional<std::string_view> accum_cmd_name_u8(uint8_t c) {
  return accum_cmd_name(c);
}
std::optional<std::string_view> imm_src_name_u8(uint8_t c) {
  return imm_src_name(c);
}
std::optional<std::string_view> affine_select_cmp_name_u8(uint8_t c) {
  return affine_select_cmp_name(c);
}
std::optional<std::string_view> rev_ops_name_u8(uint8_t c) {
  return rev_ops_name(c);
}
std::optional<std::string_view> wait_mode_name_u8(uint8_t c) {
  return wait_mode_name(c);
}
std::optional<std::string_view> update_mode_name_u8(uint8_t c) {
  return update_mode_name(c);
}

struct EnumKind {
  std::string_view label;  // as SPEC names the enumeration
  NameFn name;
};

// Returns the enumeration of a field kind, or nullopt for a kind that is not one.
std::optional<EnumKind> enum_of(FieldKind k) {
  switch (k) {
    case FieldKind::Dtype:
      return EnumKind{"DTYPE", dtype_name_u8};
    case FieldKind::AluOp:
      return EnumKind{"ALU_OP", alu_op_name_u8};
    case FieldKind::AccumCmd:
      return EnumKind{"ACCUM_CMD", accum_cmd_name_u8};
    case FieldKind::ImmSrc:
      return EnumKind{"IMM_SRC", imm_src_name_u8};
    case FieldKind::AffineCmp:
      return EnumKind{"AFFINE_SELECT_CMP", affine_select_cmp_name_u8};
    case FieldKind::RevOps:
      return EnumKind{"TENS_SCALAR_REV_OPS", rev_ops_name_u8};
    default:
      return std::nullopt;
  }
}

// Returns "A, B, C": every name of an enumeration.
std::string all_names(NameFn name) {
  std::string s;
  for (unsigned c = 0; c < 256; ++c) {
    if (auto n = name(static_cast<uint8_t>(c))) {
      if (!s.empty()) s += ", ";
      s += *n;
    }
  }
  return s;
}

// Returns the code of an enumeration value given by name (any case) or by number.
uint8_t to_enum(py::handle v, const EnumKind& e, std::string_view what) {
  if (py::isinstance<py::str>(v)) {
    const std::string s = v.cast<std::string>();
    for (unsigned c = 0; c < 256; ++c) {
      auto n = e.name(static_cast<uint8_t>(c));
      if (n && n->size() == s.size() &&
          std::equal(n->begin(), n->end(), s.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) ==
                   std::tolower(static_cast<unsigned char>(b));
          }))
        return static_cast<uint8_t>(c);
    }
    throw py::value_error(fmt::format("{}: '{}' is not a name of {} ({}) nor a number", what, s,
                                      e.label, all_names(e.name)));
  }
  return static_cast<uint8_t>(to_int(v, what, 0, 255));
}

// A known code as its name, an unknown one as its number.
py::object enum_value(const EnumKind& e, uint64_t code) {
  if (code <= 255) {
    if (auto n = e.name(static_cast<uint8_t>(code))) return py::str(std::string(*n));
  }
  return py::int_(code);
}

// ---- field values <-> Python ----------------------------------------------------------

// Returns the numpy module.
py::object numpy() {
  return py::module_::import("numpy");
}

// Returns a numpy.float32 holding exactly these bits.
py::object fp32_object(uint32_t bits) {
  return numpy().attr("uint32")(bits).attr("view")(numpy().attr("float32"));
}

// FP32 bits of a NumPy float32 (exact, NaN payloads included) or of a number (rounded
// to nearest even, as C++ converts a double).
uint32_t fp32_bits_of(py::handle v, std::string_view what) {
  py::object np = numpy();
  if (py::isinstance(v, np.attr("float32")))
    return v.attr("view")(np.attr("uint32")).cast<uint32_t>();
  if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v) ||
      py::isinstance(v, np.attr("floating")) || py::isinstance(v, np.attr("integer"))) {
    const double d = py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
    return bits_from_fp32(static_cast<float>(d));
  }
  throw py::type_error(
      fmt::format("{}: expected a number or numpy.float32, got {}", what, show(v)));
}

// Returns {"addr"} plus what the ADDR4 names: space/partition/offset, or a register.
py::dict location_dict(uint32_t addr) {
  py::dict d;
  d["addr"] = addr;
  if ((addr >> 31) != 0) {
    if (auto r = decode_register_addr(addr)) d["register"] = *r;
  } else if (auto loc = decode_static_addr(addr, Generation::V5)) {
    // V5 has the largest SBUF partition, so every offset the 18-bit field holds decodes.
    d["space"] = std::string(space_name(loc->space));
    d["partition"] = loc->partition;
    d["offset"] = loc->offset;
  }
  return d;
}

// Returns a tensor descriptor as {addr, location..., step, num}, or a DATA4D as
// {base, step, num}.
py::dict tensor_dict(const TensorDesc& t, bool data = false) {
  py::dict d;
  if (data)
    d["base"] = data_base(t);
  else
    d = location_dict(t.addr);
  py::list step, num;
  for (unsigned i = 0; i < t.dims; ++i) {
    step.append(t.step[i]);
    num.append(t.num[i]);
  }
  d["step"] = step;
  d["num"] = num;
  return d;
}

void check_keys(const py::dict& d, std::initializer_list<std::string_view> allowed,
                std::string_view what) {
  for (auto item : d) {
    const std::string k = py::str(item.first);
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || a == k;
    if (!ok) {
      std::string list;
      for (std::string_view a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
      throw py::value_error(fmt::format("{}: unknown key '{}' (keys: {})", what, k, list));
    }
  }
}

// The ADDR4 given by a dict: "addr", or "space"/"partition"/"offset" (a static address),
// or "register" (register mode, when allowed). When "addr" comes with a location, they
// must agree.
uint32_t address_of(const py::dict& d, std::string_view what, bool allow_register) {
  std::optional<uint32_t> addr, other;
  if (d.contains("addr")) addr = to_u32(d["addr"], fmt::format("{}.addr", what));
  const bool has_loc = d.contains("space") || d.contains("partition") || d.contains("offset");
  if (has_loc && d.contains("register"))
    throw py::value_error(
        fmt::format("{}: give a location (space/partition/offset) or a register, "
                    "not both",
                    what));
  if (has_loc) {
    Location loc;
    loc.space = d.contains("space") ? to_space(py::str(d["space"])) : Space::SBUF;
    loc.partition =
        d.contains("partition")
            ? static_cast<uint32_t>(
                  to_int(d["partition"], fmt::format("{}.partition", what), 0, kPartitions - 1))
            : 0;
    // The widest offset the address form can hold (a PSUM partition's window is 32 KiB).
    const int64_t max_off = loc.space == Space::SBUF ? (1 << 18) - 1 : (1 << 15) - 1;
    loc.offset =
        d.contains("offset")
            ? static_cast<uint32_t>(to_int(d["offset"], fmt::format("{}.offset", what), 0, max_off))
            : 0;
    other = encode_static_addr(loc);
  }
  if (d.contains("register")) {
    if (!allow_register)
      throw py::value_error(
          fmt::format("{}: 'register' is for tensor addresses; a register "
                      "pointer immediate is the register id itself",
                      what));
    other = 0x80000000u |
            static_cast<uint32_t>(to_int(d["register"], fmt::format("{}.register", what), 0, 255));
  }
  if (addr && other && *addr != *other)
    throw py::value_error(
        fmt::format("{}: addr {:#010x} disagrees with the location, which encodes "
                    "as {:#010x}",
                    what, *addr, *other));
  return addr ? *addr : other.value_or(0u);
}

// Reads a descriptor's num (1..dims entries; missing dimensions are 1) and step
// (optional: dense, dimension 0 innermost) from a dict into t.
void read_steps_and_nums(const py::dict& d, const FieldDef& f, TensorDesc& t,
                         std::string_view what) {
  t.dims = f.dims;
  const std::string kind =
      f.kind == FieldKind::Data4D ? std::string("DATA4D") : fmt::format("TENSOR{}D", f.dims);
  if (!d.contains("num")) throw py::value_error(fmt::format("{}: 'num' is required", what));
  const py::list num = py::list(d["num"]);
  if (num.size() < 1 || num.size() > f.dims)
    throw py::value_error(
        fmt::format("{}: num has {} entries, a {} takes 1..{} (missing "
                    "dimensions are 1)",
                    what, num.size(), kind, f.dims));
  for (unsigned i = 0; i < f.dims; ++i)
    t.num[i] =
        i < num.size()
            ? static_cast<uint16_t>(to_int(num[i], fmt::format("{}.num[{}]", what, i), 0, 65535))
            : 1;
  if (d.contains("step")) {
    const py::list step = py::list(d["step"]);
    if (step.size() != num.size())
      throw py::value_error(
          fmt::format("{}: step has {} entries, num has {}", what, step.size(), num.size()));
    for (unsigned i = 0; i < step.size(); ++i)
      t.step[i] =
          static_cast<int16_t>(to_int(step[i], fmt::format("{}.step[{}]", what, i), -32768, 32767));
  } else {
    // Dense, dimension 0 innermost.
    int64_t s = 1;
    for (unsigned i = 0; i < f.dims; ++i) {
      if (s > 32767)
        throw py::value_error(
            fmt::format("{}: the dense step of dimension {} is {}, beyond int16; "
                        "give step explicitly",
                        what, i, s));
      t.step[i] = static_cast<int16_t>(s);
      s *= t.num[i];
    }
  }
}

// Returns the tensor descriptor a dict describes (see encode() in codec.py).
TensorDesc to_tensor(py::handle v, const FieldDef& f, std::string_view what) {
  if (!py::isinstance<py::dict>(v))
    throw py::type_error(
        fmt::format("{}: expected a dict with addr (or space, partition, offset, "
                    "or register), step and num; got {}",
                    what, show(v)));
  py::dict d = py::reinterpret_borrow<py::dict>(v);
  check_keys(d, {"addr", "space", "partition", "offset", "register", "step", "num"}, what);
  TensorDesc t;
  t.addr = address_of(d, what, true);
  read_steps_and_nums(d, f, t, what);
  return t;
}

// Returns the DATA4D a dict {base, step, num} describes (SPEC §3.7).
TensorDesc to_data4d(py::handle v, const FieldDef& f, std::string_view what) {
  if (!py::isinstance<py::dict>(v))
    throw py::type_error(
        fmt::format("{}: expected a dict with base, step and num; got {}", what, show(v)));
  py::dict d = py::reinterpret_borrow<py::dict>(v);
  check_keys(d, {"base", "step", "num"}, what);
  TensorDesc t;
  if (d.contains("base"))
    t.addr = static_cast<uint32_t>(
        to_int(d["base"], fmt::format("{}.base", what), INT32_MIN, int64_t{UINT32_MAX}));
  read_steps_and_nums(d, f, t, what);
  return t;
}

// Returns the events band as a dict, modes by name.
py::dict events_dict(const Events& e) {
  py::dict d;
  d["wait_mode"] = enum_value({"wait mode", wait_mode_name_u8}, e.wait_mode);
  d["wait_idx"] = e.wait_idx;
  d["update_mode"] = enum_value({"update mode", update_mode_name_u8}, e.update_mode);
  d["update_idx"] = e.update_idx;
  d["value"] = e.value;
  return d;
}

// Returns the events band a dict describes; missing keys are 0.
Events to_events(py::handle v, std::string_view what) {
  if (!py::isinstance<py::dict>(v))
    throw py::type_error(
        fmt::format("{}: expected a dict with wait_mode, wait_idx, update_mode, "
                    "update_idx, value; got {}",
                    what, show(v)));
  py::dict d = py::reinterpret_borrow<py::dict>(v);
  check_keys(d, {"wait_mode", "wait_idx", "update_mode", "update_idx", "value"}, what);
  Events e;
  auto byte = [&](const char* k) {
    return static_cast<uint8_t>(to_int(d[k], fmt::format("{}.{}", what, k), 0, 255));
  };
  if (d.contains("wait_mode"))
    e.wait_mode = to_enum(d["wait_mode"], {"wait mode", wait_mode_name_u8}, "events.wait_mode");
  if (d.contains("update_mode"))
    e.update_mode =
        to_enum(d["update_mode"], {"update mode", update_mode_name_u8}, "events.update_mode");
  if (d.contains("wait_idx")) e.wait_idx = byte("wait_idx");
  if (d.contains("update_idx")) e.update_idx = byte("update_idx");
  if (d.contains("value")) e.value = to_u32(d["value"], "events.value");
  return e;
}

// One decoded field as a Python value (the inverse of to_field_value).
py::object field_object(const FieldDef& f, const FieldValue& v) {
  switch (f.kind) {
    case FieldKind::Events:
      return events_dict(std::get<Events>(v));
    case FieldKind::Tensor:
      return tensor_dict(std::get<TensorDesc>(v));
    case FieldKind::Data4D:
      return tensor_dict(std::get<TensorDesc>(v), true);
    case FieldKind::I32:
      return py::int_(static_cast<int32_t>(static_cast<uint32_t>(std::get<uint64_t>(v))));
    case FieldKind::Reserved: {
      const auto& b = std::get<ReservedBytes>(v);
      return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
    }
    case FieldKind::DtypePair: {
      const uint64_t x = std::get<uint64_t>(v);
      py::dict d;
      d["in"] = enum_value({"DTYPE", dtype_name_u8}, x & 0xf);
      d["out"] = enum_value({"DTYPE", dtype_name_u8}, x >> 4);
      return d;
    }
    case FieldKind::Fp32:
      return fp32_object(static_cast<uint32_t>(std::get<uint64_t>(v)));
    default: {
      const uint64_t x = std::get<uint64_t>(v);
      if (auto e = enum_of(f.kind)) return enum_value(*e, x);
      return py::int_(x);
    }
  }
}

// Returns the FieldValue of a Python value for a field (the inverse of field_object).
FieldValue to_field_value(const FieldDef& f, py::handle v, std::string_view instr) {
  const std::string what = fmt::format("{}.{}", instr, f.name);
  switch (f.kind) {
    case FieldKind::Events:
      return to_events(v, what);
    case FieldKind::Tensor:
      return to_tensor(v, f, what);
    case FieldKind::Data4D:
      return to_data4d(v, f, what);
    case FieldKind::I32:
      return static_cast<uint64_t>(
          static_cast<uint32_t>(to_int(v, what, INT32_MIN, int64_t{UINT32_MAX})));
    case FieldKind::Reserved: {
      std::vector<uint8_t> b;
      if (py::isinstance<py::bytes>(v) || py::isinstance<py::bytearray>(v)) {
        const std::string s = py::bytes(py::reinterpret_borrow<py::object>(v));
        b.assign(s.begin(), s.end());
      } else {
        for (auto x : py::list(py::reinterpret_borrow<py::object>(v)))
          b.push_back(static_cast<uint8_t>(to_int(x, what, 0, 255)));
      }
      if (b.size() != f.size)
        throw py::value_error(fmt::format("{}: {} reserved bytes, got {}", what, f.size, b.size()));
      return ReservedBytes(b.begin(), b.end());
    }
    case FieldKind::DtypePair: {
      const EnumKind e{"DTYPE", dtype_name_u8};
      uint8_t in = 0, out = 0;
      if (py::isinstance<py::dict>(v)) {
        py::dict d = py::reinterpret_borrow<py::dict>(v);
        check_keys(d, {"in", "out"}, what);
        if (!d.contains("in") || !d.contains("out"))
          throw py::value_error(fmt::format("{}: give both 'in' and 'out'", what));
        in = to_enum(d["in"], e, what + ".in");
        out = to_enum(d["out"], e, what + ".out");
      } else if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) {
        py::list l = py::list(py::reinterpret_borrow<py::object>(v));
        if (l.size() != 2)
          throw py::value_error(fmt::format("{}: expected (in, out), got {}", what, show(v)));
        in = to_enum(l[0], e, what + ".in");
        out = to_enum(l[1], e, what + ".out");
      } else {
        return static_cast<uint64_t>(to_int(v, what, 0, 255));
      }
      if (in > 15 || out > 15)
        throw py::value_error(
            fmt::format("{}: each dtype of a DTYPE_PAIR takes 4 bits (in {:#x}, "
                        "out {:#x})",
                        what, in, out));
      return static_cast<uint64_t>(in | out << 4);
    }
    case FieldKind::Fp32:
      return static_cast<uint64_t>(fp32_bits_of(v, what));
    case FieldKind::ImmVal: {
      if (py::isinstance<py::dict>(v)) {
        py::dict d = py::reinterpret_borrow<py::dict>(v);
        check_keys(d, {"addr", "space", "partition", "offset"}, what);
        return static_cast<uint64_t>(address_of(d, what, false));
      }
      if (py::isinstance<py::float_>(v) || py::isinstance(v, numpy().attr("floating")))
        return static_cast<uint64_t>(fp32_bits_of(v, what));
      return static_cast<uint64_t>(to_u32(v, what));
    }
    default: {
      if (auto e = enum_of(f.kind)) return static_cast<uint64_t>(to_enum(v, *e, what));
      const int64_t max = f.size >= 8 ? INT64_MAX : (int64_t{1} << (8 * f.size)) - 1;
      return static_cast<uint64_t>(to_int(v, what, 0, max));
    }
  }
}

// Returns the instruction row named by a mnemonic (any case) or an opcode.
const InstrDef& to_instruction(py::handle h) {
  const InstrDef* d = nullptr;
  if (py::isinstance<py::str>(h))
    d = find_instruction(std::string_view(h.cast<std::string>()));
  else
    d = find_instruction(static_cast<uint8_t>(to_int(h, "instruction", 0, 255)));
  if (d == nullptr) {
    std::string known;
    for (const InstrDef& i : instructions())
      known += fmt::format("{}{} ({:#04x})", known.empty() ? "" : ", ", i.mnemonic,
                           static_cast<unsigned>(i.opcode));
    throw py::value_error(fmt::format("instruction {}: not one of {}", show(h), known));
  }
  return *d;
}

// Returns {"instruction": mnemonic, field: value, ...}; raises for an unknown opcode.
py::dict decode_word(const py::bytes& b) {
  const Word w = word_from_bytes(b);
  auto d = decode(w);
  if (!d) {
    throw py::value_error(fmt::format("has_known_opcode: opcode {:#04x} is not one of {}", w[0],
                                      known_opcodes_text()));
  }
  py::dict out;
  out["instruction"] = std::string(d->def->mnemonic);
  for (std::size_t i = 0; i < d->values.size(); ++i)
    out[py::str(std::string(d->def->fields[i].name))] =
        field_object(d->def->fields[i], d->values[i]);
  return out;
}

// Returns the word of an instruction from named fields; the others keep their defaults.
py::bytes encode_word(py::handle instruction, const py::dict& fields) {
  const InstrDef& def = to_instruction(instruction);
  Decoded d = default_fields(def);
  for (auto item : fields) {
    const std::string name = py::str(item.first);
    std::size_t i = 0;
    while (i < def.fields.size() && def.fields[i].name != name) ++i;
    if (i == def.fields.size()) {
      std::string list;
      for (const FieldDef& f : def.fields)
        list += fmt::format("{}{}", list.empty() ? "" : ", ", f.name);
      throw py::value_error(
          fmt::format("{} has no field '{}' (fields: {})", def.mnemonic, name, list));
    }
    d.values[i] = to_field_value(def.fields[i], item.second, def.mnemonic);
  }
  EncodeResult r = encode(d);
  if (r.error) throw py::value_error(*r.error);
  return bytes_from_word(r.word);
}

// Returns the instruction table as a list of dicts, field rows included.
py::list instruction_table() {
  py::list out;
  for (const InstrDef& i : instructions()) {
    py::dict d;
    d["mnemonic"] = std::string(i.mnemonic);
    d["opcode"] = static_cast<unsigned>(i.opcode);
    d["struct"] = std::string(i.struct_name);
    d["engine"] = std::string(engine_name(i.engine));
    py::list gens;
    for (Generation g : kAllGenerations)
      if (i.exists_on(g)) gens.append(std::string(generation_name(g)));
    d["generations"] = gens;
    py::list fields;
    for (const FieldDef& f : i.fields) {
      py::dict fd;
      fd["name"] = std::string(f.name);
      fd["offset"] = f.offset;
      fd["size"] = f.size;
      fd["kind"] = std::string(field_kind_name(f.kind));
      if (f.kind == FieldKind::Tensor || f.kind == FieldKind::Data4D) fd["dims"] = f.dims;
      if (f.kind == FieldKind::ImmVal) fd["src_field"] = std::string(f.src_field);
      fields.append(fd);
    }
    d["fields"] = fields;
    out.append(d);
  }
  return out;
}

// ---- machine ----------------------------------------------------------------------------

// Copies another machine's state (same generation) into this one's existing buffers, so
// that views of `dst` stay valid (Machine's own assignment replaces the buffers).
void copy_state(Machine& dst, const Machine& src) {
  for (Space s : kAllSpaces) {
    auto to = dst.space(s);
    auto from = src.space(s);
    std::memcpy(to.data(), from.data(), to.size());
  }
  dst.registers = src.registers;
  dst.semaphores = src.semaphores;
  dst.accumulators = src.accumulators;
  dst.match = src.match;
}

// copy_state for Python: raises when the generations differ.
void load_state(Machine& dst, const Machine& src) {
  if (dst.generation() != src.generation())
    throw py::value_error(fmt::format("load_state: machines of {} and {} differ in geometry",
                                      generation_name(dst.generation()),
                                      generation_name(src.generation())));
  copy_state(dst, src);
}

// Returns a writable 1-D view of an array member that keeps `owner` alive.
template <class T, std::size_t N>
py::array_t<T> array_view(std::array<T, N>& a, py::handle owner) {
  return py::array_t<T>({static_cast<py::ssize_t>(N)}, {static_cast<py::ssize_t>(sizeof(T))},
                        a.data(), owner);
}

// Returns a writable view of one member of every search lane (SPEC §2): [128, 8] for an
// array member, [128] for a scalar one; strided over the lanes, keeps `self` alive.
template <class T>
py::array_t<T> lane_view(py::object self, std::size_t member_offset, std::size_t slots) {
  Machine& m = self.cast<Machine&>();
  auto* base = reinterpret_cast<uint8_t*>(m.match.data()) + member_offset;
  const auto lane = static_cast<py::ssize_t>(sizeof(MatchLane));
  if (slots == 0)
    return py::array_t<T>({static_cast<py::ssize_t>(kPartitions)}, {lane},
                          reinterpret_cast<T*>(base), self);
  return py::array_t<T>({static_cast<py::ssize_t>(kPartitions), static_cast<py::ssize_t>(slots)},
                        {lane, static_cast<py::ssize_t>(sizeof(T))}, reinterpret_cast<T*>(base),
                        self);
}

// Returns a writable [128, partition bytes] uint8 view of a space that keeps `self` alive.
py::array_t<uint8_t> space_view(py::object self, Space s) {
  Machine& m = self.cast<Machine&>();
  const auto p = static_cast<py::ssize_t>(m.partition_bytes(s));
  return py::array_t<uint8_t>({static_cast<py::ssize_t>(kPartitions), p}, {p, py::ssize_t{1}},
                              m.space(s).data(), self);
}

// Returns the words of a program given as 64*k bytes.
std::vector<Word> words_from_program(const py::bytes& program) {
  const std::string_view data = program;
  if (data.size() % kWordBytes != 0)
    throw py::value_error(fmt::format("a program is a whole number of {}-byte words, got {} bytes",
                                      kWordBytes, data.size()));
  std::vector<Word> words(data.size() / kWordBytes);
  for (std::size_t i = 0; i < words.size(); ++i)
    std::memcpy(words[i].data(), data.data() + i * kWordBytes, kWordBytes);
  return words;
}

}  // namespace

namespace {

// One trace event, recorded while the words run (GIL released) and handed to Python after.
struct TraceEvent {
  enum class Kind : uint8_t { Retire, Memory, Accumulator, Semaphore, MatchLane };
  explicit TraceEvent(Kind k) : kind(k) {}
  Kind kind;
  std::size_t index = 0;  // the word's position in the program
  Word word{};            // Retire
  std::string_view mnemonic{};
  Space space = Space::SBUF;  // Memory
  unsigned unit = 0;          // Memory: partition; Accumulator, Semaphore, MatchLane: index
  uint32_t offset = 0;
  std::vector<uint8_t> bytes{};
  uint32_t before = 0, after = 0;  // Accumulator, Semaphore
  MatchLane lane_before{}, lane_after{};
};

class TraceRecorder : public TraceSink {
 public:
  std::vector<TraceEvent> events;

  void retire(const Word& w, const InstrDef& def) override {
    index_ = retired_++;
    TraceEvent e(TraceEvent::Kind::Retire);
    e.index = index_;
    e.word = w;
    e.mnemonic = def.mnemonic;
    events.push_back(std::move(e));
  }
  void memory(Space s, unsigned partition, uint32_t offset,
              std::span<const uint8_t> bytes) override {
    TraceEvent e(TraceEvent::Kind::Memory);
    e.index = index_;
    e.space = s;
    e.unit = partition;
    e.offset = offset;
    e.bytes.assign(bytes.begin(), bytes.end());
    events.push_back(std::move(e));
  }
  void accumulator(unsigned index, uint32_t before, uint32_t after) override {
    events.push_back(counter(TraceEvent::Kind::Accumulator, index, before, after));
  }
  void semaphore(unsigned index, uint32_t before, uint32_t after) override {
    events.push_back(counter(TraceEvent::Kind::Semaphore, index, before, after));
  }
  void match_lane(unsigned lane, const MatchLane& before, const MatchLane& after) override {
    TraceEvent e(TraceEvent::Kind::MatchLane);
    e.index = index_;
    e.unit = lane;
    e.lane_before = before;
    e.lane_after = after;
    events.push_back(std::move(e));
  }

 private:
  TraceEvent counter(TraceEvent::Kind k, unsigned unit, uint32_t before, uint32_t after) const {
    TraceEvent e(k);
    e.index = index_;
    e.unit = unit;
    e.before = before;
    e.after = after;
    return e;
  }
  std::size_t retired_ = 0;
  std::size_t index_ = 0;
};

py::dict lane_dict(const MatchLane& l) {
  py::dict d;
  d["match_values"] = py::array_t<uint32_t>(8, l.mv.data());
  d["matched"] = l.matched;
  d["match_indices"] = py::array_t<uint32_t>(8, l.idx.data());
  return d;
}

// Returns the Python form of a trace event (see run_words in bindings.h).
py::dict event_dict(const TraceEvent& e) {
  py::dict d;
  d["index"] = e.index;
  switch (e.kind) {
    case TraceEvent::Kind::Retire:
      d["kind"] = "retire";
      d["instruction"] = std::string(e.mnemonic);
      d["word"] = bytes_from_word(e.word);
      break;
    case TraceEvent::Kind::Memory: {
      d["kind"] = "memory";
      d["space"] = std::string(space_name(e.space));
      d["partition"] = e.unit;
      d["offset"] = e.offset;
      d["addr"] = encode_static_addr(Location{e.space, e.unit, e.offset});
      d["data"] = py::array_t<uint8_t>(static_cast<py::ssize_t>(e.bytes.size()), e.bytes.data());
      break;
    }
    case TraceEvent::Kind::Accumulator:
    case TraceEvent::Kind::Semaphore:
      d["kind"] = e.kind == TraceEvent::Kind::Accumulator ? "accumulator" : "semaphore";
      d[e.kind == TraceEvent::Kind::Accumulator ? "accumulator" : "semaphore"] = e.unit;
      d["before"] = e.before;
      d["after"] = e.after;
      break;
    case TraceEvent::Kind::MatchLane:
      d["kind"] = "match_lane";
      d["lane"] = e.unit;
      d["before"] = lane_dict(e.lane_before);
      d["after"] = lane_dict(e.lane_after);
      break;
  }
  return d;
}

}  // namespace

void DirtyRanges::mark(Space s, unsigned first, unsigned count, uint32_t lo, uint32_t hi) {
  if (lo >= hi) return;
  auto& space = ranges_[static_cast<std::size_t>(s)];
  for (unsigned p = first; p < first + count && p < kPartitions; ++p) {
    Range& r = space[p];
    if (r.hi == 0) {
      r = {lo, hi};
    } else {
      r.lo = std::min(r.lo, lo);
      r.hi = std::max(r.hi, hi);
    }
  }
}

void DirtyRanges::reset(Machine& m) {
  for (Space s : kAllSpaces) {
    auto& space = ranges_[static_cast<std::size_t>(s)];
    const uint32_t limit = m.partition_bytes(s);
    for (unsigned p = 0; p < kPartitions; ++p) {
      Range& r = space[p];
      if (r.hi == 0) continue;
      const uint32_t hi = std::min(r.hi, limit);
      if (r.lo < hi) std::memset(m.partition(s, p).data() + r.lo, 0, hi - r.lo);
      r = {};
    }
  }
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInfBits);
  m.match.fill(MatchLane{});
}

std::vector<std::tuple<Space, unsigned, uint32_t, uint32_t>> DirtyRanges::ranges() const {
  std::vector<std::tuple<Space, unsigned, uint32_t, uint32_t>> out;
  for (Space s : kAllSpaces)
    for (unsigned p = 0; p < kPartitions; ++p) {
      const Range& r = ranges_[static_cast<std::size_t>(s)][p];
      if (r.hi != 0) out.emplace_back(s, p, r.lo, r.hi);
    }
  return out;
}

namespace {

// Marks every memory write in a DirtyRanges and passes every event on to `inner`, when
// there is one (a recorder for Python's trace callable).
class DirtySink : public TraceSink {
 public:
  DirtySink(DirtyRanges& dirty, TraceSink* inner) : dirty_(dirty), inner_(inner) {}
  void retire(const Word& w, const InstrDef& def) override {
    if (inner_) inner_->retire(w, def);
  }
  void memory(Space s, unsigned partition, uint32_t offset,
              std::span<const uint8_t> bytes) override {
    dirty_.mark(s, partition, 1, offset, offset + static_cast<uint32_t>(bytes.size()));
    if (inner_) inner_->memory(s, partition, offset, bytes);
  }
  void accumulator(unsigned index, uint32_t before, uint32_t after) override {
    if (inner_) inner_->accumulator(index, before, after);
  }
  void semaphore(unsigned index, uint32_t before, uint32_t after) override {
    if (inner_) inner_->semaphore(index, before, after);
  }
  void match_lane(unsigned lane, const MatchLane& before, const MatchLane& after) override {
    if (inner_) inner_->match_lane(lane, before, after);
  }

 private:
  DirtyRanges& dirty_;
  TraceSink* inner_;
};

}  // namespace

std::optional<Engine> to_engine(const py::handle& h, std::string_view where) {
  if (h.is_none()) return std::nullopt;
  if (!py::isinstance<py::str>(h))
    throw py::type_error(fmt::format("{}: engine must be a string ({}) or None, got {}", where,
                                     kEngineNamesText, show(h)));
  if (auto e = parse_engine(h.cast<std::string>())) return e;
  throw py::value_error(fmt::format("{}: engine {} must be {}", where, show(h), kEngineNamesText));
}

py::tuple run_words(Machine& m, const std::vector<Word>& words, const ExecOptions& options,
                    bool atomic, const Prepare& prepare, const py::object& trace,
                    DirtyRanges* dirty, const std::vector<std::optional<Engine>>& engines) {
  ProgramResult r;
  std::optional<std::string> prepare_error;
  ExecOptions opts = options;
  TraceRecorder recorder;
  const bool tracing = !trace.is_none();
  if (tracing) {
    if (!PyCallable_Check(trace.ptr()))
      throw py::type_error(fmt::format(
          "Machine.run: trace must be a callable taking one event, got {}", show(trace)));
    opts.trace = &recorder;
  }
  std::optional<DirtySink> dirty_sink;
  if (dirty != nullptr) opts.trace = &dirty_sink.emplace(*dirty, opts.trace);
  std::optional<Journal> journal;
  {
    // Instructions touch only the machine's own memory, never Python objects.
    py::gil_scoped_release release;
    if (atomic && (words.size() > 1 || prepare || tracing)) opts.journal = &journal.emplace(m);
    if (prepare) prepare_error = prepare(m, opts.journal);
    if (!prepare_error) r = run_program(m, words, engines, opts);
    if ((prepare_error || !r.ok()) && journal) journal->undo(m);
  }
  if (tracing) {
    try {
      for (const TraceEvent& e : recorder.events) trace(event_dict(e));
    } catch (...) {
      if (journal) journal->undo(m);
      throw;
    }
  }
  py::object failed = py::none(), kind = py::none(), detail = py::none();
  if (r.failed) failed = py::int_(*r.failed);
  if (r.failure.fault) {
    kind = py::str(std::string(fault_name(r.failure.fault->kind)));
    detail = py::str(r.failure.fault->detail);
  }
  return py::make_tuple(r.retired, failed, std::string(status_name(r.failure.status)),
                        r.failure.diagnostics, kind, detail,
                        prepare_error ? py::object(py::str(*prepare_error)) : py::none());
}

namespace {

// ---- number formats ---------------------------------------------------------------------

// Returns the float dtype (one with a conversion, SPEC §5) named or numbered by h.
Dtype to_float_dtype(py::handle h) {
  std::optional<Dtype> d;
  if (py::isinstance<py::str>(h))
    d = parse_dtype(h.cast<std::string>());
  else
    d = static_cast<Dtype>(to_int(h, "dtype", 0, 255));
  if (d && (*d == Dtype::FP32 || *d == Dtype::FP32R || minifloat_format(*d) != nullptr)) return *d;
  throw py::value_error(
      fmt::format("dtype {}: must be FP32, FP32R, BF16, FP16, FP8_E3, FP8_E4 or FP8_E5", show(h)));
}

using U32Array = py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;

// Returns f applied to every element, in an array of in's shape (GIL released).
template <typename F>
py::array_t<uint32_t> map_bits(const U32Array& in, F f) {
  std::vector<py::ssize_t> shape(in.shape(), in.shape() + in.ndim());
  py::array_t<uint32_t> out(shape);
  const uint32_t* src = in.data();
  uint32_t* dst = out.mutable_data();
  const auto n = static_cast<std::size_t>(in.size());
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < n; ++i) dst[i] = f(src[i]);
  }
  return out;
}

// Returns widen_to_fp32 or narrow_from_fp32 applied to every element.
py::array_t<uint32_t> convert_bits(py::handle dtype, const U32Array& in, bool widen) {
  const Dtype dt = to_float_dtype(dtype);
  return map_bits(in, [dt, widen](uint32_t x) {
    return widen ? widen_to_fp32(dt, x) : narrow_from_fp32(dt, x);
  });
}

// Returns a data dtype (SPEC §5.1's thirteen: the six integers, the floats, FP32R) named
// by h.
Dtype to_data_dtype(py::handle h, const char* what) {
  std::optional<Dtype> d;
  if (py::isinstance<py::str>(h)) d = parse_dtype(h.cast<std::string>());
  if (d && (is_int_dtype(*d) || *d == Dtype::FP32 || *d == Dtype::FP32R ||
            minifloat_format(*d) != nullptr))
    return *d;
  throw py::value_error(
      fmt::format("{} dtype {}: must be one of INT8, UINT8, INT16, UINT16, INT32, "
                  "UINT32, BF16, FP16, FP8_E3, FP8_E4, FP8_E5, FP32, FP32R",
                  what, show(h)));
}

// Returns SPEC §5.1's cast (convert) of every element's bit pattern.
py::array_t<uint32_t> cast_bits(py::handle from, py::handle to, const U32Array& in) {
  const Dtype a = to_data_dtype(from, "source"), b = to_data_dtype(to, "destination");
  return map_bits(in, [a, b](uint32_t x) { return convert(x, a, b); });
}

}  // namespace
}  // namespace gpsimd::python

PYBIND11_MODULE(_core, m) {
  using namespace gpsimd;
  using namespace gpsimd::python;
  m.doc() = "gpsimd's C++ core; use the gpsimd package, which wraps it.";
  register_numpy_dtypes(m);

  py::class_<Diagnostic>(m, "Diagnostic",
                         "One failing validity clause: the instruction, the vendor's clause name, "
                         "the field, its value and what is allowed.")
      .def_readonly("instruction", &Diagnostic::instruction)
      .def_readonly("clause", &Diagnostic::clause)
      .def_readonly("field", &Diagnostic::field)
      .def_readonly("value", &Diagnostic::value)
      .def_readonly("allowed", &Diagnostic::allowed)
      .def_property_readonly("message", &Diagnostic::message, "The diagnostic as one line.")
      .def(
          "as_dict",
          [](const Diagnostic& d) {
            py::dict r;
            r["instruction"] = d.instruction;
            r["clause"] = d.clause;
            r["field"] = d.field;
            r["value"] = d.value;
            r["allowed"] = d.allowed;
            r["message"] = d.message();
            return r;
          },
          "The diagnostic as a dict.")
      .def("__str__", &Diagnostic::message)
      .def("__repr__",
           [](const Diagnostic& d) {
             return fmt::format("<Diagnostic {}: {}: {} = {}, {}>", d.instruction, d.clause,
                                d.field, d.value, d.allowed);
           })
      .def(py::self == py::self);

  py::class_<Machine>(m, "Machine", "The machine state; see gpsimd.Machine.")
      .def(py::init([](py::handle g) { return std::make_unique<Machine>(to_generation(g)); }),
           py::arg("generation") = "v3")
      .def_property_readonly(
          "generation",
          [](const Machine& mm) { return std::string(generation_name(mm.generation())); },
          "The NeuronCore generation: 'v2'..'v5'.")
      .def_property_readonly(
          "sbuf", [](py::object self) { return space_view(self, Space::SBUF); },
          "SBUF as a writable uint8 array [128, partition bytes] that shares the machine's memory.")
      .def_property_readonly(
          "psum", [](py::object self) { return space_view(self, Space::PSUM); },
          "PSUM as a writable uint8 array [128, 16384] that shares the machine's memory.")
      .def_property_readonly(
          "registers",
          [](py::object self) { return array_view(self.cast<Machine&>().registers, self); },
          "The 64 registers as a writable uint32 array that shares the machine's memory.")
      .def_property_readonly(
          "semaphores",
          [](py::object self) { return array_view(self.cast<Machine&>().semaphores, self); },
          "The 256 semaphores as a writable uint32 array that shares the machine's memory.")
      .def_property_readonly(
          "accumulators",
          [](py::object self) { return array_view(self.cast<Machine&>().accumulators, self); },
          "The 128 DVE accumulators as FP32 bit patterns: a writable uint32 array that shares "
          "the machine's memory.")
      .def_property_readonly(
          "match_values",
          [](py::object self) { return lane_view<uint32_t>(self, offsetof(MatchLane, mv), 8); },
          "The search lanes' match values mv[0..7] as FP32 bit patterns: a writable uint32 "
          "array [128, 8] that shares the machine's memory.")
      .def_property_readonly(
          "matched",
          [](py::object self) { return lane_view<uint8_t>(self, offsetof(MatchLane, matched), 0); },
          "The search lanes' matched flags (bit n = slot n): a writable uint8 array [128].")
      .def_property_readonly(
          "match_indices",
          [](py::object self) { return lane_view<uint32_t>(self, offsetof(MatchLane, idx), 8); },
          "The search lanes' indices idx[0..7] (0xFFFFFFFF: none found): a writable uint32 "
          "array [128, 8].")
      .def(
          "partition_bytes",
          [](const Machine& mm, const std::string& s) { return mm.partition_bytes(to_space(s)); },
          py::arg("space") = "sbuf", "Bytes per partition of 'sbuf' or 'psum'.")
      .def("reset", &Machine::reset,
           "Back to a fresh machine: memory, registers, semaphores zero, accumulators -inf, "
           "search lanes fresh.")
      .def("load_state", &load_state, py::arg("other"),
           "Copy another machine's state (same generation) into this one; views stay valid.")
      .def("state_hash", &Machine::hash, "A 64-bit hash of the whole state.")
      .def("__eq__",
           [](const Machine& a, py::handle b) -> py::object {
             if (!py::isinstance<Machine>(b))
               return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             return py::bool_(a == b.cast<const Machine&>());
           })
      .def(
          "_run",
          [](Machine& mm, const py::bytes& program, bool strict, bool atomic, bool fast,
             const py::object& trace, DirtyRanges* dirty, const py::object& engine) {
            return run_words(mm, words_from_program(program),
                             ExecOptions{strict, nullptr, fast, to_engine(engine, "Machine.run")},
                             atomic, {}, trace, dirty);
          },
          py::arg("program"), py::arg("strict") = false, py::arg("atomic") = true,
          py::arg("fast") = true, py::arg("trace") = py::none(), py::arg("dirty") = py::none(),
          py::arg("engine") = py::none());

  py::class_<DirtyRanges>(
      m, "DirtyRanges",
      "The bytes of a scratch machine's memory that may differ from zero: one range per "
      "partition and space, marked by Machine._run(dirty=...) for instruction writes and by "
      "mark() for writes made from Python. reset(machine) makes the machine fresh again "
      "by zeroing only those ranges.")
      .def(py::init<>())
      .def(
          "mark",
          [](DirtyRanges& d, const std::string& space, py::handle first, py::handle count,
             py::handle lo, py::handle hi) {
            const auto p = static_cast<unsigned>(to_int(first, "mark: first", 0, kPartitions - 1));
            const auto n = static_cast<unsigned>(to_int(count, "mark: count", 0, kPartitions - p));
            const auto l = to_u32(lo, "mark: lo");
            const auto h = to_u32(hi, "mark: hi");
            d.mark(to_space(space), p, n, l, h);
          },
          py::arg("space"), py::arg("first"), py::arg("count"), py::arg("lo"), py::arg("hi"),
          "Marks bytes [lo, hi) of partitions [first, first + count) of 'sbuf' or 'psum'.")
      .def("reset", &DirtyRanges::reset, py::arg("machine"),
           "Zeroes the marked ranges of the machine, resets its registers, semaphores, "
           "accumulators (-inf) and search lanes, and forgets the marks.")
      .def(
          "ranges",
          [](const DirtyRanges& d) {
            py::list out;
            for (auto [s, p, lo, hi] : d.ranges())
              out.append(py::make_tuple(std::string(space_name(s)), p, lo, hi));
            return out;
          },
          "The marked ranges as (space, partition, lo, hi) tuples.");

  m.def(
      "validate",
      [](const py::bytes& w, py::handle g, bool strict, const py::object& engine) {
        return validate(word_from_bytes(w), to_generation(g),
                        ValidateOptions{strict, to_engine(engine, "validate")});
      },
      py::arg("word"), py::arg("generation"), py::arg("strict") = false,
      py::arg("engine") = py::none());
  m.def("decode", &decode_word, py::arg("word"));
  m.def(
      "order_rule",
      [](const py::bytes& w) -> py::object {
        const auto r = gpsimd::order_rule(word_from_bytes(w));
        if (!r) return py::none();
        return py::str(std::string(model::order_rule(*r).name));
      },
      py::arg("word"));
  m.def(
      "alu_ops",
      [] {
        // The ALU_OP table (SPEC §3.8), one dict per row, with the vendor's predicates
        // as evaluated by alu.h: the Python calls read their op sets from here.
        py::list rows;
        for (const alu::OpRow& r : alu::kOps) {
          py::dict d;
          d["name"] = std::string(r.name);
          d["code"] = r.code;
          d["first_generation"] = r.first_generation;
          d["is_bitvec_op"] = alu::is_bitvec_op(r.code);
          d["is_general_bitvec_op"] = alu::is_general_bitvec_op(r.code);
          d["is_arith_op"] = alu::is_arith_op(r.code);
          d["is_general_arith_op"] = alu::is_general_arith_op(r.code);
          d["is_valid_int_aluop"] = alu::is_valid_int_aluop(r.code);
          d["is_signed_alu_op"] = alu::is_signed_alu_op(r.code);
          d["is_unsigned_alu_op"] = alu::is_unsigned_alu_op(r.code);
          d["is_valid_int_aluop_dve"] = alu::is_valid_int_aluop_dve(r.code);
          d["is_shift_op"] = alu::is_shift_op(r.code);
          d["unary"] = alu::is_unary(r.code);
          d["unmodelled"] = alu::is_unmodelled(r.code);
          rows.append(d);
        }
        return rows;
      },
      "The ALU_OP table (SPEC §3.8): name, code, first_generation and the op-class "
      "predicates of each op.");
  m.def(
      "parse_engine",
      [](const std::string& s) -> py::object {
        if (auto e = parse_engine(s)) return py::str(std::string(engine_id(*e)));
        return py::none();
      },
      py::arg("name"),
      "'dve', 'pool' or 'act' for an engine name parse_engine accepts (any case, or NKI's "
      "'vector', 'gpsimd', 'scalar'); None otherwise.");
  m.attr("ENGINE_NAMES") = std::string(kEngineNamesText);
  {
    py::list ids;
    for (const EngineDef& e : kEngines) ids.append(py::str(std::string(e.id)));
    m.attr("ENGINES") = py::tuple(ids);  // the engines' ids, in kEngines' order
  }
  m.def("encode", &encode_word, py::arg("instruction"), py::arg("fields"));
  m.def("instructions", &instruction_table);
  m.def(
      "widen_to_fp32",
      [](py::handle dt, const U32Array& bits) { return convert_bits(dt, bits, true); },
      py::arg("dtype"), py::arg("bits"));
  m.def(
      "narrow_from_fp32",
      [](py::handle dt, const U32Array& bits) { return convert_bits(dt, bits, false); },
      py::arg("dtype"), py::arg("fp32_bits"));
  m.def("cast_bits", &cast_bits, py::arg("from_dtype"), py::arg("to_dtype"), py::arg("bits"));
  m.def(
      "dtype_code",
      [](const std::string& s) -> py::object {
        if (auto d = parse_dtype(s)) return py::int_(static_cast<unsigned>(*d));
        return py::none();
      },
      py::arg("name"));
  m.def(
      "dtype_name",
      [](unsigned code) -> py::object {
        if (code <= 255)
          if (auto n = dtype_name(static_cast<uint8_t>(code))) return py::str(std::string(*n));
        return py::none();
      },
      py::arg("code"));
  m.def(
      "dtype_size",
      [](unsigned code) -> py::object {
        if (code <= 255)
          if (auto n = dtype_size(static_cast<uint8_t>(code))) return py::int_(*n);
        return py::none();
      },
      py::arg("code"));
  m.def(
      "sbuf_partition_bytes", [](py::handle g) { return sbuf_partition_bytes(to_generation(g)); },
      py::arg("generation"));
  m.def(
      "address",
      [](const std::string& space, py::handle partition, py::handle offset) {
        py::dict d;
        d["space"] = space;
        d["partition"] = partition;
        d["offset"] = offset;
        return address_of(d, "address", false);
      },
      py::arg("space"), py::arg("partition"), py::arg("offset"));
  m.def(
      "describe_address", [](py::handle addr) { return location_dict(to_u32(addr, "addr")); },
      py::arg("addr"));
  m.attr("__version__") = GPSIMD_VERSION;
  m.attr("PARTITIONS") = kPartitions;
  m.attr("PSUM_PARTITION_BYTES") = kPsumPartitionBytes;
  m.attr("REGISTERS") = kRegisters;
  m.attr("SEMAPHORES") = kSemaphores;
  bind_asm(m);
}
