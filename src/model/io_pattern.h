// The IO pattern of a workload: access pattern, mode, block-size mix,
// offset distribution, data pattern and fsync kind, with their names for
// people and for command lines. What engines and workloads need to know
// of a job; the whole job is model/job_spec.h. Plain values; pure
// functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flashmark {

enum class AccessPattern { kRandom, kSequential };
enum class IoMode { kRndRd, kRndWr, kRndRw, kSeqRd, kSeqWr, kSeqRewr };

struct BlockSizeWeight {
  uint32_t bytes = 0;
  uint32_t weight = 0;  // percent; a mix's weights add up to 100
};

enum class DistributionKind { kUniform, kZipf, kPareto, kNormal, kZoned };
// fio's zoned: `access` percent of the IOs go to the next `range` percent of
// the space, zones in order from its start; uniform inside a zone.
struct DistributionZone {
  double access = 0;
  double range = 0;
};
struct Distribution {
  DistributionKind kind = DistributionKind::kUniform;
  double parameter = 0;  // zipf theta, pareto h, normal stddev as % of range
  std::vector<DistributionZone> zones;  // kZoned: each sums to 100
};

enum class DataKind { kRandom, kZero, kCompressible };
struct DataPattern {
  DataKind kind = DataKind::kRandom;
  int compressible_percent = 0;  // for kCompressible: 0..100
};

enum class FsyncMode { kFsync, kFdatasync };

bool IsRead(IoMode mode);   // only reads
bool IsWrite(IoMode mode);  // only writes
bool Writes(IoMode mode);   // writes at all (wr, rw, rewr)
AccessPattern PatternOf(IoMode mode);
std::string ModeName(IoMode mode);  // sysbench name: "rndwr"
std::string BlockSizesText(const std::vector<BlockSizeWeight>& mix);
std::string DataPatternText(const DataPattern& data);  // for people
// What a run's writes carry, for people: the pattern, or with
// --shared-buffer (and in sysbench) one buffer per thread filled once.
std::string WriteDataText(const DataPattern& data, bool shared_buffer);
std::string DataPatternSpec(const DataPattern& data);  // "compressible:50"
std::string DistributionText(const Distribution& distribution);
uint32_t MinBlockSize(const std::vector<BlockSizeWeight>& mix);
uint32_t MaxBlockSize(const std::vector<BlockSizeWeight>& mix);
// Offset alignment of a mix: the greatest common divisor of its sizes, so
// that IOs of every size can lie back to back (4k/50:6k/50 -> 2 KiB).
uint32_t BlockAlignment(const std::vector<BlockSizeWeight>& mix);

}  // namespace flashmark
