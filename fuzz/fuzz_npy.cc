// Parses arbitrary bytes as a .npy file and checks:
//  - a rejected file gets an error that starts with the file's name;
//  - an accepted array holds exactly shape-product x itemsize bytes, and encode_npy
//    writes it back as a file that parses to the same array.
#include <cstdint>
#include <span>
#include <string>

#include "fuzz_util.h"
#include "gpsimd/npy.h"

namespace gpsimd::fuzz {

void run_one(const uint8_t* data, std::size_t size) {
  std::string error;
  const auto a = parse_npy(std::span<const uint8_t>(data, size), "fuzz.npy", &error);
  if (!a) {
    GPSIMD_FUZZ_CHECK(error.rfind("fuzz.npy: ", 0) == 0 && error.size() > 10,
                      "error does not name the file: '{}'", error);
    return;
  }
  GPSIMD_FUZZ_CHECK(a->count() * a->itemsize == a->data.size() && a->data.size() <= size,
                    "array of {} elements x {} bytes holds {} bytes", a->count(), a->itemsize,
                    a->data.size());
  const std::vector<uint8_t> bytes = encode_npy(*a);
  std::string error2;
  const auto b = parse_npy(bytes, "encoded.npy", &error2);
  GPSIMD_FUZZ_CHECK(b.has_value(), "encode_npy wrote a file that does not parse: {}", error2);
  GPSIMD_FUZZ_CHECK(b->descr == a->descr && b->itemsize == a->itemsize && b->shape == a->shape &&
                        b->data == a->data,
                    "encode_npy round trip changed the array ({} -> {})", a->descr, b->descr);
}

}  // namespace gpsimd::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  gpsimd::fuzz::run_one(data, size);
  return 0;
}
