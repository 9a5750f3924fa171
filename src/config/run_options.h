// RunOptions: the workload options exactly as the user typed them (on the
// command line or in a campaign file), before validation. Every value is
// text so that errors can quote it; std::nullopt means "not given".
// BuildJobSpec turns them into a validated JobSpec or the first error,
// naming the option, the value and a hint. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "model/job_spec.h"

namespace flashmark {

struct RunOptions {
  std::optional<std::string> mode, rw_ratio, read_pct, bs, threads, iodepth;
  std::optional<std::string> engine, fsync_every, fsync_mode, time, io_limit;
  std::optional<std::string> bytes, rate, distribution, seed, data, file_num;
  std::optional<std::string> size, interval, max_time, steady_round, min_time;
  std::optional<std::string> sqpoll_cpu, batch_submit, batch_complete_min;
  std::optional<std::string> batch_complete_max, cpus_allowed, cpus_policy;
  std::optional<std::string> thinktime, thinktime_iotime, mem, trace_latency;
  std::optional<std::string> trace_sample;
  std::optional<std::string> profile;  // --profile innodb (app_profiles.h)
  bool fixedbufs = false;
  bool shared_buffer = false;
  bool sqpoll = false;
  bool hipri = false;
  bool until_steady = false;
  bool detect_throttle = false;
  bool direct = false;
  bool fsync_end = false;
  bool keep_files = false;
  bool continue_on_error = false;
  bool verify = false;
  bool quiet = false;
  std::optional<std::string> json;
  std::optional<std::string> db;
  bool no_db = false;
  std::string label;
  std::vector<std::string> tags;     // "key=value"
  std::optional<std::string> price;  // --price: the tag price=
  std::optional<std::string> serve;  // --serve [ADDR:PORT]: the live view
  std::optional<std::string> serve_token;
  // --mpi: one rank of a run across MPI ranks (campaign/cluster_run.h);
  // --hosts: run mpirun for the user, a rank per host.
  // --stonewall: every rank stops when the first one finishes.
  bool mpi = false;
  bool stonewall = false;
  std::vector<std::string> hosts;
  std::vector<std::string> allow_destroy;
  std::vector<std::string> targets;
  // A campaign's [analysis] table (no command-line option): JobSpec::analysis.
  AnalysisSettings analysis;
};

struct BuiltJob {
  JobSpec spec;
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::string> warnings;  // each "what; hint"
};

Result<BuiltJob> BuildJobSpec(const RunOptions& options);

// The `flashmark run` command line that repeats a job exactly (every
// option spelled out, the seed included), filed under the same label and
// tags when given. kImported: the nearest flashmark command to a job fio
// or sysbench ran, with only what the import knows: a TARGET placeholder
// when the tool named none, its file count, no seed (the tools draw
// offsets their own way) and no --interval when the tool reported none
// (a summary-only import's one interval spans the runtime).
enum class ReproduceStyle { kExact, kImported };
std::string ReproduceCommand(
    const JobSpec& spec, const std::string& label = "",
    const std::vector<std::pair<std::string, std::string>>& tags = {},
    ReproduceStyle style = ReproduceStyle::kExact);

}  // namespace flashmark
