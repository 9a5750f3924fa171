#include "store/flashmark_import.h"

#include <filesystem>

#include "config/campaign_hash.h"
#include "config/tag_options.h"
#include "document/rank_identity.h"
#include "document/run_document_read.h"

namespace flashmark {

Result<StoredRun> ParseFlashmarkDocument(const ImportFile& file) {
  const auto document = nlohmann::json::parse(file.text, nullptr, false);
  if (document.is_discarded()) {
    return UsageError(file.name + ": not JSON",
                      "a flashmark run document (run --json FILE)");
  }
  auto run = RunFromJson(document);
  if (!run.ok()) {
    Error error = run.error();
    error.message = file.name + ": " + error.message;
    return error;
  }
  StoredRun stored;
  stored.labels.label = std::filesystem::path(file.name).stem().string();
  stored.labels.source = "flashmark";
  stored.labels.source_hash = Sha256Hex(file.text);
  if (auto rank = ParseRankIdentity(run->environment.cluster)) {
    stored.labels.tags = {{kGroupTag, rank->group},
                          {kRankTag, std::to_string(rank->rank)},
                          {kHostTag, rank->host}};
  }
  stored.run = std::move(*run);
  return stored;
}

}  // namespace flashmark
