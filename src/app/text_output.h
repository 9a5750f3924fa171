// Where a read command's long text (show --json, export) goes as it is
// produced: standard output, or the -o file, written beside its name and
// put in place whole (common/atomic_file.h: StreamedFile), so that a
// failure or an interruption leaves the old file, or none, never a part.
// On standard output what was written stays written: a failure after the
// first piece says that the output is incomplete.
// One thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/atomic_file.h"
#include "common/result.h"

namespace flashmark {

class TextOutput {
 public:
  // `file`: the -o path as checked (system/output_path.h: its real path);
  // none for standard output.
  static Result<TextOutput> Open(const std::optional<std::string>& file);

  Status Write(std::string_view text);
  // Ends the output: the file is put in place when `produced` is ok. The
  // exit status: 0, or that of the error printed (`produced`'s, or an
  // interruption's when `interrupted`).
  int Finish(const Status& produced, bool interrupted);

 private:
  explicit TextOutput(std::optional<StreamedFile> file)
      : file_(std::move(file)) {}

  std::optional<StreamedFile> file_;
  bool wrote_to_stdout_ = false;
};

}  // namespace flashmark
