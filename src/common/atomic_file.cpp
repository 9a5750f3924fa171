#include "common/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace flashmark {
namespace {

// Writes all of `data`; false (errno set) on failure.
bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Writes the pieces through a buffer, so many small pieces cost few calls.
bool WritePieces(int fd, std::span<const std::string_view> pieces) {
  constexpr size_t kBuffer = 256 << 10;
  std::string buffer;
  buffer.reserve(kBuffer);
  for (std::string_view piece : pieces) {
    if (buffer.size() + piece.size() > kBuffer) {
      if (!WriteAll(fd, buffer)) return false;
      buffer.clear();
    }
    if (piece.size() >= kBuffer) {
      if (!WriteAll(fd, piece)) return false;
    } else {
      buffer.append(piece);
    }
  }
  return WriteAll(fd, buffer);
}

// A new temporary beside `path`: its name, and the open descriptor.
std::pair<std::string, int> CreateTemporary(const std::string& path) {
  const std::string base = fmt::format("{}.tmp.{}", path, getpid());
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name =
        attempt == 0 ? base : fmt::format("{}.{}", base, attempt);
    const int fd =
        open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
             0644);
    if (fd >= 0 || errno != EEXIST) return {name, fd};
  }
  return {base, -1};
}

Error Failure(const std::string& path, int error_number) {
  return UsageError(
      fmt::format("cannot write {}: {}", path, std::strerror(error_number)),
      error_number == ENOSPC
          ? "free some space, or choose a path with free space"
          : "choose a writable path with free space");
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view text) {
  const std::string_view pieces[] = {text};
  return WriteFileAtomically(path, pieces, true);
}

Status WriteFileAtomically(const std::string& path,
                           std::span<const std::string_view> pieces,
                           bool sync) {
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISLNK(st.st_mode)) {
    return UsageError(
        fmt::format("refusing to write {}: it is not a regular file", path),
        "name a new or an existing regular file");
  }
  const auto [temp, fd] = CreateTemporary(path);
  if (fd < 0) return Failure(path, errno);
  bool ok = WritePieces(fd, pieces) && (!sync || fsync(fd) == 0);
  int error_number = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    error_number = errno;
  }
  if (ok && std::rename(temp.c_str(), path.c_str()) != 0) {
    ok = false;
    error_number = errno;
  }
  if (!ok) {
    unlink(temp.c_str());
    return Failure(path, error_number);
  }
  return OkStatus();
}

Status WriteFilesAtomically(std::span<const PendingFile> files,
                            std::span<const std::string> directories) {
  std::vector<std::string> created;  // directories this call made
  std::vector<std::string> temporaries;
  const auto undo = [&] {
    for (const std::string& temp : temporaries) unlink(temp.c_str());
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      rmdir(it->c_str());
    }
  };
  for (const std::string& directory : directories) {
    if (mkdir(directory.c_str(), 0755) == 0) {
      created.push_back(directory);
    } else if (errno != EEXIST) {
      const int error_number = errno;
      undo();
      return UsageError(fmt::format("cannot create the directory {}: {}",
                                    directory, std::strerror(error_number)),
                        "choose a path where a directory can be created");
    }
  }
  for (const PendingFile& file : files) {
    struct stat st;
    if (lstat(file.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISLNK(st.st_mode)) {
      undo();
      return UsageError(fmt::format("refusing to write {}: it is not a "
                                    "regular file",
                                    file.path),
                        "name a new or an existing regular file");
    }
    const auto [temp, fd] = CreateTemporary(file.path);
    if (fd < 0) {
      const int error_number = errno;
      undo();
      return Failure(file.path, error_number);
    }
    temporaries.push_back(temp);
    bool ok = WriteAll(fd, file.text) && fsync(fd) == 0;
    int error_number = errno;
    if (close(fd) != 0 && ok) {
      ok = false;
      error_number = errno;
    }
    if (!ok) {
      undo();
      return Failure(file.path, error_number);
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temporaries[i].c_str(), files[i].path.c_str()) != 0) {
      const int error_number = errno;
      for (size_t j = i; j < files.size(); ++j) unlink(temporaries[j].c_str());
      return Failure(files[i].path, error_number);
    }
  }
  return OkStatus();
}

bool WriteNewFile(const std::string& path, std::string_view text) {
  const int fd = open(
      path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = WriteAll(fd, text) && fsync(fd) == 0;
  int error_number = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    error_number = errno;
  }
  if (!ok) {
    unlink(path.c_str());
    errno = error_number;
  }
  return ok;
}

}  // namespace flashmark
