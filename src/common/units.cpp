#include "common/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>

namespace flashmark {
namespace {

__extension__ typedef unsigned __int128 Uint128;

constexpr std::string_view kSizeHint =
    "use a number with an optional unit, e.g. 4k, 16KiB, 50G";
constexpr std::string_view kDurationHint =
    "use a number with a unit, e.g. 90s, 500ms, 2m, 1h30m (a plain number "
    "is seconds)";
constexpr std::string_view kRateHint =
    "use IOPS (5000, 2.5k, 5000iops) or bytes per second (200MiB/s, 1G/s)";
constexpr std::string_view kPercentHint = "use a percentage, e.g. 50% or 12.5%";
constexpr std::string_view kSizeOrShareHint =
    "use a size (4k, 16KiB, 50G) or a share of the capacity (50%)";

// A non-negative decimal number exactly as typed: whole + frac / scale.
struct Decimal {
  Uint128 whole = 0;
  uint64_t frac = 0;
  uint64_t scale = 1;  // 10^(fraction digits kept)
  bool huge = false;   // whole part does not fit 64 bits

  double ToDouble() const {
    return static_cast<double>(whole) +
           static_cast<double>(frac) / static_cast<double>(scale);
  }
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t'; }
char Lower(char c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

std::string_view TrimFront(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  return text;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

bool EndsWithIgnoreCase(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         EqualsIgnoreCase(text.substr(text.size() - suffix.size()), suffix);
}

// Reads "12", "12.", "12.5" or ".5" from the front of `text`; returns the
// number of characters consumed (0 when there is no number).
size_t ReadDecimal(std::string_view text, Decimal& out) {
  out = Decimal{};
  size_t i = 0;
  bool any_digit = false;
  for (; i < text.size() && IsDigit(text[i]); ++i) {
    any_digit = true;
    if (!out.huge) {
      out.whole = out.whole * 10 + static_cast<unsigned>(text[i] - '0');
      if (out.whole > std::numeric_limits<uint64_t>::max()) out.huge = true;
    }
  }
  if (i < text.size() && text[i] == '.') {
    size_t j = i + 1;
    for (; j < text.size() && IsDigit(text[j]); ++j) {
      any_digit = true;
      if (out.scale < 1'000'000'000'000'000'000ull) {  // keep 18 digits
        out.frac = out.frac * 10 + static_cast<uint64_t>(text[j] - '0');
        out.scale *= 10;
      }
    }
    if (j > i + 1 || i > 0) i = j;
  }
  return any_digit ? i : 0;
}

// number * multiplier rounded to the nearest integer (halves up), or
// nullopt when it exceeds `limit`.
std::optional<uint64_t> Scale(const Decimal& number, uint64_t multiplier,
                              uint64_t limit) {
  if (number.huge) return std::nullopt;
  const Uint128 whole = number.whole * multiplier;
  const Uint128 frac =
      (static_cast<Uint128>(number.frac) * multiplier + number.scale / 2) /
      number.scale;
  const Uint128 total = whole + frac;
  if (total > limit) return std::nullopt;
  return static_cast<uint64_t>(total);
}

struct Unit {
  std::string_view name;
  uint64_t multiplier;
};

constexpr uint64_t kKiB = 1ull << 10;
constexpr std::array<Unit, 16> kSizeUnits{{
    {"", 1},
    {"k", kKiB},
    {"kb", kKiB},
    {"kib", kKiB},
    {"m", kKiB << 10},
    {"mb", kKiB << 10},
    {"mib", kKiB << 10},
    {"g", kKiB << 20},
    {"gb", kKiB << 20},
    {"gib", kKiB << 20},
    {"t", kKiB << 30},
    {"tb", kKiB << 30},
    {"tib", kKiB << 30},
    {"p", kKiB << 40},
    {"pb", kKiB << 40},
    {"pib", kKiB << 40},
}};

// A drive's capacity as vendors write it: decimal K, M, G, T, P (with or
// without B), binary KiB..PiB.
constexpr uint64_t kKB = 1000;
constexpr std::array<Unit, 16> kCapacityUnits{{
    {"", 1},
    {"k", kKB},
    {"kb", kKB},
    {"kib", kKiB},
    {"m", kKB* kKB},
    {"mb", kKB* kKB},
    {"mib", kKiB << 10},
    {"g", kKB* kKB* kKB},
    {"gb", kKB* kKB* kKB},
    {"gib", kKiB << 20},
    {"t", kKB* kKB* kKB* kKB},
    {"tb", kKB* kKB* kKB* kKB},
    {"tib", kKiB << 30},
    {"p", kKB* kKB* kKB* kKB* kKB},
    {"pb", kKB* kKB* kKB* kKB* kKB},
    {"pib", kKiB << 40},
}};

std::optional<uint64_t> FindUnit(std::string_view name,
                                 std::span<const Unit> units) {
  for (const Unit& unit : units) {
    if (EqualsIgnoreCase(name, unit.name)) return unit.multiplier;
  }
  return std::nullopt;
}

Result<uint64_t> ParseSizeWithHint(std::string_view text, std::string_view hint,
                                   std::span<const Unit> units = kSizeUnits) {
  const std::string_view trimmed = TrimBlanks(text);
  if (trimmed.empty()) return UsageError("empty size", std::string(hint));
  if (trimmed.front() == '-') {
    return UsageError(fmt::format("\"{}\" is negative", text),
                      std::string(hint));
  }
  Decimal number;
  const size_t used = ReadDecimal(trimmed, number);
  const std::optional<uint64_t> multiplier =
      used == 0 ? std::nullopt
                : FindUnit(TrimFront(trimmed.substr(used)), units);
  if (!multiplier) {
    return UsageError(fmt::format("\"{}\" is not a size", text),
                      std::string(hint));
  }
  const std::optional<uint64_t> bytes =
      Scale(number, *multiplier, std::numeric_limits<uint64_t>::max());
  if (!bytes) {
    return UsageError(
        fmt::format("\"{}\" is too large (the most is 16 EiB)", text),
        std::string(hint));
  }
  return *bytes;
}

constexpr uint64_t kNsPerSecond = 1'000'000'000;
// A compound duration lists its units from the largest to the smallest.
constexpr std::array<Unit, 10> kDurationUnits{{
    {"d", 86'400 * kNsPerSecond},
    {"h", 3'600 * kNsPerSecond},
    {"min", 60 * kNsPerSecond},
    {"m", 60 * kNsPerSecond},
    {"s", kNsPerSecond},
    {"ms", 1'000'000},
    {"us", 1'000},
    {"\xC2\xB5s", 1'000},  // µs
    {"ns", 1},
    {"", kNsPerSecond},  // a plain number, alone
}};

// Three significant digits with trailing zeros dropped: "250", "1.5",
// "12.3". For values below 1000.
std::string ThreeDigits(double value) { return fmt::format("{:.3g}", value); }

// Three significant digits, trailing zeros kept: "1.50", "24.4", "812".
// For values below 999.5.
std::string FixedThreeDigits(double value) {
  if (value < 9.995) return fmt::format("{:.2f}", value);
  if (value < 99.95) return fmt::format("{:.1f}", value);
  return fmt::format("{:.0f}", value);
}

}  // namespace

std::string_view TrimBlanks(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

Result<uint64_t> ParseSize(std::string_view text) {
  return ParseSizeWithHint(text, kSizeHint);
}

Result<uint64_t> ParseCapacity(std::string_view text) {
  return ParseSizeWithHint(
      text,
      "a capacity as the vendor states it: 960G, 2.4TB (decimal), or "
      "894GiB (binary)",
      kCapacityUnits);
}

Result<std::chrono::nanoseconds> ParseDuration(std::string_view text) {
  std::string_view rest = TrimBlanks(text);
  auto bad = [&](std::string_view why) {
    return UsageError(fmt::format("\"{}\" {}", text, why),
                      std::string(kDurationHint));
  };
  if (rest.empty())
    return UsageError("empty duration", std::string(kDurationHint));
  if (rest.front() == '-') return bad("is negative");
  constexpr uint64_t kLimit = std::numeric_limits<int64_t>::max();
  uint64_t total = 0;
  uint64_t previous_multiplier = 0;
  bool first = true;
  while (!rest.empty()) {
    Decimal number;
    const size_t used = ReadDecimal(rest, number);
    if (used == 0) return bad("is not a duration");
    rest = TrimFront(rest.substr(used));
    size_t unit_length = 0;
    while (unit_length < rest.size() && !IsDigit(rest[unit_length]) &&
           rest[unit_length] != '.' && !IsSpace(rest[unit_length])) {
      ++unit_length;
    }
    const std::string_view unit_name = rest.substr(0, unit_length);
    rest = TrimFront(rest.substr(unit_length));
    size_t unit = kDurationUnits.size();
    for (size_t i = 0; i < kDurationUnits.size(); ++i) {
      if (EqualsIgnoreCase(unit_name, kDurationUnits[i].name)) unit = i;
    }
    if (unit == kDurationUnits.size()) return bad("is not a duration");
    const bool plain = kDurationUnits[unit].name.empty();
    if (plain && !(first && rest.empty())) {
      return bad("has a number without a unit");
    }
    if (!first && kDurationUnits[unit].multiplier >= previous_multiplier) {
      return bad("must list its units from largest to smallest, e.g. 1h30m");
    }
    const std::optional<uint64_t> part =
        Scale(number, kDurationUnits[unit].multiplier, kLimit);
    if (!part || *part > kLimit - total) return bad("is too long");
    total += *part;
    previous_multiplier = kDurationUnits[unit].multiplier;
    first = false;
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(total));
}

Result<Rate> ParseRate(std::string_view text) {
  const std::string_view trimmed = TrimBlanks(text);
  auto bad = [&](std::string_view why) {
    return UsageError(fmt::format("\"{}\" {}", text, why),
                      std::string(kRateHint));
  };
  if (trimmed.empty()) return UsageError("empty rate", std::string(kRateHint));
  if (trimmed.front() == '-') return bad("is negative");
  Rate rate;
  if (EndsWithIgnoreCase(trimmed, "/s")) {
    const std::string_view size_text =
        TrimBlanks(trimmed.substr(0, trimmed.size() - 2));
    if (!size_text.empty() && IsDigit(size_text.back())) {
      return bad(
          "has no unit before /s: give IOPS without /s or bytes "
          "with a unit, e.g. 200MiB/s");
    }
    const Result<uint64_t> bytes = ParseSize(size_text);
    if (!bytes.ok()) return bad("is not a rate");
    rate.bytes_per_second = static_cast<double>(*bytes);
  } else {
    Decimal number;
    const size_t used = ReadDecimal(trimmed, number);
    if (used == 0) return bad("is not a rate");
    if (number.huge) return bad("is too large");
    std::string_view rest = TrimFront(trimmed.substr(used));
    double multiplier = 1;
    if (!rest.empty()) {
      const char prefix = Lower(rest.front());
      if (prefix == 'k') multiplier = 1e3;
      if (prefix == 'm') multiplier = 1e6;
      if (prefix == 'g') multiplier = 1e9;
      if (multiplier != 1) rest = TrimFront(rest.substr(1));
    }
    if (!rest.empty() && !EqualsIgnoreCase(rest, "iops")) {
      return bad("is not a rate");
    }
    rate.iops = number.ToDouble() * multiplier;
  }
  if (rate.iops == 0 && rate.bytes_per_second == 0) {
    return bad("is zero; leave the rate out for no limit");
  }
  return rate;
}

Result<double> ParsePercent(std::string_view text) {
  const std::string_view trimmed = TrimBlanks(text);
  if (trimmed.empty() || trimmed.back() != '%') {
    return UsageError(fmt::format("\"{}\" is not a percentage", text),
                      std::string(kPercentHint));
  }
  const std::string_view digits =
      TrimBlanks(trimmed.substr(0, trimmed.size() - 1));
  Decimal number;
  const size_t used = ReadDecimal(digits, number);
  if (used == 0 || used != digits.size()) {
    return UsageError(fmt::format("\"{}\" is not a percentage", text),
                      std::string(kPercentHint));
  }
  const double percent = number.ToDouble();
  if (percent <= 0 || percent > 100) {
    return UsageError(
        fmt::format("\"{}\" is not a percentage in (0, 100]", text),
        std::string(kPercentHint));
  }
  return percent / 100;
}

Result<SizeOrShare> ParseSizeOrShare(std::string_view text) {
  const std::string_view trimmed = TrimBlanks(text);
  if (!trimmed.empty() && trimmed.back() == '%') {
    const Result<double> share = ParsePercent(text);
    if (!share.ok()) return share.error();
    return SizeOrShare{0, *share};
  }
  const Result<uint64_t> bytes = ParseSizeWithHint(text, kSizeOrShareHint);
  if (!bytes.ok()) return bytes.error();
  return SizeOrShare{*bytes, 0};
}

std::string FormatBytes(uint64_t bytes) {
  if (bytes < kKiB) return fmt::format("{} B", bytes);
  static constexpr std::array<std::string_view, 6> kNames{"KiB", "MiB", "GiB",
                                                          "TiB", "PiB", "EiB"};
  size_t unit = 0;
  uint64_t divisor = kKiB;
  while (unit + 1 < kNames.size() && bytes / divisor >= kKiB) {
    ++unit;
    divisor <<= 10;
  }
  if (bytes % divisor == 0) {
    return fmt::format("{} {}", bytes / divisor, kNames[unit]);
  }
  double value = static_cast<double>(bytes) / static_cast<double>(divisor);
  if (value >= 1023.5 && unit + 1 < kNames.size()) {  // rounds up to 1024
    ++unit;
    value /= 1024;
  }
  return fmt::format("{} {}", FixedThreeDigits(value), kNames[unit]);
}

std::string FormatDuration(std::chrono::nanoseconds duration) {
  const int64_t signed_ns = duration.count();
  if (signed_ns < 0) {
    // -INT64_MIN overflows; one nanosecond less does not show.
    return "-" + FormatDuration(std::chrono::nanoseconds(
                     signed_ns == std::numeric_limits<int64_t>::min()
                         ? std::numeric_limits<int64_t>::max()
                         : -signed_ns));
  }
  const uint64_t ns = static_cast<uint64_t>(signed_ns);
  if (ns < 1'000) return fmt::format("{} ns", ns);
  if (ns < 999'500) return fmt::format("{} us", ThreeDigits(ns / 1e3));
  if (ns < 999'500'000) return fmt::format("{} ms", ThreeDigits(ns / 1e6));
  if (ns < 59'950'000'000) return fmt::format("{} s", ThreeDigits(ns / 1e9));
  uint64_t seconds = (ns + kNsPerSecond / 2) / kNsPerSecond;
  static constexpr std::array<Unit, 4> kParts{
      {{"d", 86'400}, {"h", 3'600}, {"min", 60}, {"s", 1}}};
  std::string text;
  for (const Unit& part : kParts) {
    const uint64_t amount = seconds / part.multiplier;
    seconds %= part.multiplier;
    if (amount == 0) continue;
    if (!text.empty()) text += ' ';
    text += fmt::format("{} {}", amount, part.name);
  }
  return text;
}

std::string FormatCount(double count) {
  if (std::isnan(count)) return "nan";
  if (count < 0) return "-" + FormatCount(-count);
  if (count < 100) return ThreeDigits(count);
  if (count < 999.5) return fmt::format("{:.0f}", count);
  static constexpr std::array<std::string_view, 5> kSuffixes{"k", "M", "G", "T",
                                                             "P"};
  double value = count / 1e3;
  size_t suffix = 0;
  while (value >= 999.5 && suffix + 1 < kSuffixes.size()) {
    value /= 1e3;
    ++suffix;
  }
  if (value >= 999.5) return fmt::format("{:.3g}", count);  // absurdly large
  return fmt::format("{}{}", FixedThreeDigits(value), kSuffixes[suffix]);
}

std::optional<double> ParseAmount(std::string_view text) {
  double value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() ||
      end != text.data() + text.size() || !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

namespace {

bool IsAsciiLetter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// A currency as written beside an amount: a three-letter code (USD, eur:
// kept upper case), a symbol ($, €, £, ¥, ₹...) or letters before a
// dollar sign (US$, A$, NZ$); nullopt for anything else.
std::optional<std::string> CurrencyOf(std::string_view text) {
  if (text.size() == 3 && std::ranges::all_of(text, IsAsciiLetter)) {
    std::string code(text);
    for (char& c : code) c = static_cast<char>(c & ~0x20);  // upper case
    return code;
  }
  static constexpr std::array<std::string_view, 12> kSymbols{"$",
                                                             "\u20ac" /* € */,
                                                             "\u00a3" /* £ */,
                                                             "\u00a5" /* ¥ */,
                                                             "\u20b9" /* ₹ */,
                                                             "\u20a9" /* ₩ */,
                                                             "\u20bd" /* ₽ */,
                                                             "\u20ba" /* ₺ */,
                                                             "\u20aa" /* ₪ */,
                                                             "\u20b1" /* ₱ */,
                                                             "\u0e3f" /* ฿ */,
                                                             "\u20ab" /* ₫ */};
  if (std::ranges::find(kSymbols, text) != kSymbols.end()) {
    return std::string(text);
  }
  if (text.size() >= 2 && text.size() <= 3 && text.back() == '$' &&
      std::ranges::all_of(text.substr(0, text.size() - 1), IsAsciiLetter)) {
    return std::string(text);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Price> ParsePrice(std::string_view text) {
  if (text.empty() || TrimBlanks(text).size() != text.size()) {
    return std::nullopt;  // as ParseAmount: no blanks around it
  }
  if (const std::optional<double> plain = ParseAmount(text)) {
    return Price{*plain, ""};
  }
  // The currency before the amount ("USD 350", "$350") or after it
  // ("350 EUR", "350EUR").
  const auto is_amount_char = [](char c) {
    return (c >= '0' && c <= '9') || c == '.';
  };
  size_t start = 0;
  while (start < text.size() && !is_amount_char(text[start])) ++start;
  size_t end = start;
  while (end < text.size() && is_amount_char(text[end])) ++end;
  const std::string_view before = TrimBlanks(text.substr(0, start));
  const std::string_view after = TrimBlanks(text.substr(end));
  if (before.empty() == after.empty()) return std::nullopt;
  const std::optional<std::string> currency =
      CurrencyOf(before.empty() ? after : before);
  const std::optional<double> amount =
      ParseAmount(text.substr(start, end - start));
  if (!currency || !amount) return std::nullopt;
  return Price{*amount, *currency};
}

std::string CostText(double value, const std::string& currency) {
  const double magnitude = std::fabs(value);
  std::string number = magnitude >= 100  ? fmt::format("{:.0f}", value)
                       : magnitude >= 10 ? fmt::format("{:.1f}", value)
                       : magnitude >= 1  ? fmt::format("{:.2f}", value)
                                         : fmt::format("{:.3g}", value);
  if (currency.empty()) return number;
  // A symbol goes before the number ("$11.9"), a code with a space
  // ("USD 11.9").
  const bool code = std::ranges::all_of(currency, IsAsciiLetter);
  return currency + (code ? " " : "") + number;
}

}  // namespace flashmark
