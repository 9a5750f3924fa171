#include "runner/io_buffer_pool.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

constexpr size_t kPageBytes = 4096;
constexpr size_t kHugePageBytes = 2u << 20;

size_t RoundUp(size_t bytes, size_t unit) {
  return (bytes + unit - 1) / unit * unit;
}

size_t BufferBytes(size_t buffer_bytes) {
  return RoundUp(buffer_bytes == 0 ? 1 : buffer_bytes, kPageBytes);
}

// Whole huge pages where they are at least half used (see the header).
bool OnHugePages(size_t count, size_t buffer_bytes, bool huge_pages) {
  return huge_pages && count * buffer_bytes >= kHugePageBytes / 2;
}

}  // namespace

IoBufferPool::IoBufferPool(IoBufferPool&& other) noexcept {
  *this = std::move(other);
}

IoBufferPool& IoBufferPool::operator=(IoBufferPool&& other) noexcept {
  if (this != &other) {
    Release();
    base_ = std::exchange(other.base_, nullptr);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
    count_ = std::exchange(other.count_, 0);
    buffer_bytes_ = std::exchange(other.buffer_bytes_, 0);
    offered_huge_ = std::exchange(other.offered_huge_, false);
  }
  return *this;
}

IoBufferPool::~IoBufferPool() { Release(); }

void IoBufferPool::Release() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);
  mapping_ = nullptr;
  base_ = nullptr;
}

size_t IoBufferPool::FilledBytes(size_t count, size_t buffer_bytes,
                                 bool huge_pages) {
  const size_t each = BufferBytes(buffer_bytes);
  return OnHugePages(count, each, huge_pages)
             ? RoundUp(count * each, kHugePageBytes)
             : count * each;
}

Result<IoBufferPool> IoBufferPool::Create(size_t count, size_t buffer_bytes,
                                          bool huge_pages) {
  IoBufferPool pool;
  pool.count_ = count;
  pool.buffer_bytes_ = BufferBytes(buffer_bytes);
  const size_t bytes = pool.count_ * pool.buffer_bytes_;
  const bool huge = OnHugePages(count, pool.buffer_bytes_, huge_pages);
  // A huge page's worth of slack lets the buffers start on a 2 MiB
  // boundary; an inaccessible page at either end keeps the kernel from
  // merging the pool with a neighbouring mapping (another worker's pool),
  // so /proc/self/smaps shows the pool's own pages.
  pool.mapping_bytes_ =
      (huge ? RoundUp(bytes, kHugePageBytes) + kHugePageBytes : bytes) +
      2 * kPageBytes;
  void* mapping = mmap(nullptr, pool.mapping_bytes_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    return RuntimeError(
        fmt::format("cannot allocate {} IO buffers of {} "
                    "bytes: {}",
                    count, pool.buffer_bytes_, std::strerror(errno)),
        "lower --iodepth or --bs");
  }
  pool.mapping_ = mapping;
  pool.offered_huge_ = huge;
  char* const first = static_cast<char*>(mapping);
  mprotect(first, kPageBytes, PROT_NONE);
  mprotect(first + pool.mapping_bytes_ - kPageBytes, kPageBytes, PROT_NONE);
  const auto start = reinterpret_cast<uintptr_t>(first + kPageBytes);
  pool.base_ =
      first + kPageBytes + (huge ? RoundUp(start, kHugePageBytes) - start : 0);
  // Advice only: without transparent huge pages (or with them "never")
  // the pool simply keeps ordinary pages. NOHUGEPAGE keeps a small pool
  // (or --mem malloc) on ordinary pages even where THP is "always".
  madvise(mapping, pool.mapping_bytes_, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return pool;
}

void* IoBufferPool::buffer(size_t index) const {
  return base_ + index * buffer_bytes_;
}

size_t IoBufferPool::HugeBytes() const {
  if (mapping_ == nullptr) return 0;
  // /proc/self/smaps: a header line "start-end perms ..." per mapping,
  // then "Key:   value kB" lines, among them AnonHugePages.
  std::ifstream smaps("/proc/self/smaps");
  const auto start = reinterpret_cast<uintptr_t>(base_);
  const auto end = start + count_ * buffer_bytes_;
  std::string line;
  bool inside = false;
  size_t huge_kib = 0;
  while (std::getline(smaps, line)) {
    unsigned long from = 0;
    unsigned long to = 0;
    char dash = 0;
    if (std::sscanf(line.c_str(), "%lx%c%lx", &from, &dash, &to) == 3 &&
        dash == '-') {
      inside = from < end && to > start;
      continue;
    }
    unsigned long kib = 0;
    if (inside && std::sscanf(line.c_str(), "AnonHugePages: %lu kB", &kib) == 1)
      huge_kib += kib;
  }
  return huge_kib * 1024;
}

std::string IoBufferPool::TransparentHugePagesMode() {
  const std::string line =
      ReadSysfsLine("/sys/kernel/mm/transparent_hugepage/enabled");
  const size_t open = line.find('[');
  const size_t close = line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

bool IoBufferPool::TransparentHugePagesUsable() {
  const std::string mode = TransparentHugePagesMode();
  return mode == "always" || mode == "madvise";
}

}  // namespace flashmark
