// Write amplification (WAF: what the flash was written / what the host
// wrote) over a run, from the write-counter readings its intervals carry
// (model/write_counter_reading.h). SMART is read every minute or so, off
// the IO path; host bytes come from /proc/diskstats of the whole disk,
// read just before each SMART read, so both counters of a reading describe
// the same instant. A window runs from one reading to the first later one
// at which the media counter has moved by at least kWafMinSteps of its
// steps (its resolution: 1 GiB for NAND_Writes_1GiB) and the host counter
// has moved: a counter that did not move is no figure (never WAF 0), and
// a coarse counter gets windows long enough for its rounding to stay
// under 1/kWafMinSteps. Micron's page counters give (host + background
// pages) / host pages instead, the pages' size being untold. A counter
// that went backwards starts the windows over. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace flashmark {

inline constexpr double kWafMinSteps = 20;

// Cumulative counters at one instant, in one unit for host and media.
struct WafPoint {
  double seconds = 0;  // since the run's start
  double host = 0;
  double media = 0;
  double media_step = 1;  // the media counter's resolution
};

struct WafWindow {
  double start_seconds = 0, end_seconds = 0;
  double host = 0, media = 0;  // the counters' differences
  double waf = 0;              // media / host
};

// The windows over `points` (in time order), as the header says.
std::vector<WafWindow> WafWindows(const std::vector<WafPoint>& points,
                                  double min_steps = kWafMinSteps);

struct DiskWriteAmplification {
  std::string device;
  std::string counter;  // the media counter's name
  // How the figure was formed, for the reader.
  std::string basis;
  size_t readings = 0;
  std::vector<WafWindow> windows;
  // Over all the windows: their media / their host.
  std::optional<double> overall;
};

// Per disk, from the run's intervals' readings (a reading is placed at its
// interval's end); disks with readings but no window are listed with none.
std::vector<DiskWriteAmplification> WriteAmplificationOverTime(
    const RunResult& run);

}  // namespace flashmark
