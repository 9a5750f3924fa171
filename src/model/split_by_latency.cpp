#include "model/split_by_latency.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "model/histogram_buckets.h"

namespace flashmark {

static_assert(SplitByLatency::kBands * 16 == buckets::kCount);

uint32_t SplitByLatency::BandOf(uint64_t ns) {
  return buckets::IndexOf(ns) >> 4;
}

Result<SplitByLatency> SplitByLatency::FromBands(std::vector<Band> bands) {
  for (size_t k = 0; k < bands.size(); ++k) {
    const Band& band = bands[k];
    if (band.index >= kBands || band.ios == 0 ||
        (k > 0 && band.index <= bands[k - 1].index)) {
      return RuntimeError(fmt::format(
          "a latency split's band {} (of {}) is malformed: index {}, {} IOs "
          "(indexes must increase, stay below {}, and hold IOs)",
          k, bands.size(), band.index, band.ios, kBands));
    }
  }
  SplitByLatency split;
  split.bands_ = std::move(bands);
  return split;
}

void SplitByLatency::Merge(const SplitByLatency& other) {
  if (other.bands_.empty()) return;
  if (bands_.empty()) {
    bands_ = other.bands_;
    return;
  }
  std::vector<Band> merged;
  merged.reserve(bands_.size() + other.bands_.size());
  auto a = bands_.begin();
  auto b = other.bands_.begin();
  while (a != bands_.end() || b != other.bands_.end()) {
    if (b == other.bands_.end() || (a != bands_.end() && a->index < b->index)) {
      merged.push_back(*a++);
    } else if (a == bands_.end() || b->index < a->index) {
      merged.push_back(*b++);
    } else {
      merged.push_back(*a++);
      merged.back().Add(*b++);
    }
  }
  bands_ = std::move(merged);
}

uint64_t SplitByLatency::ios() const {
  uint64_t ios = 0;
  for (const Band& band : bands_) ios += band.ios;
  return ios;
}

std::array<double, 4> SplitByLatency::PartsAt(double q) const {
  std::array<double, 4> means;
  means.fill(std::nan(""));
  const uint64_t total = ios();
  if (total == 0) return means;
  const uint64_t rank = std::clamp<uint64_t>(
      static_cast<uint64_t>(
          std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(total))),
      1, total);
  uint64_t seen = 0;
  for (const Band& band : bands_) {
    seen += band.ios;
    if (seen < rank) continue;
    for (size_t part = 0; part < 4; ++part) {
      means[part] = static_cast<double>(band.part_ns[part]) /
                    static_cast<double>(band.ios);
    }
    break;
  }
  return means;
}

SplitByLatency::Band& SplitByLatencyAccumulator::Touch(uint32_t index) {
  if (dense_.empty()) dense_.resize(SplitByLatency::kBands);
  low_ = std::min(low_, index);
  high_ = std::max(high_, index);
  return dense_[index];
}

void SplitByLatencyAccumulator::Add(const SplitByLatency::Parts& parts) {
  Touch(SplitByLatency::BandOf(parts[0] + parts[1] + parts[2] + parts[3]))
      .Add({.ios = 1, .part_ns = parts});
}

void SplitByLatencyAccumulator::Add(const SplitByLatency& split) {
  for (const SplitByLatency::Band& band : split.bands()) {
    Touch(band.index).Add(band);
  }
}

SplitByLatency SplitByLatencyAccumulator::Take() {
  std::vector<SplitByLatency::Band> bands;
  for (uint32_t index = low_; index <= high_ && index < dense_.size();
       ++index) {
    SplitByLatency::Band& band = dense_[index];
    if (band.ios == 0) continue;
    bands.push_back(std::exchange(band, {}));
    bands.back().index = index;
  }
  low_ = SplitByLatency::kBands;
  high_ = 0;
  SplitByLatency split;
  split.bands_ = std::move(bands);
  return split;
}

}  // namespace flashmark
