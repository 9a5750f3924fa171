#include "config/campaign_spec.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/analysis_settings.h"
#include "common/units.h"
#include "config/campaign_hash.h"
#include "config/campaign_toml.h"

namespace flashmark {
namespace {

using campaign::Context;
using campaign::ErrorAt;

constexpr int64_t kMaxRepeats = 1000;

Result<int64_t> IntegerAt(const Context& context, const toml::node& node,
                          std::string_view what, int64_t min, int64_t max) {
  const auto* integer = node.as_integer();
  if (integer == nullptr) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: expected a whole number, got {}", what,
                               campaign::TypeName(node)));
  }
  if (integer->get() < min || integer->get() > max) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: {} is not between {} and {}", what,
                               integer->get(), min, max));
  }
  return integer->get();
}

// Every top-level key but reset must be a table.
Status CheckSectionTables(const Context& context, const toml::table& root) {
  for (const auto& [key, node] : campaign::InFileOrder(root)) {
    if (key->str() == "reset" || node->is_table()) continue;
    return ErrorAt(context, node->source(),
                   fmt::format("{}: expected a [{}] table, got {}", key->str(),
                               key->str(), campaign::TypeName(*node)));
  }
  return OkStatus();
}

const toml::table* TableAt(const toml::table& root, std::string_view name) {
  const toml::node* node = root.get(name);
  return node == nullptr ? nullptr : node->as_table();
}

Status ReadCampaignTable(const Context& context, const toml::table& table,
                         CampaignSpec& spec) {
  if (Status ok = campaign::CheckKeys(context, table, "[campaign]",
                                      campaign::kCampaignKeys);
      !ok.ok()) {
    return ok;
  }
  if (const toml::node* name = table.get("name")) {
    auto text = campaign::StringValue(context, *name, "name");
    if (!text.ok()) return text.error();
    if (text->empty()) {
      return ErrorAt(context, name->source(), "name: empty",
                     "leave it out to use the file name");
    }
    spec.name = *text;
  }
  if (const toml::node* description = table.get("description")) {
    auto text = campaign::StringValue(context, *description, "description");
    if (!text.ok()) return text.error();
    spec.description = *text;
  }
  if (const toml::node* repeats = table.get("repeats")) {
    auto count = IntegerAt(context, *repeats, "repeats", 1, kMaxRepeats);
    if (!count.ok()) {
      Error error = count.error();
      error.hint = "repeats = 3 runs the whole matrix three times";
      return error;
    }
    spec.repeats = static_cast<int>(*count);
  }
  if (const toml::node* order = table.get("order")) {
    auto text = campaign::StringValue(context, *order, "order");
    if (!text.ok()) return text.error();
    if (*text == "shuffled") {
      spec.order = CellOrder::kShuffled;
    } else if (*text != "as-written") {
      static constexpr std::array<std::string_view, 2> kOrders{"as-written",
                                                               "shuffled"};
      return ErrorAt(context, order->source(),
                     fmt::format("order: unknown order \"{}\"", *text),
                     SuggestKey(*text, kOrders));
    }
  }
  if (const toml::node* seed = table.get("seed")) {
    if (spec.order != CellOrder::kShuffled) {
      return ErrorAt(context, seed->source(),
                     "seed: applies to order = \"shuffled\" only",
                     "add order = \"shuffled\"; the workload's own seed goes "
                     "in [workload]");
    }
    auto value = IntegerAt(context, *seed, "seed", 0, INT64_MAX);
    if (!value.ok()) return value.error();
    spec.order_seed = static_cast<uint64_t>(*value);
  }
  return OkStatus();
}

// [campaign.steady-state], once the matrix is read: rounds in plan order,
// as many as the window at least.
Status ReadRounds(const Context& context, const toml::table& root,
                  CampaignSpec& spec) {
  const toml::table* table = TableAt(root, "campaign");
  const toml::node* node = table ? table->get("steady-state") : nullptr;
  if (node == nullptr) return OkStatus();
  auto steady = campaign::ReadRoundSteadyState(context, *node, spec.matrix);
  if (!steady.ok()) return steady.error();
  if (spec.order == CellOrder::kShuffled) {
    return ErrorAt(context, node->source(),
                   "steady-state: the rounds need order = \"as-written\"",
                   "a shuffled plan has no rounds; leave out order or the "
                   "steady state");
  }
  if (spec.repeats < steady->window) {
    return ErrorAt(context, node->source(),
                   fmt::format("steady-state: repeats = {} rounds cannot hold "
                               "a window of {}",
                               spec.repeats, steady->window),
                   "repeats is the most rounds: the SNIA PTS runs at most 25");
  }
  spec.round_steady_state = std::move(*steady);
  return OkStatus();
}

Result<std::vector<std::string>> PathList(const Context& context,
                                          const toml::node& node,
                                          std::string_view what) {
  auto paths = campaign::StringList(context, node, what, false);
  if (!paths.ok()) return paths.error();
  for (std::string& path : *paths) {
    auto expanded = campaign::ExpandAt(context, node, what, path);
    if (!expanded.ok()) return expanded.error();
    path = *expanded;
  }
  return paths;
}

Status ReadTargetsTable(const Context& context, const toml::table& table,
                        CampaignSpec& spec) {
  if (Status ok = campaign::CheckKeys(context, table, "[targets]",
                                      campaign::kTargetsKeys);
      !ok.ok()) {
    return ok;
  }
  if (const toml::node* paths = table.get("paths")) {
    auto list = PathList(context, *paths, "paths");
    if (!list.ok()) return list.error();
    spec.targets = *list;
  }
  if (const toml::node* devices = table.get("devices")) {
    auto list = PathList(context, *devices, "devices");
    if (!list.ok()) return list.error();
    spec.devices = *list;
  }
  return OkStatus();
}

Status ReadClusterTable(const Context& context, const toml::table& table,
                        CampaignSpec& spec) {
  if (Status ok = campaign::CheckKeys(context, table, "[cluster]",
                                      campaign::kClusterKeys);
      !ok.ok()) {
    return ok;
  }
  const toml::node* hosts = table.get("hosts");
  const toml::node* launcher = table.get("launcher");
  if (hosts != nullptr && launcher != nullptr) {
    return ErrorAt(context, launcher->source(),
                   "[cluster]: give hosts or launcher, not both",
                   "hosts = [\"a\", \"b\"] runs mpirun -np 2 --host a,b; "
                   "a launcher names its hosts itself");
  }
  if (hosts != nullptr) {
    auto list = campaign::StringList(context, *hosts, "hosts", false);
    if (!list.ok()) return list.error();
    for (const std::string& host : *list) {
      if (host.empty() || host.find_first_of(", \t") != std::string::npos) {
        return ErrorAt(context, hosts->source(),
                       fmt::format("hosts: \"{}\" is not a host name", host),
                       "one name per entry: hosts = [\"a\", \"b\"]");
      }
    }
    spec.hosts = *list;
  }
  if (launcher != nullptr) {
    std::vector<std::string> words;
    if (const auto* text = launcher->as_string()) {
      std::istringstream split(text->get());
      for (std::string word; split >> word;) words.push_back(word);
    } else {
      auto list = campaign::StringList(context, *launcher, "launcher", false);
      if (!list.ok()) return list.error();
      words = *list;
    }
    if (words.empty() || words.front().empty()) {
      return ErrorAt(context, launcher->source(), "launcher: no program to run",
                     "e.g. launcher = \"mpirun -np 4 --host a,b,c,d\"");
    }
    spec.launcher = std::move(words);
  }
  return OkStatus();
}

// [analysis]: how every command analyses the campaign's runs (checked here
// as `analyze` would, against the [workload] interval).
Status ReadAnalysisTable(const Context& context, const toml::table& table,
                         CampaignSpec& spec) {
  if (Status ok = campaign::CheckKeys(context, table, "[analysis]",
                                      campaign::kAnalysisKeys);
      !ok.ok()) {
    return ok;
  }
  using Field = std::optional<std::string> AnalysisSettings::*;
  const std::pair<const char*, Field> fields[] = {
      {"warmup", &AnalysisSettings::warmup},
      {"metric", &AnalysisSettings::metric},
      {"round", &AnalysisSettings::round},
      {"min-segment", &AnalysisSettings::min_segment},
      {"gate", &AnalysisSettings::gate}};
  auto interval = ParseDuration(spec.base.interval.value_or("1s"));
  const double interval_seconds = interval.ok() ? interval->count() / 1e9 : 1;
  for (const auto& [key, field] : fields) {
    const toml::node* node = table.get(key);
    if (node == nullptr) continue;
    auto text = campaign::ScalarText(context, *node, key);
    if (!text.ok()) return text.error();
    AnalysisSettings only;  // one field at a time: the error is at its line
    only.*field = *text;
    AnalysisOptions unused;
    if (Status valid = ApplyAnalysisSettings(only, interval_seconds,
                                             SettingsSource::kCampaign, unused);
        !valid.ok()) {
      return ErrorAt(context, node->source(), valid.error().message,
                     valid.error().hint);
    }
    spec.base.analysis.*field = *text;
  }
  return OkStatus();
}

// Checks across sections, once all are read.
Status CheckResetDevices(const Context& context, const toml::table& root,
                         const CampaignSpec& spec) {
  for (size_t i = 0; i < spec.reset.size(); ++i) {
    const ResetStep& step = spec.reset[i];
    if (step.kind == ResetKind::kMount && step.device.empty() &&
        spec.devices.size() > 1) {
      const toml::node* node = root["reset"][i].node();
      return ErrorAt(context, node->source(),
                     "mount: which device? [targets] devices names several",
                     "add device = \"/dev/...\" to this step");
    }
    // A reset step acts on this host's devices, not on the ranks'.
    if ((!spec.hosts.empty() || !spec.launcher.empty()) &&
        step.kind != ResetKind::kIdle) {
      const toml::node* node = root["reset"][i].node();
      return ErrorAt(
          context, node->source(),
          fmt::format("{}: a campaign across hosts ([cluster]) takes only "
                      "idle reset steps",
                      ResetKindName(step.kind)),
          "the other steps act on this host's devices, not on each rank's; "
          "reset the ranks' devices before the sweep");
    }
  }
  return OkStatus();
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return UsageError(fmt::format("cannot read campaign file {}: {}", path,
                                  std::strerror(errno)),
                      "give the path of a .toml campaign file, e.g. "
                      "examples/quick.toml");
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) {
    return UsageError(fmt::format("cannot read campaign file {}", path));
  }
  return bytes.str();
}

}  // namespace

std::string_view ResetKindName(ResetKind kind) {
  switch (kind) {
    case ResetKind::kDiscard:
      return "discard";
    case ResetKind::kSecureErase:
      return "secure-erase";
    case ResetKind::kMkfs:
      return "mkfs";
    case ResetKind::kMount:
      return "mount";
    case ResetKind::kPrecondition:
      return "precondition";
    case ResetKind::kIdle:
      return "idle";
    case ResetKind::kExec:
      return "exec";
    case ResetKind::kWriteCache:
      return "write-cache";
  }
  return "?";
}

Result<CampaignSpec> LoadCampaign(const std::string& path) {
  return LoadCampaign(path, ProcessEnvironment());
}

Result<CampaignSpec> LoadCampaign(const std::string& path,
                                  const EnvironmentLookup& environment) {
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.error();
  return LoadCampaignText(*bytes, path, environment);
}

Result<CampaignSpec> LoadCampaignText(const std::string& text,
                                      const std::string& path,
                                      const EnvironmentLookup& environment) {
  CampaignSpec spec;
  spec.path = path;
  spec.file_hash = Sha256Hex(text);
  spec.text = text;
  spec.name = std::filesystem::path(path).stem().string();
  const Context context{path, environment};

  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    return ErrorAt(context, error.source(), std::string(error.description()),
                   "the campaign file is TOML (https://toml.io): check the "
                   "syntax there");
  }
  if (Status ok = campaign::CheckKeys(context, root, "at the top level",
                                      campaign::kTopLevelKeys);
      !ok.ok()) {
    return ok.error();
  }
  if (Status ok = CheckSectionTables(context, root); !ok.ok()) {
    return ok.error();
  }
  if (const toml::table* table = TableAt(root, "campaign")) {
    if (Status ok = ReadCampaignTable(context, *table, spec); !ok.ok()) {
      return ok.error();
    }
  }
  if (const toml::table* table = TableAt(root, "workload")) {
    if (Status ok =
            campaign::ReadOptions(context, *table, "[workload]", spec.base);
        !ok.ok()) {
      return ok.error();
    }
  }
  if (const toml::table* table = TableAt(root, "targets")) {
    if (Status ok = ReadTargetsTable(context, *table, spec); !ok.ok()) {
      return ok.error();
    }
  }
  if (const toml::table* table = TableAt(root, "matrix")) {
    auto matrix = campaign::ReadMatrix(context, *table);
    if (!matrix.ok()) return matrix.error();
    spec.matrix = std::move(*matrix);
  }
  if (const toml::table* table = TableAt(root, "cluster")) {
    if (Status ok = ReadClusterTable(context, *table, spec); !ok.ok()) {
      return ok.error();
    }
  }
  if (const toml::table* table = TableAt(root, "analysis")) {
    if (Status ok = ReadAnalysisTable(context, *table, spec); !ok.ok()) {
      return ok.error();
    }
  }
  if (const toml::node* reset = root.get("reset")) {
    auto steps = campaign::ReadResetSteps(context, *reset, spec.matrix);
    if (!steps.ok()) return steps.error();
    spec.reset = std::move(*steps);
  }
  if (Status ok = CheckResetDevices(context, root, spec); !ok.ok()) {
    return ok.error();
  }
  if (Status ok = ReadRounds(context, root, spec); !ok.ok()) {
    return ok.error();
  }
  spec.base.targets = spec.targets;
  spec.until_steady = spec.base.until_steady;
  spec.max_time = spec.base.max_time;
  return spec;
}

}  // namespace flashmark
