// Which runs a campaign report draws (`flashmark report --campaign ID`):
// the runs of the campaign's cells that finished ok, narrowed by --where
// key=value (every one must match the cell's parameters), and what to
// group them by: --by when given, else the one parameter that varies
// among them, else (several vary) one group per cell named by its varying
// parameters. Reads the store; main thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace flashmark {

// The synthetic tag that names a cell by its varying parameters.
inline constexpr const char* kCellParameters = "parameters";

struct CampaignRuns {
  std::vector<int64_t> run_ids;  // in plan order
  std::optional<std::string> by;
  std::map<int64_t, std::string> cell_names;  // run -> "mode=rndwr threads=4"
  std::string title;                          // "fill-sweep (campaign 3)"
  std::string note;                           // for the terminal, may be empty
  // "mibs" (reads and writes together) when the cells differ in mode, so
  // that a read cell and a write cell are compared on the same figure.
  std::optional<std::string> metric;
};

Result<CampaignRuns> SelectCampaignRuns(const std::string& database,
                                        const std::string& campaign_id,
                                        const std::vector<std::string>& where,
                                        const std::optional<std::string>& by);

}  // namespace flashmark
