#include "common/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace flashmark {
namespace {

// StreamedFile's buffer: many small pieces cost few write calls.
constexpr size_t kStreamBuffer = 256 << 10;

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
  auto file = StreamedFile::Create(path);
  if (!file.ok()) return file.error();
  for (std::string_view piece : pieces) {
    if (Status appended = file->Append(piece); !appended.ok()) return appended;
  }
  return file->Commit(sync);
}

Result<StreamedFile> StreamedFile::Create(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISLNK(st.st_mode)) {
    return UsageError(
        fmt::format("refusing to write {}: it is not a regular file", path),
        "name a new or an existing regular file");
  }
  auto [temp, fd] = CreateTemporary(path);
  if (fd < 0) return Failure(path, errno);
  return StreamedFile(path, std::move(temp), fd);
}

StreamedFile::StreamedFile(std::string path, std::string temp, int fd)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {
  buffer_.reserve(kStreamBuffer);
}

StreamedFile::StreamedFile(StreamedFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_(std::move(other.temp_)),
      fd_(std::exchange(other.fd_, -1)),
      buffer_(std::move(other.buffer_)) {}

StreamedFile::~StreamedFile() {
  if (fd_ < 0) return;
  close(fd_);
  unlink(temp_.c_str());
}

Status StreamedFile::Fail(int error_number) {
  if (fd_ >= 0) {
    close(fd_);
    unlink(temp_.c_str());
    fd_ = -1;
  }
  return Failure(path_, error_number);
}

Status StreamedFile::Append(std::string_view text) {
  if (fd_ < 0) return Failure(path_, EBADF);
  if (buffer_.size() + text.size() > kStreamBuffer) {
    if (!WriteAll(fd_, buffer_)) return Fail(errno);
    buffer_.clear();
  }
  if (text.size() >= kStreamBuffer) {
    if (!WriteAll(fd_, text)) return Fail(errno);
  } else {
    buffer_.append(text);
  }
  return OkStatus();
}

Status StreamedFile::Commit(bool sync) {
  if (fd_ < 0) return Failure(path_, EBADF);
  if (!WriteAll(fd_, buffer_) || (sync && fsync(fd_) != 0)) return Fail(errno);
  buffer_.clear();
  const int fd = std::exchange(fd_, -1);
  if (close(fd) != 0 || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int error_number = errno;
    unlink(temp_.c_str());
    return Failure(path_, error_number);
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
