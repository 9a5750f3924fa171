// Block headers for --verify: every verify block a write carries starts
// with a 48-byte header saying where it was written for and which write it
// was, and a checksum (XXH3-64, from libxxhash) over everything after the
// checksum field: the rest of the header and the whole payload. Reading a
// block back, CheckBlock tells a good block from a torn one (checksum), a
// misdirected one (another file or offset in a valid header) and a lost
// write (an older generation, or no header at all).
//
// Layout (little-endian), offsets in bytes:
//    0  magic       u64  "FLMKBLK1"
//    8  checksum    u64  XXH3-64 of bytes [16, block length)
//   16  offset      u64  the block's byte offset within its file
//   24  generation  u32  1 for the first write of the block, then +1
//   28  file        u32  index of the file in the run's target list
//   32  seed        u64  seed of the run that wrote it
//   40  length      u32  the block length in bytes
//   44  version     u32  header format, 1
// The payload (bytes 48 and on) is the job's data pattern, untouched.
//
// Pure functions on caller-owned memory; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace flashmark {

inline constexpr uint32_t kBlockHeaderBytes = 48;
// Verify blocks are at least this long (every block size is a multiple of
// 512 bytes, so any mix's alignment qualifies).
inline constexpr uint32_t kMinVerifyBlockBytes = 512;

struct BlockStamp {
  uint64_t offset = 0;      // bytes within the file
  uint32_t file = 0;        // index in the run's target list
  uint32_t generation = 0;  // >= 1
  uint64_t seed = 0;
};

// Writes the header into the first kBlockHeaderBytes of `block` (whose
// size is the block length, >= kMinVerifyBlockBytes) and the checksum over
// the rest. The payload must already be in place.
void StampBlock(std::span<std::byte> block, const BlockStamp& stamp);

enum class BlockState {
  kGood,         // intact, written for this place, the expected generation
  kNoHeader,     // no magic: never stamped, or overwritten by foreign data
  kBadChecksum,  // a header, but the contents do not match its checksum
  kWrongPlace,   // intact, but written for another file or offset
  kStale,        // intact and in place, but an older generation
  kNewer,        // intact and in place, but a newer generation
};

struct BlockCheck {
  BlockState state = BlockState::kNoHeader;
  BlockStamp found;  // the header read; valid for kGood and after
};

// Checks `block` as read from `file` at `offset` against the generation
// last written there (>= 1).
BlockCheck CheckBlock(std::span<const std::byte> block, uint32_t file,
                      uint64_t offset, uint32_t expected_generation);

}  // namespace flashmark
