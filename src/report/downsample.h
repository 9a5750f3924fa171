// Thinning of long per-interval series for drawing only (never for
// statistics): the series is cut into `buckets` equal runs of points and
// each run keeps its minimum and its maximum, in time order, so spikes and
// dips survive. Series of at most 2 x buckets points are kept whole.
// Pure; returns indexes into the input.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace flashmark {

std::vector<size_t> MinMaxDownsample(std::span<const double> values,
                                     size_t buckets);

}  // namespace flashmark
