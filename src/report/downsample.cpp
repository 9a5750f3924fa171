#include "report/downsample.h"

#include <numeric>

namespace flashmark {

std::vector<size_t> MinMaxDownsample(std::span<const double> values,
                                     size_t buckets) {
  std::vector<size_t> kept;
  if (buckets == 0 || values.size() <= 2 * buckets) {
    kept.resize(values.size());
    std::iota(kept.begin(), kept.end(), 0);
    return kept;
  }
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = b * values.size() / buckets;
    const size_t end = (b + 1) * values.size() / buckets;
    size_t low = begin, high = begin;
    for (size_t i = begin; i < end; ++i) {
      if (values[i] < values[low]) low = i;
      if (values[i] > values[high]) high = i;
    }
    if (low == high) {
      kept.push_back(low);
    } else {
      kept.push_back(std::min(low, high));
      kept.push_back(std::max(low, high));
    }
  }
  return kept;
}

}  // namespace flashmark
