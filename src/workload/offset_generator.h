// Offset generators: where each IO of a worker goes.
//
// A worker's address space is a list of segments (one per file or device,
// or a slice of one for sequential modes shared among workers). Next()
// returns a location inside one segment such that [offset, offset+length)
// stays in that segment and offset is a multiple of `align` (relative to
// the segment start). Sequential generators walk the segments in order and
// wrap around; random ones draw over the concatenated space with the
// requested distribution (uniform, zipf, pareto, normal, zoned),
// block-aligned.
// Deterministic for a given seed. One instance per worker thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/io_pattern.h"

namespace flashmark {

struct Segment {
  uint32_t file = 0;   // index of the file this segment lies in
  uint64_t begin = 0;  // bytes, within that file
  uint64_t end = 0;    // exclusive
};

struct Location {
  uint32_t file = 0;
  uint64_t offset = 0;  // bytes within the file
};

class OffsetGenerator {
 public:
  virtual ~OffsetGenerator() = default;
  // `length` is at most the largest block size given at construction.
  virtual Location Next(uint32_t length) = 0;
};

// `align` is the alignment of offsets (the smallest block size);
// `max_length` the largest IO. Every segment must hold at least max_length
// bytes (the runner validates this before building generators).
std::unique_ptr<OffsetGenerator> MakeOffsetGenerator(
    AccessPattern pattern, const Distribution& distribution,
    std::vector<Segment> segments, uint32_t align, uint32_t max_length,
    uint64_t seed);

}  // namespace flashmark
