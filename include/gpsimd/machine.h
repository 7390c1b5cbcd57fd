// The machine model (SPEC §2): plain state plus bounds-checked address resolution
// (SPEC §3.4) and the N-D tensor walk (SPEC §3.5), shared by every instruction.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/types.h"

namespace gpsimd {

// The memory spaces (SPEC §2): SBUF and PSUM, each 128 partitions of bytes.
enum class Space : uint8_t { SBUF, PSUM };

// The kinds of location the race detector compares, in SPEC §8.6's order: SBUF bytes,
// PSUM bytes, accumulators acc[p], search lanes lane[p] (one location per lane).
enum class LocationSpace : uint8_t { SBUF, PSUM, ACC, MATCH };

// A memory space as data: the machine's buffers, the names and the loops over the spaces
// come from these rows. (The static ADDR4 encoding of SPEC §3.4 stays with its decoder,
// check_static_addr below: the PSUM window is tested before the SBUF bits.)
struct SpaceDef {
  Space space;
  // "sbuf": as printed and parsed (the assembly's sbuf[...], dumps, SPEC §7 and §8.8).
  std::string_view name;
  // "SBUF": as messages and `explain` name it.
  std::string_view upper;
  // Bytes per partition on a generation (SBUF: sbuf_partition_bytes; PSUM: 16 KiB).
  uint32_t (*partition_bytes)(Generation g);
  // The kind of location its bytes are (SPEC §8.6).
  LocationSpace location;
};

// One row per Space value, in the enum's order (row i is Space(i)).
inline constexpr std::array kSpaces = {
    SpaceDef{Space::SBUF, "sbuf", "SBUF", [](Generation g) { return sbuf_partition_bytes(g); },
             LocationSpace::SBUF},
    SpaceDef{Space::PSUM, "psum", "PSUM", [](Generation) { return uint32_t{kPsumPartitionBytes}; },
             LocationSpace::PSUM},
};
inline constexpr std::size_t kSpaceCount = kSpaces.size();
static_assert([] {
  for (std::size_t i = 0; i < kSpaceCount; ++i)
    if (static_cast<std::size_t>(kSpaces[i].space) != i) return false;
  return true;
}());
constexpr const SpaceDef& space_def(Space s) {
  return kSpaces[static_cast<std::size_t>(s)];
}
// Every memory space, in the table's order.
inline constexpr std::array<Space, kSpaceCount> kAllSpaces = [] {
  std::array<Space, kSpaceCount> a{};
  for (std::size_t i = 0; i < kSpaceCount; ++i) a[i] = kSpaces[i].space;
  return a;
}();
// Bytes per partition of a memory space on generation g.
constexpr uint32_t space_partition_bytes(Space s, Generation g) {
  return space_def(s).partition_bytes(g);
}
std::string_view space_name(Space s);  // "sbuf" / "psum"
// Parses exactly a space's name ("sbuf", "psum"); nullopt otherwise.
std::optional<Space> parse_space(std::string_view s);
// The spaces' names for messages, each between `quote`s: "'sbuf' or 'psum'".
std::string space_names_text(std::string_view quote);

// A kind of location as data (SPEC §8.6, §8.8), in SPEC §8.6's order.
struct LocationSpaceDef {
  LocationSpace space;
  // "sbuf", "psum", "acc", "match" (SPEC §8.8's names).
  std::string_view name;
  // The memory space whose bytes these locations are (with offsets); nullopt for one
  // location per partition (an accumulator, a search lane).
  std::optional<Space> memory;
};
inline constexpr std::array kLocationSpaceDefs = {
    LocationSpaceDef{LocationSpace::SBUF, "sbuf", Space::SBUF},
    LocationSpaceDef{LocationSpace::PSUM, "psum", Space::PSUM},
    LocationSpaceDef{LocationSpace::ACC, "acc", std::nullopt},
    LocationSpaceDef{LocationSpace::MATCH, "match", std::nullopt},
};
inline constexpr std::size_t kLocationSpaceCount = kLocationSpaceDefs.size();
static_assert([] {
  for (std::size_t i = 0; i < kLocationSpaceCount; ++i)
    if (static_cast<std::size_t>(kLocationSpaceDefs[i].space) != i) return false;
  for (const SpaceDef& d : kSpaces) {
    const LocationSpaceDef& l = kLocationSpaceDefs[static_cast<std::size_t>(d.location)];
    if (l.memory != d.space || l.name != d.name) return false;
  }
  return true;
}());
constexpr const LocationSpaceDef& location_space_def(LocationSpace s) {
  return kLocationSpaceDefs[static_cast<std::size_t>(s)];
}

// ---- locations and accesses (SPEC §8.5) --------------------------------------------------
// What an instruction's footprint says it touches (src/ops/) and what the race detector of
// programs compares (program.h).

// How a word touches a location: read, write, or both (read-write).
enum class AccessKind : uint8_t { Read = 1, Write = 2, ReadWrite = 3 };
// "read", "write", "read-write".
std::string_view access_name(AccessKind a);
std::optional<AccessKind> parse_access(std::string_view s);

// "sbuf", "psum", "acc", "match" (SPEC §8.8's names).
std::string_view location_space_name(LocationSpace s);
std::optional<LocationSpace> parse_location_space(std::string_view s);

inline constexpr uint32_t kNegInfBits = 0xff800000u;  // a fresh accumulator

// One lane of the DVE search state (SPEC §2): eight FP32 match values, their matched
// flags (bit n = slot n) and the index each slot found. A fresh lane is the state
// MatchValueLoad leaves after loading eight +0.0 keys.
inline constexpr uint32_t kNoMatchIndex = 0xffffffffu;
struct MatchLane {
  std::array<uint32_t, 8> mv{};  // FP32 bit patterns
  uint8_t matched = 0;
  std::array<uint32_t, 8> idx{kNoMatchIndex, kNoMatchIndex, kNoMatchIndex, kNoMatchIndex,
                              kNoMatchIndex, kNoMatchIndex, kNoMatchIndex, kNoMatchIndex};
  bool operator==(const MatchLane&) const = default;
  bool fresh() const { return *this == MatchLane{}; }
};

class Machine {
 public:
  explicit Machine(Generation g = Generation::V3);
  Machine(const Machine& other);
  Machine& operator=(const Machine& other);
  Machine(Machine&&) noexcept = default;
  Machine& operator=(Machine&&) noexcept = default;

  Generation generation() const { return gen_; }
  // Bytes per partition of a memory space on this machine's generation.
  uint32_t partition_bytes(Space s) const { return bytes_[static_cast<std::size_t>(s)]; }
  // One partition of a memory space (partition < 128; beyond it, an internal error).
  std::span<uint8_t> partition(Space s, unsigned p) {
    if (p >= kPartitions) bad_partition(p);
    const std::size_t n = partition_bytes(s);
    return {base(s) + p * n, n};
  }
  std::span<const uint8_t> partition(Space s, unsigned p) const {
    return const_cast<Machine*>(this)->partition(s, p);
  }
  // The whole space, partition after partition.
  std::span<uint8_t> space(Space s) {
    return {base(s), std::size_t{kPartitions} * partition_bytes(s)};
  }
  std::span<const uint8_t> space(Space s) const { return const_cast<Machine*>(this)->space(s); }

  std::array<uint32_t, kRegisters> registers{};
  std::array<uint32_t, kSemaphores> semaphores{};
  // FP32 bit patterns, one per partition.
  std::array<uint32_t, kPartitions> accumulators{};
  // The DVE search state, one lane per partition (fresh lanes at construction).
  std::array<MatchLane, kPartitions> match{};

  // Back to the state of a fresh machine: memory, registers, semaphores zero,
  // accumulators -inf, search lanes fresh.
  void reset();
  // Whole-state equality and a 64-bit hash of the whole state (memory included).
  bool operator==(const Machine& other) const;
  uint64_t hash() const;

 private:
  // Memory blocks are fresh anonymous mappings (page aligned, zero until written, and
  // only the pages an instruction touches are ever backed); `bytes` is the mapping's
  // length, for unmapping it.
  // (Constructors rather than a member initializer: a Buffer in an array needs the
  // deleter default-constructible while Machine is still incomplete.)
  struct FreeDeleter {
    FreeDeleter() noexcept : bytes(0) {}
    explicit FreeDeleter(std::size_t n) noexcept : bytes(n) {}
    std::size_t bytes;
    void operator()(uint8_t* p) const;
  };
  using Buffer = std::unique_ptr<uint8_t[], FreeDeleter>;
  static Buffer zeroed(std::size_t n);
  uint8_t* base(Space s) { return mem_[static_cast<std::size_t>(s)].get(); }
  [[noreturn]] static void bad_partition(unsigned p);

  Generation gen_;
  std::array<uint32_t, kSpaceCount> bytes_{};  // bytes per partition, a space per row
  std::array<Buffer, kSpaceCount> mem_;
};

// An undo journal: what a batch of writes replaced, so that the batch can be undone
// (all-or-nothing for several words, a failed setup) without copying the machine. The
// small state (registers, semaphores, accumulators, search lanes: about 9 KiB) is saved
// whole when the journal starts; memory one range at a time, by whoever is about to write
// it (the Writer of each word, as it hands a destination out; the setup directives).
class Journal {
 public:
  explicit Journal(const Machine& m);
  // Saves bytes [lo, hi) of a partition as they are now (before a write).
  void save(const Machine& m, Space s, unsigned partition, uint32_t lo, uint32_t hi);
  // Puts everything saved back, newest first, so the machine is as it was when the
  // journal started.
  void undo(Machine& m) const;
  // The memory bytes saved so far.
  std::size_t bytes() const { return data_.size(); }

 private:
  struct Range {
    Space space;
    unsigned partition;
    uint32_t lo, hi;
    std::size_t at;  // where its bytes start in data_
  };
  std::vector<Range> ranges_;
  std::vector<uint8_t> data_;
  std::array<uint32_t, kRegisters> registers_;
  std::array<uint32_t, kSemaphores> semaphores_;
  std::array<uint32_t, kPartitions> accumulators_;
  std::array<MatchLane, kPartitions> match_;
};

// A resolved static address: a memory space, a partition and a byte offset in it.
struct Location {
  Space space = Space::SBUF;
  uint32_t partition = 0;
  uint32_t offset = 0;
  bool operator==(const Location&) const = default;
};

inline constexpr uint32_t kPsumBase = 0x2000000u;
inline constexpr uint32_t kPsumWindowEnd = 0x2400000u;  // 128 partitions of 32 KiB stride

// The rule a static ADDR4 breaks, if any (see decode_static_addr).
enum class AddrProblem : uint8_t {
  None,
  RegisterMode,
  ModeBits,
  PsumOffset,
  NotPsumBits,
  SbufOffset
};
struct StaticAddr {
  Location loc;
  AddrProblem problem = AddrProblem::None;
};
// The arithmetic of decode_static_addr, inline: validation and execution run it for
// every tensor operand (SPEC §3.4).
constexpr StaticAddr check_static_addr(uint32_t addr, Generation g) {
  if (addr >> 31) return {{}, AddrProblem::RegisterMode};
  if ((addr >> 29) & 3u) return {{}, AddrProblem::ModeBits};
  if (addr >= kPsumBase && addr < kPsumWindowEnd) {
    const uint32_t rel = addr - kPsumBase;
    const uint32_t off = rel & 0x7fffu;
    if (off >= kPsumPartitionBytes) return {{}, AddrProblem::PsumOffset};
    return {Location{Space::PSUM, rel >> 15, off}, AddrProblem::None};
  }
  if ((addr >> 25) & 0xfu) return {{}, AddrProblem::NotPsumBits};
  const uint32_t off = addr & 0x3ffffu;
  if (off >= sbuf_partition_bytes(g)) return {{}, AddrProblem::SbufOffset};
  return {Location{Space::SBUF, (addr >> 18) & 0x7fu, off}, AddrProblem::None};
}
// The start partition of a static ADDR4 whose partition bits can be read (SPEC §3.6,
// start_addr_active_channels): a well-formed address, or one whose only problem is its
// offset (an SBUF offset >= P, a PSUM offset >= 16 KiB); nullopt when the partition cannot
// be decoded (register mode, mode bits, bits 25-28 outside the PSUM window).
constexpr std::optional<uint32_t> static_start_partition(uint32_t addr, Generation g) {
  const StaticAddr a = check_static_addr(addr, g);
  switch (a.problem) {
    case AddrProblem::None:
      return a.loc.partition;
    case AddrProblem::SbufOffset:
      return (addr >> 18) & 0x7fu;
    case AddrProblem::PsumOffset:
      return (addr - kPsumBase) >> 15;
    default:
      return std::nullopt;
  }
}
// The text of a problem check_static_addr found in `addr`.
std::string static_addr_problem_text(uint32_t addr, Generation g, AddrProblem p);

// Decodes a static ADDR4 (bit 31 clear) for a generation. Returns the location, or
// nullopt with `why` set to the rule it breaks (mode bits, bits 25-28, offset range).
inline std::optional<Location> decode_static_addr(uint32_t addr, Generation g,
                                                  std::string* why = nullptr) {
  const StaticAddr r = check_static_addr(addr, g);
  if (r.problem == AddrProblem::None) return r.loc;
  if (why) *why = static_addr_problem_text(addr, g, r.problem);
  return std::nullopt;
}
// The ADDR4 of a location (the inverse of decode_static_addr).
uint32_t encode_static_addr(const Location& loc);

// A register-mode ADDR4 (bit 31 set) is well-formed when bits 8-30 are zero and byte 0
// names a register < 64. Returns the register id, or nullopt with `why`.
std::optional<unsigned> decode_register_addr(uint32_t addr, std::string* why = nullptr);

// The N-D walk of SPEC §3.5 over one partition: ordinal j visits the byte offset
// start + (Σ i[d] * step[d]) * elem.
struct Walk {
  int64_t start = 0;  // byte offset in the partition
  unsigned elem = 1;  // element size in bytes
  unsigned dims = 1;
  std::array<int64_t, kMaxDims> step{};  // in elements
  std::array<uint32_t, kMaxDims> num{1, 1, 1, 1};

  static Walk of(const TensorDesc& t, uint32_t start_offset, unsigned elem) {
    Walk w;
    w.start = start_offset;
    w.elem = elem;
    w.dims = t.dims;
    for (unsigned d = 0; d < t.dims && d < kMaxDims; ++d) {
      w.step[d] = t.step[d];
      w.num[d] = t.num[d];
    }
    return w;
  }
  uint64_t count() const { return uint64_t{num[0]} * num[1] * num[2] * num[3]; }
  // Lowest and one-past-highest byte offset any element touches.
  // (Dimensions past `dims` have num 1 and add nothing.)
  int64_t lo() const {
    int64_t e = 0;
    for (unsigned d = 0; d < dims; ++d)
      if (num[d] > 0 && step[d] < 0) e += step[d] * (int64_t{num[d]} - 1);
    return start + e * elem;
  }
  int64_t hi() const {
    int64_t e = 0;
    for (unsigned d = 0; d < dims; ++d)
      if (num[d] > 0 && step[d] > 0) e += step[d] * (int64_t{num[d]} - 1);
    return start + e * elem + elem;
  }
  // True when the walk visits [lo, hi) densely in increasing order, element after element.
  bool contiguous() const;

  // Calls f(j, byte_offset) for each ordinal j in walk order.
  template <class F>
  void for_each(F&& f) const {
    uint64_t j = 0;
    const int64_t s0 = step[0] * elem, s1 = step[1] * elem, s2 = step[2] * elem,
                  s3 = step[3] * elem;
    int64_t b3 = start;
    for (uint32_t i3 = 0; i3 < num[3]; ++i3, b3 += s3) {
      int64_t b2 = b3;
      for (uint32_t i2 = 0; i2 < num[2]; ++i2, b2 += s2) {
        int64_t b1 = b2;
        for (uint32_t i1 = 0; i1 < num[1]; ++i1, b1 += s1) {
          int64_t b0 = b1;
          for (uint32_t i0 = 0; i0 < num[0]; ++i0, b0 += s0) f(j++, static_cast<uint32_t>(b0));
        }
      }
    }
  }
};

// The ramp of SPEC §3.7 for one channel: a DATA4D walked like a tensor (dimension 0
// innermost), whose ordinal j has the value
//   base + Σ i[d] * step_elem[d] + c * channel_multiplier      (wrapping int32, model.h)
// where c counts from the operand's start partition.
struct Ramp {
  uint32_t start = 0;                     // base + c * channel_multiplier, modulo 2^32
  std::array<uint32_t, kMaxDims> step{};  // step_elem as 32-bit two's complement
  std::array<uint32_t, kMaxDims> num{1, 1, 1, 1};

  static Ramp of(const TensorDesc& pattern, int32_t channel_multiplier, unsigned c) {
    Ramp r;
    const uint32_t per_channel = static_cast<uint32_t>(channel_multiplier) * c;  // wraps
    r.start = model::ramp_add(pattern.addr, per_channel);
    for (unsigned d = 0; d < kMaxDims; ++d) {
      r.step[d] = static_cast<uint32_t>(static_cast<int32_t>(pattern.step[d]));
      r.num[d] = pattern.num[d];
    }
    return r;
  }
  uint64_t count() const { return uint64_t{num[0]} * num[1] * num[2] * num[3]; }

  // Calls f(j, value) for each ordinal j in walk order.
  template <class F>
  void for_each(F&& f) const {
    uint64_t j = 0;
    uint32_t v3 = start;
    for (uint32_t i3 = 0; i3 < num[3]; ++i3, v3 = model::ramp_add(v3, step[3])) {
      uint32_t v2 = v3;
      for (uint32_t i2 = 0; i2 < num[2]; ++i2, v2 = model::ramp_add(v2, step[2])) {
        uint32_t v1 = v2;
        for (uint32_t i1 = 0; i1 < num[1]; ++i1, v1 = model::ramp_add(v1, step[1])) {
          uint32_t v0 = v1;
          for (uint32_t i0 = 0; i0 < num[0]; ++i0, v0 = model::ramp_add(v0, step[0]))
            f(j++, model::ramp_value(v0));
        }
      }
    }
  }
};

}  // namespace gpsimd
