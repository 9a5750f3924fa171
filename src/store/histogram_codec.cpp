#include "store/histogram_codec.h"

#include "model/histogram_buckets.h"

namespace flashmark {
namespace {

void PutVarint(std::vector<uint8_t>& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

bool GetVarint(std::span<const uint8_t> bytes, size_t& at, uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64 && at < bytes.size(); shift += 7) {
    const uint8_t byte = bytes[at++];
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

std::vector<uint8_t> EncodeHistogram(const LatencyHistogram& histogram) {
  std::vector<uint8_t> out;
  uint32_t previous = 0;
  for (const auto& bucket : histogram.buckets()) {
    PutVarint(out, bucket.index - previous);
    PutVarint(out, bucket.count);
    previous = bucket.index;
  }
  return out;
}

Result<LatencyHistogram> DecodeHistogram(std::span<const uint8_t> bytes) {
  std::vector<LatencyHistogram::Bucket> buckets;
  buckets.reserve(bytes.size() / 2);
  uint64_t index = 0;
  for (size_t at = 0; at < bytes.size();) {
    uint64_t delta = 0, count = 0;
    if (!GetVarint(bytes, at, delta) || !GetVarint(bytes, at, count)) {
      return RuntimeError("a stored latency histogram is truncated");
    }
    index += delta;
    if ((!buckets.empty() && delta == 0) || index >= buckets::kCount ||
        count == 0) {
      return RuntimeError("a stored latency histogram is malformed");
    }
    buckets.push_back({static_cast<uint32_t>(index), count});
  }
  return LatencyHistogram::FromBuckets(std::move(buckets));
}

std::vector<uint8_t> EncodeSplitByLatency(const SplitByLatency& split) {
  std::vector<uint8_t> out;
  uint32_t previous = 0;
  for (const SplitByLatency::Band& band : split.bands()) {
    PutVarint(out, band.index - previous);
    PutVarint(out, band.ios);
    for (const uint64_t ns : band.part_ns) PutVarint(out, ns);
    previous = band.index;
  }
  return out;
}

Result<SplitByLatency> DecodeSplitByLatency(std::span<const uint8_t> bytes) {
  std::vector<SplitByLatency::Band> bands;
  uint64_t index = 0;
  for (size_t at = 0; at < bytes.size();) {
    uint64_t delta = 0;
    SplitByLatency::Band band;
    bool whole = GetVarint(bytes, at, delta) && GetVarint(bytes, at, band.ios);
    for (uint64_t& ns : band.part_ns) whole = whole && GetVarint(bytes, at, ns);
    if (!whole) return RuntimeError("a stored latency split is truncated");
    index += delta;
    if (index >= SplitByLatency::kBands) {
      return RuntimeError("a stored latency split is malformed");
    }
    band.index = static_cast<uint32_t>(index);
    bands.push_back(band);
  }
  return SplitByLatency::FromBands(std::move(bands));
}

}  // namespace flashmark
