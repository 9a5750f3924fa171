#include "model/io_pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <string_view>

namespace flashmark {
namespace {

// A block size as typed on the command line, without a space: "16KiB",
// "1MiB", "512"; sizes that are not whole KiB stay in bytes so that the
// text parses back to the same value.
std::string CompactSize(uint32_t bytes) {
  static constexpr std::array<std::string_view, 3> kNames{"KiB", "MiB", "GiB"};
  if (bytes == 0 || bytes % 1024 != 0) return fmt::format("{}", bytes);
  uint64_t divisor = 1024;
  size_t unit = 0;
  while (unit + 1 < kNames.size() && bytes % (divisor << 10) == 0) {
    divisor <<= 10;
    ++unit;
  }
  return fmt::format("{}{}", bytes / divisor, kNames[unit]);
}

}  // namespace

bool IsRead(IoMode mode) {
  return mode == IoMode::kRndRd || mode == IoMode::kSeqRd;
}

bool IsWrite(IoMode mode) {
  return mode == IoMode::kRndWr || mode == IoMode::kSeqWr ||
         mode == IoMode::kSeqRewr;
}

bool Writes(IoMode mode) { return !IsRead(mode); }

AccessPattern PatternOf(IoMode mode) {
  switch (mode) {
    case IoMode::kRndRd:
    case IoMode::kRndWr:
    case IoMode::kRndRw:
      return AccessPattern::kRandom;
    case IoMode::kSeqRd:
    case IoMode::kSeqWr:
    case IoMode::kSeqRewr:
      return AccessPattern::kSequential;
  }
  return AccessPattern::kRandom;
}

std::string ModeName(IoMode mode) {
  switch (mode) {
    case IoMode::kRndRd:
      return "rndrd";
    case IoMode::kRndWr:
      return "rndwr";
    case IoMode::kRndRw:
      return "rndrw";
    case IoMode::kSeqRd:
      return "seqrd";
    case IoMode::kSeqWr:
      return "seqwr";
    case IoMode::kSeqRewr:
      return "seqrewr";
  }
  return "unknown";
}

std::string BlockSizesText(const std::vector<BlockSizeWeight>& mix) {
  if (mix.size() == 1 && mix.front().weight == 100) {
    return CompactSize(mix.front().bytes);
  }
  std::string text;
  for (const BlockSizeWeight& part : mix) {
    if (!text.empty()) text += ':';
    text += fmt::format("{}/{}", CompactSize(part.bytes), part.weight);
  }
  return text;
}

std::string DataPatternText(const DataPattern& data) {
  switch (data.kind) {
    case DataKind::kRandom:
      return "random (refreshed per write)";
    case DataKind::kZero:
      return "zero";
    case DataKind::kCompressible:
      return fmt::format("compressible {} %", data.compressible_percent);
  }
  return "unknown";
}

std::string WriteDataText(const DataPattern& data, bool shared_buffer) {
  if (!shared_buffer) return DataPatternText(data);
  return "one buffer per thread, filled once and written again and again "
         "(--shared-buffer, as sysbench does)";
}

std::string DataPatternSpec(const DataPattern& data) {
  switch (data.kind) {
    case DataKind::kRandom:
      return "random";
    case DataKind::kZero:
      return "zero";
    case DataKind::kCompressible:
      return fmt::format("compressible:{}", data.compressible_percent);
  }
  return "random";
}

std::string DistributionText(const Distribution& distribution) {
  switch (distribution.kind) {
    case DistributionKind::kUniform:
      return "uniform";
    case DistributionKind::kZipf:
      return fmt::format("zipf:{}", distribution.parameter);
    case DistributionKind::kPareto:
      return fmt::format("pareto:{}", distribution.parameter);
    case DistributionKind::kNormal:
      return fmt::format("normal:{}", distribution.parameter);
    case DistributionKind::kZoned: {
      std::string text = "zoned";
      for (const DistributionZone& zone : distribution.zones) {
        text += fmt::format(":{}/{}", zone.access, zone.range);
      }
      return text;
    }
  }
  return "unknown";
}

uint32_t MinBlockSize(const std::vector<BlockSizeWeight>& mix) {
  if (mix.empty()) return 0;
  return std::min_element(
             mix.begin(), mix.end(),
             [](const BlockSizeWeight& a, const BlockSizeWeight& b) {
               return a.bytes < b.bytes;
             })
      ->bytes;
}

uint32_t MaxBlockSize(const std::vector<BlockSizeWeight>& mix) {
  if (mix.empty()) return 0;
  return std::max_element(
             mix.begin(), mix.end(),
             [](const BlockSizeWeight& a, const BlockSizeWeight& b) {
               return a.bytes < b.bytes;
             })
      ->bytes;
}

uint32_t BlockAlignment(const std::vector<BlockSizeWeight>& mix) {
  uint32_t alignment = 0;
  for (const auto& entry : mix) alignment = std::gcd(alignment, entry.bytes);
  return alignment;
}

}  // namespace flashmark
