// Fast kernels: none yet, every case runs the scalar reference.
#include "kernels/kernels.h"

namespace gpsimd::kernels {

bool range_select_channel(const uint8_t*, const Walk&, Dtype, float, uint8_t, float, uint8_t,
                          float, uint32_t*) {
  return false;
}
bool store_converted(uint8_t*, const Walk&, Dtype, const uint32_t*) { return false; }
bool select_copy(uint8_t*, const Walk&, const uint8_t*, const Walk&, unsigned, bool, uint32_t) {
  return false;
}
bool sort_channel(Dtype, bool, const uint32_t*, unsigned, unsigned, uint32_t, uint32_t*) {
  return false;
}

}  // namespace gpsimd::kernels
