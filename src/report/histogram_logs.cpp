#include "report/histogram_logs.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "common/local_time.h"
#include "model/histogram_buckets.h"
#include "store/fio_logs.h"

namespace flashmark {
namespace {

// HdrHistogram's layout for lowest 1, highest 2^43, 3 significant digits.
constexpr int kSignificantDigits = 3;
constexpr int64_t kLowest = 1;
constexpr int64_t kHighest = int64_t{1} << 43;
constexpr int kSubBucketHalfCountMagnitude = 10;  // 2 x 10^3 -> 2048 / 2
constexpr int64_t kSubBucketHalfCount = int64_t{1}
                                        << kSubBucketHalfCountMagnitude;
constexpr int64_t kSubBucketMask = (kSubBucketHalfCount << 1) - 1;
constexpr int kLeadingZeroCountBase = 64 - kSubBucketHalfCountMagnitude - 1;
// The V2 cookies with the word-size bits as HdrHistogram's Java writer sets
// them (0x10: zig-zag LEB128 counts).
constexpr uint32_t kEncodingCookie = 0x1c849303 | 0x10;
constexpr uint32_t kCompressedCookie = 0x1c849304 | 0x10;

size_t HdrIndexOf(int64_t value) {
  const int bucket =
      kLeadingZeroCountBase -
      __builtin_clzll(static_cast<uint64_t>(value | kSubBucketMask));
  const int64_t sub = value >> bucket;
  return static_cast<size_t>(
      ((static_cast<int64_t>(bucket) + 1) << kSubBucketHalfCountMagnitude) +
      (sub - kSubBucketHalfCount));
}

void PutInt32(std::string& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

void PutInt64(std::string& out, uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

// ZigZag LEB128, as HdrHistogram's ZigZagEncoding.putLong.
void PutZigZag(std::string& out, int64_t value) {
  uint64_t v =
      (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

std::string Base64(const std::string& bytes) {
  static const char* const kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t k = 0; k < bytes.size(); k += 3) {
    uint32_t chunk = static_cast<uint8_t>(bytes[k]) << 16;
    if (k + 1 < bytes.size()) chunk |= static_cast<uint8_t>(bytes[k + 1]) << 8;
    if (k + 2 < bytes.size()) chunk |= static_cast<uint8_t>(bytes[k + 2]);
    out.push_back(kAlphabet[(chunk >> 18) & 63]);
    out.push_back(kAlphabet[(chunk >> 12) & 63]);
    out.push_back(k + 1 < bytes.size() ? kAlphabet[(chunk >> 6) & 63] : '=');
    out.push_back(k + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=');
  }
  return out;
}

std::string Deflate(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size()));
  std::string out(size, '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &size,
            reinterpret_cast<const Bytef*>(bytes.data()),
            static_cast<uLong>(bytes.size()), Z_BEST_SPEED);
  out.resize(size);
  return out;
}

// The recorded value of one of our buckets: its midpoint, within range.
int64_t RecordedValue(uint32_t index) {
  const double mid = std::round(buckets::Midpoint(index));
  return std::clamp(static_cast<int64_t>(mid), kLowest, kHighest);
}

}  // namespace

std::string EncodeHdrHistogram(const LatencyHistogram& histogram) {
  std::vector<std::pair<size_t, uint64_t>> counts;  // hdr index, count
  for (const auto& bucket : histogram.buckets()) {
    const size_t index = HdrIndexOf(RecordedValue(bucket.index));
    if (!counts.empty() && counts.back().first == index) {
      counts.back().second += bucket.count;
    } else {
      counts.emplace_back(index, bucket.count);
    }
  }
  std::string payload;
  size_t next = 0;  // the first index not yet written
  for (const auto& [index, count] : counts) {
    if (index > next) PutZigZag(payload, -static_cast<int64_t>(index - next));
    PutZigZag(payload, static_cast<int64_t>(count));
    next = index + 1;
  }
  std::string encoded;
  PutInt32(encoded, kEncodingCookie);
  PutInt32(encoded, static_cast<uint32_t>(payload.size()));
  PutInt32(encoded, 0);  // normalizing index offset
  PutInt32(encoded, kSignificantDigits);
  PutInt64(encoded, kLowest);
  PutInt64(encoded, kHighest);
  uint64_t ratio_bits = 0;
  const double ratio = 1.0;  // integer to double value conversion ratio
  std::memcpy(&ratio_bits, &ratio, sizeof ratio);
  PutInt64(encoded, ratio_bits);
  encoded += payload;
  const std::string compressed = Deflate(encoded);
  std::string out;
  PutInt32(out, kCompressedCookie);
  PutInt32(out, static_cast<uint32_t>(compressed.size()));
  out += compressed;
  return Base64(out);
}

std::string HdrHistogramLogHeader(const RunResult& run) {
  return fmt::format(
      "#[Logged with flashmark]\n"
      "#[Histogram log format version 1.3]\n"
      "#[StartTime: {:.3f} (seconds since epoch), {}]\n"
      "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
      "\"Interval_Compressed_Histogram\"\n",
      run.start_unix_ns / 1e9,
      LocalTimeText(run.start_unix_ns, "%a %b %d %H:%M:%S %Z %Y"));
}

std::string HdrHistogramLogLines(const IntervalSample& sample) {
  std::string out;
  const std::pair<const char*, const LatencyHistogram*> directions[] = {
      {"read", &sample.read_latency}, {"write", &sample.write_latency}};
  for (const auto& [tag, histogram] : directions) {
    if (histogram->empty()) continue;
    out += fmt::format("Tag={},{:.3f},{:.3f},{:.3f},{}\n", tag,
                       sample.start_ns / 1e9, sample.seconds(),
                       histogram->Max() / 1e6, EncodeHdrHistogram(*histogram));
  }
  return out;
}

size_t FioBinOf(uint64_t ns) {
  constexpr unsigned kBits = 6;  // FIO_IO_U_PLAT_BITS
  const unsigned msb = ns == 0 ? 0 : 63 - __builtin_clzll(ns);
  if (msb <= kBits) return static_cast<size_t>(ns);
  const unsigned error_bits = msb - kBits;
  const size_t base = (error_bits + 1) << kBits;
  const size_t offset =
      static_cast<size_t>((ns >> error_bits) & ((1u << kBits) - 1));
  return std::min(base + offset, kFioBins - 1);
}

uint64_t FioHistogramLogBlockSize(const RunResult& run) {
  return run.spec.block_sizes.empty() ? 0 : run.spec.block_sizes.front().bytes;
}

std::string FioHistogramLogLines(const IntervalSample& sample,
                                 uint64_t block_size) {
  std::string out;
  std::vector<uint64_t> bins(kFioBins);
  const LatencyHistogram* directions[] = {&sample.read_latency,
                                          &sample.write_latency};
  for (int direction = 0; direction < 2; ++direction) {
    const LatencyHistogram& histogram = *directions[direction];
    if (histogram.empty()) continue;
    std::fill(bins.begin(), bins.end(), 0);
    for (const auto& bucket : histogram.buckets()) {
      bins[FioBinOf(static_cast<uint64_t>(
          std::round(buckets::Midpoint(bucket.index))))] += bucket.count;
    }
    out += fmt::format("{}, {}, {}", sample.end_ns / 1'000'000, direction,
                       block_size);
    // Written by hand: most of the bins are zeros (fmt::join of them took
    // 20 s for a week of intervals).
    char number[24];
    for (const uint64_t count : bins) {
      if (count == 0) {
        out += ", 0";
        continue;
      }
      out += ", ";
      const auto written = std::to_chars(number, number + sizeof number, count);
      out.append(number, written.ptr);
    }
    out += '\n';
  }
  return out;
}

}  // namespace flashmark
