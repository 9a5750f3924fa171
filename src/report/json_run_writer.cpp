#include "report/json_run_writer.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/json_text.h"
#include "report/json_format.h"

namespace flashmark {

using nlohmann::json;

JsonRunWriter::JsonRunWriter(std::string path, std::ostream& stdout_stream,
                             std::ostream& errors)
    : path_(std::move(path)), stdout_stream_(stdout_stream), errors_(errors) {}

JsonRunWriter::~JsonRunWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

Status JsonRunWriter::Open() {
  if (path_ == "-") return OkStatus();
  file_ = std::fopen(path_.c_str(), "w");
  if (file_ == nullptr) {
    return UsageError(fmt::format("--json {}: cannot create the file: {}",
                                  path_, std::strerror(errno)),
                      "choose a writable path, or --json - for stdout");
  }
  return OkStatus();
}

void JsonRunWriter::WriteAtTail(const std::string& text,
                                const std::string& trailer) {
  if (file_ == nullptr || failed_) return;
  const bool ok = std::fseek(file_, tail_, SEEK_SET) == 0 &&
                  std::fwrite(text.data(), 1, text.size(), file_) == text.size();
  const long new_tail = std::ftell(file_);
  const bool trailer_ok =
      ok && std::fwrite(trailer.data(), 1, trailer.size(), file_) ==
                trailer.size();
  if (!trailer_ok || std::fflush(file_) != 0 ||
      ftruncate(fileno(file_), std::ftell(file_)) != 0) {
    failed_ = true;
    errors_ << fmt::format("warning: --json {}: write failed ({}); the run "
                           "goes on without it\n",
                           path_, std::strerror(errno));
    return;
  }
  tail_ = new_tail;
}

void JsonRunWriter::OnStart(const RunResult& run) {
  if (path_ == "-") return;
  std::string head = JsonText(RunHeaderJson(run));
  head.pop_back();  // the closing brace: the document continues
  WriteAtTail(head + ",\"intervals\":[", "],\"status\":\"running\"}\n");
}

void JsonRunWriter::OnInterval(const RunResult&, const IntervalSample& sample) {
  if (path_ == "-") return;
  const std::string text =
      (first_interval_ ? "" : ",") + JsonText(ToJson(sample));
  first_interval_ = false;
  WriteAtTail(text, "],\"status\":\"running\"}\n");
}

void JsonRunWriter::OnEnd(const RunResult& run) {
  const json doc = ToJson(run);
  if (path_ == "-") {
    stdout_stream_ << JsonText(doc, 1) << "\n";
    return;
  }
  // The last interval may have changed (a short tail folded into it):
  // rewrite the whole document rather than patching it.
  tail_ = 0;
  WriteAtTail(JsonText(doc) + "\n", "");
}

}  // namespace flashmark
