#include "metrics/interval_merge.h"

namespace flashmark {

void MergeInterval(IntervalSample& total, const IntervalSample& part) {
  total.partial = total.partial || part.partial;
  total.read.ios += part.read.ios;
  total.read.bytes += part.read.bytes;
  total.write.ios += part.write.ios;
  total.write.bytes += part.write.bytes;
  total.fsyncs += part.fsyncs;
  total.errors += part.errors;
  total.verify.Add(part.verify);
  total.read_latency.Merge(part.read_latency);
  total.write_latency.Merge(part.write_latency);
  total.schedule_latency.Merge(part.schedule_latency);
}

}  // namespace flashmark
