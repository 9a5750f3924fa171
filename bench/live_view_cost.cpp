// What the live view (run --serve) costs over a long run: N synthetic
// intervals (default 604,800 = 7 days at 1 s) of a random-write workload,
// each with a ~200-bucket write latency histogram (like synthetic_run.cpp:
// a warm-up decaying into a plateau, a 20 % cliff at two thirds), fed to
// the LiveRecorder as the output thread does; every EVERY intervals (and
// after the last) one update as the server makes it: a snapshot (the
// recorder's copy and analysis, by the same rule as `run --serve`), its
// report data as JSON (/data.json) and its OpenMetrics text (/metrics).
// Prints the RSS growth from before the first interval to the end, the
// peak RSS, and the update time (median and max; wall, and this thread's
// CPU time, which other work on a shared machine does not inflate),
// against issue 41's goals (< 200 MiB growth, each update < 50 ms).
// Usage: live_view_cost [INTERVALS [EVERY]]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "app/serve_command.h"
#include "common/json_text.h"
#include "common/random.h"
#include "report/live_recorder.h"
#include "synthetic_interval.h"

namespace {

// Resident set size now and at its peak, MiB (/proc/self/status).
double StatusMiB(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(status, line)) {
    if (line.rfind(key, 0) == 0)
      return std::atof(line.c_str() + key.size()) / 1024;
  }
  return 0;
}

// CPU time of this thread, ms: what an update costs whatever else runs.
double ThreadCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace flashmark;
  const uint32_t count = argc > 1 ? std::atoi(argv[1]) : 604800;
  const uint32_t every = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1000;
  RunResult header;
  header.spec.mode = IoMode::kRndWr;
  header.spec.time = std::chrono::seconds(count);
  header.spec.interval = std::chrono::seconds(1);
  header.spec.targets = {"/synthetic"};
  header.command_line = "live_view_cost";
  header.tool_version = "bench";
  LiveRecorder recorder(
      RunLabels{"synthetic", {{"kind", "synthetic"}}, "flashmark", ""},
      AnalyzeForLiveView);
  recorder.OnStart(header);
  recorder.SetRunId(1);
  const double rss_start = StatusMiB("VmRSS");
  Random random(42);
  std::vector<double> update_ms, snapshot_ms;  // snapshot: its part
  std::vector<double> update_cpu_ms;           // the update's CPU time
  uint32_t slowest = 0;                        // the interval it followed
  double feed_max_ms = 0;
  size_t buckets = 0, json_bytes = 0, metrics_bytes = 0;
  using Clock = std::chrono::steady_clock;
  const auto ms_since = [](Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start)
        .count();
  };
  const auto started = Clock::now();
  for (uint32_t i = 0; i < count; ++i) {
    const IntervalSample sample = SyntheticInterval(i, count, random);
    buckets += sample.write_latency.buckets().size();
    const auto fed = Clock::now();
    recorder.OnInterval(header, sample);
    feed_max_ms = std::max(feed_max_ms, ms_since(fed));
    if ((i + 1) % every != 0 && i + 1 != count) continue;
    const auto update = Clock::now();
    const double cpu = ThreadCpuMs();
    auto snapshot = recorder.Snapshot();
    if (!snapshot.ok()) {
      std::fprintf(stderr, "error: %s\n", snapshot.error().message.c_str());
      return 1;
    }
    snapshot_ms.push_back(ms_since(update));
    json_bytes = JsonText(LiveReportData(**snapshot, "live", 1)).size();
    metrics_bytes = LiveMetrics(**snapshot).size();
    update_ms.push_back(ms_since(update));
    update_cpu_ms.push_back(ThreadCpuMs() - cpu);
    if (update_ms.back() >=
        *std::max_element(update_ms.begin(), update_ms.end())) {
      slowest = i + 1;
    }
  }
  const double rss_end = StatusMiB("VmRSS");
  const double growth = rss_end - rss_start;
  const double median = Median(update_ms);
  const double max = *std::max_element(update_ms.begin(), update_ms.end());
  std::printf(
      "live view over %u intervals (%.0f latency buckets each), an update "
      "every %u\n",
      count, static_cast<double>(buckets) / count, every);
  std::printf(
      "  RSS growth          %8.1f MiB (start %.0f, end %.0f, peak %.0f)  goal "
      "< 200: %s\n",
      growth, rss_start, rss_end, StatusMiB("VmHWM"),
      growth < 200 ? "ok" : "MISSED");
  std::printf(
      "  update (%zu)        median %.2f ms, max %.2f ms, last %.2f ms  goal < "
      "50: %s\n",
      update_ms.size(), median, max, update_ms.back(),
      max < 50 ? "ok" : "MISSED");
  std::printf("  update CPU time     median %.2f ms, max %.2f ms\n",
              Median(update_cpu_ms),
              *std::max_element(update_cpu_ms.begin(), update_cpu_ms.end()));
  std::printf(
      "  of which Snapshot() median %.2f ms, max %.2f ms; the slowest update "
      "after interval %u\n",
      Median(snapshot_ms),
      *std::max_element(snapshot_ms.begin(), snapshot_ms.end()), slowest);
  std::printf("  OnInterval          max %.3f ms\n", feed_max_ms);
  std::printf(
      "  last /data.json %zu bytes, /metrics %zu bytes; %.1f s in all\n",
      json_bytes, metrics_bytes, ms_since(started) / 1000);
  return 0;
}
