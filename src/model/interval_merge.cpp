#include "model/interval_merge.h"

#include <algorithm>

namespace flashmark {

void MergeInterval(IntervalSample& total, const IntervalSample& part) {
  total.partial = total.partial || part.partial;
  total.spans = std::max(total.spans, part.spans);
  AddCounters(total, part);
  total.read_latency.Merge(part.read_latency);
  total.write_latency.Merge(part.write_latency);
  total.schedule_latency.Merge(part.schedule_latency);
}

}  // namespace flashmark
