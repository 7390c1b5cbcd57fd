// NumPy .npy files (format versions 1.0 and 2.0): how data enters and leaves a
// program (docs/assembly.md, `.load` and `.dump`).
//
// Only little-endian, C-order arrays of the element types the machine's dtypes map to
// are supported: <f4 <f2 <u2 <i2 |u1 |i1 <u4 <i4. BF16 and FP8 values travel as their
// bit patterns in <u2 and |u1 arrays (NumPy has no such types).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/types.h"

namespace gpsimd {

struct NpyArray {
  std::string descr;            // NumPy's type string, normalised: "<f4", "|u1", ...
  unsigned itemsize = 1;        // bytes per element
  std::vector<uint64_t> shape;  // empty for a 0-d array (one element)
  std::vector<uint8_t> data;    // the elements in C order, little-endian

  // Returns the number of elements (the product of the shape).
  uint64_t count() const;
};

// The largest array read_npy/parse_npy accept (1 GiB of data): anything larger is far
// beyond what fits in SBUF and is treated as a malformed file.
inline constexpr uint64_t kNpyMaxBytes = uint64_t{1} << 30;

// Parses the bytes of a .npy file. On error returns nullopt and sets `error` to a
// message that starts with `name` and says what is wrong.
std::optional<NpyArray> parse_npy(std::span<const uint8_t> bytes, std::string_view name,
                                  std::string* error);
// Reads and parses a .npy file.
std::optional<NpyArray> read_npy(const std::string& path, std::string* error);

// Returns the bytes of a version 1.0 .npy file holding the array.
std::vector<uint8_t> encode_npy(const NpyArray& a);
// Writes a .npy file; returns false and sets `error` when the file cannot be written.
bool write_npy(const std::string& path, const NpyArray& a, std::string* error);

// Returns the .npy type string a dtype's values are stored as ("<f4" for FP32, "<u2"
// for BF16, "|u1" for FP8_E4, ...), or nullopt for a dtype without one (INVALID, the
// 64-bit integers, FP4_E2, CPTC*).
std::optional<std::string_view> npy_descr(Dtype dt);

}  // namespace gpsimd
