// DeviceHealth as runs store it (JSON) and as `devices` and `show` print it.
#include "document/health_format.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

TEST(HealthFormat, JsonRoundTripKeepsKnownAndUnknownFields) {
  DeviceHealth health;
  health.source = "smartctl";
  health.passed = true;
  health.percentage_used = 7;
  health.bytes_written = 512000000000u;
  health.temperature_celsius = 36;
  const nlohmann::json value = HealthJson(health);
  EXPECT_TRUE(value["media_errors"].is_null());
  EXPECT_TRUE(value["unavailable"].is_null());
  const DeviceHealth back = HealthFromJson(value);
  EXPECT_EQ(back.source, "smartctl");
  EXPECT_EQ(back.passed, true);
  EXPECT_EQ(back.percentage_used, 7);
  EXPECT_FALSE(back.media_errors.has_value());
  EXPECT_EQ(back.bytes_written, 512000000000u);
  EXPECT_FALSE(back.power_on_hours.has_value());
  EXPECT_EQ(back.temperature_celsius, 36);
  EXPECT_EQ(HealthLine(back),
            "health (smartctl): passed, 7 % of rated wear used, 477 GiB "
            "written, 36 C");
}

TEST(HealthFormat, UnavailableSaysWhyAndBadJsonGivesNothing) {
  DeviceHealth none;
  none.unavailable = "no SMART on loop devices";
  EXPECT_EQ(HealthLine(HealthFromJson(HealthJson(none))),
            "health: no SMART on loop devices");
  const DeviceHealth odd = HealthFromJson(nlohmann::json::parse(
      R"({"source": 3, "passed": "yes", "percentage_used": "7"})"));
  EXPECT_EQ(odd.source, "");
  EXPECT_FALSE(odd.passed.has_value());
  EXPECT_FALSE(odd.percentage_used.has_value());
  DeviceHealth nothing;
  nothing.source = "nvme";
  EXPECT_EQ(HealthLine(nothing), "health (nvme): no figures reported");
}

}  // namespace
}  // namespace flashmark
