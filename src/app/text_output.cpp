#include "app/text_output.h"

#include <iostream>

#include "app/print_error.h"

namespace flashmark {

Result<TextOutput> TextOutput::Open(const std::optional<std::string>& file) {
  if (!file) return TextOutput(std::nullopt);
  auto created = StreamedFile::Create(*file);
  if (!created.ok()) return created.error();
  return TextOutput(std::move(*created));
}

Status TextOutput::Write(std::string_view text) {
  if (file_) return file_->Append(text);
  wrote_to_stdout_ = true;
  std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!std::cout) {
    return RuntimeError("cannot write to standard output",
                        "check where standard output goes (a full disk, a "
                        "closed pipe)");
  }
  return OkStatus();
}

int TextOutput::Finish(const Status& produced, bool interrupted) {
  Status done = interrupted ? Status(InterruptedError()) : produced;
  if (done.ok() && file_) done = file_->Commit();
  if (done.ok()) {
    std::cout.flush();
    return 0;
  }
  file_.reset();  // removes the temporary: the old file stays
  std::cout.flush();
  const int status = PrintError(done.error());
  if (wrote_to_stdout_) {
    std::cerr << "what standard output shows is incomplete\n";
  }
  return status;
}

}  // namespace flashmark
