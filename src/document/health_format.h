// DeviceHealth as text and JSON, for `devices`, `show` and stored runs.
// Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/device_health.h"

namespace flashmark {

// "(smartctl): passed, 3 % of rated wear used, 12.0 TiB written, ..." or
// the reason there is none ("no SMART on virtio devices").
std::string HealthText(const DeviceHealth& health);
// "health (smartctl): passed, ..." or "health: no SMART on virtio devices".
std::string HealthLine(const DeviceHealth& health);

// Every field, null where unknown.
nlohmann::json HealthJson(const DeviceHealth& health);
DeviceHealth HealthFromJson(const nlohmann::json& value);

}  // namespace flashmark
