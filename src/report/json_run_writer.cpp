#include "report/json_run_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/atomic_file.h"
#include "common/json_text.h"
#include "document/json_format.h"
#include "report/throttle_text.h"

namespace flashmark {
namespace {

constexpr std::string_view kIntervalsOpen = ",\"intervals\":[";
constexpr std::string_view kRunningTail = "],\"status\":\"running\"}\n";

}  // namespace

using nlohmann::json;

JsonRunWriter::JsonRunWriter(std::string path, std::ostream& stdout_stream,
                             std::ostream& errors)
    : path_(std::move(path)),
      write_path_(path_),
      stdout_stream_(stdout_stream),
      errors_(errors) {}

Result<OutputPath> JsonRunWriter::Check() {
  if (path_ == "-") return OutputPath{"--json", "-", "-", false, 0, 0};
  auto checked = CheckOutputPath("--json", path_, OutputKind::kDocument);
  if (!checked.ok()) return checked.error();
  write_path_ = checked->real;
  return checked;
}

bool JsonRunWriter::WriteDocument(const std::vector<std::string_view>& pieces,
                                  bool sync) {
  const Status written = WriteFileAtomically(write_path_, pieces, sync);
  if (written.ok()) {
    written_once_ = true;
    ++rewrites_;
    for (std::string_view piece : pieces) bytes_written_ += piece.size();
    return true;
  }
  if (!warned_) {
    warned_ = true;
    errors_ << fmt::format(
        "warning: --json {}: {}; {}; trying again at later intervals\n", path_,
        written.error().message,
        written_once_ ? fmt::format("the file keeps the complete document of "
                                    "the first {} intervals",
                                    intervals_in_file_)
                      : "no document was written yet");
  }
  return false;
}

void JsonRunWriter::Refresh(uint64_t run_time_ns) {
  std::vector<std::string_view> pieces;
  pieces.reserve(2 * intervals_.size() + 3);
  pieces.push_back(head_);
  pieces.push_back(kIntervalsOpen);
  for (size_t i = 0; i < intervals_.size(); ++i) {
    if (i > 0) pieces.push_back(",");
    pieces.push_back(intervals_[i]);
  }
  pieces.push_back(kRunningTail);
  last_refresh_ns_ = run_time_ns;
  if (WriteDocument(pieces, false)) intervals_in_file_ = intervals_.size();
}

void JsonRunWriter::OnStart(const RunResult& run) {
  if (path_ == "-") return;
  head_ = JsonText(RunHeaderJson(run));
  head_.pop_back();  // the closing brace: the document continues
  document_bytes_ = head_.size() + kIntervalsOpen.size() + kRunningTail.size();
  Refresh(0);
}

void JsonRunWriter::OnInterval(const RunResult&, const IntervalSample& sample) {
  if (path_ == "-") return;
  intervals_.push_back(JsonText(ToJson(sample)));
  document_bytes_ += intervals_.back().size() + 1;
  // Throttled to kRefreshBytesPerSecond of rewriting on average.
  const uint64_t since_ns =
      sample.end_ns - std::min(sample.end_ns, last_refresh_ns_);
  const double due_ns = 1e9 * document_bytes_ / kRefreshBytesPerSecond;
  if (since_ns >= due_ns) Refresh(sample.end_ns);
}

void JsonRunWriter::OnEnd(const RunResult& run) {
  json doc = ToJson(run);
  // A --detect-throttle run's bucket, as `show --json` gives it.
  if (run.spec.detect_throttle) doc["throttle"] = RunThrottleJson(run);
  if (path_ == "-") {
    stdout_stream_ << JsonText(doc, 1) << "\n";
    return;
  }
  // The last interval may have changed (a short tail folded into it):
  // write the whole document anew.
  const std::string text = JsonText(doc) + "\n";
  if (WriteDocument({text}, true)) return;
  complete_ = false;
  errors_ << fmt::format(
      "error: --json {} is incomplete: the final document could not be "
      "written; {}\n",
      path_,
      written_once_
          ? fmt::format("the file holds the first {} of {} intervals, status "
                        "\"running\", no summary",
                        intervals_in_file_, run.intervals.size())
          : "no document was written");
}

}  // namespace flashmark
