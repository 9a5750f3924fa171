#include "app/capture_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <utility>
#include <vector>

#include "analysis/trace_summary.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "common/atomic_file.h"
#include "common/clock.h"
#include "common/cycle_clock.h"
#include "common/signals.h"
#include "common/units.h"
#include "report/text_escape.h"
#include "report/trace_text.h"
#include "store/fio_iolog_write.h"
#include "store/store_file.h"
#include "store/trace_store.h"
#include "system/block_trace.h"
#include "system/capture_join.h"
#include "system/capture_target.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

// How often the capture drains the trace: every 100 ms (the kernel's
// buffer holds seconds; fewer, larger drains cost the traced application
// less), and with --pid how often it lists the process's threads: every
// 10 ms, so that a short-lived thread's IO is still the process's.
constexpr uint64_t kCaptureDrainNs = 100'000'000;
constexpr uint64_t kCaptureThreadsNs = 10'000'000;

// The trace buffer per CPU: 256 MiB over all CPUs, 4 to 64 MiB each, so
// that a capture starved for a second or more (a loaded machine) still
// loses nothing at 100k IOPS (about 200 bytes of events per IO).
size_t CaptureBufferKibPerCpu() {
  const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_CONF));
  return std::clamp<size_t>(size_t{256} * 1024 / static_cast<size_t>(cpus),
                            size_t{4} * 1024, size_t{64} * 1024);
}

// What the capture traces, resolved from the command line.
struct CapturePlan {
  std::vector<CaptureDevice> devices;
  std::string origin;
  uint32_t pid = 0;  // 0: the device's IO, every process's
  std::string pid_command;
  std::optional<std::chrono::nanoseconds> time;
  std::optional<OutputPath> output;
  std::string database;
};

Result<CapturePlan> PlanCapture(const CaptureOptions& o) {
  CapturePlan plan;
  if (o.device.has_value() == o.pid.has_value()) {
    return UsageError(
        o.device ? "capture: give a DEVICE or --pid PID, not both"
                 : "capture: what to capture? a DEVICE or --pid PID",
        "flashmark capture /dev/sdb --time 60s, or flashmark capture --pid "
        "$(pgrep -o mysqld)");
  }
  if (o.time) {
    auto time = ParseDuration(*o.time);
    if (!time.ok() || time->count() <= 0) {
      return UsageError(
          fmt::format("--time \"{}\" is not a duration", TerminalText(*o.time)),
          "e.g. --time 30s, 5m, 1h; without it the capture runs until "
          "Ctrl-C");
    }
    plan.time = *time;
  }
  if (o.output) {
    auto checked = CheckOutputPath("-o", *o.output, OutputKind::kDocument);
    if (!checked.ok()) return checked.error();
    plan.output = std::move(*checked);
  }
  plan.database = o.db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(plan.database); !usable.ok()) {
    return usable.error();
  }
  if (o.device) {
    auto device = CaptureDeviceAt(*o.device);
    if (!device.ok()) return device.error();
    plan.devices.push_back(std::move(*device));
    plan.origin = *o.device;
  } else {
    auto process = CaptureProcessOf(*o.pid);
    if (!process.ok()) return process.error();
    plan.devices = std::move(process->devices);
    plan.pid = process->pid;
    plan.pid_command = process->command;
    plan.origin = fmt::format("pid {} ({})", plan.pid, plan.pid_command);
  }
  return plan;
}

std::string CaptureDeviceNames(const std::vector<CaptureDevice>& devices) {
  std::string names;
  for (const CaptureDevice& d : devices) {
    names += (names.empty() ? "/dev/" : ", /dev/") + d.name;
  }
  return names;
}

}  // namespace

CLI::App* AddCaptureCommand(CLI::App& app, CaptureOptions& o) {
  CLI::App* command = app.add_subcommand(
      "capture",
      "Record every block IO of a device or of a process (time, operation, "
      "offset, size, process, queue and device time), store the trace and "
      "summarise it");
  command->add_option_function<std::string>(
      "DEVICE", [&o](const std::string& value) { o.device = value; },
      "the block device to capture (a whole disk or a partition)");
  auto text = [command](const char* name, std::optional<std::string>& slot,
                        const char* help) {
    return command->add_option_function<std::string>(
        name, [&slot](const std::string& value) { slot = value; }, help);
  };
  text("--pid", o.pid,
       "capture this process's IO instead: what its threads queue on the "
       "devices under its open files");
  text("--time", o.time, "end the capture after this long (30s, 5m) [Ctrl-C]");
  text("-o,--output", o.output,
       "also write the trace to FILE as fio's iolog v3 (fio --read_iolog "
       "replays it)");
  AddDatabaseOption(command, o.db);
  return command;
}

int ExecuteCapture(const CaptureOptions& o) {
  auto plan = PlanCapture(o);
  if (!plan.ok()) return PrintError(plan.error());
  std::vector<uint32_t> disks;
  for (const CaptureDevice& d : plan->devices) disks.push_back(d.trace_dev);
  const CycleClock clock = CycleClock::Calibrate();
  auto trace =
      BlockTrace::Start(disks, clock, "capture", CaptureBufferKibPerCpu());
  if (!trace.ok()) {
    Error error = trace.error();
    error.exit_code = kUsageExit;  // this machine cannot: nothing to do
    return PrintError(error);
  }
  BlockTrace& events = **trace;
  events.Drain();  // left from an earlier start
  const uint64_t start_ticks = clock.Now();
  const uint64_t start_ns = NowNs();
  BlockIoTrace captured;
  captured.source = "capture";
  captured.origin = plan->origin;
  captured.start_unix_ns = UnixNowNs();
  CaptureJoin join(clock, start_ticks, plan->devices, plan->pid != 0);
  if (plan->pid != 0) {
    for (const uint32_t tid : CaptureProcessThreads(plan->pid)) {
      join.AllowPid(tid);
    }
  }
  std::cerr << fmt::format(
      "capturing the block IO of {}{}{} — Ctrl-C ends it\n",
      plan->pid != 0 ? TerminalText(plan->origin) + " on " : "",
      TerminalText(CaptureDeviceNames(plan->devices)),
      plan->time ? " for " + FormatDuration(*plan->time) : "");
  const auto drain = [&] {
    join.Add(events.Drain());
    join.Join();
  };
  uint64_t drained_ns = start_ns;
  for (;;) {
    uint64_t wait_ns = plan->pid != 0 ? kCaptureThreadsNs : kCaptureDrainNs;
    if (plan->time) {
      const uint64_t end_ns =
          start_ns + static_cast<uint64_t>(plan->time->count());
      const uint64_t now_ns = NowNs();
      wait_ns = std::clamp<uint64_t>(end_ns > now_ns ? end_ns - now_ns : 0, 1,
                                     wait_ns);
    }
    const int signal = WaitForInterrupt(wait_ns);
    if (plan->pid != 0) {
      // Its threads now, before their IO is joined (new threads too).
      for (const uint32_t tid : CaptureProcessThreads(plan->pid)) {
        join.AllowPid(tid);
      }
    }
    const uint64_t now_ns = NowNs();
    if (now_ns - drained_ns >= kCaptureDrainNs) {
      drain();
      drained_ns = now_ns;
    }
    if (signal != 0) break;
    if (plan->time &&
        now_ns - start_ns >= static_cast<uint64_t>(plan->time->count())) {
      break;
    }
    if (plan->pid != 0 && !CaptureProcessAlive(plan->pid)) {
      captured.notes.push_back(fmt::format(
          "process {} ({}) exited after {}: the capture ended there", plan->pid,
          plan->pid_command,
          FormatDuration(std::chrono::nanoseconds(NowNs() - start_ns))));
      break;
    }
  }
  drain();
  const uint64_t overwritten = events.Overwritten();
  trace->reset();
  captured.duration_ns = static_cast<int64_t>(NowNs() - start_ns);
  join.Finish(captured);
  if (overwritten > 0) {
    captured.complete = false;
    captured.notes.push_back(fmt::format(
        "incomplete: the kernel overwrote {} block events before they were "
        "read (the capture fell behind; a loaded machine starves it), so IOs "
        "are missing",
        overwritten));
  }
  auto store = TraceStore::Open(plan->database);
  if (!store.ok()) return PrintError(store.error());
  auto id = store->Save(captured);
  if (!id.ok()) return PrintError(id.error());
  std::cout << fmt::format("trace {}: ", *id)
            << TraceSummaryText(captured, SummarizeTrace(captured));
  if (plan->output) {
    Status written =
        WriteFileAtomically(plan->output->real, FioIologV3Text(captured));
    if (!written.ok()) return PrintError(written.error());
  }
  std::cout << fmt::format(
      "stored in {}{} — `flashmark show --trace {}` summarises it again\n",
      plan->database,
      plan->output ? ", and as fio's iolog v3 in " + plan->output->path : "",
      *id);
  return 0;
}

}  // namespace flashmark
