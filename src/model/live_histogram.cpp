#include "model/live_histogram.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace flashmark {
namespace {

constexpr size_t kCountsBytes = sizeof(uint64_t) * buckets::kCount;

}  // namespace

// An anonymous private mapping reads as zeros and gets a page only when
// one is first written (calloc may memset a reused heap block instead).
LiveHistogram::LiveHistogram() {
  void* mapping = mmap(nullptr, kCountsBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  counts_ = static_cast<uint64_t*>(mapping);
}

LiveHistogram::~LiveHistogram() { munmap(counts_, kCountsBytes); }

void LiveHistogram::Snapshot(std::vector<uint64_t>& out) const {
  out.assign(buckets::kCount, 0);
  ForEachBucket([&out](uint32_t index, uint64_t count) { out[index] = count; });
}

}  // namespace flashmark
