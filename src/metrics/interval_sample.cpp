#include "metrics/interval_sample.h"

namespace flashmark {

void FoldInto(IntervalSample& into, const IntervalSample& later) {
  into.end_ns = later.end_ns;
  into.read.ios += later.read.ios;
  into.read.bytes += later.read.bytes;
  into.write.ios += later.write.ios;
  into.write.bytes += later.write.bytes;
  into.fsyncs += later.fsyncs;
  into.errors += later.errors;
  into.read_latency.Merge(later.read_latency);
  into.write_latency.Merge(later.write_latency);
  into.schedule_latency.Merge(later.schedule_latency);
}

}  // namespace flashmark
