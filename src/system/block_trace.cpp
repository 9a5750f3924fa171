#include "system/block_trace.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "system/block_event_reader.h"
#include "system/tracefs_api.h"

namespace flashmark {
namespace {

constexpr const char* kEvents[3] = {"block_bio_queue", "block_rq_issue",
                                    "block_rq_complete"};
constexpr BlockEvent::Kind kKinds[3] = {BlockEvent::Kind::kQueue,
                                        BlockEvent::Kind::kIssue,
                                        BlockEvent::Kind::kComplete};
// Per CPU: 64 MiB over all CPUs, 4 to 16 MiB each: on two CPUs about two
// seconds of 100k IOs a second (three events of ~70 bytes), so that a
// reader starved on a busy machine catches up before the kernel
// overwrites; the tracer drains it every 50 ms.
size_t DefaultBufferKib() {
  const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_CONF));
  return std::clamp<size_t>(size_t{64} * 1024 / static_cast<size_t>(cpus),
                            size_t{4} * 1024, size_t{16} * 1024);
}

// Removes the instances of flashmark processes that are gone. (Listed
// here: libtracefs's tracefs_instances() leaks the regex it matches with.)
void RemoveStaleInstances(const char* tracing_dir) {
  std::error_code error;
  const std::filesystem::path instances =
      std::filesystem::path(tracing_dir) / "instances";
  for (const auto& entry :
       std::filesystem::directory_iterator(instances, error)) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view kPrefix = "flashmark-";
    if (!name.starts_with(kPrefix)) continue;
    const int pid = std::atoi(name.c_str() + kPrefix.size());
    if (pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) continue;
    if (tracefs_instance* stale =
            tracefs_instance_alloc(nullptr, name.c_str())) {
      tracefs_instance_destroy(stale);
      tracefs_instance_free(stale);
    }
  }
}

Error NoTracing(const char* user, const std::string& what) {
  return RuntimeError(
      fmt::format("{}: {}: {}", user, what,
                  errno != 0 ? std::strerror(errno) : "not available"),
      "the block tracepoints need tracefs and root (or CAP_SYS_ADMIN)");
}

}  // namespace

// The process's one tracefs instance, made by the first traced run and
// kept for the next ones (making and removing an instance costs a third
// of a second: its buffers, an RCU grace period; a PTS test runs hundreds
// of short runs), removed at exit.
struct BlockTrace::Session {
  tracefs_instance* instance = nullptr;
  std::filesystem::path dir;                 // the instance's, in tracefs
  std::unique_ptr<BlockEventReader> reader;  // closed before the instance
  std::string clock;
  bool in_use = false;
};

namespace {

std::mutex session_mutex;
BlockTrace::Session* session = nullptr;  // under session_mutex

void RemoveSession() {
  std::lock_guard lock(session_mutex);
  if (session == nullptr) return;
  tracefs_trace_off(session->instance);
  session->reader.reset();
  tracefs_instance_destroy(session->instance);
  tracefs_instance_free(session->instance);
  delete session;
  session = nullptr;
}

// The instance with the block events' formats, made on first use.
Result<BlockTrace::Session*> OpenSession(const char* trace_clock,
                                         const char* user, size_t buffer_kib) {
  if (session != nullptr) return session;
  errno = 0;
  const char* tracing_dir = tracefs_tracing_dir();
  if (tracing_dir == nullptr) {
    return NoTracing(user, "tracefs is not mounted and could not be");
  }
  // Asked first: a refused tracefs_instance_create() leaks its paths.
  const std::string instances = std::string(tracing_dir) + "/instances";
  if (access(instances.c_str(), W_OK) != 0) {
    return NoTracing(user, "cannot make a tracefs instance in " + instances);
  }
  RemoveStaleInstances(tracing_dir);
  auto made = std::make_unique<BlockTrace::Session>();
  const std::string name = fmt::format("flashmark-{}", getpid());
  errno = 0;
  made->instance = tracefs_instance_create(name.c_str());
  if (made->instance == nullptr) {
    return NoTracing(user, "cannot make the tracefs instance " + name);
  }
  tep_handle* tep = nullptr;  // the formats, only while they are resolved
  const auto fail = [&made, &tep](Error error) {
    made->reader.reset();
    tracefs_instance_destroy(made->instance);
    tracefs_instance_free(made->instance);
    if (tep != nullptr) tep_free(tep);
    return error;
  };
  tracefs_trace_off(made->instance);
  tracefs_instance_set_buffer_size(
      made->instance, buffer_kib != 0 ? buffer_kib : DefaultBufferKib(), -1);
  // Only the three events' formats: tracefs_local_events_system() also
  // parses /proc/kallsyms (5 MB here, read by a realloc per 8 KiB: 17 s
  // of copying under AddressSanitizer, whose realloc always moves).
  tep = tep_alloc();
  if (tep == nullptr) {
    return fail(NoTracing(user, "cannot read the block events' formats"));
  }
  for (const char* event : kEvents) {
    int size = 0;
    char* format =
        tracefs_event_file_read(nullptr, "block", event, "format", &size);
    if (format != nullptr) {
      tep_parse_event(tep, format, static_cast<unsigned long>(size), "block");
      free(format);  // (malloc'd by libtracefs)
    }
  }
  BlockEventFormat formats[3];
  int type_offset = 0;
  for (int k = 0; k < 3; ++k) {
    tep_event* event = tep_find_event_by_name(tep, "block", kEvents[k]);
    const auto offset = [event](const char* field) {
      tep_format_field* found =
          event != nullptr ? tep_find_field(event, field) : nullptr;
      return found != nullptr ? found->offset : -1;
    };
    const auto size = [event](const char* field) {
      tep_format_field* found =
          event != nullptr ? tep_find_field(event, field) : nullptr;
      return found != nullptr ? found->size : 0;
    };
    tep_format_field* pid =
        event != nullptr ? tep_find_common_field(event, "common_pid") : nullptr;
    tep_format_field* type = event != nullptr
                                 ? tep_find_common_field(event, "common_type")
                                 : nullptr;
    BlockEventFormat& fields = formats[k];
    fields = {.id = event != nullptr ? event->id : -1,
              .dev = offset("dev"),
              .sector = offset("sector"),
              .nr_sector = offset("nr_sector"),
              .pid = pid != nullptr && pid->size == 4 ? pid->offset : -1,
              .rwbs = offset("rwbs"),
              .rwbs_size = size("rwbs"),
              .comm = offset("comm"),
              .comm_size = size("comm"),
              .kind = kKinds[k]};
    if (fields.id < 0 || fields.dev < 0 || fields.sector < 0 ||
        fields.nr_sector < 0 || type == nullptr || type->size != 2) {
      errno = 0;
      return fail(NoTracing(
          user, fmt::format("this kernel has no usable block:{}", kEvents[k])));
    }
    type_offset = type->offset;
  }
  tep_free(tep);
  tep = nullptr;
  errno = 0;
  if (tracefs_instance_file_write(made->instance, "trace_clock", trace_clock) <
      0) {
    return fail(
        NoTracing(user, fmt::format("cannot set trace_clock {}", trace_clock)));
  }
  made->clock = trace_clock;
  made->dir = std::filesystem::path(instances) / name;
  auto reader = BlockEventReader::Open(made->dir, formats, type_offset);
  if (!reader.ok()) {
    errno = 0;
    return fail(NoTracing(user, reader.error().message));
  }
  made->reader = std::move(*reader);
  session = made.release();
  std::atexit(RemoveSession);
  return session;
}

// The events the kernel overwrote in an instance's buffers: the sum of
// "overrun: N" in each CPU's stats.
uint64_t OverwrittenEvents(const std::filesystem::path& instance_dir) {
  uint64_t overwritten = 0;
  std::error_code error;
  for (const auto& cpu :
       std::filesystem::directory_iterator(instance_dir / "per_cpu", error)) {
    std::ifstream stats(cpu.path() / "stats");
    constexpr std::string_view kOverrun = "overrun: ";
    for (std::string line; std::getline(stats, line);) {
      if (line.starts_with(kOverrun)) {
        overwritten +=
            std::strtoull(line.c_str() + kOverrun.size(), nullptr, 10);
      }
    }
  }
  return overwritten;
}

}  // namespace

Result<std::unique_ptr<BlockTrace>> BlockTrace::Start(
    std::span<const uint32_t> devices, const CycleClock& clock,
    const char* user, size_t buffer_kib, uint64_t sector_mask) {
  std::lock_guard lock(session_mutex);
  const char* trace_clock = clock.uses_tsc() ? "x86-tsc" : "mono";
  auto opened = OpenSession(trace_clock, user, buffer_kib);
  if (!opened.ok()) return opened.error();
  Session& shared = **opened;
  if (shared.in_use) {
    return RuntimeError(
        fmt::format("{}: another run of this process is tracing", user));
  }
  std::string filter;
  for (const uint32_t dev : devices) {
    filter += fmt::format("{}dev == {}", filter.empty() ? "" : " || ", dev);
  }
  // The sector first: most events fail there, before the devices are
  // compared. (`(sector & M) == 0` is refused by the kernel's parser;
  // `!(...)` is not.)
  if (sector_mask != 0) {
    filter = fmt::format("!(sector & {}) && ({})", sector_mask, filter);
  }
  errno = 0;
  for (const char* event : kEvents) {
    if (tracefs_event_file_write(shared.instance, "block", event, "filter",
                                 filter.c_str()) < 0 ||
        tracefs_event_enable(shared.instance, "block", event) < 0) {
      return NoTracing(user, fmt::format("cannot enable block:{}", event));
    }
  }
  tracefs_trace_on(shared.instance);
  shared.in_use = true;
  std::unique_ptr<BlockTrace> trace(new BlockTrace(clock));
  trace->session_ = &shared;
  trace->pending_.resize(shared.reader->cpus());
  trace->overwritten_at_start_ = OverwrittenEvents(shared.dir);
  return trace;
}

BlockTrace::~BlockTrace() {
  std::lock_guard lock(session_mutex);
  tracefs_trace_off(session_->instance);
  for (const char* event : kEvents) {
    tracefs_event_disable(session_->instance, "block", event);
  }
  session_->in_use = false;
}

uint64_t BlockTrace::Overwritten() const {
  return OverwrittenEvents(session_->dir) - overwritten_at_start_;
}

std::span<const BlockEvent> BlockTrace::Drain() {
  // What the kernel stamped before now is in the buffers (but for an event
  // being written this instant); later events wait, so that the CPUs' are
  // handed over in time order even where one CPU is read after another.
  const uint64_t due = clock_.Now();
  const auto earlier = [](const BlockEvent& a, const BlockEvent& b) {
    return a.ticks < b.ticks;
  };
  drained_.clear();
  size_t runs = 0;
  bool runs_sorted = true;
  std::vector<size_t> run_ends;
  for (size_t cpu = 0; cpu < pending_.size(); ++cpu) {
    std::vector<BlockEvent>& waiting = pending_[cpu];
    const size_t start = drained_.size();
    // Those that waited first, then what the kernel holds now, read in
    // place; the ones not yet due move back to wait.
    drained_.insert(drained_.end(), waiting.begin(), waiting.end());
    waiting.clear();
    session_->reader->Read(cpu, drained_);
    size_t kept = start;
    for (size_t k = start; k < drained_.size(); ++k) {
      if (drained_[k].ticks > due) {
        waiting.push_back(drained_[k]);
      } else {
        if (kept != k) drained_[kept] = drained_[k];
        ++kept;
      }
    }
    drained_.resize(kept);
    if (kept == start) continue;
    ++runs;
    run_ends.push_back(kept);
    const auto first = drained_.begin() + static_cast<ptrdiff_t>(start);
    runs_sorted = runs_sorted && std::is_sorted(first, drained_.end(), earlier);
  }
  if (runs <= 1 && runs_sorted) return drained_;
  if (!runs_sorted || runs > 4) {
    std::stable_sort(drained_.begin(), drained_.end(), earlier);
    return drained_;
  }
  // A few sorted runs (one a CPU): merged one after another.
  for (size_t r = 1; r < run_ends.size(); ++r) {
    const auto middle =
        drained_.begin() + static_cast<ptrdiff_t>(run_ends[r - 1]);
    const auto end = drained_.begin() + static_cast<ptrdiff_t>(run_ends[r]);
    merged_.clear();
    std::merge(drained_.begin(), middle, middle, end,
               std::back_inserter(merged_), earlier);
    std::copy(merged_.begin(), merged_.end(), drained_.begin());
  }
  return drained_;
}

}  // namespace flashmark
