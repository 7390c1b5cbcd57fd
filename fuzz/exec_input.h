// The input format of fuzz_execute: a configuration byte, one instruction word and a list
// of records that set registers, semaphores, accumulators, search lanes and a few memory
// windows.
// Every byte string is a valid input (short inputs are zero-padded, unknown tags wrap),
// so the fuzzer never wastes an execution on a rejected input.
//
//   byte 0      bits 0-1: generation (0 = V2 .. 3 = V5), bit 2: strict validation,
//               bits 3-4: the engine input (0: none, the opcode's default; 1 DVE, 2 POOL,
//               3 ACT; SPEC §3.9)
//   bytes 1-64  the instruction word
//   records     tag byte, taken modulo 6:
//     0 register     [index % 64] [u32 value]
//     1 semaphore    [index]      [u32 value]
//     2 accumulator  [index % 128][u32 FP32 bits]
//     3 memory       [space: bit 7 PSUM, bits 0-6 partition] [u32 offset % partition size]
//                    [u8 length] [length bytes]
//     4 memory fill  [space] [u32 offset] [u16 length] [u8 n] [n pattern bytes, repeated]
//     5 search lane  [lane % 128] [u8 matched flags] [8 x u32 match value (FP32 bits)]
//                    [8 x u32 index]
// Memory ranges are clipped at the end of their partition; all u16/u32 are little-endian.
// Memory records stop being applied after kMaxMemoryBytes, which keeps the machine's
// footprint small.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/vectors.h"

namespace gpsimd::fuzz {

inline constexpr std::size_t kMaxMemoryBytes = 256 << 10;

struct ExecInput {
  Generation gen = Generation::V3;
  bool strict = false;
  std::optional<Engine> engine;  // the engine input; nullopt: the opcode's default
  Word word{};
  std::vector<std::pair<unsigned, uint32_t>> registers, semaphores, accumulators;
  std::vector<std::pair<unsigned, MatchLane>> match;  // search lanes (the rest fresh)
  std::vector<MemoryRange> memory;
};

// Returns the input's meaning; never fails.
inline ExecInput parse_exec_input(const uint8_t* data, std::size_t size) {
  ExecInput in;
  std::size_t pos = 0;
  auto byte = [&]() -> uint8_t { return pos < size ? data[pos++] : 0; };
  auto u16 = [&]() -> uint16_t { return static_cast<uint16_t>(byte() | byte() << 8); };
  auto u32 = [&]() -> uint32_t {
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; ++i) v |= static_cast<uint32_t>(byte()) << (8 * i);
    return v;
  };
  const uint8_t config = byte();
  in.gen = kAllGenerations[config & 3u];
  in.strict = (config >> 2) & 1u;
  if (const unsigned e = (config >> 3) & 3u; e != 0) in.engine = kAllEngines[e - 1];
  for (uint8_t& b : in.word) b = byte();
  std::size_t mem_bytes = 0;
  while (pos < size) {
    const unsigned tag = byte() % 6u;
    switch (tag) {
      case 0: {
        const unsigned i = byte() % kRegisters;
        in.registers.emplace_back(i, u32());
        break;
      }
      case 1: {
        const unsigned i = byte();
        in.semaphores.emplace_back(i, u32());
        break;
      }
      case 2: {
        const unsigned i = byte() % kPartitions;
        in.accumulators.emplace_back(i, u32());
        break;
      }
      case 5: {
        const unsigned i = byte() % kPartitions;
        MatchLane l;
        l.matched = byte();
        for (uint32_t& v : l.mv) v = u32();
        for (uint32_t& v : l.idx) v = u32();
        in.match.emplace_back(i, l);
        break;
      }
      default: {
        const bool fill = tag == 4;
        const uint8_t sp = byte();
        MemoryRange r;
        r.space = (sp >> 7) ? Space::PSUM : Space::SBUF;
        r.partition = sp & 0x7fu;
        const uint32_t psize =
            r.space == Space::SBUF ? sbuf_partition_bytes(in.gen) : kPsumPartitionBytes;
        r.offset = u32() % psize;
        std::size_t len = fill ? u16() : byte();
        std::vector<uint8_t> pattern;
        const std::size_t n = std::min<std::size_t>(fill ? byte() : len, size - pos);
        pattern.assign(data + pos, data + pos + n);
        pos += n;
        if (!fill) len = pattern.size();
        if (pattern.empty()) break;
        len = std::min<std::size_t>(len, psize - r.offset);
        if (mem_bytes + len > kMaxMemoryBytes) break;
        mem_bytes += len;
        r.bytes.resize(len);
        // Repeats the pattern by doubling: the harness should cost little per byte.
        std::size_t have = std::min(len, pattern.size());
        std::copy_n(pattern.begin(), have, r.bytes.begin());
        while (have < len) {
          const std::size_t k = std::min(have, len - have);
          std::copy_n(r.bytes.begin(), k, r.bytes.begin() + static_cast<std::ptrdiff_t>(have));
          have += k;
        }
        if (!r.bytes.empty()) in.memory.push_back(std::move(r));
        break;
      }
    }
  }
  return in;
}

// Returns the bytes that parse_exec_input reads back as `in` (memory in chunks of 255).
inline std::vector<uint8_t> encode_exec_input(const ExecInput& in) {
  std::vector<uint8_t> out;
  auto u32 = [&](uint32_t v) {
    for (unsigned i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  const unsigned engine = in.engine ? static_cast<unsigned>(*in.engine) + 1 : 0;
  out.push_back(static_cast<uint8_t>((static_cast<unsigned>(in.gen) - 2) | (in.strict ? 4 : 0) |
                                     engine << 3));
  out.insert(out.end(), in.word.begin(), in.word.end());
  for (auto [i, v] : in.registers) {
    out.push_back(0);
    out.push_back(static_cast<uint8_t>(i));
    u32(v);
  }
  for (auto [i, v] : in.semaphores) {
    out.push_back(1);
    out.push_back(static_cast<uint8_t>(i));
    u32(v);
  }
  for (auto [i, v] : in.accumulators) {
    out.push_back(2);
    out.push_back(static_cast<uint8_t>(i));
    u32(v);
  }
  for (const auto& [i, l] : in.match) {
    out.push_back(5);
    out.push_back(static_cast<uint8_t>(i));
    out.push_back(l.matched);
    for (uint32_t v : l.mv) u32(v);
    for (uint32_t v : l.idx) u32(v);
  }
  for (const MemoryRange& r : in.memory) {
    for (std::size_t k = 0; k < r.bytes.size(); k += 255) {
      const std::size_t n = std::min<std::size_t>(255, r.bytes.size() - k);
      out.push_back(3);
      out.push_back(static_cast<uint8_t>((r.space == Space::PSUM ? 0x80 : 0) | r.partition));
      u32(static_cast<uint32_t>(r.offset + k));
      out.push_back(static_cast<uint8_t>(n));
      out.insert(out.end(), r.bytes.begin() + static_cast<std::ptrdiff_t>(k),
                 r.bytes.begin() + static_cast<std::ptrdiff_t>(k + n));
    }
  }
  return out;
}

}  // namespace gpsimd::fuzz
