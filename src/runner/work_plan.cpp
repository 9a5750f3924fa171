#include "runner/work_plan.h"

#include <fmt/format.h>

#include <algorithm>

namespace flashmark {
namespace {

// Share `total` among `parts`, the first ones taking the remainder.
uint64_t ShareOf(uint64_t total, int parts, int index) {
  const uint64_t base = total / parts;
  return base + (static_cast<uint64_t>(index) < total % parts ? 1 : 0);
}

// The largest IO any step of the profile makes in `region`.
uint32_t RegionIoBytes(const AppProfile& profile, uint32_t region) {
  uint32_t most = 0;
  for (const ProfileStep& step : profile.steps) {
    if (step.region == region) most = std::max(most, step.bytes);
  }
  return std::max<uint32_t>(most, 1);
}

// Each region's segments for each worker ([worker][region]).
Result<std::vector<std::vector<std::vector<Segment>>>> PlanProfileRegions(
    const JobSpec& spec, std::span<const IoFile> files) {
  const AppProfile& profile = spec.profile;
  const size_t count = profile.regions.size();
  if (files.size() != count && files.size() != 1) {
    return UsageError(
        fmt::format("--profile {} lays its regions ({}) on one file or "
                    "device, or on a file set of {} files; the run has {} "
                    "files",
                    profile.name, count, count, files.size()),
        "give one target");
  }
  const uint32_t max_bytes = ProfileMaxBytes(profile);
  std::vector<Segment> whole(count);
  uint64_t start = 0;
  const uint64_t single = files[0].size - files[0].size % max_bytes;
  for (size_t r = 0; r < count; ++r) {
    if (files.size() == count) {
      whole[r] = {static_cast<uint32_t>(r), 0,
                  files[r].size - files[r].size % max_bytes};
    } else {
      const uint64_t share =
          single / 100 * profile.regions[r].percent / max_bytes * max_bytes;
      whole[r] = {0, start, r + 1 == count ? single : start + share};
      start = whole[r].end;
    }
  }
  std::vector<std::vector<std::vector<Segment>>> plans(
      static_cast<size_t>(spec.threads),
      std::vector<std::vector<Segment>>(count));
  for (size_t r = 0; r < count; ++r) {
    const uint32_t io = RegionIoBytes(profile, static_cast<uint32_t>(r));
    const Segment& region = whole[r];
    const uint64_t bytes = region.end - region.begin;
    const uint64_t slice =
        profile.regions[r].per_thread ? bytes / spec.threads / io * io : bytes;
    if (slice < io) {
      return UsageError(
          fmt::format("--profile {}: its {} region ({} bytes) holds less "
                      "than one {}-byte IO{}",
                      profile.name, profile.regions[r].name, bytes, io,
                      profile.regions[r].per_thread ? " per thread" : ""),
          "use a larger --size or fewer --threads");
    }
    for (int w = 0; w < spec.threads; ++w) {
      Segment segment = region;
      if (profile.regions[r].per_thread) {
        segment.begin = region.begin + slice * w;
        segment.end = segment.begin + slice;
      }
      plans[static_cast<size_t>(w)][r].push_back(segment);
    }
  }
  return plans;
}

}  // namespace

Result<std::vector<WorkerPlan>> PlanWorkers(const JobSpec& spec,
                                            std::span<const IoFile> files,
                                            uint64_t seed) {
  const uint32_t max_bs = MaxBlockSize(spec.block_sizes);
  std::vector<uint64_t> usable(files.size());
  uint64_t total = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    usable[i] = files[i].size - files[i].size % max_bs;
    if (usable[i] == 0) {
      return UsageError(
          fmt::format(
              "{} holds {} bytes, less than one {}-byte block",
              files[i].path.empty() ? "the offset range" : files[i].path,
              files[i].size, max_bs),
          "use a smaller --bs or a larger --size");
    }
    total += usable[i];
  }
  if (spec.io_limit != 0 &&
      spec.io_limit < static_cast<uint64_t>(spec.threads)) {
    return UsageError(fmt::format("--io-limit {} is less than one IO per "
                                  "thread (--threads {})",
                                  spec.io_limit, spec.threads),
                      fmt::format("try --io-limit {}", spec.threads * 1000));
  }
  const uint64_t slice = total / spec.threads / max_bs * max_bs;
  const bool sequential = PatternOf(spec.mode) == AccessPattern::kSequential;
  if (sequential && slice == 0) {
    return UsageError(
        fmt::format("{} bytes cannot be cut into {} sequential slices of at "
                    "least one {}-byte block",
                    total, spec.threads, max_bs),
        "use fewer --threads or a larger --size");
  }

  std::vector<std::vector<std::vector<Segment>>> regions;
  if (!spec.profile.empty()) {
    auto planned = PlanProfileRegions(spec, files);
    if (!planned.ok()) return planned.error();
    regions = std::move(planned).value();
  }
  std::vector<WorkerPlan> plans(spec.threads);
  for (int w = 0; w < spec.threads; ++w) {
    WorkerPlan& plan = plans[w];
    plan.id = w;
    plan.seed = seed + 0x632be59bd9b4e019ull * (w + 1);
    if (!regions.empty()) plan.regions = std::move(regions[w]);
    if (spec.io_limit) plan.io_limit = ShareOf(spec.io_limit, spec.threads, w);
    if (spec.bytes_limit) {
      plan.bytes_limit =
          std::max<uint64_t>(1, ShareOf(spec.bytes_limit, spec.threads, w));
    }
    plan.iops_rate = spec.rate.iops / spec.threads;
    plan.bytes_rate = spec.rate.bytes_per_second / spec.threads;

    const uint64_t begin = sequential ? slice * w : 0;
    const uint64_t end =
        sequential && w + 1 < spec.threads ? slice * (w + 1) : total;
    uint64_t file_start = 0;
    for (size_t i = 0; i < files.size(); ++i) {
      const uint64_t file_end = file_start + usable[i];
      const uint64_t lo = std::max(begin, file_start);
      const uint64_t hi = std::min(end, file_end);
      if (hi >= lo + max_bs) {
        plan.segments.push_back(Segment{static_cast<uint32_t>(i),
                                        lo - file_start, hi - file_start});
      }
      file_start = file_end;
    }
  }
  return plans;
}

}  // namespace flashmark
