#include "model/app_profile.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.h"

namespace flashmark {

ProfileRates PerCommit(const AppProfile& profile) {
  ProfileRates rates;
  for (const ProfileStep& step : profile.steps) {
    const double share = 1.0 / std::max<uint32_t>(1, step.every);
    const double ios = step.count * share;
    if (step.write) {
      rates.writes += ios;
      rates.write_bytes += ios * step.bytes;
    } else {
      rates.reads += ios;
      rates.read_bytes += ios * step.bytes;
    }
    if (step.sync_after) {
      rates.syncs += share;
      if (step.commit) rates.commit_syncs += share;
    }
  }
  return rates;
}

uint32_t ProfileMaxBytes(const AppProfile& profile) {
  uint32_t most = 0;
  for (const ProfileStep& step : profile.steps)
    most = std::max(most, step.bytes);
  return most;
}

std::string ProfileMixText(const AppProfile& profile) {
  std::string text;
  for (const ProfileStep& step : profile.steps) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} {}{}", step.name, FormatBytes(step.bytes),
                        step.count > 1 ? fmt::format(" x{}", step.count) : "");
    if (step.sync_after) {
      text += step.sync == FsyncMode::kFsync ? " + fsync" : " + fdatasync";
    }
    if (step.commit) text += " (commit)";
    if (step.every > 1) text += fmt::format(" every {} commits", step.every);
  }
  return text;
}

}  // namespace flashmark
