#include "common/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace flashmark {

Status WriteFileAtomically(const std::string& path, std::string_view text) {
  const std::string temp = fmt::format("{}.tmp.{}", path, getpid());
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return UsageError(fmt::format("cannot write {}: {}", path, std::strerror(errno)),
                      "choose a writable path");
  }
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += n;
  }
  const int error_number = errno;
  const bool ok = done == text.size() && fsync(fd) == 0;
  close(fd);
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    const int reason = ok ? errno : error_number;
    std::remove(temp.c_str());
    return UsageError(fmt::format("cannot write {}: {}", path, std::strerror(reason)),
                      "choose a writable path with free space");
  }
  return OkStatus();
}

}  // namespace flashmark
