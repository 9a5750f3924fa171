#include "report/group_key.h"

#include <fmt/format.h>

#include <array>
#include <functional>

#include "common/units.h"
#include "config/tag_options.h"
#include "model/io_pattern.h"

namespace flashmark {
namespace {

using Field = std::function<std::string(const StoredRun&)>;

struct Parameter {
  std::string_view name;
  std::string_view alias;  // "" when none
  Field field;
};

const std::array<Parameter, 11>& Parameters() {
  static const std::array<Parameter, 11> kParameters{{
      {"threads", "numjobs",
       [](const StoredRun& r) { return std::to_string(r.run.spec.threads); }},
      {"iodepth", "",
       [](const StoredRun& r) { return std::to_string(r.run.spec.iodepth); }},
      {"bs", "block-size",
       [](const StoredRun& r) {
         return BlockSizesText(r.run.spec.block_sizes);
       }},
      {"size", "",
       [](const StoredRun& r) { return FormatBytes(r.run.spec.size.bytes); }},
      {"mode", "rw",
       [](const StoredRun& r) {
         return std::string(ModeName(r.run.spec.mode));
       }},
      {"engine", "ioengine",
       [](const StoredRun& r) { return r.run.spec.engine; }},
      {"target", "",
       [](const StoredRun& r) {
         return r.run.spec.targets.empty()
                    ? std::string("-")
                    : fmt::format("{}", fmt::join(r.run.spec.targets, " "));
       }},
      {"tool", "source", [](const StoredRun& r) { return RunTool(r); }},
      {"direct", "",
       [](const StoredRun& r) {
         return std::string(r.run.spec.direct ? "yes" : "no");
       }},
      {"file-num", "nrfiles",
       [](const StoredRun& r) { return std::to_string(r.run.spec.file_num); }},
      {"profile", "",
       [](const StoredRun& r) {
         return r.run.spec.profile.empty() ? std::string("-")
                                           : r.run.spec.profile.name;
       }},
  }};
  return kParameters;
}

}  // namespace

std::optional<std::string> GroupValue(const StoredRun& run,
                                      std::string_view by) {
  if (const std::string* value = FindTag(run.labels.tags, by)) return *value;
  for (const Parameter& parameter : Parameters()) {
    if (parameter.name == by ||
        (!parameter.alias.empty() && parameter.alias == by)) {
      return parameter.field(run);
    }
  }
  return std::nullopt;
}

std::string GroupParameterNames() {
  std::string names;
  for (const Parameter& parameter : Parameters()) {
    names += (names.empty() ? "" : ", ") + std::string(parameter.name);
  }
  return names;
}

std::optional<WorkloadDifference> FindWorkloadDifference(
    std::span<const StoredRun* const> group, std::string_view by) {
  if (group.empty()) return std::nullopt;
  const StoredRun& first = *group.front();
  for (const Parameter& parameter : Parameters()) {
    if (parameter.name == "target" || parameter.name == "tool" ||
        parameter.name == by ||
        (!parameter.alias.empty() && parameter.alias == by)) {
      continue;
    }
    const std::string first_value = parameter.field(first);
    for (const StoredRun* run : group) {
      std::string value = parameter.field(*run);
      if (value == first_value) continue;
      return WorkloadDifference{first.id, run->id, std::string(parameter.name),
                                first_value, std::move(value)};
    }
  }
  return std::nullopt;
}

Status CheckOneWorkload(std::span<const StoredRun* const> group,
                        std::string_view by, const std::string& name) {
  const auto d = FindWorkloadDifference(group, by);
  if (!d) return OkStatus();
  return UsageError(
      fmt::format("runs {} and {} fall in one group ({} {}) but differ "
                  "in {} ({}, {}): a group pools one workload's repeats",
                  d->first_run, d->other_run, by, name, d->parameter,
                  d->first_value, d->other_value),
      fmt::format("report them apart (with --campaign: --where {}={}), "
                  "or group by {}",
                  d->parameter, d->first_value, d->parameter));
}

const std::string& RunTool(const StoredRun& run) { return run.labels.source; }

bool SeveralTools(std::span<const StoredRun* const> runs) {
  for (const StoredRun* run : runs) {
    if (RunTool(*run) != RunTool(*runs.front())) return true;
  }
  return false;
}

std::string GroupName(const std::string& value, const StoredRun& run,
                      bool several_tools) {
  return several_tools ? fmt::format("{} ({})", value, RunTool(run)) : value;
}

}  // namespace flashmark
