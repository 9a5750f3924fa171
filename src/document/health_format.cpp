#include "document/health_format.h"

#include <fmt/format.h>

#include <vector>

#include "common/units.h"

namespace flashmark {

using nlohmann::json;

std::string HealthText(const DeviceHealth& health) {
  if (!health.unavailable.empty()) return health.unavailable;
  std::vector<std::string> parts;
  if (health.passed) parts.push_back(*health.passed ? "passed" : "FAILED");
  if (health.percentage_used) {
    parts.push_back(
        fmt::format("{} % of rated wear used", *health.percentage_used));
  }
  if (health.media_errors) {
    parts.push_back(fmt::format("{} media errors", *health.media_errors));
  }
  if (health.bytes_written) {
    parts.push_back(FormatBytes(*health.bytes_written) + " written");
  }
  if (health.media_bytes_written) {
    parts.push_back(FormatBytes(*health.media_bytes_written) +
                    " written to the media");
  }
  if (health.host_program_pages && health.background_program_pages) {
    parts.push_back(fmt::format("{} host and {} background program pages",
                                *health.host_program_pages,
                                *health.background_program_pages));
  }
  if (health.power_on_hours) {
    parts.push_back(fmt::format("{} h powered on", *health.power_on_hours));
  }
  if (health.temperature_celsius) {
    parts.push_back(fmt::format("{} C", *health.temperature_celsius));
  }
  if (parts.empty())
    return fmt::format("({}): no figures reported", health.source);
  return fmt::format("({}): {}", health.source, fmt::join(parts, ", "));
}

std::string HealthLine(const DeviceHealth& health) {
  const std::string text = HealthText(health);
  return (text[0] == '(' ? "health " : "health: ") + text;
}

json HealthJson(const DeviceHealth& health) {
  auto optional = [](const auto& value) -> json {
    return value ? json(*value) : json(nullptr);
  };
  return {
      {"source", health.source.empty() ? json(nullptr) : json(health.source)},
      {"unavailable",
       health.unavailable.empty() ? json(nullptr) : json(health.unavailable)},
      {"passed", optional(health.passed)},
      {"percentage_used", optional(health.percentage_used)},
      {"media_errors", optional(health.media_errors)},
      {"bytes_written", optional(health.bytes_written)},
      {"power_on_hours", optional(health.power_on_hours)},
      {"temperature_celsius", optional(health.temperature_celsius)},
      {"media_bytes_written", optional(health.media_bytes_written)},
      {"warning_temperature_minutes",
       optional(health.warning_temperature_minutes)},
      {"critical_temperature_minutes",
       optional(health.critical_temperature_minutes)},
      {"thermal_throttle_events", optional(health.thermal_throttle_events)},
      {"media_counter", health.media_counter.empty()
                            ? json(nullptr)
                            : json(health.media_counter)},
      {"media_step_bytes", health.media_step_bytes == 0
                               ? json(nullptr)
                               : json(health.media_step_bytes)},
      {"host_program_pages", optional(health.host_program_pages)},
      {"background_program_pages", optional(health.background_program_pages)},
      {"media_note",
       health.media_note.empty() ? json(nullptr) : json(health.media_note)}};
}

namespace {

template <typename T>
std::optional<T> Optional(const json& value, const char* key) {
  const auto found = value.find(key);
  if (found == value.end() || found->is_null()) return std::nullopt;
  if constexpr (std::is_same_v<T, bool>) {
    if (!found->is_boolean()) return std::nullopt;
  } else if (!found->is_number()) {
    return std::nullopt;
  }
  return found->get<T>();
}

std::string Text(const json& value, const char* key) {
  const auto found = value.find(key);
  return found != value.end() && found->is_string() ? found->get<std::string>()
                                                    : "";
}

}  // namespace

DeviceHealth HealthFromJson(const json& value) {
  DeviceHealth health;
  if (!value.is_object()) return health;
  health.source = Text(value, "source");
  health.unavailable = Text(value, "unavailable");
  health.passed = Optional<bool>(value, "passed");
  health.percentage_used = Optional<int>(value, "percentage_used");
  health.media_errors = Optional<uint64_t>(value, "media_errors");
  health.bytes_written = Optional<uint64_t>(value, "bytes_written");
  health.power_on_hours = Optional<uint64_t>(value, "power_on_hours");
  health.temperature_celsius = Optional<int>(value, "temperature_celsius");
  health.media_bytes_written = Optional<uint64_t>(value, "media_bytes_written");
  health.warning_temperature_minutes =
      Optional<uint64_t>(value, "warning_temperature_minutes");
  health.critical_temperature_minutes =
      Optional<uint64_t>(value, "critical_temperature_minutes");
  health.thermal_throttle_events =
      Optional<uint64_t>(value, "thermal_throttle_events");
  health.media_counter = Text(value, "media_counter");
  health.media_step_bytes =
      Optional<uint64_t>(value, "media_step_bytes").value_or(0);
  health.host_program_pages = Optional<uint64_t>(value, "host_program_pages");
  health.background_program_pages =
      Optional<uint64_t>(value, "background_program_pages");
  health.media_note = Text(value, "media_note");
  return health;
}

}  // namespace flashmark
