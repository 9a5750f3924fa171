#include "config/workload_parse.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

#include "common/units.h"

namespace flashmark {
namespace {

constexpr std::string_view kModeHint =
    "modes: rndrd rndwr rndrw seqrd seqwr seqrewr "
    "(fio: randread randwrite randrw read write rewrite)";
constexpr std::string_view kBlockSizeHint =
    "use a size like 16k, or a mix like 4k/60:64k/40 whose weights (percent) "
    "add up to 100";
constexpr std::string_view kDistributionHint =
    "distributions: uniform, zipf:THETA (> 0, not 1, e.g. zipf:1.2), "
    "pareto:H (0 < H < 1, e.g. pareto:0.9), normal:STDDEV (% of the range, "
    "0 < STDDEV <= 100, e.g. normal:10), zoned:ACCESS/RANGE:... (percent "
    "of the IOs to the next percent of the space, each adding up to 100, "
    "e.g. zoned:50/5:30/15:20/80)";
constexpr std::string_view kDataHint =
    "data patterns: random, zero, compressible:PERCENT (0..100, e.g. "
    "compressible:50)";
constexpr std::string_view kFsyncHint = "fsync modes: fsync fdatasync";

constexpr uint32_t kMinBlock = 512;
constexpr uint32_t kMaxBlock = 64u << 20;

std::string Lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::optional<int> ParseInteger(std::string_view text) {
  text = TrimBlanks(text);
  int value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() ||
      text.empty()) {
    return std::nullopt;
  }
  return value;
}

Result<uint32_t> ParseBlockSize(std::string_view part, std::string_view whole) {
  const Result<uint64_t> bytes = ParseSize(part);
  if (!bytes.ok()) {
    return UsageError(fmt::format("\"{}\" is not a block size", part),
                      std::string(kBlockSizeHint));
  }
  const std::string where =
      part == whole ? std::string() : fmt::format(" (in \"{}\")", whole);
  if (*bytes == 0 || *bytes % kMinBlock != 0 || *bytes > kMaxBlock) {
    return UsageError(
        fmt::format("block size \"{}\"{} is not a multiple of 512 bytes "
                    "from 512 to 64 MiB",
                    part, where),
        "block sizes are multiples of 512 bytes, e.g. 4k, 16k, 1M");
  }
  return static_cast<uint32_t>(*bytes);
}

struct ModeSpelling {
  std::string_view name;
  IoMode mode;
};
constexpr std::array<ModeSpelling, 12> kModeNames{{
    {"rndrd", IoMode::kRndRd},
    {"rndwr", IoMode::kRndWr},
    {"rndrw", IoMode::kRndRw},
    {"seqrd", IoMode::kSeqRd},
    {"seqwr", IoMode::kSeqWr},
    {"seqrewr", IoMode::kSeqRewr},
    {"randread", IoMode::kRndRd},
    {"randwrite", IoMode::kRndWr},
    {"randrw", IoMode::kRndRw},
    {"read", IoMode::kSeqRd},
    {"write", IoMode::kSeqWr},
    {"rewrite", IoMode::kSeqRewr},
}};

}  // namespace

std::vector<std::string_view> ModeNames() {
  std::vector<std::string_view> names;
  for (const ModeSpelling& name : kModeNames) names.push_back(name.name);
  return names;
}

Result<IoMode> ParseMode(std::string_view text) {
  const std::string key = Lowercase(TrimBlanks(text));
  for (const ModeSpelling& name : kModeNames) {
    if (key == name.name) return name.mode;
  }
  return UsageError(fmt::format("unknown mode \"{}\"", text),
                    std::string(kModeHint));
}

Result<std::vector<BlockSizeWeight>> ParseBlockSizeMix(std::string_view text) {
  const std::string_view trimmed = TrimBlanks(text);
  if (trimmed.empty()) {
    return UsageError("empty block size", std::string(kBlockSizeHint));
  }
  if (trimmed.find_first_of(":/") == std::string_view::npos) {
    const Result<uint32_t> bytes = ParseBlockSize(trimmed, trimmed);
    if (!bytes.ok()) return bytes.error();
    return std::vector<BlockSizeWeight>{{*bytes, 100}};
  }
  std::vector<BlockSizeWeight> mix;
  int total = 0;
  std::string_view rest = trimmed;
  while (true) {
    const size_t colon = rest.find(':');
    const std::string_view part = TrimBlanks(rest.substr(0, colon));
    const size_t slash = part.find('/');
    if (slash == std::string_view::npos) {
      return UsageError(
          fmt::format("\"{}\" in block-size mix \"{}\" has no weight", part,
                      text),
          std::string(kBlockSizeHint));
    }
    const Result<uint32_t> bytes =
        ParseBlockSize(TrimBlanks(part.substr(0, slash)), text);
    if (!bytes.ok()) return bytes.error();
    const std::string_view weight_text = part.substr(slash + 1);
    const std::optional<int> weight = ParseInteger(weight_text);
    if (!weight || *weight < 1 || *weight > 100) {
      return UsageError(
          fmt::format("weight \"{}\" in block-size mix \"{}\" is not a whole "
                      "percent from 1 to 100",
                      TrimBlanks(weight_text), text),
          std::string(kBlockSizeHint));
    }
    for (const BlockSizeWeight& earlier : mix) {
      if (earlier.bytes == *bytes) {
        return UsageError(fmt::format("block size {} appears twice in \"{}\"",
                                      FormatBytes(*bytes), text),
                          "give each size once, with its whole weight");
      }
    }
    mix.push_back({*bytes, static_cast<uint32_t>(*weight)});
    total += *weight;
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  if (total != 100) {
    return UsageError(
        fmt::format("the weights of block-size mix \"{}\" add up to {}, "
                    "not 100",
                    text, total),
        std::string(kBlockSizeHint));
  }
  return mix;
}

namespace {

// "zoned:50/5:30/15:20/80" (`zones` is what follows "zoned:").
Result<Distribution> ParseZoned(std::string_view text, std::string_view zones) {
  Distribution zoned{DistributionKind::kZoned, 0, {}};
  double access_total = 0;
  double range_total = 0;
  for (std::string_view rest = zones; !rest.empty();) {
    const size_t colon = rest.find(':');
    const std::string_view zone = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? "" : rest.substr(colon + 1);
    const size_t slash = zone.find('/');
    const std::optional<double> access =
        slash == std::string_view::npos
            ? std::nullopt
            : ParseFiniteNumber(zone.substr(0, slash));
    const std::optional<double> range =
        slash == std::string_view::npos
            ? std::nullopt
            : ParseFiniteNumber(zone.substr(slash + 1));
    if (!access || !range || *access < 0 || *range <= 0) {
      return UsageError(
          fmt::format("distribution \"{}\": zone \"{}\" is not "
                      "ACCESS/RANGE (percentages, the range above 0)",
                      text, zone),
          std::string(kDistributionHint));
    }
    zoned.zones.push_back({*access, *range});
    access_total += *access;
    range_total += *range;
  }
  if (zoned.zones.empty() || std::abs(access_total - 100) > 1e-6 ||
      std::abs(range_total - 100) > 1e-6) {
    return UsageError(
        fmt::format("distribution \"{}\": the accesses add up to {} % and "
                    "the ranges to {} %, not 100 each",
                    text, access_total, range_total),
        std::string(kDistributionHint));
  }
  return zoned;
}

}  // namespace

Result<Distribution> ParseDistribution(std::string_view text) {
  const std::string key = Lowercase(TrimBlanks(text));
  const size_t colon = key.find(':');
  const std::string name = key.substr(0, colon);
  if (name == "uniform" && colon == std::string::npos) {
    return Distribution{DistributionKind::kUniform, 0, {}};
  }
  if (name == "zoned" && colon != std::string::npos) {
    return ParseZoned(text, std::string_view(key).substr(colon + 1));
  }
  struct Kind {
    std::string_view name;
    DistributionKind kind;
  };
  static constexpr std::array<Kind, 3> kKinds{{
      {"zipf", DistributionKind::kZipf},
      {"pareto", DistributionKind::kPareto},
      {"normal", DistributionKind::kNormal},
  }};
  for (const Kind& kind : kKinds) {
    if (name != kind.name) continue;
    if (colon == std::string::npos) {
      return UsageError(
          fmt::format("distribution \"{}\" needs a parameter", text),
          std::string(kDistributionHint));
    }
    const std::optional<double> parameter =
        ParseFiniteNumber(std::string_view(key).substr(colon + 1));
    bool valid = parameter.has_value();
    if (valid && kind.kind == DistributionKind::kZipf) {
      valid = *parameter > 0 && *parameter != 1;
    } else if (valid && kind.kind == DistributionKind::kPareto) {
      valid = *parameter > 0 && *parameter < 1;
    } else if (valid) {
      valid = *parameter > 0 && *parameter <= 100;
    }
    if (!valid) {
      return UsageError(
          fmt::format("\"{}\" has a parameter out of range", text),
          std::string(kDistributionHint));
    }
    return Distribution{kind.kind, *parameter, {}};
  }
  return UsageError(fmt::format("unknown distribution \"{}\"", text),
                    std::string(kDistributionHint));
}

Result<DataPattern> ParseDataPattern(std::string_view text) {
  const std::string key = Lowercase(TrimBlanks(text));
  if (key == "random") return DataPattern{DataKind::kRandom, 0};
  if (key == "zero") return DataPattern{DataKind::kZero, 0};
  constexpr std::string_view kPrefix = "compressible:";
  if (key.starts_with(kPrefix)) {
    std::string_view percent = std::string_view(key).substr(kPrefix.size());
    percent = TrimBlanks(percent);
    if (!percent.empty() && percent.back() == '%') percent.remove_suffix(1);
    const std::optional<int> value = ParseInteger(percent);
    if (!value || *value < 0 || *value > 100) {
      return UsageError(
          fmt::format("\"{}\" needs a whole percent from 0 to 100", text),
          std::string(kDataHint));
    }
    return DataPattern{DataKind::kCompressible, *value};
  }
  if (key == "compressible") {
    return UsageError(fmt::format("data pattern \"{}\" needs a percent", text),
                      std::string(kDataHint));
  }
  return UsageError(fmt::format("unknown data pattern \"{}\"", text),
                    std::string(kDataHint));
}

Result<FsyncMode> ParseFsyncMode(std::string_view text) {
  const std::string key = Lowercase(TrimBlanks(text));
  if (key == "fsync") return FsyncMode::kFsync;
  if (key == "fdatasync") return FsyncMode::kFdatasync;
  return UsageError(fmt::format("unknown fsync mode \"{}\"", text),
                    std::string(kFsyncHint));
}

std::optional<double> ParseFiniteNumber(std::string_view text) {
  text = TrimBlanks(text);
  double value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() ||
      text.empty() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace flashmark
