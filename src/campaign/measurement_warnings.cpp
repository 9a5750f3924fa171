#include "campaign/measurement_warnings.h"

#include <fmt/format.h>

#include "common/units.h"
#include "engine/engine_registry.h"

namespace flashmark {

std::vector<std::string> MeasurementWarnings(const JobSpec& spec,
                                             const Environment& environment) {
  std::vector<std::string> warnings;
  const EngineInfo* engine = FindEngine(spec.engine);
  const uint32_t capabilities = engine != nullptr ? engine->capabilities : 0;
  // (NVMe commands bypass the page cache whatever --direct says.)
  const bool cacheless =
      (capabilities & (kCapDiskless | kCapNvmeCommands)) != 0;
  uint64_t bytes = 0;
  for (const TargetInfo& target : environment.targets) bytes += target.bytes;
  if (!spec.direct && !cacheless && bytes > 0 &&
      bytes <= environment.memory_bytes) {
    const bool can_direct = (capabilities & kCapDirectIo) != 0;
    warnings.push_back(fmt::format(
        "the targets ({}) fit in this machine's memory ({}) and {}: this run "
        "measures the page cache, not the device; {}, or a --size larger "
        "than memory",
        FormatBytes(bytes), FormatBytes(environment.memory_bytes),
        can_direct ? "--direct is off"
                   : fmt::format("the {} engine cannot bypass it", spec.engine),
        can_direct ? "add --direct"
                   : "use --engine psync, libaio or io_uring with --direct"));
  }
  return warnings;
}

}  // namespace flashmark
