// ImportLineReader: a text file read line by line through a 1 MiB buffer,
// for importers of files too large to hold (a block IO trace of millions
// of IOs: store/trace_import.h): no size limit, the file's SHA-256 over
// every byte read, its name and modification time as an ImportFile (with
// an empty `text`) for LineError. Lines come without their line end
// ("\n" or "\r\n"); a line longer than the buffer grows it.
//
// Errors: a missing or unreadable file, and anything but a regular file,
// are usage errors naming it. Threading: one thread; owns its descriptor.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "config/campaign_hash.h"
#include "store/import_common.h"

namespace flashmark {

// Opens a saved file to read (O_RDONLY; a fifo is never waited for): its
// descriptor, the caller's to close, with its name and modification time
// in `file`. Errors: a missing or unreadable file, anything but a regular
// file (usage errors naming it).
Result<int> OpenImportFile(const std::string& path, ImportFile& file);

class ImportLineReader {
 public:
  static Result<ImportLineReader> Open(const std::string& path);
  ImportLineReader(ImportLineReader&& other) noexcept;
  ImportLineReader& operator=(ImportLineReader&&) = delete;
  ~ImportLineReader();

  // The next line (valid until the next call); false at the end.
  Result<bool> Next(std::string_view& line);
  // The line Next() returned last, from 1.
  size_t line_number() const { return line_number_; }
  // The file's name and modification time (text empty).
  const ImportFile& file() const { return file_; }
  // Of the bytes read so far: the whole file's once Next() returned false.
  std::string HashHex() const { return hash_.Hex(); }

 private:
  ImportLineReader(int fd, ImportFile file)
      : fd_(fd), file_(std::move(file)), buffer_(size_t{1} << 20) {}

  int fd_ = -1;
  ImportFile file_;
  Sha256 hash_;
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0;  // unread bytes: [begin_, end_)
  bool eof_ = false;
  size_t line_number_ = 0;
};

}  // namespace flashmark
