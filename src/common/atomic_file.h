// Writes a whole file or nothing. The text goes to a new temporary beside
// PATH (PATH.tmp.PID, or PATH.tmp.PID.N when that name is taken), created
// with O_EXCL | O_NOFOLLOW so that neither an existing file nor a planted
// symlink is ever written through; it is flushed (fsync, unless `sync` is
// false) and renamed over PATH. On any failure the temporary is removed and
// PATH is left as it was: a reader sees the old file or the new one, never
// a part. An existing PATH that is neither a regular file nor a symlink (a
// device node, a fifo, a directory) is refused: renaming would replace the
// node. A symlink at PATH is replaced, not followed; callers that mean the
// file it leads to resolve it first (system/output_path.h).
// Errors name the path and are usage errors (the path is the user's).
// Thread-safe for distinct paths.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/result.h"

namespace flashmark {

Status WriteFileAtomically(const std::string& path, std::string_view text);

// The same for a text given in pieces, written in order.
Status WriteFileAtomically(const std::string& path,
                           std::span<const std::string_view> pieces, bool sync);

// The same for a text produced piece by piece (the export of a long run,
// too big to hold): Create makes the temporary, with the refusals above;
// Append writes through a buffer; Commit flushes, fsyncs (unless `sync` is
// false) and renames it over PATH. Destroyed without a successful Commit
// (after a failed Append, say), the temporary is removed and PATH is left
// as it was. Move-only; one thread.
class StreamedFile {
 public:
  static Result<StreamedFile> Create(const std::string& path);
  StreamedFile(StreamedFile&& other) noexcept;
  StreamedFile& operator=(StreamedFile&&) = delete;
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;
  ~StreamedFile();

  Status Append(std::string_view text);
  Status Commit(bool sync = true);

 private:
  StreamedFile(std::string path, std::string temp, int fd);
  Status Fail(int error_number);

  std::string path_;
  std::string temp_;
  int fd_ = -1;  // -1 once committed or failed
  std::string buffer_;
};

// Several files written all or none (a report's HTML, Markdown, SVGs and
// CSVs): the missing `directories` are created (mkdir 0755, in order, so a
// parent comes first), every file is written to a temporary beside it and
// flushed, and only once all of them are there are they renamed into
// place. A failure before the renames removes every temporary and every
// directory it created, and leaves every file as it was. (A rename that
// fails after others succeeded cannot be undone; it is reported.)
struct PendingFile {
  std::string path;
  std::string text;
};
Status WriteFilesAtomically(std::span<const PendingFile> files,
                            std::span<const std::string> directories);

// Creates a new file with O_CREAT | O_EXCL | O_NOFOLLOW (never an existing
// file, never through a symlink) and writes `text` to it; false (errno
// set) when that is not possible. Nothing is left behind on failure.
bool WriteNewFile(const std::string& path, std::string_view text);

}  // namespace flashmark
