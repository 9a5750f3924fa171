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
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "system/tracefs_api.h"

namespace flashmark {
namespace {

constexpr const char* kEvents[3] = {"block_bio_queue", "block_rq_issue",
                                    "block_rq_complete"};
constexpr BlockEvent::Kind kKinds[3] = {BlockEvent::Kind::kQueue,
                                        BlockEvent::Kind::kIssue,
                                        BlockEvent::Kind::kComplete};
// Per CPU: about half a second of 100k IOs a second (three events of ~80
// bytes) on two CPUs; the tracer drains it every 10 ms.
constexpr size_t kBufferKib = size_t{4} * 1024;

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
  std::filesystem::path dir;  // the instance's, in tracefs
  tep_handle* tep = nullptr;
  Fields fields[3];
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
  tracefs_instance_destroy(session->instance);
  tracefs_instance_free(session->instance);
  tep_free(session->tep);
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
  const auto fail = [&made](Error error) {
    tracefs_instance_destroy(made->instance);
    tracefs_instance_free(made->instance);
    if (made->tep != nullptr) tep_free(made->tep);
    return error;
  };
  tracefs_trace_off(made->instance);
  tracefs_instance_set_buffer_size(
      made->instance, buffer_kib != 0 ? buffer_kib : kBufferKib, -1);
  const char* systems[] = {"block", nullptr};
  made->tep = tracefs_local_events_system(nullptr, systems);
  if (made->tep == nullptr) {
    return fail(NoTracing(user, "cannot read the block events' formats"));
  }
  for (int k = 0; k < 3; ++k) {
    tep_event* event = tep_find_event_by_name(made->tep, "block", kEvents[k]);
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
    BlockTrace::Fields& fields = made->fields[k];
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
        fields.nr_sector < 0) {
      errno = 0;
      return fail(NoTracing(
          user, fmt::format("this kernel has no usable block:{}", kEvents[k])));
    }
  }
  errno = 0;
  if (tracefs_instance_file_write(made->instance, "trace_clock", trace_clock) <
      0) {
    return fail(
        NoTracing(user, fmt::format("cannot set trace_clock {}", trace_clock)));
  }
  made->clock = trace_clock;
  made->dir = std::filesystem::path(instances) / name;
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
    const char* user, size_t buffer_kib) {
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
  std::unique_ptr<BlockTrace> trace(new BlockTrace());
  trace->session_ = &shared;
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

int BlockTrace::OnRecord(tep_event* event, tep_record* record, int /*cpu*/,
                         void* context) {
  auto& trace = *static_cast<BlockTrace*>(context);
  const Fields* all = trace.session_->fields;
  for (const Fields& fields : std::span(all, 3)) {
    if (fields.id != event->id) continue;
    const auto* data = static_cast<const unsigned char*>(record->data);
    BlockEvent block{.kind = fields.kind, .ticks = record->ts};
    std::memcpy(&block.dev, data + fields.dev, sizeof(block.dev));
    std::memcpy(&block.sector, data + fields.sector, sizeof(block.sector));
    std::memcpy(&block.sectors, data + fields.nr_sector, sizeof(block.sectors));
    if (fields.pid >= 0) {
      std::memcpy(&block.pid, data + fields.pid, sizeof(block.pid));
    }
    // Fixed arrays of the record, NUL-padded; kept NUL-ended here.
    const auto text = [data](int offset, int size, std::span<char> out) {
      if (offset < 0) return;
      const size_t n = std::min(static_cast<size_t>(size), out.size() - 1);
      std::memcpy(out.data(), data + offset, n);
      out[n] = '\0';
    };
    text(fields.rwbs, fields.rwbs_size, block.rwbs);
    text(fields.comm, fields.comm_size, block.comm);
    (*trace.each_)(block);
    ++trace.drained_;
    break;
  }
  return 0;
}

uint64_t BlockTrace::Overwritten() const {
  return OverwrittenEvents(session_->dir) - overwritten_at_start_;
}

size_t BlockTrace::Drain(const std::function<void(const BlockEvent&)>& each) {
  each_ = &each;
  drained_ = 0;
  tracefs_iterate_raw_events(session_->tep, session_->instance, nullptr, 0,
                             &BlockTrace::OnRecord, this);
  each_ = nullptr;
  return drained_;
}

}  // namespace flashmark
