// Machine state, static address decoding and the tensor walk's extents.
#include "gpsimd/machine.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "common/check.h"
#include "common/names.h"

namespace gpsimd {

std::string_view space_name(Space s) {
  return name_of(kSpaces, s, &SpaceDef::space);
}
std::optional<Space> parse_space(std::string_view s) {
  return parse_name(kSpaces, s, &SpaceDef::space);
}
std::string space_names_text(std::string_view quote) {
  return joined_names(kSpaces, quote);
}

namespace {
constexpr Named<AccessKind> kAccessNames[] = {
    {AccessKind::Read, "read"},
    {AccessKind::Write, "write"},
    {AccessKind::ReadWrite, "read-write"},
};
}  // namespace

std::string_view access_name(AccessKind a) {
  return name_of(kAccessNames, a);
}
std::optional<AccessKind> parse_access(std::string_view s) {
  return parse_name(kAccessNames, s);
}

std::string_view location_space_name(LocationSpace s) {
  return name_of(kLocationSpaceDefs, s, &LocationSpaceDef::space);
}
std::optional<LocationSpace> parse_location_space(std::string_view s) {
  return parse_name(kLocationSpaceDefs, s, &LocationSpaceDef::space);
}

void Machine::FreeDeleter::operator()(uint8_t* p) const {
  munmap(p, bytes);
}

// Each space is its own anonymous mapping: the kernel hands out zero pages, touched only
// when used, so a machine costs the same to make whatever it held before. (calloc gave
// the same zeros, but once the allocator had recycled a freed machine's block it zeroed
// the whole 28 MiB with memset on every construction.) A mapping starts on a page, so
// the partitions start on 64-byte cache lines and the kernels' vector loads and stores
// of aligned data do not straddle two lines. The mappings ask for transparent huge pages
// (where the kernel has them in its `madvise` mode, Debian's default): reading a whole
// fresh V3 SBUF then takes 14 page faults rather than 7168, which in a virtual machine
// cost more than the reading (a program-vector run, which compares the whole machine,
// went from about 95 ms to 4 ms); a first write zeroes 2 MiB rather than 4 KiB
// (docs/robustness.md has both costs).
Machine::Buffer Machine::zeroed(std::size_t n) {
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, n, MADV_HUGEPAGE);  // advice only: without huge pages, the same zeros
  return Buffer(static_cast<uint8_t*>(p), FreeDeleter{n});
}

Machine::Machine(Generation g) : gen_(g) {
  for (const SpaceDef& d : kSpaces) {
    const auto s = static_cast<std::size_t>(d.space);
    bytes_[s] = space_partition_bytes(d.space, g);
    mem_[s] = zeroed(std::size_t{kPartitions} * bytes_[s]);
  }
  accumulators.fill(kNegInfBits);
}

Machine::Machine(const Machine& o)
    : registers(o.registers),
      semaphores(o.semaphores),
      accumulators(o.accumulators),
      match(o.match),
      gen_(o.gen_),
      bytes_(o.bytes_) {
  for (std::size_t s = 0; s < kSpaceCount; ++s) {
    const std::size_t n = std::size_t{kPartitions} * bytes_[s];
    mem_[s] = zeroed(n);
    std::memcpy(mem_[s].get(), o.mem_[s].get(), n);
  }
}

Machine& Machine::operator=(const Machine& o) {
  if (this != &o) *this = Machine(o);
  return *this;
}

void Machine::bad_partition(unsigned p) {
  std::fprintf(stderr, "gpsimd: internal error: partition %u of 128\n", p);
  std::abort();
}

void Machine::reset() {
  for (Space s : kAllSpaces) {
    auto m = space(s);
    std::memset(m.data(), 0, m.size());
  }
  registers.fill(0);
  semaphores.fill(0);
  accumulators.fill(kNegInfBits);
  match.fill(MatchLane{});
}

Journal::Journal(const Machine& m)
    : registers_(m.registers),
      semaphores_(m.semaphores),
      accumulators_(m.accumulators),
      match_(m.match) {}

void Journal::save(const Machine& m, Space s, unsigned partition, uint32_t lo, uint32_t hi) {
  const std::span<const uint8_t> bytes = m.partition(s, partition).subspan(lo, hi - lo);
  ranges_.push_back(Range{s, partition, lo, hi, data_.size()});
  data_.insert(data_.end(), bytes.begin(), bytes.end());
}

void Journal::undo(Machine& m) const {
  // Newest first: a range saved twice gets its oldest bytes last.
  for (auto r = ranges_.rbegin(); r != ranges_.rend(); ++r)
    std::memcpy(m.partition(r->space, r->partition).data() + r->lo, data_.data() + r->at,
                r->hi - r->lo);
  m.registers = registers_;
  m.semaphores = semaphores_;
  m.accumulators = accumulators_;
  m.match = match_;
}

bool Machine::operator==(const Machine& o) const {
  if (gen_ != o.gen_ || registers != o.registers || semaphores != o.semaphores ||
      accumulators != o.accumulators || match != o.match)
    return false;
  for (Space s : kAllSpaces) {
    auto a = space(s), b = o.space(s);
    if (std::memcmp(a.data(), b.data(), a.size()) != 0) return false;
  }
  return true;
}

uint64_t Machine::hash() const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(gen_);
  auto mix = [&h](uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  };
  auto mix_bytes = [&](std::span<const uint8_t> b) {
    std::size_t i = 0;
    for (; i + 8 <= b.size(); i += 8) {
      uint64_t v;
      std::memcpy(&v, b.data() + i, 8);
      mix(v);
    }
    for (; i < b.size(); ++i) mix(b[i]);
  };
  for (Space s : kAllSpaces) mix_bytes(space(s));
  for (uint32_t r : registers) mix(r);
  for (uint32_t s : semaphores) mix(s);
  for (uint32_t a : accumulators) mix(a);
  for (const MatchLane& l : match) {
    for (uint32_t v : l.mv) mix(v);
    mix(l.matched);
    for (uint32_t i : l.idx) mix(i);
  }
  return h;
}

std::string static_addr_problem_text(uint32_t addr, Generation g, AddrProblem p) {
  switch (p) {
    case AddrProblem::None:
      break;
    case AddrProblem::RegisterMode:
      return "bit 31 is set (register mode), a static address is required";
    case AddrProblem::ModeBits:
      return fmt::format("mode bits 29-30 are {}, must be 0", (addr >> 29) & 3u);
    case AddrProblem::PsumOffset:
      return fmt::format("PSUM offset {:#x} is not below 16 KiB (0x4000)",
                         (addr - kPsumBase) & 0x7fffu);
    case AddrProblem::NotPsumBits:
      return fmt::format("bits 25-28 are {:#x} outside the PSUM window [0x2000000, 0x2400000)",
                         (addr >> 25) & 0xfu);
    case AddrProblem::SbufOffset:
      return fmt::format("SBUF offset {:#x} is not below the {} partition size {:#x}",
                         addr & 0x3ffffu, generation_name(g), sbuf_partition_bytes(g));
  }
  return {};
}

uint32_t encode_static_addr(const Location& loc) {
  if (loc.space == Space::PSUM) return kPsumBase + (loc.partition << 15) + loc.offset;
  return (loc.partition << 18) | loc.offset;
}

std::optional<unsigned> decode_register_addr(uint32_t addr, std::string* why) {
  if ((addr >> 31) == 0) {
    if (why) *why = "bit 31 is clear (a static address)";
    return std::nullopt;
  }
  if (addr & 0x7fffff00u) {
    if (why)
      *why =
          fmt::format("bits 8-30 are {:#x}, must be 0 in register mode", (addr & 0x7fffff00u) >> 8);
    return std::nullopt;
  }
  if ((addr & 0xffu) >= kRegisters) {
    if (why) *why = fmt::format("register id {} is not below {}", addr & 0xffu, kRegisters);
    return std::nullopt;
  }
  return addr & 0xffu;
}

bool Walk::contiguous() const {
  // Dense and increasing: each dimension continues exactly where the inner ones end
  // (dimensions of extent 1 may have any step).
  int64_t expect = 1;
  for (unsigned d = 0; d < kMaxDims; ++d) {
    if (num[d] == 1) continue;
    if (step[d] != expect) return false;
    expect *= num[d];
  }
  return true;
}

}  // namespace gpsimd
