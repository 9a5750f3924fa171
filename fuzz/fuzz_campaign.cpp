// Fuzzes the campaign TOML loader: the input is written to a file in a
// private temporary directory (LoadCampaign reads a path) and loaded with a
// fixed environment; an accepted campaign is expanded into its cells, which
// runs every cell's options through BuildJobSpec.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "config/campaign_spec.h"

namespace {

const std::string& CampaignPath() {
  static const std::string path = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base ? base : "/tmp") + "/flashmark-fuzz-campaign.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    return pattern + "/campaign.toml";
  }();
  return path;
}

std::optional<std::string> FixedEnvironment(const std::string& name) {
  if (name == "DIR") return std::string("/tmp/flashmark-fuzz-target");
  if (name == "DEV") return std::string("/dev/null-fuzz");
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(CampaignPath(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data),
              static_cast<std::streamsize>(size));
  }
  auto campaign = flashmark::LoadCampaign(CampaignPath(), FixedEnvironment);
  if (campaign.ok()) (void)flashmark::ExpandCampaign(*campaign);
  return 0;
}
