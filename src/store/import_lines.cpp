#include "store/import_lines.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace flashmark {

Result<int> OpenImportFile(const std::string& path, ImportFile& file) {
  // O_NONBLOCK: opening a fifo must not wait for a writer.
  const int fd =
      open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    return UsageError(
        fmt::format("{}: cannot read the file: {}", path, std::strerror(errno)),
        "name an existing trace file");
  }
  struct stat st;
  const bool stated = fstat(fd, &st) == 0;
  const int error = errno;
  if (!stated || !S_ISREG(st.st_mode)) {
    close(fd);
    return UsageError(
        stated ? fmt::format("{}: not a regular file: import reads saved "
                             "files only",
                             path)
               : fmt::format("{}: cannot read the file: {}", path,
                             std::strerror(error)),
        "name a saved trace file (blkparse's text output, blktrace's binary "
        "files, an fio iolog)");
  }
  file.name = path;
  file.modified_unix_ns =
      static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
      st.st_mtim.tv_nsec;
  return fd;
}

Result<ImportLineReader> ImportLineReader::Open(const std::string& path) {
  ImportFile file;
  auto fd = OpenImportFile(path, file);
  if (!fd.ok()) return fd.error();
  return ImportLineReader(*fd, std::move(file));
}

ImportLineReader::ImportLineReader(ImportLineReader&& other) noexcept
    : fd_(other.fd_),
      file_(std::move(other.file_)),
      hash_(other.hash_),
      buffer_(std::move(other.buffer_)),
      begin_(other.begin_),
      end_(other.end_),
      eof_(other.eof_),
      line_number_(other.line_number_) {
  other.fd_ = -1;
}

ImportLineReader::~ImportLineReader() {
  if (fd_ >= 0) close(fd_);
}

Result<bool> ImportLineReader::Next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start, '\n', end_ - begin_);
    if (newline != nullptr || (eof_ && end_ > begin_)) {
      const size_t length =
          newline != nullptr
              ? static_cast<size_t>(static_cast<const char*>(newline) - start)
              : end_ - begin_;
      line = std::string_view(start, length);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      begin_ += newline != nullptr ? length + 1 : length;
      ++line_number_;
      return true;
    }
    if (eof_) return false;
    // Keep the partial line at the front; grow when it fills the buffer.
    if (begin_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    const ssize_t n = read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return UsageError(fmt::format("{}: cannot read the file: {}", file_.name,
                                    std::strerror(errno)));
    }
    if (n == 0) {
      eof_ = true;
      continue;
    }
    hash_.Update(
        std::string_view(buffer_.data() + end_, static_cast<size_t>(n)));
    end_ += static_cast<size_t>(n);
  }
}

}  // namespace flashmark
