#include "campaign/cell_fit.h"

#include <fmt/format.h>

#include <optional>

#include "common/units.h"
#include "config/run_options.h"
#include "system/block_device_info.h"

namespace flashmark {
namespace {

std::optional<uint64_t> CapacityOf(const std::string& device) {
  const auto number = BlockDeviceNumber(device);
  if (!number) return std::nullopt;
  const auto name = BlockDeviceName(*number);
  if (!name) return std::nullopt;
  const auto info = ReadBlockDevice(*name);
  if (!info || info->capacity_bytes == 0) return std::nullopt;
  return info->capacity_bytes;
}

}  // namespace

std::vector<CellMisfit> CellsThatDoNotFit(
    const CampaignSpec& campaign, const std::vector<CampaignCell>& cells) {
  std::vector<CellMisfit> misfits;
  for (const CampaignCell& cell : cells) {
    auto built = BuildJobSpec(cell.options);
    if (!built.ok()) continue;  // ExpandCampaign checked every cell
    const JobSpec& spec = built->spec;
    if (!spec.size_given || spec.size.share > 0) continue;
    for (const ResetStep& step : campaign.reset) {
      if (step.kind != ResetKind::kMkfs || !ResetStepApplies(step, cell))
        continue;
      for (const std::string& device : ResetDevices(campaign, cell, step)) {
        const auto capacity = CapacityOf(device);
        if (!capacity || spec.size.bytes <= *capacity) continue;
        misfits.push_back({cell.index + 1, CellParametersText(cell),
                           spec.size.bytes, device, *capacity});
      }
    }
  }
  return misfits;
}

std::string MisfitText(const CellMisfit& misfit) {
  return fmt::format("cell #{} ({}): a file set of {} on {}, which holds {}",
                     misfit.cell, misfit.parameters,
                     FormatBytes(misfit.size_bytes), misfit.device,
                     FormatBytes(misfit.capacity_bytes));
}

Status CheckCellsFit(const CampaignSpec& campaign,
                     const std::vector<CampaignCell>& cells) {
  const std::vector<CellMisfit> misfits = CellsThatDoNotFit(campaign, cells);
  if (misfits.empty()) return OkStatus();
  return UsageError(
      fmt::format("{}{}: it cannot be laid out on the filesystem its reset "
                  "steps make",
                  MisfitText(misfits.front()),
                  misfits.size() == 1 ? ""
                                      : fmt::format(" (and {} more cells)",
                                                    misfits.size() - 1)),
      "lower the size axis to the device's capacity (less the filesystem's "
      "own space), or use a larger device; `flashmark sweep --dry-run` "
      "lists every cell that does not fit");
}

}  // namespace flashmark
