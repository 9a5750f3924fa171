// Fuzzes the size parsers (ParseSize, ParseSizeOrShare, ParsePercent) and
// checks what they promise: a parsed size formats without trouble and a
// share lies in (0, 1].
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto bytes = flashmark::ParseSize(text); bytes.ok()) {
    (void)flashmark::FormatBytes(*bytes);
  }
  if (auto share = flashmark::ParsePercent(text); share.ok()) {
    if (!(*share > 0 && *share <= 1)) std::abort();
  }
  if (auto either = flashmark::ParseSizeOrShare(text); either.ok()) {
    if (either->share < 0 || either->share > 1) std::abort();
  }
  return 0;
}
