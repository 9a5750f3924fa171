#include "workload/replay_timing.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace flashmark {

std::string ReplayTimingName(const ReplayTiming& timing) {
  switch (timing.kind) {
    case ReplayTiming::Kind::kOriginal:
      return "original";
    case ReplayTiming::Kind::kAfap:
      return "afap";
    case ReplayTiming::Kind::kScaled:
      return fmt::format("scaled:{:g}", timing.speed);
  }
  return "original";
}

Result<ReplayTiming> ParseReplayTiming(std::string_view text) {
  const auto bad = [text](std::string_view why) {
    return UsageError(
        fmt::format("--timing: \"{}\" is not a timing{}", text, why),
        "use --timing original, afap or scaled:X (X > 0: scaled:2 replays "
        "twice as fast)");
  };
  if (text == "original") return ReplayTiming{};
  if (text == "afap") return ReplayTiming{ReplayTiming::Kind::kAfap, 1};
  constexpr std::string_view kScaled = "scaled:";
  if (!text.starts_with(kScaled)) return bad("");
  const std::string_view number = text.substr(kScaled.size());
  double speed = 0;
  const auto [end, error] =
      std::from_chars(number.data(), number.data() + number.size(), speed);
  if (error != std::errc() || end != number.data() + number.size() ||
      !std::isfinite(speed) || speed <= 0) {
    return bad(" (X must be a positive number)");
  }
  return ReplayTiming{ReplayTiming::Kind::kScaled, speed};
}

}  // namespace flashmark
