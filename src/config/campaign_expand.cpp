// ExpandCampaign(): the matrix product, repeats, order, and the check of
// every cell as `flashmark run` would check it.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/random.h"
#include "common/shell_quote.h"
#include "config/campaign_keys.h"
#include "config/campaign_spec.h"
#include "engine/engine_registry.h"

namespace flashmark {
namespace {

// Sets the `choice`-th value of `axis` in `cell`.
void Apply(const MatrixAxis& axis, size_t choice, CampaignCell& cell) {
  if (!axis.target_sets.empty()) {
    cell.options.targets = axis.target_sets[choice];
    cell.parameters.emplace_back(axis.name, axis.values[choice]);
    return;
  }
  if (!axis.groups.empty()) {
    if (!axis.group_targets[choice].empty()) {
      cell.options.targets = axis.group_targets[choice];
      cell.parameters.emplace_back("target",
                                   ShellJoin(axis.group_targets[choice]));
    }
    for (const auto& [name, value] : axis.groups[choice]) {
      ApplyCampaignOption(*FindCampaignOption(name), value, cell.options);
      cell.parameters.emplace_back(name, value);
    }
    // Tags only: filed with the cell's runs like its parameters.
    for (const auto& tag : axis.group_tags[choice]) {
      cell.parameters.push_back(tag);
    }
    return;
  }
  ApplyCampaignOption(*FindCampaignOption(axis.name), axis.values[choice],
                      cell.options);
  cell.parameters.emplace_back(axis.name, axis.values[choice]);
}

Status CheckCell(const CampaignSpec& campaign, const CampaignCell& cell,
                 size_t count) {
  auto fail = [&](const std::string& message, const std::string& hint) {
    const std::string parameters = CellParametersText(cell);
    return UsageError(
        fmt::format("{}: cell {} of {}{}: {}", campaign.path, cell.index + 1,
                    count, parameters.empty() ? "" : " (" + parameters + ")",
                    message),
        hint);
  };
  auto built = BuildJobSpec(cell.options);
  if (!built.ok()) return fail(built.error().message, built.error().hint);
  const EngineInfo* engine = FindEngine(built->spec.engine);
  const bool diskless = engine->capabilities & kCapDiskless;
  if (diskless && !cell.options.targets.empty()) {
    return fail(fmt::format("the {} engine touches no target, but {} was "
                            "given",
                            built->spec.engine, cell.options.targets.front()),
                "drop [targets] paths; size sets the offset range");
  }
  if (!diskless && cell.options.targets.empty()) {
    return fail("no target",
                "add [targets] paths = [\"/mnt/ssd\"], a [matrix] target "
                "axis, or engine = \"null\"");
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<CampaignCell>> ExpandCampaign(const CampaignSpec& campaign) {
  size_t product = 1;
  for (const MatrixAxis& axis : campaign.matrix) {
    if (axis.values.empty()) {
      return UsageError(fmt::format("{}: matrix axis {} has no values",
                                    campaign.path, axis.name));
    }
    if (product > kMaxCampaignCells / axis.values.size()) product = 0;
    product = product == 0 ? 0 : product * axis.values.size();
  }
  const size_t repeats = static_cast<size_t>(std::max(campaign.repeats, 1));
  if (product == 0 || product > kMaxCampaignCells / repeats) {
    return UsageError(
        fmt::format("{}: the campaign has more than {} cells", campaign.path,
                    kMaxCampaignCells),
        "use fewer matrix values, larger range steps or fewer repeats");
  }

  std::vector<CampaignCell> cells;
  cells.reserve(product * repeats);
  for (size_t repeat = 0; repeat < repeats; ++repeat) {
    for (size_t position = 0; position < product; ++position) {
      CampaignCell cell;
      cell.repeat = static_cast<int>(repeat);
      cell.options = campaign.base;
      cell.options.targets = campaign.targets;
      // Mixed radix, the last axis fastest.
      std::vector<size_t> choice(campaign.matrix.size());
      size_t rest = position;
      for (size_t k = campaign.matrix.size(); k-- > 0;) {
        choice[k] = rest % campaign.matrix[k].values.size();
        rest /= campaign.matrix[k].values.size();
      }
      for (size_t k = 0; k < campaign.matrix.size(); ++k) {
        Apply(campaign.matrix[k], choice[k], cell);
      }
      cells.push_back(std::move(cell));
    }
  }
  if (campaign.round_steady_state) {
    size_t tracked = 0;
    for (size_t position = 0; position < product; ++position) {
      tracked +=
          CellMatches(campaign.round_steady_state->where, cells[position]);
    }
    if (tracked != 1) {
      return UsageError(
          fmt::format("{}: steady-state: where matches {} cells of a round, "
                      "not one",
                      campaign.path, tracked),
          "give where a value for every matrix parameter that varies");
    }
  }
  if (campaign.order == CellOrder::kShuffled) {
    Random random(campaign.order_seed);
    for (size_t i = cells.size(); i > 1; --i) {
      std::swap(cells[i - 1], cells[random.Below(i)]);
    }
  }
  for (size_t i = 0; i < cells.size(); ++i) {
    cells[i].index = static_cast<int>(i);
    if (Status ok = CheckCell(campaign, cells[i], cells.size()); !ok.ok()) {
      return ok.error();
    }
  }
  return cells;
}

std::string CellParametersText(const CampaignCell& cell) {
  std::string text;
  for (const auto& [name, value] : cell.parameters) {
    if (!text.empty()) text += ' ';
    text += name + "=" + value;
  }
  return text;
}

bool ResetStepApplies(const ResetStep& step, const CampaignCell& cell) {
  return ResetStepApplies(step, cell, cell.index == 0);
}

bool ResetStepApplies(const ResetStep& step, const CampaignCell& cell,
                      bool first_cell) {
  if (step.once && !first_cell) return false;
  return CellMatches(step.when, cell);
}

bool CellMatches(const CellFilter& filter, const CampaignCell& cell) {
  for (const auto& [name, accepted] : filter) {
    bool matched = false;
    for (const auto& [parameter, value] : cell.parameters) {
      if (parameter != name) continue;
      matched =
          std::find(accepted.begin(), accepted.end(), value) != accepted.end();
    }
    if (!matched) return false;
  }
  return true;
}

std::vector<std::string> ResetDevices(const CampaignSpec& campaign,
                                      const CampaignCell& cell,
                                      const ResetStep& step) {
  if (!step.device.empty()) return {step.device};
  if (!campaign.devices.empty()) return campaign.devices;
  return cell.options.targets;
}

}  // namespace flashmark
