// The write counters of SMART and the NVMe logs, parsed from canned tool
// output (tests/fixtures/smart, where each file comes from is in its
// README): exact host and media figures, and notes where a counter is not
// known.
#include "system/write_counters.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "document/health_format.h"
#include "system/device_health.h"

namespace flashmark {
namespace {

using nlohmann::json;

constexpr uint64_t kCounterMiB = uint64_t{1} << 20;
constexpr uint64_t kCounterGiB = uint64_t{1} << 30;

std::string SmartFixture(const std::string& name) {
  std::ifstream in(std::string(FLASHMARK_FIXTURES) + "/smart/" + name);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

// The bytes of an `xxd` dump ("00000000: 0040 acd1 ...  ascii").
std::string FromXxd(const std::string& dump) {
  std::string bytes;
  std::istringstream lines(dump);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t colon = line.find(": ");
    const size_t text = line.find("  ", colon + 2);
    const std::string hex = line.substr(colon + 2, text - colon - 2);
    std::string digits;
    for (char c : hex) {
      if (c != ' ') digits += c;
    }
    for (size_t k = 0; k + 1 < digits.size(); k += 2) {
      bytes += static_cast<char>(std::stoi(digits.substr(k, 2), nullptr, 16));
    }
  }
  return bytes;
}

DeviceHealth Smartctl(const std::string& name) {
  return ParseSmartctlJson(json::parse(SmartFixture(name)));
}

TEST(WriteCounters, OcpExtendedSmartLogGivesPhysicalMediaUnitsWritten) {
  const std::string page = FromXxd(SmartFixture("ocp_c0_page.xxd"));
  ASSERT_EQ(page.size(), 512u);
  EXPECT_TRUE(IsOcpSmartExtendedLog(page));
  DeviceHealth health;
  AddOcpSmartExtendedLog(page, health);
  EXPECT_EQ(health.media_bytes_written, 58329173606400u);
  EXPECT_EQ(health.media_counter, "OCP C0h Physical Media Units Written");
  EXPECT_EQ(health.media_step_bytes, 1u);
  EXPECT_TRUE(health.media_note.empty());
  // Kept through the run document.
  const DeviceHealth back = HealthFromJson(HealthJson(health));
  EXPECT_EQ(back.media_bytes_written, 58329173606400u);
  EXPECT_EQ(back.media_counter, health.media_counter);
  EXPECT_EQ(back.media_step_bytes, 1u);
}

TEST(WriteCounters, AnotherVendorsC0hPageOrAShortOneIsANoteNotAFigure) {
  DeviceHealth vendor;
  AddOcpSmartExtendedLog(FromXxd(SmartFixture("vendor_c0_page.xxd")), vendor);
  EXPECT_FALSE(vendor.media_bytes_written.has_value());
  EXPECT_NE(vendor.media_note.find("not the OCP extended SMART log"),
            std::string::npos);
  DeviceHealth short_page;
  AddOcpSmartExtendedLog(
      FromXxd(SmartFixture("ocp_c0_page.xxd")).substr(0, 256), short_page);
  EXPECT_FALSE(short_page.media_bytes_written.has_value());
  EXPECT_NE(short_page.media_note.find("256 bytes"), std::string::npos);
  // Beyond 64 bits: not cut to its low half.
  std::string huge = FromXxd(SmartFixture("ocp_c0_page.xxd"));
  huge[8] = 1;
  DeviceHealth big;
  AddOcpSmartExtendedLog(huge, big);
  EXPECT_FALSE(big.media_bytes_written.has_value());
  EXPECT_NE(big.media_note.find("2^64"), std::string::npos);
}

TEST(WriteCounters, MicronProgramPagesFromPublishedSmartctlOutput) {
  const DeviceHealth health = Smartctl("micron_smartctl.json");
  EXPECT_EQ(health.bytes_written, uint64_t{619033175} * 512);  // 246 Total_LBAs
  EXPECT_EQ(health.host_program_pages, 19344786u);
  EXPECT_EQ(health.background_program_pages, 16994048u);
  EXPECT_FALSE(health.media_bytes_written.has_value());  // page size untold
  EXPECT_NE(health.media_counter.find("247/248"), std::string::npos);
  const DeviceHealth back = HealthFromJson(HealthJson(health));
  EXPECT_EQ(back.host_program_pages, 19344786u);
  EXPECT_EQ(back.background_program_pages, 16994048u);
}

TEST(WriteCounters, IntelCountsIn32MiBUnitsByName) {
  const DeviceHealth health = Smartctl("intel_s3610_smartctl.json");
  EXPECT_EQ(health.bytes_written, 1500000u * 32 * kCounterMiB);  // not x 512
  EXPECT_EQ(health.media_bytes_written, 2250000u * 32 * kCounterMiB);
  EXPECT_EQ(health.media_counter, "ATA 243 NAND_Writes_32MiB");
  EXPECT_EQ(health.media_step_bytes, 32 * kCounterMiB);
  EXPECT_EQ(health.percentage_used, 3);  // 233 at 97
}

TEST(WriteCounters, AttributeIdAloneIsNeverAMediaCounter) {
  // 249 is NAND_Writes_1GiB on some drives, an unknown one on this.
  const DeviceHealth health = Smartctl("micron_unknown_249_smartctl.json");
  EXPECT_EQ(health.bytes_written, 1000000u * 512);
  EXPECT_FALSE(health.media_bytes_written.has_value());
  EXPECT_TRUE(health.media_counter.empty());
}

TEST(WriteCounters, GiBCountersAndUnknownUnitsSaidPlainly) {
  const DeviceHealth known = Smartctl("sandforce_smartctl.json");
  EXPECT_EQ(known.bytes_written, 4000 * kCounterGiB);
  EXPECT_EQ(known.media_bytes_written, 5200 * kCounterGiB);
  EXPECT_EQ(known.media_counter, "ATA 233 Flash_Writes_GiB");
  EXPECT_TRUE(known.media_note.empty());
  DeviceHealth unknown;
  AddAtaWriteAttributes(json::parse(R"([
      {"id": 234, "name": "NAND_GB_Written_SLC", "raw": {"value": 42}}])"),
                        512, unknown);
  EXPECT_FALSE(unknown.media_bytes_written.has_value());
  EXPECT_EQ(unknown.media_note,
            "ATA 234 NAND_GB_Written_SLC: unit not known, not used");
}

}  // namespace
}  // namespace flashmark
