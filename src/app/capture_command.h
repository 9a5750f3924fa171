// `flashmark capture DEVICE|--pid PID [--time D] [-o FILE] [--db DB]`:
// records every block IO of a device, or of one process (the IOs its
// threads queued on the devices under its open files), from the kernel's
// block tracepoints (system/block_trace.h, joined by system/capture_join.h)
// until Ctrl-C (SIGINT, SIGTERM, SIGHUP), --time or the process's exit;
// then stores the trace (store/trace_store.h: source "capture", origin the
// device or "pid N (COMMAND)"), prints its summary (report/trace_text.h)
// and, with -o FILE, writes it as fio's iolog v3 (store/fio_iolog_write.h)
// for `fio --read_iolog`. An interrupt ends a capture normally (exit 0).
// A trace the kernel overwrote events of is stored incomplete, with a note
// counting them. Bad input (a DEVICE that is no block device, a pid that
// does not exist or has no block device under its files, no tracefs or no
// permission, --time not a duration, -o a place no file may be written)
// is refused before anything is traced: exit 2, nothing stored.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace flashmark {

struct CaptureOptions {
  std::optional<std::string> device, pid, time, output, db;
};

CLI::App* AddCaptureCommand(CLI::App& app, CaptureOptions& options);
int ExecuteCapture(const CaptureOptions& options);

}  // namespace flashmark
