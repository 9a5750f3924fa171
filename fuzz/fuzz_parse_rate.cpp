// Fuzzes ParseRate: exactly one of IOPS and bytes per second is set, and
// neither is negative or NaN.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto rate = flashmark::ParseRate(text); rate.ok()) {
    const bool iops = rate->iops != 0;
    const bool bytes = rate->bytes_per_second != 0;
    if (iops == bytes) std::abort();
    if (!(rate->iops >= 0) || !(rate->bytes_per_second >= 0)) std::abort();
  }
  return 0;
}
