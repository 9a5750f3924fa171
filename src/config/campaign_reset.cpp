// [[reset]]: the steps that give each cell a fresh device.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "common/shell_quote.h"
#include "common/units.h"
#include "config/campaign_toml.h"

namespace flashmark::campaign {
namespace {

struct StepKeys {
  std::string_view name;
  ResetKind kind;
  std::vector<std::string_view> keys;
};

const std::array<StepKeys, 8>& Steps() {
  static const std::array<StepKeys, 8> kSteps{{
      {"discard", ResetKind::kDiscard, {"step", "once", "when", "device"}},
      {"secure-erase",
       ResetKind::kSecureErase,
       {"step", "once", "when", "device"}},
      {"mkfs",
       ResetKind::kMkfs,
       {"step", "once", "when", "device", "filesystem", "options"}},
      {"mount",
       ResetKind::kMount,
       {"step", "once", "when", "device", "mount-point", "options"}},
      {"precondition",
       ResetKind::kPrecondition,
       {"step", "once", "when", "device", "workload"}},
      {"idle", ResetKind::kIdle, {"step", "once", "when", "seconds", "time"}},
      {"exec", ResetKind::kExec, {"step", "once", "when", "argv"}},
      {"write-cache",
       ResetKind::kWriteCache,
       {"step", "once", "when", "device", "state"}},
  }};
  return kSteps;
}

Status ReadIdle(const Context& context, const toml::table& table,
                ResetStep& step) {
  const toml::node* seconds = table.get("seconds");
  const toml::node* time = table.get("time");
  if ((seconds == nullptr) == (time == nullptr)) {
    return ErrorAt(context, table.source(),
                   seconds ? "idle: both seconds and time given"
                           : "idle: how long? neither seconds nor time given",
                   "write seconds = 60 or time = \"60s\"");
  }
  if (seconds != nullptr) {
    const std::optional<double> value = seconds->value<double>();
    if (!value || !(*value > 0) || !std::isfinite(*value)) {
      return ErrorAt(context, seconds->source(),
                     fmt::format("idle: seconds must be a positive number, "
                                 "not {}",
                                 value ? fmt::format("{}", *value)
                                       : std::string(TypeName(*seconds))),
                     "write seconds = 60");
    }
    step.idle = std::chrono::nanoseconds(
        static_cast<int64_t>(std::llround(*value * 1e9)));
    return OkStatus();
  }
  auto text = StringValue(context, *time, "idle: time");
  if (!text.ok()) return text.error();
  auto duration = ParseDuration(*text);
  if (!duration.ok()) {
    return ErrorAt(context, time->source(),
                   fmt::format("idle: time: {}", duration.error().message),
                   duration.error().hint);
  }
  if (duration->count() <= 0) {
    return ErrorAt(context, time->source(),
                   fmt::format("idle: time \"{}\" is not positive", *text),
                   "write time = \"60s\"");
  }
  step.idle = *duration;
  return OkStatus();
}

Status ReadPrecondition(const Context& context, const toml::node& node,
                        ResetStep& step) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return ErrorAt(context, node.source(),
                   fmt::format("precondition: workload: expected a table of "
                               "run options, got {}",
                               TypeName(node)),
                   "write [reset.workload] under the [[reset]], or "
                   "workload = { mode = \"rndwr\", bs = \"4k\" }");
  }
  RunOptions& workload = step.precondition_workload;
  if (Status ok = ReadOptions(context, *table, "[reset.workload]", workload);
      !ok.ok()) {
    return ok;
  }
  if (!workload.time && !workload.bytes && !workload.io_limit) {
    workload.until_steady = true;
  }
  step.precondition = "workload";
  auto built = BuildJobSpec(workload);
  if (!built.ok()) {
    return ErrorAt(
        context, node.source(),
        fmt::format("precondition workload: {}", built.error().message),
        built.error().hint);
  }
  return OkStatus();
}

// The values each cell parameter can take, by parameter name.
std::map<std::string, std::vector<std::string>> ParameterValues(
    const std::vector<MatrixAxis>& matrix) {
  std::map<std::string, std::vector<std::string>> values;
  for (const MatrixAxis& axis : matrix) {
    if (axis.groups.empty()) {
      values[axis.name] = axis.values;
      continue;
    }
    for (size_t g = 0; g < axis.groups.size(); ++g) {
      for (const auto& [name, value] : axis.groups[g]) {
        values[name].push_back(value);
      }
      if (!axis.group_targets[g].empty()) {
        values["target"].push_back(ShellJoin(axis.group_targets[g]));
      }
      for (const auto& [name, value] : axis.group_tags[g]) {
        values[name].push_back(value);
      }
    }
  }
  return values;
}

}  // namespace

Result<CellFilter> ReadCellFilter(const Context& context,
                                  const toml::node& node,
                                  const std::vector<MatrixAxis>& matrix,
                                  std::string_view what) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: expected a table of matrix parameters, "
                               "got {}",
                               what, TypeName(node)),
                   fmt::format("e.g. {} = {{ target = \"/dev/md0\" }}", what));
  }
  CellFilter filter;
  const auto possible = ParameterValues(matrix);
  std::vector<std::string_view> names;
  for (const auto& [name, unused] : possible) names.push_back(name);
  for (const auto& [key, value_node] : InFileOrder(*table)) {
    std::string name(key->str());
    if (const CampaignOption* option = FindCampaignOption(name)) {
      name = option->name;
    }
    auto it = possible.find(name);
    if (it == possible.end()) {
      return ErrorAt(
          context, key->source(),
          fmt::format("{}: \"{}\" is not a matrix parameter", what, key->str()),
          names.empty() ? "the campaign has no [matrix]"
                        : SuggestKey(name, names));
    }
    std::vector<const toml::node*> items;
    if (const toml::array* list = value_node->as_array()) {
      for (const toml::node& item : *list) items.push_back(&item);
    } else {
      items.push_back(value_node);
    }
    std::vector<std::string> accepted;
    for (const toml::node* item : items) {
      Result<std::string> text = std::string();
      if (const auto* flag = item->as_boolean()) {
        text = std::string(flag->get() ? "true" : "false");
      } else {
        text = ScalarText(context, *item, what);
      }
      if (text.ok() && name == "target") {
        text = ExpandAt(context, *item, what, *text);
      }
      if (!text.ok()) return text.error();
      const auto& values = it->second;
      if (std::find(values.begin(), values.end(), *text) == values.end()) {
        return ErrorAt(
            context, item->source(),
            fmt::format("{}: {} = \"{}\" matches no cell", what, name, *text),
            fmt::format("{} takes the values {}", name,
                        fmt::join(values, ", ")));
      }
      accepted.push_back(*text);
    }
    filter.emplace_back(name, std::move(accepted));
  }
  return filter;
}

namespace {

Result<ResetStep> ReadStep(const Context& context, const toml::table& table,
                           const std::vector<MatrixAxis>& matrix) {
  const toml::node* name_node = table.get("step");
  if (name_node == nullptr) {
    return ErrorAt(context, table.source(), "[[reset]] without a step",
                   "add step = \"discard\" (or secure-erase, mkfs, mount, "
                   "precondition, idle, exec)");
  }
  auto name = StringValue(context, *name_node, "step");
  if (!name.ok()) return name.error();
  const StepKeys* keys = nullptr;
  std::vector<std::string_view> names;
  for (const StepKeys& candidate : Steps()) {
    if (candidate.name == *name) keys = &candidate;
    names.push_back(candidate.name);
  }
  if (keys == nullptr) {
    return ErrorAt(context, name_node->source(),
                   fmt::format("unknown reset step \"{}\"", *name),
                   SuggestKey(*name, names));
  }
  const std::string section = fmt::format("[[reset]] step {}", *name);
  if (Status ok = CheckKeys(context, table, section, keys->keys); !ok.ok()) {
    return ok.error();
  }
  ResetStep step;
  step.kind = keys->kind;
  if (const toml::node* once = table.get("once")) {
    if (!once->is_boolean()) {
      return ErrorAt(
          context, once->source(),
          fmt::format("once: expected true or false, got {}", TypeName(*once)));
    }
    step.once = once->as_boolean()->get();
  }
  if (const toml::node* when = table.get("when")) {
    auto filter = ReadCellFilter(context, *when, matrix, "when");
    if (!filter.ok()) return filter.error();
    step.when = std::move(*filter);
  }
  if (const toml::node* device = table.get("device")) {
    auto text = StringValue(context, *device, "device");
    if (!text.ok()) return text.error();
    auto expanded = ExpandAt(context, *device, "device", *text);
    if (!expanded.ok()) return expanded.error();
    step.device = *expanded;
  }
  switch (step.kind) {
    case ResetKind::kMkfs: {
      const toml::node* fs = table.get("filesystem");
      if (fs == nullptr) {
        return ErrorAt(context, table.source(), "mkfs without a filesystem",
                       "add filesystem = \"xfs\"");
      }
      auto text = StringValue(context, *fs, "filesystem");
      if (!text.ok()) return text.error();
      if (text->empty() ||
          text->find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") !=
              std::string::npos) {
        return ErrorAt(
            context, fs->source(),
            fmt::format("mkfs: \"{}\" is not a filesystem type", *text),
            "e.g. filesystem = \"xfs\" (runs mkfs.xfs)");
      }
      step.filesystem = *text;
      if (const toml::node* options = table.get("options")) {
        auto list = StringList(context, *options, "options", false);
        if (!list.ok()) return list.error();
        step.options = *list;
      }
      break;
    }
    case ResetKind::kMount: {
      const toml::node* point = table.get("mount-point");
      if (point == nullptr) {
        return ErrorAt(context, table.source(), "mount without a mount-point",
                       "add mount-point = \"/mnt/ssd\"");
      }
      auto text = StringValue(context, *point, "mount-point");
      if (!text.ok()) return text.error();
      auto expanded = ExpandAt(context, *point, "mount-point", *text);
      if (!expanded.ok()) return expanded.error();
      if (expanded->front() != '/') {
        return ErrorAt(context, point->source(),
                       fmt::format("mount-point \"{}\" is not an absolute path",
                                   *expanded));
      }
      step.mount_point = *expanded;
      if (const toml::node* options = table.get("options")) {
        auto list = StringList(context, *options, "options", true);
        if (!list.ok()) return list.error();
        for (const std::string& item : *list) {  // "noatime,nobarrier"
          size_t start = 0;
          while (start <= item.size()) {
            const size_t comma = std::min(item.find(',', start), item.size());
            if (comma > start)
              step.options.push_back(item.substr(start, comma - start));
            start = comma + 1;
          }
        }
      }
      break;
    }
    case ResetKind::kPrecondition:
      if (const toml::node* workload = table.get("workload")) {
        if (Status ok = ReadPrecondition(context, *workload, step); !ok.ok()) {
          return ok.error();
        }
      }
      break;
    case ResetKind::kIdle:
      if (Status ok = ReadIdle(context, table, step); !ok.ok()) {
        return ok.error();
      }
      break;
    case ResetKind::kExec: {
      const toml::node* argv = table.get("argv");
      if (argv == nullptr) {
        return ErrorAt(context, table.source(), "exec without argv",
                       "add argv = [\"/usr/local/bin/prepare\", \"arg\"]; it "
                       "runs without a shell");
      }
      auto list = StringList(context, *argv, "argv", false);
      if (!list.ok()) return list.error();
      if (list->empty()) {
        return ErrorAt(context, argv->source(), "exec: argv is empty",
                       "name the program first: argv = [\"/usr/bin/sync\"]");
      }
      for (std::string& arg : *list) {
        auto expanded = ExpandEnvironment(arg, context.environment);
        if (!expanded.ok()) {
          return ErrorAt(context, argv->source(),
                         fmt::format("argv: {}", expanded.error().message),
                         expanded.error().hint);
        }
        arg = *expanded;
      }
      if (list->front().empty()) {
        return ErrorAt(context, argv->source(), "exec: argv[0] is empty");
      }
      step.argv = *list;
      break;
    }
    case ResetKind::kWriteCache: {
      const toml::node* state = table.get("state");
      const std::optional<std::string> text =
          state ? state->value<std::string>() : std::nullopt;
      if (!text || (*text != "on" && *text != "off")) {
        return ErrorAt(context, state ? state->source() : table.source(),
                       state ? fmt::format("write-cache: state must be \"on\" "
                                           "or \"off\", not {}",
                                           text ? "\"" + *text + "\""
                                                : std::string(TypeName(*state)))
                             : "write-cache without a state",
                       "write state = \"off\" (the SNIA PTS enterprise "
                       "profile) or state = \"on\"");
      }
      step.write_cache_on = *text == "on";
      break;
    }
    case ResetKind::kDiscard:
    case ResetKind::kSecureErase:
      break;
  }
  return step;
}

}  // namespace

Result<std::vector<ResetStep>> ReadResetSteps(
    const Context& context, const toml::node& reset,
    const std::vector<MatrixAxis>& matrix) {
  const toml::array* list = reset.as_array();
  if (list == nullptr || !list->is_array_of_tables()) {
    return ErrorAt(context, reset.source(),
                   fmt::format("reset: expected [[reset]] tables, got {}",
                               TypeName(reset)),
                   "write each step as [[reset]] followed by step = \"...\"");
  }
  std::vector<ResetStep> steps;
  for (const toml::node& element : *list) {
    auto step = ReadStep(context, *element.as_table(), matrix);
    if (!step.ok()) return step.error();
    steps.push_back(std::move(*step));
  }
  return steps;
}

}  // namespace flashmark::campaign
