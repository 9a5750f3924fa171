// What --verify found: counts of checked and bad blocks (per interval, per
// run, for the read-back after the run) and the first mismatches in detail.
// A "block" here is a verify block: the unit every write stamps with a
// header (see workload/block_header.h). Plain value types; thread-safe to
// copy, never shared while written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flashmark {

// The kinds of bad block, each with its likely cause:
//   kTorn         the checksum does not match: part of the block is new and
//                 part old, or its bytes changed (torn write, corruption)
//   kMisdirected  a valid block that was written for another place (file
//                 or offset): a misdirected write, or blocks swapped
//   kLost         an older generation than the last one written there, no
//                 header at all, or nothing to read (truncated): the last
//                 write never reached the media
//   kNewer        a newer generation than the map records: the generation
//                 map is older than the data (a writer died before saving)
enum class VerifyFault { kTorn, kMisdirected, kLost, kNewer };

std::string VerifyFaultName(VerifyFault fault);  // "torn", "misdirected", ...

struct VerifyCounts {
  uint64_t checked = 0;  // blocks whose contents were checked
  uint64_t torn = 0;
  uint64_t misdirected = 0;
  uint64_t lost = 0;
  uint64_t newer = 0;

  uint64_t bad() const { return torn + misdirected + lost + newer; }
  void Add(const VerifyCounts& other) {
    checked += other.checked;
    torn += other.torn;
    misdirected += other.misdirected;
    lost += other.lost;
    newer += other.newer;
  }
  void Count(VerifyFault fault) {
    switch (fault) {
      case VerifyFault::kTorn:
        ++torn;
        break;
      case VerifyFault::kMisdirected:
        ++misdirected;
        break;
      case VerifyFault::kLost:
        ++lost;
        break;
      case VerifyFault::kNewer:
        ++newer;
        break;
    }
  }
};

// One bad block, exactly located. Offsets and lengths in bytes.
struct VerifyMismatch {
  VerifyFault fault = VerifyFault::kTorn;
  bool read_back = false;  // found by the read-back pass, not a run's read
  std::string path;        // the file or device read
  uint64_t offset = 0;     // of the block, within `path`
  uint32_t length = 0;     // the verify block size
  uint32_t expected_generation = 0;
  // What the block held when its header was intact (misdirected, lost with
  // an old generation, newer); header_valid false otherwise.
  bool header_valid = false;
  uint32_t found_generation = 0;
  std::string found_path;  // where the block was written for
  uint64_t found_offset = 0;
  uint64_t found_seed = 0;  // seed of the run that wrote it
  // Lost blocks past the end of a truncated file: its size then.
  bool beyond_end = false;
  uint64_t file_size = 0;
};

// The data-verification part of a run (RunResult::verify) or of a
// `flashmark verify` pass. The per-interval counts of a run live in
// IntervalSample::verify and RunSummary::verify.
struct VerifyOutcome {
  bool enabled = false;
  uint32_t block_bytes = 0;
  bool read_back_ran = false;
  bool read_back_complete = false;  // false: interrupted or failed midway
  std::string read_back_note;       // why it did not run, or what stopped it
  VerifyCounts read_back;
  uint64_t read_back_bytes = 0;
  double read_back_seconds = 0;
  // The first distinct bad blocks, in the order found (the counts say how
  // often each kind was read), and the bad reads after that list was full.
  std::vector<VerifyMismatch> mismatches;
  uint64_t mismatches_not_listed = 0;
};

}  // namespace flashmark
