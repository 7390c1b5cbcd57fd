// Generic encode / decode / field access over the instruction table (include/gpsimd/isa.h).
#include "gpsimd/isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <functional>

#include "common/check.h"
#include "common/names.h"

namespace gpsimd {

std::string_view engine_name(Engine e) {
  return name_of(kEngines, e, &EngineDef::engine);
}

std::string_view engine_id(Engine e) {
  return name_of(kEngines, e, &EngineDef::engine, &EngineDef::id);
}

std::optional<Engine> parse_engine_id(std::string_view s) {
  return parse_name(kEngines, s, &EngineDef::engine, &EngineDef::id);
}

std::optional<Engine> parse_engine(std::string_view s) {
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (auto e = parse_engine_id(lower)) return e;
  for (const EngineDef& d : kEngines)
    if (lower == d.nki_name || (!d.nki_alias.empty() && lower == d.nki_alias)) return d.engine;
  return std::nullopt;
}

std::string_view field_kind_name(FieldKind k) {
  static constexpr Named<FieldKind> kNames[] = {
      {FieldKind::Header, "header"},
      {FieldKind::Events, "events"},
      {FieldKind::U8, "u8"},
      {FieldKind::U32, "u32"},
      {FieldKind::Dtype, "dtype"},
      {FieldKind::DtypePair, "dtype_pair"},
      {FieldKind::AluOp, "alu_op"},
      {FieldKind::AccumCmd, "accum_cmd"},
      {FieldKind::ImmSrc, "imm_src"},
      {FieldKind::Fp32, "fp32"},
      {FieldKind::ImmVal, "imm_val"},
      {FieldKind::Tensor, "tensor"},
      {FieldKind::Reserved, "reserved"},
      {FieldKind::I32, "i32"},
      {FieldKind::AffineCmp, "affine_select_cmp"},
      {FieldKind::RevOps, "tens_scalar_rev_ops"},
      {FieldKind::Data4D, "data4d"},
  };
  return name_of(kNames, k);
}

std::string known_opcodes_text() {
  std::vector<const InstrDef*> rows;
  for (const InstrDef& d : instructions()) rows.push_back(&d);
  std::sort(rows.begin(), rows.end(),
            [](const InstrDef* a, const InstrDef* b) { return a->opcode < b->opcode; });
  std::string out;
  for (const InstrDef* d : rows)
    out += fmt::format("{}{:#04x} ({})", out.empty() ? "" : ", ", static_cast<unsigned>(d->opcode),
                       d->mnemonic);
  return out;
}

const InstrDef* find_instruction(std::string_view mnemonic) {
  for (const InstrDef& d : instructions())
    if (iequals(d.mnemonic, mnemonic)) return &d;
  return nullptr;
}

void store_events(Word& w, const Events& e, unsigned off) {
  w[off] = e.wait_mode;
  w[off + 1] = e.wait_idx;
  w[off + 2] = e.update_mode;
  w[off + 3] = e.update_idx;
  store_u32(w, off + 4, e.value);
}

void store_tensor(Word& w, unsigned off, const TensorDesc& t) {
  store_u32(w, off, t.addr);
  for (unsigned d = 0; d < t.dims; ++d) {
    store_u16(w, off + 4 + 2 * d, static_cast<uint16_t>(t.step[d]));
    store_u16(w, off + 4 + 2u * t.dims + 2 * d, t.num[d]);
  }
}

std::optional<std::string> write_field(Word& w, const FieldDef& f, const FieldValue& v) {
  switch (f.kind) {
    case FieldKind::Events:
      if (!std::holds_alternative<Events>(v)) return fmt::format("{}: expected events", f.name);
      store_events(w, std::get<Events>(v), f.offset);
      return std::nullopt;
    case FieldKind::Tensor:
    case FieldKind::Data4D: {
      if (!std::holds_alternative<TensorDesc>(v))
        return fmt::format("{}: expected a {} descriptor", f.name,
                           f.kind == FieldKind::Tensor ? "tensor" : "DATA4D");
      TensorDesc t = std::get<TensorDesc>(v);
      if (t.dims != f.dims)
        return fmt::format("{}: expected a {}-D tensor, got {}-D", f.name, f.dims, t.dims);
      store_tensor(w, f.offset, t);
      return std::nullopt;
    }
    case FieldKind::Reserved: {
      if (!std::holds_alternative<ReservedBytes>(v))
        return fmt::format("{}: expected {} reserved bytes", f.name, f.size);
      const auto& bytes = std::get<ReservedBytes>(v);
      if (bytes.size() != f.size)
        return fmt::format("{}: expected {} reserved bytes, got {}", f.name, f.size, bytes.size());
      std::copy(bytes.begin(), bytes.end(), w.begin() + f.offset);
      return std::nullopt;
    }
    default: {
      if (!std::holds_alternative<uint64_t>(v))
        return fmt::format("{}: expected an integer", f.name);
      uint64_t x = std::get<uint64_t>(v);
      if (f.size < 8 && (x >> (8 * f.size)) != 0)
        return fmt::format("{}: value {:#x} does not fit in {} byte(s)", f.name, x, f.size);
      for (unsigned i = 0; i < f.size; ++i) w[f.offset + i] = static_cast<uint8_t>(x >> (8 * i));
      return std::nullopt;
    }
  }
}

const FieldValue& Decoded::get(std::string_view name) const {
  GPSIMD_CHECK(def != nullptr && values.size() == def->fields.size());
  for (std::size_t i = 0; i < def->fields.size(); ++i)
    if (def->fields[i].name == name) return values[i];
  std::fprintf(stderr, "gpsimd: %.*s has no field %.*s\n", static_cast<int>(def->mnemonic.size()),
               def->mnemonic.data(), static_cast<int>(name.size()), name.data());
  std::abort();
}

FieldValue& Decoded::get(std::string_view name) {
  return const_cast<FieldValue&>(static_cast<const Decoded*>(this)->get(name));
}

// Fields are little-endian, and so are the hosts gpsimd builds for (decode reads them
// with plain loads).
static_assert(std::endian::native == std::endian::little);

namespace {

// The word padded so that every field read has a fixed size.
using PaddedWord = std::array<uint8_t, kWordBytes + ReservedBytes::capacity()>;
PaddedWord padded(const Word& w) {
  PaddedWord p{};
  std::memcpy(p.data(), w.data(), w.size());
  return p;
}

// A tensor descriptor read member by member into its slot (decode() is a hot path:
// copying a descriptor just built from 16-bit stores would stall on store forwarding).
inline void read_tensor_into(TensorDesc& t, const Word& w, const FieldDef& f) {
  t.addr = load_u32(w, f.offset);
  t.dims = f.dims;
  for (unsigned k = 0; k < f.dims; ++k) {
    t.step[k] = static_cast<int16_t>(load_u16(w, f.offset + 4 + 2 * k));
    t.num[k] = load_u16(w, f.offset + 4 + 2 * f.dims + 2 * k);
  }
}

// Reads one field into its slot, member by member (see read_tensor_into).
void read_into(FieldValue& v, const Word& w, const PaddedWord& p, const FieldDef& f) {
  const uint8_t* at = p.data() + f.offset;
  switch (f.kind) {
    case FieldKind::Events:
      v.emplace<Events>(load_events(w, f.offset));
      return;
    case FieldKind::Tensor:
    case FieldKind::Data4D:
      read_tensor_into(v.emplace<TensorDesc>(), w, f);
      return;
    case FieldKind::Reserved:
      v.emplace<ReservedBytes>().assign_padded(at, f.size);
      return;
    default: {
      uint64_t x = 0;
      std::memcpy(&x, at, sizeof x);
      v.emplace<uint64_t>(f.size >= 8 ? x : x & ((uint64_t{1} << (8 * f.size)) - 1));
      return;
    }
  }
}

// read_into() for field J of table row I, known at compile time: kind, offset and size
// are constants, so each field is a few fixed loads and stores with no dispatch.
template <std::size_t I, std::size_t J>
inline void read_fixed(FieldValue& v, const Word& w, const PaddedWord& p) {
  constexpr FieldDef f = table::kInstructions[I].fields[J];
  if constexpr (f.kind == FieldKind::Events) {
    v.emplace<Events>(load_events(w, f.offset));
  } else if constexpr (f.kind == FieldKind::Tensor || f.kind == FieldKind::Data4D) {
    read_tensor_into(v.emplace<TensorDesc>(), w, f);
  } else if constexpr (f.kind == FieldKind::Reserved) {
    v.emplace<ReservedBytes>().assign_padded(p.data() + f.offset, f.size);
  } else {
    uint64_t x = 0;
    std::memcpy(&x, p.data() + f.offset, sizeof x);
    if constexpr (f.size < 8) x &= (uint64_t{1} << (8 * f.size)) - 1;
    v.emplace<uint64_t>(x);
  }
}

// Every field of table row I, unrolled.
template <std::size_t I>
void read_row(Decoded& d, const Word& w, const PaddedWord& p) {
  constexpr std::size_t kFields = table::kInstructions[I].fields.size();
  [&]<std::size_t... J>(std::index_sequence<J...>) {
    (read_fixed<I, J>(d.values.emplace_back(), w, p), ...);
  }
  (std::make_index_sequence<kFields>{});
}

// One unrolled reader per table row, in table order.
using RowReader = void (*)(Decoded&, const Word&, const PaddedWord&);
constexpr auto kRowReaders = []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<RowReader, sizeof...(I)>{&read_row<I>...};
}
(std::make_index_sequence<table::kInstructions.size()>{});

}  // namespace

FieldValue read_field(const Word& w, const FieldDef& f) {
  FieldValue v;
  read_into(v, w, padded(w), f);
  return v;
}

Decoded::Decoded(const InstrDef& d, const Word& w) noexcept : def(&d) {
  const PaddedWord p = padded(w);
  // The table's rows are known at compile time; their decoders are unrolled. A row built
  // elsewhere (tests) takes the generic loop, which reads the same way.
  // (std::less orders any two pointers; the built-in < only those into one array.)
  const InstrDef* first = table::kInstructions.data();
  const InstrDef* end = first + table::kInstructions.size();
  if (!std::less<const InstrDef*>{}(&d, first) && std::less<const InstrDef*>{}(&d, end)) {
    kRowReaders[static_cast<std::size_t>(&d - first)](*this, w, p);
  } else {
    for (const FieldDef& f : d.fields) read_into(values.emplace_back(), w, p, f);
  }
}

std::optional<Decoded> decode(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  if (def == nullptr) return std::nullopt;
  return std::optional<Decoded>(std::in_place, *def, w);  // built in place: no copy
}

EncodeResult encode(const Decoded& d) {
  EncodeResult r;
  GPSIMD_CHECK(d.def != nullptr);
  if (d.values.size() != d.def->fields.size()) {
    r.error = fmt::format("{}: expected {} field values, got {}", d.def->mnemonic,
                          d.def->fields.size(), d.values.size());
    return r;
  }
  for (std::size_t i = 0; i < d.values.size(); ++i) {
    if (auto e = write_field(r.word, d.def->fields[i], d.values[i])) {
      r.error = fmt::format("{}: {}", d.def->mnemonic, *e);
      return r;
    }
  }
  if (r.word[0] != static_cast<uint8_t>(d.def->opcode)) {
    r.error = fmt::format("{}: header byte 0 is {:#04x}, must be the opcode {:#04x}",
                          d.def->mnemonic, r.word[0], static_cast<unsigned>(d.def->opcode));
  }
  return r;
}

Decoded default_fields(const InstrDef& def) {
  Word w{};
  store_u32(w, 0, default_header(def.opcode));
  return *decode(w);
}

std::optional<Word> word_from_hex(std::string_view hex, std::string* error) {
  Word w{};
  std::size_t n = 0;
  int hi = -1;
  for (char c : hex) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else {
      // A control byte or a byte >= 0x80 is written \xNN, as printable() writes it.
      const auto u = static_cast<unsigned char>(c);
      if (error)
        *error = u >= 0x20 && u < 0x7f ? fmt::format("'{}' is not a hex digit", c)
                                       : fmt::format("'\\x{:02x}' is not a hex digit", u);
      return std::nullopt;
    }
    if (hi < 0) {
      hi = v;
    } else {
      if (n >= kWordBytes) {
        if (error) *error = "more than 128 hex digits (a word is 64 bytes)";
        return std::nullopt;
      }
      w[n++] = static_cast<uint8_t>(hi << 4 | v);
      hi = -1;
    }
  }
  if (n != kWordBytes || hi >= 0) {
    if (error)
      *error = fmt::format("{} hex digits, a word needs exactly 128", 2 * n + (hi >= 0 ? 1 : 0));
    return std::nullopt;
  }
  return w;
}

std::string word_to_hex(const Word& w) {
  std::string s;
  s.reserve(2 * kWordBytes);
  for (uint8_t b : w) s += fmt::format("{:02x}", b);
  return s;
}

}  // namespace gpsimd
