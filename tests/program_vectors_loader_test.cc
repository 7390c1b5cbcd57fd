// The program vector loader (SPEC §8.8): a well-formed file reads back as written, and every
// malformed case is a runner error that names the file and the vector (index and name),
// never a status: unknown keys (§7's instruction and engine included), missing keys, queue
// names other than dve/pool/act, a key named twice in one object (a queue included; the
// JSON parser alone would keep the last), a queue that is not a list, words that are not
// 128 hex digits, expect keys of another status, and malformed races, hazards, blocked
// heads, faults and invalid entries.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpsimd/program_vectors.h"

namespace {

// One word: SPEC §8.10's pool:0 (an Iota that increments semaphore 1), 128 hex digits.
const std::string kWord =
    "7e10000000000201000000000000000001000000000000001000010001000100"
    "000a010000000000000000000001000001001000100010001000010001000100";

std::string file_with(const std::string& vector_body) {
  return R"({"format": "gpsimd-programs/1", "vectors": [)" + vector_body + "]}";
}
std::string good_vector(const std::string& extra = "", const std::string& queues = "",
                        const std::string& expect = "") {
  return R"({"name": "t/one", "nc": "v3", "queues": {)" +
         (queues.empty() ? R"("pool": [")" + kWord + R"("], "dve": [])" : queues) + "}" + extra +
         R"(, "expect": )" +
         (expect.empty()
              ? R"({"status": "ok", "schedule": ["pool:0"], "race": null, "sync_hazards": [{"semaphore": 1, "kind": "decrease"}], "semaphores": {"1": "0x1", "2": "0x7"}, "memory": [{"space": "sbuf", "partition": 0, "offset": 256, "hex": "000000000000803f0000004000004040000080400000a0400000c0400000e0400000004100001041000020410000304100004041000050410000604100007041"}]})"
              : expect) +
         "}";
}

std::string error_of(const std::string& text) {
  std::string e;
  auto f = gpsimd::parse_program_vectors(text, "file.json", &e);
  EXPECT_FALSE(f.has_value()) << "accepted: " << text;
  return e;
}

TEST(ProgramVectorsLoader, TheWordIs128Digits) {
  ASSERT_EQ(kWord.size(), 128u);
}

TEST(ProgramVectorsLoader, AWellFormedFileReadsBack) {
  std::string e;
  auto f = gpsimd::parse_program_vectors(
      file_with(
          good_vector(R"(, "strict": true, "registers": {"3": "0x10"}, "semaphores": {"2": "7"})")),
      "file.json", &e);
  ASSERT_TRUE(f.has_value()) << e;
  ASSERT_EQ(f->vectors.size(), 1u);
  const gpsimd::ProgramVector& v = f->vectors[0];
  EXPECT_EQ(v.name, "t/one");
  EXPECT_TRUE(v.program.strict);
  EXPECT_EQ(v.program.queue(gpsimd::Engine::POOL).size(), 1u);
  EXPECT_TRUE(v.program.queue(gpsimd::Engine::DVE).empty());
  EXPECT_TRUE(v.program.queue(gpsimd::Engine::ACT).empty());  // a missing key: empty queue
  EXPECT_EQ(v.registers.at(3), 0x10u);
  EXPECT_EQ(v.semaphores.at(2), 7u);
  EXPECT_EQ(v.expect.status, gpsimd::ProgramStatus::Ok);
  EXPECT_EQ(v.expect.schedule, (std::vector<gpsimd::QueueWord>{{gpsimd::Engine::POOL, 0}}));
  EXPECT_FALSE(v.expect.race);
  EXPECT_EQ(v.expect.sync_hazards,
            (std::vector<gpsimd::SyncHazard>{{1, gpsimd::HazardKind::Decrease}}));
  EXPECT_EQ(v.expect.state.semaphores.at(1), 1u);
  // The vector runs; its sync_hazards are wrong (one INC from 0 is no step down), and that
  // is the one difference the runner reports.
  const auto o = gpsimd::run_program_vector(v);
  ASSERT_EQ(o.differences.size(), 1u);
  EXPECT_EQ(o.differences[0], "sync_hazards: expected [{1, decrease}], got []");
}

struct Case {
  const char* what;
  std::string text;
  const char* must_say;
};

TEST(ProgramVectorsLoader, EveryMalformedCaseIsARunnerError) {
  const std::string q = R"("pool": [")" + kWord + R"("])";
  const std::vector<Case> cases = {
      {"top-level key", R"({"format": "gpsimd-programs/1", "vectors": [], "extra": 1})",
       "unknown key 'extra'"},
      {"format", R"({"format": "gpsimd-vectors/1", "vectors": []})", "is not gpsimd-programs/1"},
      {"§7's instruction key", file_with(good_vector(R"(, "instruction": "00")")),
       "unknown key 'instruction'"},
      {"§7's engine key", file_with(good_vector(R"(, "engine": "dve")")), "unknown key 'engine'"},
      {"missing queues",
       file_with(
           R"({"name": "t/one", "nc": "v3", "expect": {"status": "invalid", "invalid": []}})"),
       "missing key 'queues'"},
      {"missing nc",
       file_with(
           R"({"name": "t/one", "queues": {}, "expect": {"status": "invalid", "invalid": []}})"),
       "missing key 'nc'"},
      {"queue DVE", file_with(good_vector("", R"("DVE": [])")), "'DVE' is not a queue"},
      {"queue gpsimd", file_with(good_vector("", R"("gpsimd": [])")), "'gpsimd' is not a queue"},
      {"queue vector", file_with(good_vector("", R"("vector": [])")), "'vector' is not a queue"},
      {"queue named twice", file_with(good_vector("", q + ", " + q)),
       "the key 'pool' is named twice in .vectors[0].queues"},
      {"vector key named twice", file_with(good_vector(R"(, "nc": "v3")")),
       "the key 'nc' is named twice"},
      {"expect key named twice",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "status": "ok", "schedule": [], "race": null, "sync_hazards": []})")),
       "the key 'status' is named twice in .vectors[0].expect"},
      {"queue not a list", file_with(good_vector("", R"("pool": ")" + kWord + R"(")")),
       "expected an array, got string"},
      {"127 digits", file_with(good_vector("", R"("pool": [")" + kWord.substr(1) + R"("])")),
       "exactly 128 hex digits"},
      {"0x prefix", file_with(good_vector("", R"("pool": ["0x)" + kWord.substr(2) + R"("])")),
       "exactly 128 hex digits"},
      {"spaces",
       file_with(good_vector(
           "", R"("pool": [")" + kWord.substr(0, 64) + " " + kWord.substr(65) + R"("])")),
       "exactly 128 hex digits"},
      {"word not a string", file_with(good_vector("", R"("pool": [12])")), "expected a string"},
      {"another status's key",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "race": null, "sync_hazards": [], "blocked": []})")),
       "unknown key 'blocked'"},
      {"a status key missing",
       file_with(good_vector("", "", R"({"status": "ok", "schedule": [], "sync_hazards": []})")),
       "missing key 'race'"},
      {"invalid with a schedule",
       file_with(good_vector("", "", R"({"status": "invalid", "invalid": [], "schedule": []})")),
       "unknown key 'schedule'"},
      {"status", file_with(good_vector("", "", R"({"status": "sync-would-block"})")),
       "must be ok, deadlock, fault or invalid"},
      {"schedule entry",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": ["POOL:0"], "race": null, "sync_hazards": []})")),
       "must be E:i"},
      {"race key",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "sync_hazards": [], "race": {"first": {"queue": "dve", "index": 0, "access": "read"}, "second": {"queue": "pool", "index": 0, "access": "write"}, "location": {"space": "sbuf", "partition": 0, "offset": 256}, "note": 1}})")),
       "unknown key 'note'"},
      {"race access",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "sync_hazards": [], "race": {"first": {"queue": "dve", "index": 0, "access": "load"}, "second": {"queue": "pool", "index": 0, "access": "write"}, "location": {"space": "sbuf", "partition": 0, "offset": 256}}})")),
       "must be read, write or read-write"},
      {"sbuf location without offset",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "sync_hazards": [], "race": {"first": {"queue": "dve", "index": 0, "access": "read"}, "second": {"queue": "pool", "index": 0, "access": "write"}, "location": {"space": "sbuf", "partition": 0}}})")),
       "missing key 'offset'"},
      {"acc location with offset",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "sync_hazards": [], "race": {"first": {"queue": "dve", "index": 0, "access": "read"}, "second": {"queue": "pool", "index": 0, "access": "write"}, "location": {"space": "acc", "partition": 0, "offset": 0}}})")),
       "unknown key 'offset'"},
      {"index as a string",
       file_with(good_vector(
           "", "",
           R"({"status": "fault", "schedule": [], "race": null, "sync_hazards": [], "fault": {"queue": "dve", "index": "0", "kind": "bad-address"}})")),
       "must be a JSON integer"},
      {"negative index",
       file_with(good_vector(
           "", "",
           R"({"status": "fault", "schedule": [], "race": null, "sync_hazards": [], "fault": {"queue": "dve", "index": -1, "kind": "bad-address"}})")),
       "must be a JSON integer"},
      {"fault sync-would-block",
       file_with(good_vector(
           "", "",
           R"({"status": "fault", "schedule": [], "race": null, "sync_hazards": [], "fault": {"queue": "dve", "index": 0, "kind": "sync-would-block"}})")),
       "never faults sync-would-block"},
      {"hazard kind",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "race": null, "sync_hazards": [{"semaphore": 3, "kind": "eq"}]})")),
       "must be updaters, decrease or eq-wait"},
      {"blocked wait",
       file_with(good_vector(
           "", "",
           R"({"status": "deadlock", "schedule": [], "race": null, "sync_hazards": [], "blocked": [{"queue": "dve", "index": 0, "wait": "LE", "semaphore": 1, "value": "0x1", "current": "0x0"}]})")),
       "must be GE or EQ"},
      {"blocked value a number",
       file_with(good_vector(
           "", "",
           R"({"status": "deadlock", "schedule": [], "race": null, "sync_hazards": [], "blocked": [{"queue": "dve", "index": 0, "wait": "GE", "semaphore": 1, "value": 1, "current": "0x0"}]})")),
       "number strings"},
      {"semaphore beyond 255",
       file_with(good_vector(
           "", "",
           R"({"status": "ok", "schedule": [], "race": null, "sync_hazards": [{"semaphore": 256, "kind": "eq-wait"}]})")),
       "must be below 256"},
      {"invalid entry key",
       file_with(good_vector(
           "", "",
           R"({"status": "invalid", "invalid": [{"queue": "dve", "index": 0, "violations": [], "why": 1}]})")),
       "unknown key 'why'"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(c.text);
    EXPECT_NE(e.find(c.must_say), std::string::npos) << c.what << ": " << e;
    EXPECT_EQ(e.rfind("file.json", 0), 0u) << c.what << ": " << e;
    if (std::string(c.what) != "top-level key" && std::string(c.what) != "format") {
      EXPECT_NE(e.find("vector 0 ('t/one')"), std::string::npos) << c.what << ": " << e;
    }
  }
}

TEST(ProgramVectorsLoader, FormatOfAFile) {
  EXPECT_EQ(gpsimd::vector_file_format(R"({"format": "gpsimd-programs/1"})"), "gpsimd-programs/1");
  EXPECT_EQ(gpsimd::vector_file_format(R"({"format": "gpsimd-vectors/1", "vectors": []})"),
            "gpsimd-vectors/1");
  EXPECT_FALSE(gpsimd::vector_file_format("not json"));
  EXPECT_FALSE(gpsimd::vector_file_format("[]"));
}

}  // namespace
