// IoBufferPool: the IO buffers of one worker, carved from one anonymous
// mapping aligned to a 2 MiB huge page and offered to the kernel's
// transparent huge pages (madvise), as fio's --mem=mmaphuge does without
// needing reserved hugetlbfs pages. Physically contiguous buffers let a
// large IO travel as one segment (no split at a device's segment limit)
// and let io_uring register each buffer as one piece. A pool smaller than
// half a huge page keeps ordinary pages: a 2 MiB page for one 16 KiB
// buffer wasted 99 % of it, and 4096 psync workers took 8 GiB and 80 s of
// page zeroing to start; from 1 MiB up the pool costs whole 2 MiB pages.
//
// Units: bytes. Each buffer is `buffer_bytes` long (a multiple of 4096)
// and 4096-aligned. Ownership: the pool owns the mapping and unmaps it on
// destruction; buffers must not be used after. Not thread-safe to create;
// buffers may be used from any thread.
#pragma once

#include <cstddef>
#include <string>

#include "common/result.h"

namespace flashmark {

class IoBufferPool {
 public:
  IoBufferPool() = default;
  IoBufferPool(const IoBufferPool&) = delete;
  IoBufferPool& operator=(const IoBufferPool&) = delete;
  IoBufferPool(IoBufferPool&& other) noexcept;
  IoBufferPool& operator=(IoBufferPool&& other) noexcept;
  ~IoBufferPool();

  // `count` buffers of `buffer_bytes` (rounded up to 4096); with
  // `huge_pages` false, ordinary pages only.
  static Result<IoBufferPool> Create(size_t count, size_t buffer_bytes,
                                     bool huge_pages);
  // The memory such a pool's buffers take once filled (its huge pages
  // whole), before it is made.
  static size_t FilledBytes(size_t count, size_t buffer_bytes, bool huge_pages);

  void* buffer(size_t index) const;
  size_t count() const { return count_; }
  size_t buffer_bytes() const { return buffer_bytes_; }
  // Bytes of the pool backed by huge pages once touched (read from
  // /proc/self/smaps; 0 when none or unknown).
  size_t HugeBytes() const;
  // Whether the pool was offered to transparent huge pages (Create's
  // `huge_pages`, and the pool large enough to gain from them).
  bool offered_huge_pages() const { return offered_huge_; }

  // The kernel's transparent huge page mode, the bracketed word of
  // /sys/kernel/mm/transparent_hugepage/enabled: "always", "madvise",
  // "never", or "" where the file is missing (no THP in the kernel).
  static std::string TransparentHugePagesMode();
  // Whether a madvise()d mapping may get huge pages: "always" or "madvise".
  static bool TransparentHugePagesUsable();

 private:
  void Release();

  char* base_ = nullptr;     // the aligned start of the buffers
  void* mapping_ = nullptr;  // what mmap returned
  size_t mapping_bytes_ = 0;
  size_t count_ = 0;
  size_t buffer_bytes_ = 0;
  bool offered_huge_ = false;
};

}  // namespace flashmark
