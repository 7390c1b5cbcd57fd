// Tests of the generic codec over the instruction table: decode/encode, field access,
// the events and tensor layouts of SPEC §3.2 and §3.5, and the hex form of a word.
// Expected bytes are written out by hand from SPEC's little-endian layouts.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "gpsimd/isa.h"
#include "test_words.h"

namespace gpsimd {
namespace {

// Returns the little-endian integer of `size` bytes at `off`, read independently of the
// codec.
uint64_t le_at(const Word& w, unsigned off, unsigned size) {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i) v |= uint64_t{w[off + i]} << (8 * i);
  return v;
}

Word random_word(std::mt19937_64& rng, uint8_t opcode) {
  Word w;
  for (auto& b : w) b = static_cast<uint8_t>(rng());
  w[0] = opcode;
  return w;
}

class CodecRow : public ::testing::TestWithParam<Opcode> {};

// SPEC §3: every byte belongs to a field, so any word of a known opcode decodes, and
// encoding the decoded fields gives back the same 64 bytes.
TEST_P(CodecRow, RandomWordsRoundTripBitForBit) {
  std::mt19937_64 rng(0x5eed0000u + static_cast<unsigned>(GetParam()));
  const InstrDef& def = instruction(GetParam());
  for (int i = 0; i < 3000; ++i) {
    const Word w = random_word(rng, static_cast<uint8_t>(GetParam()));
    const std::optional<Decoded> d = decode(w);
    ASSERT_TRUE(d.has_value());
    ASSERT_EQ(d->def, &def);
    ASSERT_EQ(d->values.size(), def.fields.size());
    const EncodeResult r = encode(*d);
    ASSERT_FALSE(r.error) << *r.error;
    ASSERT_EQ(r.word, w) << word_to_hex(w) << "\n" << word_to_hex(r.word);
  }
}

// Decoded values equal the bytes at each field's place: integers little-endian, events
// as SPEC §3.2, tensors as SPEC §3.5, reserved fields as raw bytes.
TEST_P(CodecRow, DecodedValuesAreTheBytesOfEachField) {
  std::mt19937_64 rng(0xdec0de00u + static_cast<unsigned>(GetParam()));
  const InstrDef& def = instruction(GetParam());
  for (int i = 0; i < 200; ++i) {
    const Word w = random_word(rng, static_cast<uint8_t>(GetParam()));
    const Decoded d = *decode(w);
    for (std::size_t k = 0; k < def.fields.size(); ++k) {
      const FieldDef& f = def.fields[k];
      const FieldValue& v = d.values[k];
      SCOPED_TRACE(std::string(f.name));
      EXPECT_EQ(&d.get(f.name), &v);
      switch (f.kind) {
        case FieldKind::Events: {
          const Events& e = std::get<Events>(v);
          EXPECT_EQ(e.wait_mode, w[f.offset]);
          EXPECT_EQ(e.wait_idx, w[f.offset + 1]);
          EXPECT_EQ(e.update_mode, w[f.offset + 2]);
          EXPECT_EQ(e.update_idx, w[f.offset + 3]);
          EXPECT_EQ(e.value, le_at(w, f.offset + 4, 4));
          break;
        }
        case FieldKind::Tensor:
        case FieldKind::Data4D: {  // a DATA4D holds its int32 base where a tensor has ADDR4
          const TensorDesc& t = std::get<TensorDesc>(v);
          EXPECT_EQ(t.dims, f.dims);
          EXPECT_EQ(t.addr, le_at(w, f.offset, 4));
          for (unsigned dim = 0; dim < f.dims; ++dim) {
            const auto step = static_cast<int16_t>(le_at(w, f.offset + 4 + 2 * dim, 2));
            EXPECT_EQ(t.step[dim], step);
            EXPECT_EQ(t.num[dim], le_at(w, f.offset + 4 + 2 * f.dims + 2 * dim, 2));
          }
          break;
        }
        case FieldKind::Reserved: {
          const auto& bytes = std::get<ReservedBytes>(v);
          EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()),
                    std::vector<uint8_t>(w.begin() + f.offset, w.begin() + f.offset + f.size));
          break;
        }
        default:
          EXPECT_EQ(std::get<uint64_t>(v), le_at(w, f.offset, f.size));
          EXPECT_EQ(d.integer(f.name), le_at(w, f.offset, f.size));
      }
    }
  }
}

// decode() reads the table's rows with decoders unrolled at compile time; a row that is
// not one of them (here a copy of the table's) takes the generic loop. Both agree.
TEST_P(CodecRow, UnrolledDecoderMatchesTheGenericOne) {
  const InstrDef& def = instruction(GetParam());
  const std::vector<FieldDef> copy(def.fields.begin(), def.fields.end());
  InstrDef other = def;
  other.fields = copy;
  std::mt19937_64 rng(91);
  for (int i = 0; i < 200; ++i) {
    const Word w = random_word(rng, static_cast<uint8_t>(GetParam()));
    const Decoded fast(def, w), generic(other, w);
    ASSERT_EQ(fast.values.size(), def.fields.size());
    ASSERT_TRUE(fast.values == generic.values) << "word " << i;
  }
}

// Changing one decoded field and encoding changes that field's bytes and no others.
TEST_P(CodecRow, EncodingOneChangedFieldTouchesOnlyItsBytes) {
  const InstrDef& def = instruction(GetParam());
  std::mt19937_64 rng(77);
  const Word w = random_word(rng, static_cast<uint8_t>(GetParam()));
  for (const FieldDef& f : def.fields) {
    if (f.kind == FieldKind::Header) continue;  // byte 0 must stay the opcode
    SCOPED_TRACE(std::string(f.name));
    Decoded d = *decode(w);
    FieldValue& v = d.get(f.name);
    if (auto* x = std::get_if<uint64_t>(&v)) *x ^= 1;
    if (auto* e = std::get_if<Events>(&v)) e->value ^= 1;
    if (auto* t = std::get_if<TensorDesc>(&v)) t->addr ^= 1;
    if (auto* r = std::get_if<ReservedBytes>(&v)) (*r)[0] ^= 1;
    const EncodeResult r = encode(d);
    ASSERT_FALSE(r.error);
    // The first byte of every field kind holds the low bit that changed.
    const unsigned changed = f.kind == FieldKind::Events ? f.offset + 4u : f.offset;
    for (unsigned b = 0; b < kWordBytes; ++b)
      EXPECT_EQ(r.word[b], b == changed ? w[b] ^ 1 : w[b]) << "byte " << b;
  }
}

// Every row of the instruction table.
std::vector<Opcode> table_opcodes() {
  std::vector<Opcode> out;
  for (const InstrDef& d : instructions()) out.push_back(d.opcode);
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, CodecRow, ::testing::ValuesIn(table_opcodes()),
                         [](const auto& p) { return std::string(instruction(p.param).mnemonic); });

TEST(Codec, DecodeOfUnknownOpcodeIsNullopt) {
  Word w{};
  w[0] = 0x97;
  w[1] = 0x10;
  EXPECT_FALSE(decode(w).has_value());
}

TEST(Codec, EncodeRejectsAHeaderWithoutTheOpcode) {
  Decoded d = default_fields(instruction(Opcode::Sort));
  d.get("header") = uint64_t{0x1097};  // SortMerge's opcode in a Sort row
  const EncodeResult r = encode(d);
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("Sort"), std::string::npos) << *r.error;
  EXPECT_NE(r.error->find("0x97"), std::string::npos) << *r.error;
}

TEST(Codec, EncodeRejectsAWrongNumberOfValues) {
  Decoded d = default_fields(instruction(Opcode::RangeSelect));
  d.values.pop_back();
  const EncodeResult r = encode(d);
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("RangeSelect"), std::string::npos) << *r.error;
}

TEST(Codec, EncodeReportsTheFieldThatDoesNotFit) {
  Decoded d = default_fields(instruction(Opcode::TensorScalarSelect));
  d.get("reversed_pred") = uint64_t{0x100};
  const EncodeResult r = encode(d);
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("TensorScalarSelect"), std::string::npos) << *r.error;
  EXPECT_NE(r.error->find("reversed_pred"), std::string::npos) << *r.error;
}

// ---- write_field ----------------------------------------------------------------------

const FieldDef& sort_field(std::string_view name) {
  return *find_field(instruction(Opcode::Sort).fields, name);
}

// A rejected write leaves the word as it was, and the error names the field.
void expect_rejected(const FieldDef& f, const FieldValue& v) {
  Word w;
  w.fill(0x5a);
  const Word before = w;
  const std::optional<std::string> e = write_field(w, f, v);
  ASSERT_TRUE(e.has_value()) << f.name;
  EXPECT_NE(e->find(f.name), std::string::npos) << *e;
  EXPECT_EQ(w, before) << f.name;
}

TEST(WriteField, RejectsIntegersWiderThanTheField) {
  expect_rejected(sort_field("stable"), uint64_t{0x100});
  expect_rejected(sort_field("num_active_channels"), uint64_t{256});
  expect_rejected(sort_field("in_out_dtype"), uint64_t{0x1aa});
  expect_rejected(sort_field("index_offset"), uint64_t{0x100000000});
  expect_rejected(sort_field("header"), uint64_t{1} << 63);
  const auto& rs = instruction(Opcode::RangeSelect).fields;
  expect_rejected(*find_field(rs, "base"), uint64_t{0x1ffffffff});
}

TEST(WriteField, RejectsTheWrongKindOfValue) {
  expect_rejected(sort_field("stable"), Events{});
  expect_rejected(sort_field("stable"), test_words::tensor(0, {1}, {1}));
  expect_rejected(sort_field("events"), uint64_t{0});
  expect_rejected(sort_field("src_mem_pattern"), uint64_t{0});
  expect_rejected(sort_field("reserved1"), uint64_t{0});
  expect_rejected(sort_field("reserved1"), Events{});
}

TEST(WriteField, RejectsATensorOfOtherDimensions) {
  expect_rejected(sort_field("src_mem_pattern"), test_words::tensor(0, {1, 1}, {1, 1}));
  expect_rejected(sort_field("dst_mem_pattern"), test_words::tensor(0, {1}, {1}));
  expect_rejected(sort_field("dst_mem_pattern"), test_words::tensor(0, {1, 1, 1}, {1, 1, 1}));
}

TEST(WriteField, RejectsReservedBytesOfTheWrongLength) {
  expect_rejected(sort_field("reserved1"), ReservedBytes(22));
  expect_rejected(sort_field("reserved1"), ReservedBytes(24));
  expect_rejected(sort_field("reserved1"), ReservedBytes{});
}

TEST(WriteField, WritesValuesThatFitLittleEndian) {
  Word w{};
  ASSERT_FALSE(write_field(w, sort_field("stable"), uint64_t{0xff}));
  EXPECT_EQ(w[40], 0xff);
  ASSERT_FALSE(write_field(w, sort_field("index_offset"), uint64_t{0xdeadbeef}));
  EXPECT_EQ(w[36], 0xef);
  EXPECT_EQ(w[37], 0xbe);
  EXPECT_EQ(w[38], 0xad);
  EXPECT_EQ(w[39], 0xde);
  ReservedBytes res(23);
  for (unsigned i = 0; i < 23; ++i) res[i] = static_cast<uint8_t>(i + 1);
  ASSERT_FALSE(write_field(w, sort_field("reserved1"), res));
  for (unsigned i = 0; i < 23; ++i) EXPECT_EQ(w[41 + i], i + 1);
  // Neighbours untouched.
  EXPECT_EQ(w[35], 0);
  EXPECT_EQ(w[40], 0xff);
  EXPECT_EQ(std::get<uint64_t>(read_field(w, sort_field("index_offset"))), 0xdeadbeefu);
}

// ---- events and tensors (SPEC §3.2, §3.5) ----------------------------------------------

TEST(EventsLayout, StoreWritesBytes4To11) {
  Word w{};
  store_events(w, Events{1, 0x22, 3, 0x44, 0xdeadbeef});
  const std::vector<uint8_t> want = {1, 0x22, 3, 0x44, 0xef, 0xbe, 0xad, 0xde};
  for (unsigned i = 0; i < kWordBytes; ++i)
    EXPECT_EQ(w[i], (i >= 4 && i < 12) ? want[i - 4] : 0) << "byte " << i;
}

TEST(EventsLayout, LoadReadsBytes4To11) {
  Word w{};
  const uint8_t bytes[] = {2, 0xff, 1, 0x80, 0x01, 0x02, 0x03, 0x84};
  for (unsigned i = 0; i < 8; ++i) w[4 + i] = bytes[i];
  EXPECT_EQ(load_events(w), (Events{2, 0xff, 1, 0x80, 0x84030201u}));
  // At another offset too.
  Word v{};
  for (unsigned i = 0; i < 8; ++i) v[20 + i] = bytes[i];
  EXPECT_EQ(load_events(v, 20), (Events{2, 0xff, 1, 0x80, 0x84030201u}));
}

TEST(TensorLayout, Store3DWritesAddrStepsThenCounts) {
  Word w{};
  store_tensor(w, 16, test_words::tensor(0x12345678, {-1, 2, -32768}, {1, 65535, 3}));
  const std::vector<uint8_t> want = {
      0x78, 0x56, 0x34, 0x12,              // ADDR4
      0xff, 0xff, 0x02, 0x00, 0x00, 0x80,  // step_elem[3], int16
      0x01, 0x00, 0xff, 0xff, 0x03, 0x00,  // num_elem[3], uint16
  };
  for (unsigned i = 0; i < kWordBytes; ++i)
    EXPECT_EQ(w[i], (i >= 16 && i < 32) ? want[i - 16] : 0) << "byte " << i;
}

TEST(TensorLayout, Store1DAnd2DWriteOnlyTheirBytes) {
  Word w;
  w.fill(0xee);
  store_tensor(w, 16, test_words::tensor(0x80000005, {-2}, {0x1234}));
  store_tensor(w, 24, test_words::tensor(0x02004000, {7, 0x7fff}, {2, 9}));
  const std::vector<uint8_t> want1 = {0x05, 0, 0, 0x80, 0xfe, 0xff, 0x34, 0x12};
  const std::vector<uint8_t> want2 = {0x00, 0x40, 0x00, 0x02, 0x07, 0x00,
                                      0xff, 0x7f, 0x02, 0x00, 0x09, 0x00};
  for (unsigned i = 0; i < kWordBytes; ++i) {
    uint8_t e = 0xee;
    if (i >= 16 && i < 24) e = want1[i - 16];
    if (i >= 24 && i < 36) e = want2[i - 24];
    EXPECT_EQ(w[i], e) << "byte " << i;
  }
}

TEST(TensorLayout, LoadReadsSignedStepsAndUnsignedCounts) {
  Word w{};
  const uint8_t bytes[] = {0x00, 0x01, 0x04, 0x00,   // 0x00040100: partition 1, offset 0x100
                           0x00, 0x80, 0xff, 0x7f,   // steps -32768, 32767
                           0xff, 0xff, 0x00, 0x00};  // counts 65535, 0
  for (unsigned i = 0; i < 12; ++i) w[48 + i] = bytes[i];
  const TensorDesc t = load_tensor(w, 48, 2);
  EXPECT_EQ(t.addr, 0x00040100u);
  EXPECT_EQ(t.dims, 2);
  EXPECT_EQ(t.step[0], -32768);
  EXPECT_EQ(t.step[1], 32767);
  EXPECT_EQ(t.num[0], 65535);
  EXPECT_EQ(t.num[1], 0);
  EXPECT_EQ(t.count(), 0u);
  EXPECT_FALSE(t.register_mode());
}

TEST(TensorLayout, CountIsTheProductOfTheUsedDimensions) {
  EXPECT_EQ(test_words::tensor(0, {0}, {7}).count(), 7u);
  EXPECT_EQ(test_words::tensor(0, {0, 0}, {7, 3}).count(), 21u);
  EXPECT_EQ(test_words::tensor(0, {0, 0, 0}, {65535, 65535, 65535}).count(),
            65535ull * 65535ull * 65535ull);
  TensorDesc t = test_words::tensor(0, {0}, {5});
  t.num[1] = 0;  // not a dimension of a 1-D tensor
  EXPECT_EQ(t.count(), 5u);
  EXPECT_TRUE(test_words::tensor(0x80000000, {1}, {1}).register_mode());
  EXPECT_FALSE(test_words::tensor(0x7fffffff, {1}, {1}).register_mode());
}

TEST(TensorLayout, StoreThenLoadIsIdentity) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 500; ++i) {
    for (unsigned dims = 1; dims <= 3; ++dims) {
      TensorDesc t;
      t.addr = static_cast<uint32_t>(rng());
      t.dims = static_cast<uint8_t>(dims);
      for (unsigned d = 0; d < dims; ++d) {
        t.step[d] = static_cast<int16_t>(rng());
        t.num[d] = static_cast<uint16_t>(rng());
      }
      Word w{};
      store_tensor(w, 4, t);
      EXPECT_EQ(load_tensor(w, 4, dims), t);
    }
  }
}

// ---- hex ------------------------------------------------------------------------------

std::string hex_of(const std::vector<uint8_t>& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

TEST(Hex, ToHexIsLowercaseBytesInOrder) {
  Word w;
  for (unsigned i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(i * 37 + 5);
  EXPECT_EQ(word_to_hex(w), hex_of(std::vector<uint8_t>(w.begin(), w.end())));
  EXPECT_EQ(word_to_hex(Word{}), std::string(128, '0'));
}

TEST(Hex, FromHexAcceptsCaseAndWhitespace) {
  Word w;
  for (unsigned i = 0; i < kWordBytes; ++i) w[i] = static_cast<uint8_t>(255 - 3 * i);
  const std::string lower = hex_of(std::vector<uint8_t>(w.begin(), w.end()));
  std::string upper = lower;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string spaced;
  for (std::size_t i = 0; i < lower.size(); ++i) {
    spaced += lower[i];
    if (i % 8 == 7) spaced += (i % 32 == 31) ? "\n" : " \t";
  }
  for (const std::string& s : {lower, upper, spaced, " " + lower + "\n"}) {
    std::string error = "unchanged";
    const std::optional<Word> got = word_from_hex(s, &error);
    ASSERT_TRUE(got.has_value()) << error;
    EXPECT_EQ(*got, w);
  }
  EXPECT_EQ(word_to_hex(*word_from_hex(upper)), lower);
}

TEST(Hex, FromHexRejectsWrongLengthAndNonHex) {
  const std::string good(128, 'a');
  struct Case {
    std::string text;
    std::string mention;  // the error names the problem
  };
  const std::vector<Case> cases = {
      {"", "0 hex digits"},
      {good.substr(1), "127 hex digits"},
      {good.substr(2), "126 hex digits"},
      {good + "a", "129"},
      {good + "ab", "more than 128"},
      {"0x" + good.substr(2), "'x'"},
      {good.substr(1) + "g", "'g'"},
      {good.substr(0, 64) + "-" + good.substr(64), "'-'"},
  };
  for (const Case& c : cases) {
    std::string error;
    EXPECT_FALSE(word_from_hex(c.text, &error).has_value()) << c.text;
    EXPECT_NE(error.find(c.mention), std::string::npos) << c.text << ": " << error;
    EXPECT_FALSE(word_from_hex(c.text).has_value()) << c.text;  // without an error string
  }
}

TEST(Hex, ValidWordsRoundTripThroughHex) {
  for (Opcode op :
       {Opcode::RangeSelect, Opcode::TensorScalarSelect, Opcode::GetSequenceBounds, Opcode::Sort,
        Opcode::NonzeroWithCount, Opcode::CopyPredicatedScalar, Opcode::DveReadAccumulator,
        Opcode::MatchValueLoad, Opcode::Max8, Opcode::FindIndex8, Opcode::MatchReplace8}) {
    const Word w = test_words::valid_word(op);
    EXPECT_EQ(*word_from_hex(word_to_hex(w)), w);
  }
}

TEST(ReservedBytes, HoldsUpToItsCapacityAndRejectsMore) {
  ReservedBytes b(ReservedBytes::capacity());
  EXPECT_EQ(b.size(), ReservedBytes::capacity());
  EXPECT_THROW(b.push_back(1), std::length_error);
  EXPECT_THROW(ReservedBytes(ReservedBytes::capacity() + 1), std::length_error);
  const std::array<uint8_t, ReservedBytes::capacity()> src{1, 2, 3, 4};
  b.assign_padded(src.data(), 3);
  EXPECT_EQ(b, (ReservedBytes{1, 2, 3}));
  EXPECT_NE(b, (ReservedBytes{1, 2, 3, 4}));
}

}  // namespace
}  // namespace gpsimd
