#include "config/campaign_range.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <span>

#include "common/units.h"
#include "config/campaign_spec.h"

namespace flashmark {
namespace {

constexpr std::string_view kRangeHint =
    "write a range as \"A..B step S\" or \"A..B x2\", e.g. \"50G..650G step "
    "40G\", \"1..16 x2\"";

struct Unit {
  std::string_view suffix;
  uint64_t multiplier;
};

// Largest first: the first that divides every value is used.
constexpr std::array<Unit, 6> kSizeUnits{{{"P", 1ull << 50},
                                          {"T", 1ull << 40},
                                          {"G", 1ull << 30},
                                          {"M", 1ull << 20},
                                          {"k", 1ull << 10},
                                          {"", 1}}};
constexpr uint64_t kNs = 1'000'000'000;
constexpr std::array<Unit, 7> kDurationUnits{{{"d", 86'400 * kNs},
                                              {"h", 3'600 * kNs},
                                              {"m", 60 * kNs},
                                              {"s", kNs},
                                              {"ms", 1'000'000},
                                              {"us", 1'000},
                                              {"ns", 1}}};

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsSpace(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !IsSpace(text[i])) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

std::optional<uint64_t> PlainInteger(std::string_view text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// The unit text after the number: "G" of "50G", "GiB" of "1.5 GiB".
std::string_view SuffixOf(std::string_view text) {
  size_t i = 0;
  while (i < text.size() &&
         ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) {
    ++i;
  }
  return TrimBlanks(text.substr(i));
}

Result<uint64_t> Quantity(std::string_view text, RangeKind kind) {
  switch (kind) {
    case RangeKind::kCount: {
      if (auto value = PlainInteger(text)) return *value;
      return UsageError(fmt::format("\"{}\" is not a whole number", text),
                        std::string(kRangeHint));
    }
    case RangeKind::kSize:
      return ParseSize(text);
    case RangeKind::kDuration: {
      auto duration = ParseDuration(text);
      if (!duration.ok()) return duration.error();
      return static_cast<uint64_t>(duration->count());
    }
    case RangeKind::kAuto:
      break;
  }
  return UsageError("internal: range kind not resolved");
}

// The kind that reads every word, for kAuto.
RangeKind Detect(const std::vector<std::string_view>& words) {
  bool counts = true, sizes = true, durations = true;
  for (std::string_view word : words) {
    counts = counts && PlainInteger(word).has_value();
    sizes = sizes && ParseSize(word).ok();
    durations = durations && ParseDuration(word).ok();
  }
  if (counts) return RangeKind::kCount;
  if (sizes) return RangeKind::kSize;
  if (durations) return RangeKind::kDuration;
  return RangeKind::kAuto;
}

// Values as text: in the unit the start was written in when it divides
// every value, else in the largest unit that does.
std::vector<std::string> Format(const std::vector<uint64_t>& values,
                                RangeKind kind, std::string_view start) {
  std::vector<std::string> texts;
  texts.reserve(values.size());
  if (kind == RangeKind::kCount) {
    for (uint64_t value : values) texts.push_back(std::to_string(value));
    return texts;
  }
  uint64_t common = 0;
  for (uint64_t value : values) common = std::gcd(common, value);
  auto divides = [common](uint64_t multiplier) {
    return multiplier != 0 && common % multiplier == 0;
  };
  std::string suffix;
  uint64_t multiplier = 0;
  const std::string_view written = SuffixOf(start);
  const std::string one = "1" + std::string(written);
  const Result<uint64_t> written_multiplier = Quantity(one, kind);
  if (written_multiplier.ok() && divides(*written_multiplier)) {
    suffix = written;
    multiplier = *written_multiplier;
  } else {
    const auto units = kind == RangeKind::kSize
                           ? std::span<const Unit>(kSizeUnits)
                           : std::span<const Unit>(kDurationUnits);
    for (const Unit& unit : units) {
      if (divides(unit.multiplier) || unit.multiplier == 1) {
        suffix = unit.suffix;
        multiplier = unit.multiplier;
        break;
      }
    }
  }
  for (uint64_t value : values) {
    texts.push_back(fmt::format("{}{}", value / multiplier, suffix));
  }
  return texts;
}

}  // namespace

bool IsRangeText(std::string_view text) {
  return text.find("..") != std::string_view::npos;
}

Result<std::vector<std::string>> ExpandRangeAs(const std::string& text,
                                               RangeKind kind) {
  auto bad = [&text](const std::string& why) {
    return UsageError(fmt::format("range \"{}\": {}", text, why),
                      std::string(kRangeHint));
  };
  const size_t dots = text.find("..");
  if (dots == std::string::npos) return bad("no \"..\" between its ends");
  const std::string_view first =
      TrimBlanks(std::string_view(text).substr(0, dots));
  const std::vector<std::string_view> rest =
      Words(std::string_view(text).substr(dots + 2));
  if (first.empty() || rest.empty()) return bad("an end is missing");

  // rest: END | END step S | END xF | END x F
  const std::string_view last = rest[0];
  std::optional<std::string_view> step;
  std::optional<std::string_view> factor;
  if (rest.size() == 3 && rest[1] == "step") {
    step = rest[2];
  } else if (rest.size() == 3 && rest[1] == "x") {
    factor = rest[2];
  } else if (rest.size() == 2 && rest[1].size() > 1 && rest[1][0] == 'x') {
    factor = rest[1].substr(1);
  } else if (rest.size() != 1) {
    return bad("expected \"step S\" or \"xF\" after the end");
  }

  std::vector<std::string_view> quantities{first, last};
  if (step) quantities.push_back(*step);
  if (kind == RangeKind::kAuto) {
    kind = Detect(quantities);
    if (kind == RangeKind::kAuto) {
      return bad("its ends are not counts, sizes or durations of one kind");
    }
  }
  if (!step && !factor && kind != RangeKind::kCount) {
    return bad("sizes and durations need a step, e.g. \"step 10G\"");
  }
  std::array<uint64_t, 3> numbers{};
  for (size_t i = 0; i < quantities.size(); ++i) {
    auto quantity = Quantity(quantities[i], kind);
    if (!quantity.ok()) return bad(quantity.error().message);
    numbers[i] = *quantity;
  }
  const uint64_t start = numbers[0];
  const uint64_t end = numbers[1];
  if (start > end) {
    return bad(fmt::format("it is empty: {} is more than {}", first, last));
  }

  std::vector<uint64_t> values;
  auto too_many = [&bad]() {
    return bad(fmt::format("it has more than {} values; use a larger step",
                           kMaxRangeValues));
  };
  if (factor) {
    const std::optional<uint64_t> f = PlainInteger(*factor);
    if (!f || *f < 2) {
      return bad(
          fmt::format("the factor \"{}\" is not a whole number of at "
                      "least 2",
                      *factor));
    }
    if (start == 0) return bad("a geometric range cannot start at 0");
    for (uint64_t v = start; v <= end;) {
      values.push_back(v);
      if (v > std::numeric_limits<uint64_t>::max() / *f) break;
      v *= *f;
    }
  } else {
    const uint64_t s = step ? numbers[2] : 1;
    if (s == 0) return bad("the step is 0");
    if ((end - start) / s + 1 > kMaxRangeValues) return too_many();
    for (uint64_t v = start;; v += s) {
      values.push_back(v);
      if (end - v < s) break;
    }
  }
  if (values.size() > kMaxRangeValues) return too_many();
  return Format(values, kind, first);
}

Result<std::vector<std::string>> ExpandRange(const std::string& text) {
  return ExpandRangeAs(text, RangeKind::kAuto);
}

}  // namespace flashmark
