// Sort's order key (SPEC §4.4), for the reference.
#include "atoms/sort_key.h"

#include "gpsimd/model.h"

namespace gpsimd::detail {

// The unsigned key of a value that orders as SPEC §4.4 says (see model.h).
uint32_t sort_key(Dtype dt, uint32_t bits) {
  switch (dt) {
    case Dtype::FP16:
      return model::sort_key_float(bits, 5, 16);
    case Dtype::BF16:
      return model::sort_key_float(bits, 8, 16);
    case Dtype::FP32:
      return model::sort_key_float(bits, 8, 32);
    case Dtype::INT16:
      return model::sort_key_int(bits, 16, true);
    case Dtype::UINT16:
      return model::sort_key_int(bits, 16, false);
    case Dtype::INT32:
      return model::sort_key_int(bits, 32, true);
    default:
      return model::sort_key_int(bits, 32, false);
  }
}

}  // namespace gpsimd::detail
