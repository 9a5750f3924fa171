#include "report/profile_figures.h"

#include <fmt/format.h>

#include "report/console_reporter.h"

namespace flashmark {
namespace {

double PerCommitOf(uint64_t count, const RunSummary& s) {
  return s.commit_latency.count == 0
             ? 0
             : static_cast<double>(count) / s.commit_latency.count;
}

}  // namespace

std::string ProfileFiguresLine(const RunResult& run) {
  if (run.spec.profile.empty()) return "";
  const RunSummary& s = run.summary;
  if (s.commit_latency.count == 0) {
    return fmt::format("  {}: no commit was made durable\n",
                       run.spec.profile.name);
  }
  return fmt::format(
      "  {}: commit p99 {}  p99.9 {}  read p99 {};  {} commits, {:.2f} "
      "reads, {:.2f} writes and {:.2f} syncs per commit\n",
      run.spec.profile.name, FormatLatency(s.commit_latency.p99),
      FormatLatency(s.commit_latency.p999), FormatLatency(s.read_latency.p99),
      s.commit_latency.count, PerCommitOf(s.read.ios, s),
      PerCommitOf(s.write.ios, s), PerCommitOf(s.fsyncs, s));
}

nlohmann::json ProfileFiguresJson(const RunResult& run) {
  if (run.spec.profile.empty()) return nullptr;
  const RunSummary& s = run.summary;
  return {{"name", run.spec.profile.name},
          {"mix", ProfileMixText(run.spec.profile)},
          {"commits", s.commit_latency.count},
          {"commit_p99_ns", s.commit_latency.p99},
          {"commit_p99.9_ns", s.commit_latency.p999},
          {"read_p99_ns", s.read_latency.p99},
          {"reads_per_commit", PerCommitOf(s.read.ios, s)},
          {"writes_per_commit", PerCommitOf(s.write.ios, s)},
          {"syncs_per_commit", PerCommitOf(s.fsyncs, s)}};
}

}  // namespace flashmark
