#include <iostream>

#include <fmt/format.h>

#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "config/run_options.h"
#include "config/units.h"
#include "report/console_reporter.h"
#include "report/health_format.h"
#include "report/tool_report_format.h"

namespace flashmark {
namespace {

void PrintRun(const StoredRun& stored, std::ostream& out) {
  const RunResult& run = stored.run;
  out << fmt::format("run {}{}  {}  started {}", stored.id,
                     stored.labels.label.empty() ? "" : "  " + stored.labels.label,
                     RunStatusName(run.status), LocalTimeText(run.start_unix_ns, "%Y-%m-%d %H:%M:%S %z"));
  if (stored.labels.source != "flashmark") {
    out << fmt::format("  (imported from {})", stored.labels.source);
  }
  out << "\n";
  if (!stored.labels.tags.empty()) {
    out << "tags    ";
    for (const auto& [key, value] : stored.labels.tags) {
      out << fmt::format(" {}={}", key, value);
    }
    out << "\n";
  }
  out << fmt::format("workload {}\n", DescribeWorkload(run.spec));
  if (run.imported.empty()) {
    out << fmt::format("tool     flashmark {} ({})\n", run.tool_version,
                       run.git_revision);
  } else {
    out << fmt::format("tool     {} (imported from {}, SHA-256 {})\n",
                       run.tool_version, run.imported.file,
                       stored.labels.source_hash.substr(0, 16));
  }
  const Environment& env = run.environment;
  if (!env.host.empty()) {  // (imported runs name no host)
    out << fmt::format("host     {}  {}  {} x {}  {} memory\n", env.host,
                       env.kernel, env.cpu_count, env.cpu_model,
                       FormatBytes(env.memory_bytes));
  }
  for (const auto& target : env.targets) {
    out << fmt::format("target   {} ({}, {}{})", target.path.empty() ? "-" : target.path,
                       target.kind, FormatBytes(target.bytes),
                       target.file_count > 1
                           ? fmt::format(" in {} files", target.file_count)
                           : "");
    if (!target.filesystem.empty()) {
      out << fmt::format(": {} on {}, mounted at {} with {}", target.filesystem,
                         target.device, target.mount_point, target.mount_options);
    } else if (!target.device.empty()) {
      out << ": device " << target.device;
    }
    out << "\n";
    if (!target.device_name.empty()) {
      out << fmt::format(
          "         disk {}: model {}, serial {}, firmware {}, {}, {}, "
          "scheduler {}, nr_requests {}\n",
          target.device_name, target.model.empty() ? "-" : target.model,
          target.serial.empty() ? "-" : target.serial,
          target.firmware.empty() ? "-" : target.firmware,
          FormatBytes(target.capacity_bytes),
          target.rotational ? "rotational" : "non-rotational",
          target.scheduler.empty() ? "-" : target.scheduler, target.queue_depth);
      if (!target.transport.empty()) {  // recorded since the device inventory
        out << fmt::format(
            "         {}, sectors {}/{} (logical/physical), write cache {}, "
            "discard {}, NUMA node {}\n",
            target.transport, target.logical_sector_size,
            target.physical_sector_size,
            target.write_cache.empty() ? "-" : target.write_cache,
            target.discard_granularity > 0
                ? FormatBytes(target.discard_granularity) + " granularity"
                : "no",
            target.numa_node < 0 ? "-" : std::to_string(target.numa_node));
      }
      if (target.health) {  // recorded since per-run health
        out << "         " << HealthLine(*target.health) << "\n";
      }
    }
  }
  PrintSummary(run, out);
  PrintToolReport(run.imported, out);
  out << "command  " << run.command_line << "\n";
  out << (run.imported.empty() ? "reproduce with\n  "
                                : "the same workload with flashmark\n  ") << ReproduceCommand(run.spec, stored.labels.label, stored.labels.tags) << "\n";
}

}  // namespace

int ExecuteShow(const StoreCommandOptions& options) {
  auto id = ParseRunId(options.runs.front());
  if (!id.ok()) return PrintError(id.error());
  auto store = OpenStoreToRead(options.db);
  if (!store.ok()) return PrintError(store.error());
  auto stored = store->LoadRun(*id);
  if (!stored.ok()) return PrintError(stored.error());
  if (options.json) {
    std::cout << StoredRunJson(*stored).dump(1) << "\n";
  } else {
    PrintRun(*stored, std::cout);
  }
  return 0;
}

}  // namespace flashmark
