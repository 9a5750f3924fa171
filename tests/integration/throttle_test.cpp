// flashmark run --detect-throttle through the binary: on a loop device
// whose IOPS a token bucket (tests/tools/token_bucket.py: a cgroup limit
// changed every 100 ms) throttles, the burst, how long it lasts, the
// baseline and the refill are found within 5 % (refill 10 %); on a device
// that never throttles it says so; options that cannot probe are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// Where the bucket can limit a device's IOPS: cgroup v2 with the io
// controller, or cgroup v1 blkio (the helper picks the same way).
bool CgroupCanThrottle() {
  const std::string v1 = "/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device";
  if (std::filesystem::exists(v1)) return true;
  for (const char* root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    const std::string controllers = std::string(root) + "/cgroup.controllers";
    if (std::filesystem::exists(controllers) &&
        (" " + ReadFile(controllers)).find(" io") != std::string::npos) {
      return true;
    }
  }
  return false;
}

// The throttle object as text, for failure messages.
std::string Brief(const json& t) {
  std::string text;
  for (const auto& [key, value] : t.items()) {
    if (value.is_number()) {
      text += key + "=" + std::to_string(value.get<double>()) + " ";
    } else if (value.is_string()) {
      text += key + "=" + value.get<std::string>() + " ";
    } else if (value.is_boolean()) {
      text += key + (value.get<bool>() ? "=true " : "=false ");
    }
  }
  return text;
}

double Within(const json& value, double truth) {
  return std::abs(value.get<double>() - truth) / truth;
}

TEST(DetectThrottle, FindsTheBucketOfAThrottledLoopDevice) {
  FLASHMARK_REQUIRE_ROOT();
  if (!CgroupCanThrottle()) {
    GTEST_SKIP() << "no cgroup here limits a device's IOPS (cgroup v2 io "
                    "controller or v1 blkio)";
  }
  TempDir dir;
  LoopDevice loop(dir.File("loop.img"), 256 << 20);
  ASSERT_TRUE(loop.ok());
  const std::string db = "--db=" + dir.File("runs.db");
  // kBurst IOPS for kBurstSeconds, then kBaseline; kRefill IOs above the
  // baseline back per idle second. The probe: 24 s of load, then idle 2, 4
  // and 6 s, each followed by 4 s of load. Rates a loop device keeps up on
  // a busy 2-core machine (at 2000 IOPS it delivered 1655 there).
  constexpr int kBurst = 1000, kBaseline = 250, kRefill = 250;
  constexpr int kBurstSeconds = 5;
  const Invocation run = RunProgram(
      {"python3",
       std::string(FLASHMARK_SOURCE_DIR) + "/tests/tools/token_bucket.py",
       "--device",
       loop.device(),
       "--burst",
       std::to_string(kBurst),
       "--baseline",
       std::to_string(kBaseline),
       "--burst-seconds",
       std::to_string(kBurstSeconds),
       "--refill",
       std::to_string(kRefill),
       "--trace",
       dir.File("bucket.txt"),
       "--",
       FLASHMARK_BINARY,
       "run",
       loop.device(),
       "--mode",
       "rndrd",
       "--bs",
       "4k",
       "--direct",
       "--engine",
       "libaio",
       "--iodepth",
       "16",
       "--time",
       "48s",
       "--interval",
       "250ms",
       "--detect-throttle",
       "-q",
       db},
      120);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  const Invocation show = RunFlashmark({"show", "1", "--json", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const json t = json::parse(show.out)["throttle"];
  ASSERT_TRUE(t.is_object()) << show.out.substr(0, 300);
  ASSERT_TRUE(t["throttled"].get<bool>()) << Brief(t);
  EXPECT_LE(Within(t["burst_iops"], kBurst), 0.05) << Brief(t);
  EXPECT_LE(Within(t["burst_seconds"], kBurstSeconds), 0.05) << Brief(t);
  EXPECT_LE(Within(t["baseline_iops"], kBaseline), 0.05) << Brief(t);
  ASSERT_TRUE(t["refill_per_second"].is_number()) << Brief(t);
  EXPECT_LE(Within(t["refill_per_second"], kRefill), 0.10)
      << show.out << ReadFile(dir.File("bucket.txt"));

  const Invocation text = RunFlashmark({"show", "1", db});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("throttle: " + t["text"].get<std::string>()),
            std::string::npos)
      << text.out;
  const Invocation analyze = RunFlashmark({"analyze", "1", "--json", db});
  ASSERT_EQ(analyze.exit_code, 0) << analyze.err;
  EXPECT_EQ(json::parse(analyze.out)["throttle"]["text"], t["text"]);
}

// The bucket (not flashmark: --detect-throttle needs no cgroup) says why
// it cannot throttle, with exit status 2: without root, or a bucket that
// is no burst.
TEST(DetectThrottle, TheBucketSaysWhyItCannotThrottle) {
  FLASHMARK_REQUIRE_ROOT();
  const std::string bucket =
      std::string(FLASHMARK_SOURCE_DIR) + "/tests/tools/token_bucket.py";
  const std::vector<std::string> args = {
      "--device",        "/dev/null", "--burst",  "2000", "--baseline", "500",
      "--burst-seconds", "5",         "--refill", "500",  "--",         "true"};
  std::vector<std::string> as_nobody = {"setpriv",          "--reuid=65534",
                                        "--regid=65534",    "--clear-groups",
                                        "/usr/bin/python3", bucket};
  as_nobody.insert(as_nobody.end(), args.begin(), args.end());
  const Invocation user = RunProgram(as_nobody);
  EXPECT_EQ(user.exit_code, 2) << user.err;
  EXPECT_NE(user.err.find("token_bucket: error: changing a cgroup's IO "
                          "limits needs root"),
            std::string::npos)
      << user.err;
  const Invocation flat =
      RunProgram({"python3", bucket, "--device", "/dev/null", "--burst", "500",
                  "--baseline", "500", "--burst-seconds", "5", "--refill", "1",
                  "--", "true"});
  EXPECT_EQ(flat.exit_code, 2) << flat.err;
  EXPECT_NE(flat.err.find("--baseline 500 must lie between 0 and --burst 500"),
            std::string::npos)
      << flat.err;
}

TEST(DetectThrottle, SaysPlainlyWhenNothingThrottles) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const Invocation run =
      RunFlashmark({"run", "--engine", "null", "--time", "4800ms", "--interval",
                    "100ms", "--detect-throttle", db});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("throttle: no throttling seen: "), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(" IOPS throughout"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("throttle: burst"), std::string::npos) << run.out;
  const Invocation show = RunFlashmark({"show", "1", "--json", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const json t = json::parse(show.out)["throttle"];
  EXPECT_FALSE(t["throttled"].get<bool>());
  EXPECT_TRUE(t["burst_iops"].is_null());
  EXPECT_GT(t["steady_iops"].get<double>(), 0);
}

TEST(DetectThrottle, RefusesARunThatCannotProbe) {
  const Invocation short_run =
      RunFlashmark({"run", "--engine", "null", "--time", "10s",
                    "--detect-throttle", "--no-db"});
  EXPECT_EQ(short_run.exit_code, 2);
  EXPECT_NE(short_run.err.find("--detect-throttle: --time 10s is too short"),
            std::string::npos)
      << short_run.err;
  EXPECT_NE(short_run.err.find("give --time 48s or more"), std::string::npos)
      << short_run.err;
  const Invocation no_time =
      RunFlashmark({"run", "--engine", "null", "--detect-throttle", "--no-db"});
  EXPECT_EQ(no_time.exit_code, 2);
  EXPECT_NE(no_time.err.find("the default --time"), std::string::npos)
      << no_time.err;
  const Invocation steady =
      RunFlashmark({"run", "--engine", "null", "--detect-throttle",
                    "--until-steady", "--no-db"});
  EXPECT_EQ(steady.exit_code, 2);
  EXPECT_NE(steady.err.find("--detect-throttle with --until-steady"),
            std::string::npos)
      << steady.err;
}

}  // namespace
}  // namespace flashmark::testing
