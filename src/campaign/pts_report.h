// The report pages of a SNIA PTS test (`flashmark report --pts ID --html
// FILE`): one stored `flashmark pts` segment (its campaign ID), drawn as
// the specification's report page, a self-contained HTML file with SVG
// charts (report/svg_chart.h) and no script:
//   - the header block: test, profile, whether scaled (then "not a
//     compliant run"), device (model, serial, firmware, capacity,
//     interface, write cache as set or why not), test platform (host, kernel,
//     CPU, memory, flashmark), purge method and whether it was verified (a
//     discard standing in for a secure erase is not, and the device is then
//     never called fresh out of box), preconditioning, active range, TC/QD,
//     data pattern, rounds run and the steady-state window;
//   - for tests with rounds: the tracked cell's value per round (the
//     steady-state convergence plot) with the window, its average, its
//     fitted line and the excursions, and the measurement table over the
//     window's rounds (every cell's value averaged over them), a 2D plot
//     per row of the matrix, and for the IOPS test the block size x mix
//     surface as a heat table; DIRTH adds the demand-intensity plot (mean
//     latency against IOPS per thread count), CPU use (user + system, the
//     whole machine) against TC x QD, and the response-time histograms at
//     the maximum, middle and minimum IOPS; the latency test gives mean,
//     max and 99.999 % response times;
//   - for WSAT, HIR and XSR: IOPS (MiB/s for XSR) against time over their
//     cells, WSAT also against the data written.
// Reads the store only; main thread.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"

namespace flashmark {

// Usage errors: an unknown campaign, or one that `flashmark pts` did not
// make; a segment with no finished cell.
Result<std::string> RenderPtsReport(const std::string& database,
                                    int64_t campaign_id);

}  // namespace flashmark
