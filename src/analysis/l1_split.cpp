#include "analysis/l1_split.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

namespace flashmark {
namespace {

// L1 cost of the values added so far about their (lower) median, kept by
// two heaps: lower_ (max-heap) holds the smaller half plus the median.
class RunningL1Cost {
 public:
  void Add(double v) {
    if (lower_.empty() || v <= lower_.front()) {
      Push(lower_, sum_lower_, v, std::less<>());
    } else {
      Push(upper_, sum_upper_, v, std::greater<>());
    }
    if (lower_.size() > upper_.size() + 1) {
      Push(upper_, sum_upper_, Pop(lower_, sum_lower_, std::less<>()),
           std::greater<>());
    } else if (upper_.size() > lower_.size()) {
      Push(lower_, sum_lower_, Pop(upper_, sum_upper_, std::greater<>()),
           std::less<>());
    }
  }

  double Cost() const {
    if (lower_.empty()) return 0;
    const double median = lower_.front();
    const double cost = median * static_cast<double>(lower_.size()) -
                        sum_lower_ + sum_upper_ -
                        median * static_cast<double>(upper_.size());
    return cost > 0 ? cost : 0;  // rounding
  }

 private:
  template <typename Compare>
  static void Push(std::vector<double>& heap, double& sum, double v,
                   Compare compare) {
    heap.push_back(v);
    std::push_heap(heap.begin(), heap.end(), compare);
    sum += v;
  }
  template <typename Compare>
  static double Pop(std::vector<double>& heap, double& sum, Compare compare) {
    std::pop_heap(heap.begin(), heap.end(), compare);
    const double v = heap.back();
    heap.pop_back();
    sum -= v;
    return v;
  }

  std::vector<double> lower_, upper_;
  double sum_lower_ = 0, sum_upper_ = 0;
};

}  // namespace

size_t BestL1Split(std::span<const double> x, size_t min_length) {
  min_length = std::max<size_t>(min_length, 1);
  if (min_length > x.size()) return 0;  // (and 2 * min_length cannot overflow)
  const size_t m = x.size();
  if (m < 2 * min_length) return 0;
  std::vector<double> prefix(m + 1, 0.0);  // prefix[t] = C(x[0, t))
  RunningL1Cost running;
  for (size_t t = 0; t < m; ++t) {
    running.Add(x[t]);
    prefix[t + 1] = running.Cost();
  }
  RunningL1Cost suffix;  // C(x[t, m)), t walking down
  double best = std::numeric_limits<double>::infinity();
  size_t at = 0;
  for (size_t t = m; t-- > min_length;) {
    suffix.Add(x[t]);
    if (m - t < min_length) continue;
    const double cost = prefix[t] + suffix.Cost();
    if (cost <= best) {  // <=: walking down, the earliest of equal costs
      best = cost;
      at = t;
    }
  }
  return at;
}

}  // namespace flashmark
