#include "campaign/measurement_warnings.h"

#include <fmt/format.h>

#include "common/units.h"
#include "engine/engine_registry.h"

namespace flashmark {

std::vector<std::string> MeasurementWarnings(const JobSpec& spec,
                                             const Environment& environment) {
  std::vector<std::string> warnings;
  const EngineInfo* engine = FindEngine(spec.engine);
  const bool diskless =
      engine != nullptr && (engine->capabilities & kCapDiskless) != 0;
  uint64_t bytes = 0;
  for (const TargetInfo& target : environment.targets) bytes += target.bytes;
  if (!spec.direct && !diskless && bytes > 0 &&
      bytes <= environment.memory_bytes) {
    warnings.push_back(fmt::format(
        "the targets ({}) fit in this machine's memory ({}) and --direct is "
        "off: this run measures the page cache, not the device; add "
        "--direct, or a --size larger than memory",
        FormatBytes(bytes), FormatBytes(environment.memory_bytes)));
  }
  return warnings;
}

}  // namespace flashmark
