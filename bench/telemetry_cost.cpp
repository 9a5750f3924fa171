// What reading the host's telemetry costs the sampler thread per interval
// (HostTelemetry::Sample: /proc/diskstats, /proc/stat, getrusage, hwmon),
// for the devices under the paths given (default: /tmp), against the
// interval it shares: prints the median, p99 and max of 2000 readings in
// microseconds. It reads only; nothing is written.
//   cmake --build build --target telemetry_cost && build/telemetry_cost
//   [PATH...]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "system/environment_capture.h"
#include "system/host_telemetry.h"

int main(int argc, char** argv) {
  flashmark::Environment environment;
  std::vector<std::string> paths(argv + 1, argv + argc);
  if (paths.empty()) paths.push_back("/tmp");
  for (const std::string& path : paths) {
    flashmark::TargetInfo target;
    target.path = path;
    flashmark::DescribeMount(target);
    environment.targets.push_back(target);
  }
  flashmark::HostTelemetry telemetry(environment);
  telemetry.Sample();
  std::vector<double> us;
  size_t disks = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto start = std::chrono::steady_clock::now();
    const flashmark::IntervalTelemetry t = telemetry.Sample();
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count());
    disks = t.disks.size();
  }
  std::sort(us.begin(), us.end());
  fmt::print(
      "telemetry per interval ({} device{} followed): median {:.1f} us, p99 "
      "{:.1f} us, max {:.1f} us over {} readings\n",
      disks, disks == 1 ? "" : "s", us[us.size() / 2], us[us.size() * 99 / 100],
      us.back(), us.size());
  return 0;
}
