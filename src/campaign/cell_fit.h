// Whether each cell's file set fits on the device it will be laid out on:
// a cell whose --size (the file-set total) is more than the capacity of
// the device its mkfs step formats would fill the filesystem and fail
// after the resets, hours into a sweep (a fill sweep's last sizes).
// Checked for the whole plan before anything is touched (`sweep` refuses,
// `sweep --dry-run` warns). Reads sysfs; changes nothing. Main thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/campaign_spec.h"

namespace flashmark {

struct CellMisfit {
  int cell = 0;             // 1-based, as the plan prints it
  std::string parameters;   // "size=650G"
  uint64_t size_bytes = 0;  // the cell's file set
  std::string device;       // what its mkfs step formats
  uint64_t capacity_bytes = 0;
};

// The cells that do not fit, in plan order. A device that is not there
// (yet: a RAID the resets create) or a cell without an absolute size
// (a share of a device) is not judged.
std::vector<CellMisfit> CellsThatDoNotFit(
    const CampaignSpec& campaign, const std::vector<CampaignCell>& cells);

// "cell #16 (size=650G): a file set of 650 GiB on /dev/loop0, which holds
// 600 GiB"
std::string MisfitText(const CellMisfit& misfit);

// A usage error naming the first cell that does not fit and how many do.
Status CheckCellsFit(const CampaignSpec& campaign,
                     const std::vector<CampaignCell>& cells);

}  // namespace flashmark
