// Compact binary form of a LatencyHistogram for the store: a sequence of
// LEB128 varint pairs (index delta from the previous bucket, count).
// A typical 1-second interval takes tens to a few hundred bytes.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"
#include "model/latency_histogram.h"
#include "model/split_by_latency.h"

namespace flashmark {

std::vector<uint8_t> EncodeHistogram(const LatencyHistogram& histogram);
Result<LatencyHistogram> DecodeHistogram(std::span<const uint8_t> bytes);

// A SplitByLatency the same way: per band, varints of its index delta,
// its IOs and its four parts' sums.
std::vector<uint8_t> EncodeSplitByLatency(const SplitByLatency& split);
Result<SplitByLatency> DecodeSplitByLatency(std::span<const uint8_t> bytes);

}  // namespace flashmark
