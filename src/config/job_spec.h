// JobSpec: the typed, validated description of one workload, built from the
// command line (or a campaign cell) and then read-only. Sizes in bytes,
// times in nanoseconds. Holds no resources; safe to copy across threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/units.h"

namespace flashmark {

enum class AccessPattern { kRandom, kSequential };
enum class IoMode { kRndRd, kRndWr, kRndRw, kSeqRd, kSeqWr, kSeqRewr };

struct BlockSizeWeight {
  uint32_t bytes = 0;
  uint32_t weight = 0;  // percent; a mix's weights add up to 100
};

enum class DistributionKind { kUniform, kZipf, kPareto, kNormal };
struct Distribution {
  DistributionKind kind = DistributionKind::kUniform;
  double parameter = 0;  // zipf theta, pareto h, normal stddev as % of range
};

enum class DataKind { kRandom, kZero, kCompressible };
struct DataPattern {
  DataKind kind = DataKind::kRandom;
  int compressible_percent = 0;  // for kCompressible: 0..100
};

enum class FsyncMode { kFsync, kFdatasync };

struct JobSpec {
  IoMode mode = IoMode::kRndWr;
  double read_fraction = 0.6;  // kRndRw only; sysbench's rw-ratio 1.5
  std::vector<BlockSizeWeight> block_sizes{{16 * 1024, 100}};
  int threads = 1;
  int iodepth = 1;
  bool direct = false;
  std::string engine = "psync";

  uint64_t fsync_every = 0;  // writes per worker between fsyncs; 0 = never
  FsyncMode fsync_mode = FsyncMode::kFsync;
  bool fsync_end = false;

  std::chrono::nanoseconds time{0};  // 0 = no time limit
  uint64_t io_limit = 0;             // IOs in all; 0 = none
  uint64_t bytes_limit = 0;          // bytes in all; 0 = none
  Rate rate;                         // zero = unlimited

  Distribution distribution;
  uint64_t seed = 0;
  bool seed_given = false;
  DataPattern data;

  std::vector<std::string> targets;  // empty only for a diskless engine
  int file_num = 128;
  SizeOrShare size{2ull << 30, 0};   // file-set total, or offset range
  bool size_given = false;
  bool keep_files = false;
  std::vector<std::string> allow_destroy;

  std::chrono::nanoseconds interval{std::chrono::seconds(1)};
  bool until_steady = false;  // stop once SNIA steady state holds (time = max)
  std::chrono::nanoseconds steady_round{std::chrono::seconds(60)};
  bool continue_on_error = false;
  // Stamp every written block with a checked header, check every block
  // read, and read everything written back after a writing run.
  bool verify = false;
  bool quiet = false;
  std::string json_path;  // "" = none, "-" = stdout
};

bool IsRead(IoMode mode);    // only reads
bool IsWrite(IoMode mode);   // only writes
bool Writes(IoMode mode);    // writes at all (wr, rw, rewr)
AccessPattern PatternOf(IoMode mode);
std::string ModeName(IoMode mode);  // sysbench name: "rndwr"
std::string BlockSizesText(const std::vector<BlockSizeWeight>& mix);
std::string DataPatternText(const DataPattern& data);  // for people
std::string DataPatternSpec(const DataPattern& data);  // "compressible:50"
std::string DistributionText(const Distribution& distribution);
uint32_t MinBlockSize(const std::vector<BlockSizeWeight>& mix);
uint32_t MaxBlockSize(const std::vector<BlockSizeWeight>& mix);
// Offset alignment of a mix: the greatest common divisor of its sizes, so
// that IOs of every size can lie back to back (4k/50:6k/50 -> 2 KiB).
uint32_t BlockAlignment(const std::vector<BlockSizeWeight>& mix);

}  // namespace flashmark
