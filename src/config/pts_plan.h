// The SNIA Solid State Storage Performance Test Specification (PTS v2.0.2,
// Enterprise and Client profiles) as built-in campaigns (`flashmark pts`).
// Each test is one or more segments, each a campaign file's text: the
// throughput test has one per block size, each from its own purge. The
// `pts` command loads a segment exactly as `flashmark sweep` loads a file
// (LoadCampaignText), so what `--export` writes is what runs.
//
// The tests (TC = threads, QD = iodepth per thread; Enterprise / Client):
//   iops        purge, WIPC (sequential 128 KiB writes of 2x the active
//               range), rounds of 7 R/W mixes (100/0 .. 0/100, outer) x 8
//               block sizes (1024k .. 512, inner), one minute each, TC4/QD32
//               / TC2/QD16, steady state on the 4 KiB 0/100 IOPS
//   throughput  per block size (128k and 1024k; Client 1024k only): purge,
//               WIPC, rounds of sequential 100 % read and 100 % write, TC1
//               QD32, steady state on the write MiB/s
//   latency     purge, WIPC, rounds of 3 mixes x 0.5/4/8 KiB at TC1 QD1,
//               steady state on the 4 KiB 0/100 mean latency
//   wsat        purge, random 4 KiB writes until 4x the active range is
//               written or 24 h
//   hir         purge, random 4 KiB writes until steady, then per wait state
//               (5, 10, 15, 25, 50 s) 360 bursts of 5 s with that wait
//               between them, each followed by 1800 s of continuous writes
//               (the return to baseline)
//   xsr         purge, sequential 1024 KiB writes 8 h, random 8 KiB writes
//               6 h, sequential 1024 KiB writes 8 h, TC1 QD32
//   ecw         purge, WIPC, the composite block-size mix at 40/60 R/W over
//               the hot zones zoned:50/5:30/15:20/80 (preconditioned at 0/100
//               until steady), rounds of total outstanding IOs 32, 16, 8, 6,
//               4, 2, 1 (TC1 x QD), steady state on the QD32 IOPS
//   dirth       purge, WIPC, random 8 KiB 65/35 writes until steady at
//               TC32/QD32, then rounds of TC x QD in 32,16,8,6,4,2,1 each
//               (after a 5-minute TC32/QD32 pre-write), steady state on the
//               TC32/QD32 IOPS
// Rounds: at most 25, until the 5-round window is steady (20 % data
// excursion, 10 % slope excursion). Enterprise: active range 100 %;
// Client: 75 %. With scale F < 1 every duration, write amount and burst
// count is multiplied by F (times at least 1 s, counts at least 1), which
// makes a quick check, not a compliant run; cells then last at least
// 100 ms and sample every fifth of a cell. Pure; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace flashmark {

enum class PtsTest {
  kIops,
  kThroughput,
  kLatency,
  kWsat,
  kHir,
  kXsr,
  kEcw,
  kDirth
};
enum class PtsProfile { kEnterprise, kClient };

std::span<const PtsTest> AllPtsTests();       // in the specification's order
std::string_view PtsTestName(PtsTest test);   // "iops", "throughput", ...
std::string_view PtsTestTitle(PtsTest test);  // "IOPS", "Throughput", ...
std::string_view PtsProfileName(PtsProfile profile);  // "enterprise"
// An unknown name is a usage error listing the valid ones.
Result<std::vector<PtsTest>> ParsePtsTests(std::string_view name);  // or all
Result<PtsProfile> ParsePtsProfile(std::string_view name);

struct PtsSettings {
  PtsTest test = PtsTest::kIops;
  PtsProfile profile = PtsProfile::kEnterprise;
  std::string device;                   // the block device under test
  uint64_t capacity = 0;                // its size in bytes
  double scale = 1.0;                   // (0, 1]
  std::optional<int> threads, iodepth;  // TC and QD instead of the spec's
  std::optional<int> max_rounds;        // 5..25 instead of 25
  std::string engine = "libaio";
};

struct PtsSegment {
  std::string name;  // "pts-iops", "pts-throughput-128k"
  std::string toml;  // the campaign file
  // For the plan's durations: a round's cells and time, and how many
  // rounds (a segment without a steady state runs one).
  int cells_per_round = 0;
  std::chrono::nanoseconds round_time{0};
  int min_rounds = 1;
  int max_rounds = 1;
  // Before the rounds: the reset steps in words ("purge; WIPC: ...").
  std::string preparation;
};

// The test a segment (PtsSegment::name, "pts-throughput-128k") belongs to.
std::optional<PtsTest> PtsTestOfSegment(std::string_view segment);

// The active range of a profile: 100 % or 75 % of the capacity, in bytes.
uint64_t PtsActiveRange(const PtsSettings& settings);

// The smallest active range a test runs on.
inline constexpr uint64_t kPtsMinActiveRange = 64ull << 20;

// The segments of `settings.test`. Usage errors: a scale outside (0, 1],
// max_rounds outside 5..25,
// TC or QD below 1 or given to a test that sweeps them (ecw, dirth), a
// device whose active range is below kPtsMinActiveRange.
Result<std::vector<PtsSegment>> PlanPts(const PtsSettings& settings);

}  // namespace flashmark
