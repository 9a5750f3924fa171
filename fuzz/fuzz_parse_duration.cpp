// Fuzzes ParseDuration: no crash, no undefined behaviour (overflow in the
// unit arithmetic), and a parsed duration is never negative and formats.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto duration = flashmark::ParseDuration(text); duration.ok()) {
    if (duration->count() < 0) std::abort();
    (void)flashmark::FormatDuration(*duration);
  }
  return 0;
}
