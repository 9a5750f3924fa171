// The exact best split of a range of values into two segments under the L1
// cost C(segment) = sum |x - median(segment)| (robust to spikes: one wild
// value moves a median by at most one rank).
//
// Method: the costs of every prefix and every suffix come from a running
// median kept in two heaps (a max-heap of the lower half, a min-heap of the
// upper half, with their sums): C = median * |lower| - sum(lower) +
// sum(upper) - median * |upper|. The split minimises C(prefix) +
// C(suffix) over all admissible positions; among equal costs the earliest.
// Complexity: O(m log m) time, O(m) memory for m values.
#pragma once

#include <cstddef>
#include <span>

namespace flashmark {

// Index (into x) of the first value of the right segment, both segments
// holding at least min_length values (>= 1); 0 when x has fewer than
// 2 * min_length values.
size_t BestL1Split(std::span<const double> x, size_t min_length);

}  // namespace flashmark
