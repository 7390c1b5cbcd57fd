// Sorts six integers with a Sort word on a model of a NeuronCore v3, then shows what
// validation and execution report for a word that breaks a rule (docs/cpp.md).
#include <gpsimd/asm.h>
#include <gpsimd/execute.h>
#include <gpsimd/isa.h>
#include <gpsimd/machine.h>
#include <gpsimd/validate.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

// Writes and reads the INT32 at a byte offset of an SBUF partition.
void store_i32(gpsimd::Machine& m, unsigned partition, uint32_t offset, int32_t v) {
  std::memcpy(m.partition(gpsimd::Space::SBUF, partition).data() + offset, &v, sizeof v);
}
int32_t load_i32(const gpsimd::Machine& m, unsigned partition, uint32_t offset) {
  int32_t v;
  std::memcpy(&v, m.partition(gpsimd::Space::SBUF, partition).data() + offset, sizeof v);
  return v;
}

}  // namespace

int main() {
  using namespace gpsimd;

  // 1. Build a word from its fields: start from the defaults (the header, every other
  //    field zero) and set what the instruction needs, by the field names of isa.h.
  Decoded d = default_fields(instruction(Opcode::Sort));
  d.get("num_active_channels") = uint64_t{1};
  d.get("in_out_dtype") =
      uint64_t{static_cast<uint8_t>(Dtype::INT32) | static_cast<uint8_t>(Dtype::INT32) << 4};
  d.get("comparison") = uint64_t{static_cast<uint8_t>(AluOp::IS_LT)};  // ascending
  d.get("index_offset") = uint64_t{100};
  TensorDesc src;  // 6 elements from SBUF partition 0, offset 0x0
  src.addr = encode_static_addr({Space::SBUF, 0, 0x0});
  src.dims = 1;
  src.num = {6};
  src.step = {1};
  d.get("src_mem_pattern") = src;
  TensorDesc dst;  // 6 (value, index) pairs to SBUF partition 0, offset 0x40
  dst.addr = encode_static_addr({Space::SBUF, 0, 0x40});
  dst.dims = 2;
  dst.num = {2, 6};
  dst.step = {1, 2};
  d.get("dst_mem_pattern") = dst;
  const EncodeResult enc = encode(d);
  if (enc.error) {
    std::printf("encode: %s\n", enc.error->c_str());
    return 1;
  }
  const Word word = enc.word;
  // The same word from its text, as `gpsimd asm` reads it.
  AsmError error;
  const auto words = assemble(
      "Sort num_active_channels=1, in_out_dtype=(INT32, INT32), comparison=IS_LT, "
      "index_offset=100, src_mem_pattern=sbuf[p=0, off=0x0] num=[6], "
      "dst_mem_pattern=sbuf[p=0, off=0x40] num=[2,6]",
      "example", &error);
  if (!words) {
    std::printf("assemble: %s\n", error.to_string().c_str());
    return 1;
  }
  std::printf("text and fields give the same word: %s\n", words->at(0) == word ? "yes" : "no");
  std::printf("%s\n", disassemble(word)->c_str());

  // 2. A machine (all memory zero), with the keys in SBUF partition 0.
  Machine m(Generation::V3);
  const int32_t keys[] = {9, 3, 5, 1, 0, 0};
  for (uint32_t i = 0; i < 6; ++i) store_i32(m, 0, 4 * i, keys[i]);

  // 3. Execute, then read the results: value, index, value, index, ...
  const ExecResult r = execute(m, word);
  std::printf("execute: %s\n", r.message().c_str());
  std::printf("values:");
  for (uint32_t i = 0; i < 6; ++i) std::printf(" %d", load_i32(m, 0, 0x40 + 8 * i));
  std::printf("\nindices:");
  for (uint32_t i = 0; i < 6; ++i) std::printf(" %d", load_i32(m, 0, 0x44 + 8 * i));
  std::printf("\n");

  // 4. Diagnostics: a word that breaks two rules. validate() reports every failing
  //    clause; execute() refuses the word and changes nothing.
  Decoded b = d;
  b.get("stable") = uint64_t{2};      // must be 0 or 1
  b.get("comparison") = uint64_t{0};  // must be a comparison
  const Word bad = encode(b).word;
  for (const Diagnostic& diag : validate(bad, Generation::V3))
    std::printf("invalid: %s\n", diag.message().c_str());
  const Machine before = m;
  const ExecResult rejected = execute(m, bad);
  std::printf("execute: %s; machine unchanged: %s\n",
              std::string(status_name(rejected.status)).c_str(), m == before ? "yes" : "no");
  return r.ok() && !rejected.ok() ? 0 : 1;
}
