// Offset generators. Random kinds share one model: the worker's space is a
// sequence of "slots" (positions `align` bytes apart, relative to each
// segment's begin, at which an IO of max_length bytes still fits), the
// slots of all segments concatenated. A distribution draws a slot index;
// SlotSpace maps it back to (file, offset). Because every slot fits an IO of
// max_length bytes, it fits any shorter IO too.
#include "workload/offset_generator.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <numbers>
#include <utility>

#include "common/random.h"

namespace flashmark {
namespace {

// Rounds `length` up to a multiple of `align`.
uint64_t RoundUp(uint64_t length, uint64_t align) {
  return (length + align - 1) / align * align;
}

class SequentialGenerator final : public OffsetGenerator {
 public:
  SequentialGenerator(std::vector<Segment> segments, uint32_t align)
      : segments_(std::move(segments)),
        align_(align),
        cursor_(segments_.front().begin) {}

  Location Next(uint32_t length) override {
    // Skip to the next segment (wrapping after the last) while the IO does
    // not fit; give up after one lap if no segment can hold it at all.
    for (size_t moved = 0;
         cursor_ + length > segments_[index_].end && moved < segments_.size();
         ++moved) {
      index_ = index_ + 1 == segments_.size() ? 0 : index_ + 1;
      cursor_ = segments_[index_].begin;
    }
    const Location location{segments_[index_].file, cursor_};
    // A length that is not a multiple of align is rounded up, so that the
    // next offset stays aligned (no-op for the usual block-size mixes).
    // The step is cached: lengths rarely change from one IO to the next.
    if (length != last_length_) {
      last_length_ = length;
      step_ = RoundUp(length, align_);
    }
    cursor_ += step_;
    return location;
  }

 private:
  std::vector<Segment> segments_;
  uint64_t align_;
  size_t index_ = 0;
  uint64_t cursor_;
  uint32_t last_length_ = 0;
  uint64_t step_ = 0;
};

// The concatenated slots of all segments, and the map slot -> location.
class SlotSpace {
 public:
  SlotSpace(std::vector<Segment> segments, uint32_t align, uint32_t max_length)
      : segments_(std::move(segments)), align_(align) {
    uint64_t total = 0;
    for (const Segment& segment : segments_) {
      const uint64_t bytes = segment.end - segment.begin;
      if (segment.end > segment.begin && bytes >= max_length) {
        total += (bytes - max_length) / align + 1;
      }
      ends_.push_back(total);
    }
    // The runner guarantees every segment holds max_length bytes; if none
    // does, degrade to one slot at the first segment's begin.
    if (total == 0) ends_.back() = total = 1;
    BuildGuide(total);
  }

  uint64_t slots() const { return ends_.back(); }

  Location At(uint64_t slot) const {
    if (segments_.size() == 1) {
      return {segments_[0].file, segments_[0].begin + slot * align_};
    }
    // Start at the first segment overlapping the slot's guide bucket and
    // step over the (on average fewer than one) segment ends before it.
    size_t index = guide_[slot >> guide_shift_];
    while (ends_[index] <= slot) ++index;
    const uint64_t first_slot = index == 0 ? 0 : ends_[index - 1];
    const Segment& segment = segments_[index];
    return {segment.file, segment.begin + (slot - first_slot) * align_};
  }

 private:
  // A guide table (as in table-lookup sampling): the slots are cut into
  // buckets of 2^guide_shift_ slots, at least 4 buckets per segment, and
  // guide_[b] is the segment holding bucket b's first slot. It replaces a
  // binary search (dependent, unpredictable branches: ~40 ns for 128
  // segments) by one shift and one load.
  void BuildGuide(uint64_t total) {
    const uint64_t buckets_wanted = 4 * uint64_t(segments_.size());
    while ((total >> (guide_shift_ + 1)) >= buckets_wanted) ++guide_shift_;
    const uint64_t buckets = ((total - 1) >> guide_shift_) + 1;
    guide_.resize(buckets);
    size_t index = 0;
    for (uint64_t bucket = 0; bucket < buckets; ++bucket) {
      while (ends_[index] <= bucket << guide_shift_) ++index;
      guide_[bucket] = static_cast<uint32_t>(index);
    }
  }

  std::vector<Segment> segments_;
  std::vector<uint64_t> ends_;  // ends_[i] = slots in segments 0..i
  std::vector<uint32_t> guide_;
  int guide_shift_ = 0;
  uint64_t align_;
};

// A fixed bijection of [0, n): scatters popularity ranks over the space so
// the hot blocks are not all at the start (fio hashes ranks for the same
// reason). It is a murmur3-style finaliser restricted to the smallest
// power-of-two domain 2^k >= n (xor-shift, multiply by an odd constant and
// add are each bijective modulo 2^k), made a bijection of [0, n) by cycle
// walking: reapply until the value falls below n (on average < 2 rounds,
// as 2^k < 2n). Independent of the seed, so all workers of a job share the
// same hot blocks.
class Scatter {
 public:
  explicit Scatter(uint64_t n)
      : n_(n),
        mask_(n <= 1 ? 0 : ~uint64_t{0} >> std::countl_zero(n - 1)),
        shift_(std::max(1, (std::popcount(mask_) + 1) / 2)) {}

  uint64_t operator()(uint64_t rank) const {
    uint64_t x = rank;
    do {
      x = Mix(x);
    } while (x >= n_);
    return x;
  }

 private:
  uint64_t Mix(uint64_t x) const {
    x = (x + 0x9e3779b97f4a7c15ull) & mask_;
    x ^= x >> shift_;
    x = (x * 0xff51afd7ed558ccdull) & mask_;
    x ^= x >> shift_;
    x = (x * 0xc4ceb9fe1a85ec53ull) & mask_;
    x ^= x >> shift_;
    return x;
  }

  uint64_t n_;
  uint64_t mask_;
  int shift_;
};

struct UniformDraw {
  uint64_t operator()(Random& random) const { return random.Below(n); }
  uint64_t n;
};

// zeta(n, theta) = sum_{i=1..n} i^-theta. Summed exactly for the first
// kExactTerms terms; the rest by Euler-Maclaurin with f(x) = x^-theta:
//   sum_{i=m..n} f(i) ~ integral_m^n f + (f(m) + f(n)) / 2
//                       + (f'(n) - f'(m)) / 12 - (f'''(n) - f'''(m)) / 720
// whose remainder is below |f^(5)(m)| / 30240 ~ 1e-35 for m = 2^20: far
// below double precision, at a few milliseconds for any n.
double Zeta(uint64_t n, double theta) {
  constexpr uint64_t kExactTerms = uint64_t{1} << 20;
  const uint64_t exact = std::min(n, kExactTerms);
  double sum = 0;
  for (uint64_t i = exact; i >= 1; --i) sum += std::pow(double(i), -theta);
  if (n <= exact) return sum;
  const double m = double(exact + 1);
  const double x = double(n);
  const auto f = [theta](double v) { return std::pow(v, -theta); };
  const auto f1 = [theta](double v) {
    return -theta * std::pow(v, -theta - 1);
  };
  const auto f3 = [theta](double v) {
    return -theta * (theta + 1) * (theta + 2) * std::pow(v, -theta - 3);
  };
  const double integral =
      (std::pow(x, 1 - theta) - std::pow(m, 1 - theta)) / (1 - theta);
  return sum + integral + (f(m) + f(x)) / 2 + (f1(x) - f1(m)) / 12 -
         (f3(x) - f3(m)) / 720;
}

// Zipfian ranks by Gray et al., "Quickly generating billion-record
// synthetic databases" (SIGMOD 1994), as in YCSB and fio: P(rank = i) is
// proportional to 1 / (i + 1)^theta. Ranks 0 and 1 are exact; beyond, an
// inverse of the integral approximation of the CDF. The same formulas hold
// for theta > 1 (alpha and eta turn negative together).
class ZipfDraw {
 public:
  ZipfDraw(uint64_t n, double theta)
      : n_(n),
        zetan_(Zeta(n, theta)),
        alpha_(1 / (1 - theta)),
        second_(1 + std::pow(0.5, theta)),
        scatter_(n) {
    eta_ = n <= 2 ? 0
                  : (1 - std::pow(2.0 / double(n), 1 - theta)) /
                        (1 - second_ / zetan_);
  }

  uint64_t operator()(Random& random) {
    const double u = random.Unit();
    const double uz = u * zetan_;
    uint64_t rank;
    if (uz < 1) {
      rank = 0;
    } else if (uz < second_) {
      rank = 1;
    } else {
      const double x = double(n_) * std::pow(eta_ * u - eta_ + 1, alpha_);
      rank = x >= double(n_ - 1) ? n_ - 1 : static_cast<uint64_t>(x);
    }
    return scatter_(rank);
  }

 private:
  uint64_t n_;
  double zetan_;
  double alpha_;
  double second_;  // zeta(2, theta)
  double eta_ = 0;
  Scatter scatter_;
};

// fio's pareto:h. With f = min(h, 1 - h), the hottest fraction f of the
// blocks receives the fraction 1 - f of the accesses: pareto:0.9 sends 90 %
// of the IO to 10 % of the blocks, pareto:0.8 (or 0.2) is the 80/20 rule.
// Like fio, the rank is n * u^k with u uniform in [0, 1), a power-law CDF
// P(rank < x n) = x^(1/k); k = log(f) / log(1 - f) puts the point
// (f, 1 - f) on it. (fio uses log(h) / log(1 - h), the mirror image for
// h > 0.5, which the scatter makes equivalent.) h = 0.5 is uniform.
class ParetoDraw {
 public:
  ParetoDraw(uint64_t n, double h) : n_(n), scatter_(n) {
    const double f = std::min(h, 1 - h);
    exponent_ = f <= 0 ? 1 : std::log(f) / std::log1p(-f);
  }

  uint64_t operator()(Random& random) {
    const double x = double(n_) * std::pow(random.Unit(), exponent_);
    const uint64_t rank =
        x >= double(n_ - 1) ? n_ - 1 : static_cast<uint64_t>(x);
    return scatter_(rank);
  }

 private:
  uint64_t n_;
  double exponent_;
  Scatter scatter_;
};

// Gaussian around the middle of the space, stddev = percent % of the
// space; draws outside the space are rejected (redrawn), not clamped, so
// the ends get no extra mass. Box-Muller, both variates used.
class NormalDraw {
 public:
  NormalDraw(uint64_t n, double percent)
      : n_(n), middle_(double(n) / 2), sigma_(double(n) * percent / 100) {}

  uint64_t operator()(Random& random) {
    while (true) {
      const double x = middle_ + sigma_ * StandardNormal(random);
      if (x >= 0 && x < double(n_)) return static_cast<uint64_t>(x);
    }
  }

 private:
  double StandardNormal(Random& random) {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double radius = std::sqrt(-2 * std::log(1 - random.Unit()));
    const double angle = 2 * std::numbers::pi * random.Unit();
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

  uint64_t n_;
  double middle_;
  double sigma_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// fio's zoned: a zone by its share of the accesses, then a slot uniformly
// inside it; zone k spans the slots from the sum of the ranges before it.
class ZonedDraw {
 public:
  ZonedDraw(uint64_t n, const std::vector<DistributionZone>& zones) {
    double access = 0;
    double range = 0;
    for (const DistributionZone& zone : zones) {
      if (zone.access <= 0) {
        range += zone.range;
        continue;
      }
      access += zone.access;
      const auto begin = static_cast<uint64_t>(double(n) * range / 100);
      range += zone.range;
      const auto end = std::min<uint64_t>(
          n, std::max<uint64_t>(
                 begin + 1, static_cast<uint64_t>(double(n) * range / 100)));
      zones_.push_back({access / 100, std::min(begin, n - 1), end});
    }
    if (!zones_.empty()) zones_.back().cumulative = 1;
  }

  uint64_t operator()(Random& random) const {
    const double u = random.Unit();
    for (const Zone& zone : zones_) {
      if (u < zone.cumulative) {
        return zone.begin + random.Below(zone.end - zone.begin);
      }
    }
    const Zone& last = zones_.back();
    return last.begin + random.Below(last.end - last.begin);
  }

 private:
  struct Zone {
    double cumulative;  // share of the accesses up to and with this zone
    uint64_t begin, end;
  };
  std::vector<Zone> zones_;
};

template <typename Draw>
class RandomGenerator final : public OffsetGenerator {
 public:
  RandomGenerator(SlotSpace space, Draw draw, uint64_t seed)
      : space_(std::move(space)), draw_(std::move(draw)), random_(seed) {}

  Location Next(uint32_t /*length*/) override {
    return space_.At(draw_(random_));
  }

 private:
  SlotSpace space_;
  Draw draw_;
  Random random_;
};

template <typename Draw>
std::unique_ptr<OffsetGenerator> MakeRandom(SlotSpace space, Draw draw,
                                            uint64_t seed) {
  return std::make_unique<RandomGenerator<Draw>>(std::move(space),
                                                 std::move(draw), seed);
}

}  // namespace

std::unique_ptr<OffsetGenerator> MakeOffsetGenerator(
    AccessPattern pattern, const Distribution& distribution,
    std::vector<Segment> segments, uint32_t align, uint32_t max_length,
    uint64_t seed) {
  assert(!segments.empty() && align > 0);
  if (pattern == AccessPattern::kSequential) {
    return std::make_unique<SequentialGenerator>(std::move(segments), align);
  }
  SlotSpace space(std::move(segments), align, max_length);
  const uint64_t n = space.slots();
  switch (distribution.kind) {
    case DistributionKind::kZipf:
      return MakeRandom(std::move(space), ZipfDraw(n, distribution.parameter),
                        seed);
    case DistributionKind::kPareto:
      return MakeRandom(std::move(space), ParetoDraw(n, distribution.parameter),
                        seed);
    case DistributionKind::kNormal:
      return MakeRandom(std::move(space), NormalDraw(n, distribution.parameter),
                        seed);
    case DistributionKind::kZoned:
      return MakeRandom(std::move(space), ZonedDraw(n, distribution.zones),
                        seed);
    case DistributionKind::kUniform:
      break;
  }
  return MakeRandom(std::move(space), UniformDraw{n}, seed);
}

}  // namespace flashmark
