// Loading conformance vector files (SPEC §7): a well-formed file gives every field, and a
// malformed one gives an error that names the file, the vector (index and name) and the
// key, without crashing on hostile input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "gpsimd/vectors.h"

namespace {

using json = nlohmann::json;
using gpsimd::Space;
using gpsimd::Status;

const std::string kWord = "9610" + std::string(124, '0');

// A well-formed file with two vectors; tests break one thing at a time.
json good_file() {
  return json{
      {"format", "gpsimd-vectors/1"},
      {"vectors",
       json::array(
           {json{{"name", "first"},
                 {"nc", "v3"},
                 {"strict", true},
                 {"instruction", kWord},
                 {"registers", {{"5", "0x00400000"}}},
                 {"semaphores", {{"3", "0x00000001"}}},
                 {"accumulators", {{"0", "0xff7fffff"}}},
                 {"memory",
                  json::array({json{
                      {"space", "sbuf"}, {"partition", 2}, {"offset", 16}, {"hex", "00a0FF"}}})},
                 {"expect",
                  {{"status", "ok"},
                   {"memory", json::array({json{{"space", "psum"},
                                                {"partition", 127},
                                                {"offset", 16382},
                                                {"hex", "0102"}}})},
                   {"accumulators", {{"127", "0x42280000"}}},
                   {"semaphores", {{"255", 7}}}}}},
            json{{"name", "second"},
                 {"nc", "v2"},
                 {"instruction", kWord},
                 {"expect",
                  {{"status", "invalid"}, {"violations", json::array({"a_clause", "b_clause"})}}}},
            json{{"name", "third"},
                 {"nc", "v5"},
                 {"instruction", kWord},
                 {"expect", {{"status", "fault"}, {"fault", "sync-would-block"}}}}})}};
}

// Returns the error of parsing `doc` as "t.json" (empty if it parsed).
std::string error_of(const std::string& text) {
  std::string error;
  const auto f = gpsimd::parse_vectors(text, "t.json", &error);
  if (f) return {};
  EXPECT_FALSE(error.empty());
  return error;
}
std::string error_of(const json& doc) {
  return error_of(doc.dump());
}

TEST(VectorsLoader, ParsesEveryField) {
  std::string error;
  const auto f = gpsimd::parse_vectors(good_file().dump(), "t.json", &error);
  ASSERT_TRUE(f.has_value()) << error;
  EXPECT_EQ(f->path, "t.json");
  ASSERT_EQ(f->vectors.size(), 3u);
  const gpsimd::TestVector& v = f->vectors[0];
  EXPECT_EQ(v.name, "first");
  EXPECT_EQ(v.nc, gpsimd::Generation::V3);
  EXPECT_TRUE(v.strict);
  EXPECT_EQ(v.instruction[0], 0x96);
  EXPECT_EQ(v.instruction[1], 0x10);
  EXPECT_EQ(v.registers.at(5), 0x00400000u);
  EXPECT_EQ(v.semaphores.at(3), 1u);
  EXPECT_EQ(v.accumulators.at(0), 0xff7fffffu);
  ASSERT_EQ(v.memory.size(), 1u);
  EXPECT_EQ(v.memory[0].space, Space::SBUF);
  EXPECT_EQ(v.memory[0].partition, 2u);
  EXPECT_EQ(v.memory[0].offset, 16u);
  EXPECT_EQ(v.memory[0].bytes, (std::vector<uint8_t>{0x00, 0xa0, 0xff}));
  EXPECT_EQ(v.expect.status, Status::Retired);
  ASSERT_EQ(v.expect.memory.size(), 1u);
  EXPECT_EQ(v.expect.memory[0].space, Space::PSUM);
  EXPECT_EQ(v.expect.memory[0].partition, 127u);
  EXPECT_EQ(v.expect.memory[0].offset, 16382u);  // the last two bytes of a PSUM partition
  EXPECT_EQ(v.expect.accumulators.at(127), 0x42280000u);
  EXPECT_EQ(v.expect.semaphores.at(255), 7u);
  EXPECT_FALSE(f->vectors[1].strict);
  EXPECT_EQ(f->vectors[1].nc, gpsimd::Generation::V2);
  EXPECT_EQ(f->vectors[1].expect.status, Status::Invalid);
  EXPECT_EQ(f->vectors[1].expect.violations, (std::vector<std::string>{"a_clause", "b_clause"}));
  EXPECT_EQ(f->vectors[2].expect.status, Status::Faulted);
  EXPECT_EQ(f->vectors[2].expect.fault, gpsimd::FaultKind::SyncWouldBlock);
}

// Exact messages: file, vector index and name, key path, what is wrong.
// Found by fuzz_vectors: an empty "hex" range (zero bytes) made the runner pass a null
// pointer to memcpy (undefined behaviour, reported by UBSan). An empty range sets and
// expects nothing.
TEST(VectorsLoader, EmptyMemoryRangesSetAndExpectNothing) {
  json doc = good_file();
  json& v = doc["vectors"][2];  // a fault vector: expects an unchanged machine
  const json empty = {{"space", "sbuf"}, {"partition", 68}, {"offset", 39518}, {"hex", ""}};
  v["memory"] = json::array({empty});
  v["expect"]["memory"] = json::array({empty});
  v["semaphores"] = {{"0", "0x00000000"}};
  v["instruction"] =
      "9610000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000";
  std::string error;
  const auto f = gpsimd::parse_vectors(doc.dump(), "t.json", &error);
  ASSERT_TRUE(f.has_value()) << error;
  const gpsimd::TestVector& tv = f->vectors[2];
  ASSERT_EQ(tv.memory.size(), 1u);
  EXPECT_TRUE(tv.memory[0].bytes.empty());
  const gpsimd::VectorOutcome o = gpsimd::run_vector(tv);
  // Whatever the verdict on the word, the empty ranges add no difference of their own.
  for (const std::string& d : o.differences) EXPECT_EQ(d.find("p=68"), std::string::npos) << d;
}

TEST(VectorsLoader, ExactMessages) {
  json d = good_file();
  d["format"] = "gpsimd-vectors/2";
  EXPECT_EQ(error_of(d), "t.json.format: 'gpsimd-vectors/2' is not gpsimd-vectors/1");

  d = good_file();
  d.erase("format");
  EXPECT_EQ(error_of(d), "t.json: missing key 'format'");

  d = good_file();
  d["vectors"][1].erase("nc");
  EXPECT_EQ(error_of(d), "t.json: vector 1 ('second'): missing key 'nc'");

  d = good_file();
  d["vectors"][0].erase("name");
  EXPECT_EQ(error_of(d), "t.json: vector 0: missing key 'name'");

  d = good_file();
  d["vectors"][0]["memory"][0]["hex"] = "00g0";
  EXPECT_EQ(error_of(d),
            "t.json: vector 0 ('first').memory[0].hex: 'g' at position 2 is not a "
            "hex digit");

  d = good_file();
  d["vectors"][0]["expect"]["memory"][0]["hex"] = "abc";
  EXPECT_EQ(error_of(d),
            "t.json: vector 0 ('first').expect.memory[0].hex: odd number of hex "
            "digits (3)");

  d = good_file();
  d["vectors"][0]["memory"][0]["offset"] = 229375;  // V3 SBUF partitions are 229376 (0x38000) bytes
  EXPECT_EQ(error_of(d),
            "t.json: vector 0 ('first').memory[0]: bytes [0x37fff, 0x38002) must lie "
            "inside the sbuf partition of v3 [0x0, 0x38000)");

  d = good_file();
  d["vectors"][2]["expect"]["status"] = "maybe";
  EXPECT_EQ(error_of(d),
            "t.json: vector 2 ('third').expect.status: 'maybe' must be ok, invalid "
            "or fault");

  d = good_file();
  d["vectors"][2]["expect"]["fault"] = "segfault";
  EXPECT_EQ(error_of(d),
            "t.json: vector 2 ('third').expect.fault: 'segfault' must be "
            "bad-address, shape-mismatch, sync-would-block or too-large");

  d = good_file();
  d["vectors"][1]["nc"] = "v9";
  EXPECT_EQ(error_of(d), "t.json: vector 1 ('second').nc: 'v9' must be v2, v3, v4 or v5");

  d = good_file();
  d["vectors"][0]["registers"] = {{"64", "0x1"}};
  EXPECT_EQ(error_of(d),
            "t.json: vector 0 ('first').registers['64']: index must be a decimal "
            "number 0..63");
}

// Every malformed input names the file, the vector and the key, whatever the wording.
TEST(VectorsLoader, ErrorsNameFileVectorAndKey) {
  struct Case {
    const char* what;
    void (*breakit)(json&);
    const char* key;  // must appear in the message
  };
  const Case cases[] = {
      {"psum memory out of range",
       [](json& d) { d["vectors"][0]["expect"]["memory"][0]["offset"] = 16383; },
       ".expect.memory[0]"},
      {"partition 128", [](json& d) { d["vectors"][0]["memory"][0]["partition"] = 128; },
       ".memory[0].partition"},
      {"unknown space", [](json& d) { d["vectors"][0]["memory"][0]["space"] = "dram"; },
       ".memory[0].space"},
      {"semaphore 256",
       [](json& d) {
         d["vectors"][0]["semaphores"] = {{"256", "0x0"}};
       },
       ".semaphores['256']"},
      {"accumulator 128",
       [](json& d) {
         d["vectors"][0]["accumulators"] = {{"128", "0x0"}};
       },
       ".accumulators['128']"},
      {"register index not a number",
       [](json& d) {
         d["vectors"][0]["registers"] = {{"r5", "0x0"}};
       },
       ".registers['r5']"},
      {"register value over 32 bits",
       [](json& d) {
         d["vectors"][0]["registers"] = {{"5", "0x1ffffffff"}};
       },
       ".registers['5']"},
      {"register value not a number",
       [](json& d) {
         d["vectors"][0]["registers"] = {{"5", "five"}};
       },
       ".registers['5']"},
      {"instruction too short", [](json& d) { d["vectors"][1]["instruction"] = "9610"; },
       ".instruction"},
      {"instruction bad hex",
       [](json& d) { d["vectors"][1]["instruction"] = "zz" + std::string(126, '0'); },
       ".instruction"},
      {"instruction not a string", [](json& d) { d["vectors"][1]["instruction"] = 5; },
       ".instruction"},
      {"strict not a boolean", [](json& d) { d["vectors"][0]["strict"] = "yes"; }, ".strict"},
      {"fault missing", [](json& d) { d["vectors"][2]["expect"].erase("fault"); }, "'fault'"},
      {"expect missing", [](json& d) { d["vectors"][2].erase("expect"); }, "'expect'"},
      {"violations not an array", [](json& d) { d["vectors"][1]["expect"]["violations"] = "x"; },
       ".expect.violations"},
      {"memory not an array", [](json& d) { d["vectors"][0]["memory"] = json::object(); },
       ".memory"},
      {"hex not a string", [](json& d) { d["vectors"][0]["memory"][0]["hex"] = 12; },
       ".memory[0].hex"},
      {"nc as a number", [](json& d) { d["vectors"][1]["nc"] = 3; }, ".nc"},
  };
  for (const Case& c : cases) {
    json d = good_file();
    c.breakit(d);
    const std::string e = error_of(d);
    EXPECT_EQ(e.rfind("t.json: vector ", 0), 0u) << c.what << ": " << e;
    EXPECT_NE(e.find("('"), std::string::npos) << c.what << ": no vector name in " << e;
    EXPECT_NE(e.find(c.key), std::string::npos) << c.what << ": no key " << c.key << " in " << e;
  }
  // The vector index of the second vector.
  json d = good_file();
  d["vectors"][1]["nc"] = "v1";
  EXPECT_EQ(error_of(d).rfind("t.json: vector 1 ('second').nc", 0), 0u);
}

TEST(VectorsLoader, MalformedDocuments) {
  std::string e = error_of(std::string("{\"format\": "));
  EXPECT_EQ(e.rfind("t.json: not valid JSON", 0), 0u) << e;
  e = error_of(std::string("not json at all"));
  EXPECT_EQ(e.rfind("t.json: not valid JSON", 0), 0u) << e;
  e = error_of(std::string(""));
  EXPECT_EQ(e.rfind("t.json: ", 0), 0u) << e;
  e = error_of(json::array());
  EXPECT_EQ(e.rfind("t.json", 0), 0u) << e;
  json d = good_file();
  d["vectors"] = json::object();
  EXPECT_EQ(error_of(d), "t.json.vectors: expected an array");
  d = good_file();
  d["vectors"][0] = 7;
  e = error_of(d);
  EXPECT_EQ(e.rfind("t.json: vector 0", 0), 0u) << e;
  // Deep nesting is refused, not recursed into.
  for (std::size_t depth : {65u, 100000u}) {
    const std::string deep = "{\"format\": \"gpsimd-vectors/1\", \"vectors\": [" +
                             std::string(depth, '[') + std::string(depth, ']') + "]}";
    EXPECT_EQ(error_of(deep), "t.json: nesting deeper than 64 levels") << depth;
  }
  // A null error pointer is allowed.
  EXPECT_FALSE(gpsimd::parse_vectors("{", "t.json", nullptr).has_value());
  // Missing files are reported with their path.
  std::string error;
  EXPECT_FALSE(gpsimd::load_vectors("no/such/file.json", &error).has_value());
  EXPECT_EQ(error.rfind("no/such/file.json: cannot open", 0), 0u) << error;
}

}  // namespace

namespace {

// SPEC §7 match_state: per lane mv (8 FP32 patterns), matched (<= 0xff), idx (8 u32); a
// lane or key left out is fresh (mv 0, matched 0, idx 0xFFFFFFFF), in expect too.
TEST(VectorsLoader, MatchStateLanesAndFreshDefaults) {
  json doc = good_file();
  json mv = json::array(), idx = json::array();
  for (int n = 0; n < 8; ++n) {
    mv.push_back(n == 7 ? "0x40400000" : "0x41000000");
    idx.push_back(n == 0 ? "0x4" : "0xffffffff");
  }
  doc["vectors"][0]["match_state"] = {{"5", {{"mv", mv}, {"matched", "0x81"}, {"idx", idx}}}};
  doc["vectors"][0]["expect"]["match_state"] = {{"127", {{"matched", "0xff"}}}};
  std::string error;
  const auto f = gpsimd::parse_vectors(doc.dump(), "t.json", &error);
  ASSERT_TRUE(f.has_value()) << error;
  const gpsimd::TestVector& v = f->vectors[0];
  ASSERT_EQ(v.match_state.size(), 1u);
  const gpsimd::MatchLane& l = v.match_state.at(5);
  EXPECT_EQ(l.mv[0], 0x41000000u);
  EXPECT_EQ(l.mv[7], 0x40400000u);
  EXPECT_EQ(l.matched, 0x81);
  EXPECT_EQ(l.idx[0], 4u);
  EXPECT_EQ(l.idx[1], 0xffffffffu);
  const gpsimd::MatchLane& e = v.expect.match_state.at(127);
  EXPECT_EQ(e.matched, 0xff);
  for (int n = 0; n < 8; ++n) {
    EXPECT_EQ(e.mv[n], 0u);            // left out: fresh
    EXPECT_EQ(e.idx[n], 0xffffffffu);  // left out: fresh
  }
  // The second vector names no lanes: every lane fresh.
  EXPECT_TRUE(f->vectors[1].match_state.empty());

  // Malformed lanes.
  auto bad = [&](const json& lanes) {
    json d = good_file();
    d["vectors"][0]["match_state"] = lanes;
    return error_of(d);
  };
  EXPECT_NE(bad({{"128", json::object()}}).find("0..127"), std::string::npos);
  EXPECT_NE(bad({{"x", json::object()}}).find("0..127"), std::string::npos);
  EXPECT_NE(bad({{"1", {{"matched", "0x100"}}}}).find("0xff"), std::string::npos);
  EXPECT_NE(bad({{"1", {{"mv", json::array({"0x0"})}}}}).find("exactly 8"), std::string::npos);
  EXPECT_NE(bad({{"1", {{"idx", "0x0"}}}}).find("exactly 8"), std::string::npos);
  EXPECT_NE(bad({{"1", {{"flags", "0x0"}}}}).find("unknown key"), std::string::npos);
  EXPECT_NE(bad(json::array()).find("expected an object"), std::string::npos);
}

}  // namespace
