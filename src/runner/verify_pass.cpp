#include "runner/verify_pass.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "common/signals.h"

namespace flashmark {
namespace {

constexpr uint64_t kChunkBytes = 1 << 20;
constexpr size_t kBufferAlignment = 4096;

// Reads up to `length` bytes at `offset`; the count read (short at the end
// of the file) or -errno.
int64_t ReadFully(int fd, std::byte* buffer, uint64_t length, uint64_t offset) {
  uint64_t done = 0;
  while (done < length) {
    const ssize_t got = pread(fd, buffer + done, length - done, offset + done);
    if (got < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    if (got == 0) break;
    done += got;
  }
  return static_cast<int64_t>(done);
}

}  // namespace

Status RunVerifyPass(std::span<const IoFile> files, const GenerationMap& map,
                     MismatchLog& log, VerifyOutcome& outcome) {
  const uint32_t block_bytes = map.block_bytes();
  const uint64_t chunk_blocks =
      std::max<uint64_t>(1, kChunkBytes / block_bytes);
  const uint64_t chunk_bytes = chunk_blocks * block_bytes;
  const uint64_t buffer_bytes = (chunk_bytes + kBufferAlignment - 1) /
                                kBufferAlignment * kBufferAlignment;
  std::unique_ptr<std::byte, void (*)(void*)> buffer(
      static_cast<std::byte*>(
          std::aligned_alloc(kBufferAlignment, buffer_bytes)),
      std::free);
  if (!buffer) return RuntimeError("verify: cannot allocate the read buffer");
  std::vector<uint32_t> states(chunk_blocks);
  const AuditContext context{files, &log, true};

  outcome.read_back_ran = true;
  outcome.read_back_complete = false;
  const uint64_t started = NowNs();
  auto finish = [&] { outcome.read_back_seconds = (NowNs() - started) / 1e9; };
  const size_t file_count = std::min(files.size(), map.file_count());
  for (uint32_t file = 0; file < file_count; ++file) {
    if (files[file].fd < 0) continue;
    const uint64_t blocks = map.BlocksOf(file);
    for (uint64_t first = 0; first < blocks; first += chunk_blocks) {
      const uint64_t count = std::min(chunk_blocks, blocks - first);
      const uint64_t offset = first * block_bytes;
      const uint64_t length = count * block_bytes;
      map.Snapshot(file, offset, static_cast<uint32_t>(length), states.data());
      if (std::none_of(states.begin(), states.begin() + count,
                       GenerationMap::Checkable)) {
        continue;
      }
      if (TakePendingInterrupt() != 0) {
        outcome.read_back_note = "interrupted";
        finish();
        return OkStatus();
      }
      const int64_t got =
          ReadFully(files[file].fd, buffer.get(), length, offset);
      if (got < 0) {
        outcome.read_back_note =
            fmt::format("{} reading {} at offset {} ({} bytes)",
                        std::strerror(static_cast<int>(-got)), files[file].path,
                        offset, length);
        finish();
        return RuntimeError("verify: " + outcome.read_back_note);
      }
      outcome.read_back_bytes += got;
      outcome.read_back.Add(
          AuditBlocks(context, block_bytes, buffer.get(), file, offset, length,
                      static_cast<uint64_t>(got), states.data()));
    }
  }
  outcome.read_back_complete = true;
  finish();
  return OkStatus();
}

}  // namespace flashmark
