// Fuzzes ParseBlockSizeMix and checks its contract on every accepted mix:
// weights add up to 100, each size is a positive multiple of 512 of at
// most 64 MiB, and the mix's text parses back to the same mix.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/workload_parse.h"
#include "model/job_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using flashmark::BlockSizeWeight;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto mix = flashmark::ParseBlockSizeMix(text);
  if (!mix.ok()) return 0;
  uint32_t total = 0;
  for (const BlockSizeWeight& entry : *mix) {
    if (entry.bytes == 0 || entry.bytes % 512 != 0 ||
        entry.bytes > (64u << 20)) {
      std::abort();
    }
    total += entry.weight;
  }
  if (mix->empty() || total != 100) std::abort();
  if (flashmark::BlockAlignment(*mix) == 0) std::abort();
  auto again = flashmark::ParseBlockSizeMix(flashmark::BlockSizesText(*mix));
  if (!again.ok() || again->size() != mix->size()) std::abort();
  for (size_t i = 0; i < mix->size(); ++i) {
    if ((*again)[i].bytes != (*mix)[i].bytes ||
        (*again)[i].weight != (*mix)[i].weight) {
      std::abort();
    }
  }
  return 0;
}
