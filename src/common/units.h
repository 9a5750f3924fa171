// Parsing and formatting of the quantities users type: sizes ("4k",
// "16KiB", "50G"), durations ("90s", "1h30m", "500ms"), rates ("5000",
// "200MiB/s") and shares of capacity ("50%"). All size units are binary
// (k = KiB = 1024), as in fio and sysbench, except a drive's capacity
// (ParseCapacity), decimal as vendors write it. Pure functions; errors name the
// offending text and carry a hint, but not the option: callers prefix it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace flashmark {

// `text` without the spaces and tabs at either end.
std::string_view TrimBlanks(std::string_view text);

// Bytes, e.g. "4096", "4k", "16KiB", "1.5G". Rejects negatives and overflow.
Result<uint64_t> ParseSize(std::string_view text);
// A drive's capacity in bytes as its vendor states it: K, M, G, T, P
// (with or without B) decimal ("960G", "2.4TB": 10^9, 10^12), KiB..PiB
// binary; a plain number is bytes.
Result<uint64_t> ParseCapacity(std::string_view text);
// A price or another amount: the whole of `text` a finite number >= 0
// ("350", "899.5"); nullopt otherwise (no spaces, no units).
std::optional<double> ParseAmount(std::string_view text);
// A price: an amount (as ParseAmount) with its currency as written, a
// code or symbol before it or a code after it ("USD 28500", "$350",
// "350 EUR"; "" when none); nullopt otherwise.
struct Price {
  double amount = 0;
  std::string currency;
};
std::optional<Price> ParsePrice(std::string_view text);
// A cost with 3 significant digits (all digits from 100 up, no exponent)
// and its currency: "USD 11.9", "$0.0512", "1234".
std::string CostText(double value, const std::string& currency);

// A duration, e.g. "30" (seconds), "90s", "500ms", "2m", "1h30m", "1d".
Result<std::chrono::nanoseconds> ParseDuration(std::string_view text);

// A rate: plain IOPS ("5000", "5000iops", "2.5k") or bytes per second
// ("200MiB/s", "1G/s"). Exactly one of the two fields is non-zero.
struct Rate {
  double iops = 0;
  double bytes_per_second = 0;
};
Result<Rate> ParseRate(std::string_view text);

// A percentage "50%" or "12.5%" as a fraction in (0, 1].
Result<double> ParsePercent(std::string_view text);

// Either an absolute size or a share of the target's capacity.
struct SizeOrShare {
  uint64_t bytes = 0;  // when share == 0
  double share = 0;    // fraction of capacity, resolved later
};
Result<SizeOrShare> ParseSizeOrShare(std::string_view text);

// "16 KiB", "1.50 GiB", "512 B": binary units, 3 significant digits.
std::string FormatBytes(uint64_t bytes);
// "30 s", "1 h 5 min", "250 ms".
std::string FormatDuration(std::chrono::nanoseconds duration);
// "24.4k", "3.51M", "812": compact counts for IOPS.
std::string FormatCount(double count);

}  // namespace flashmark
