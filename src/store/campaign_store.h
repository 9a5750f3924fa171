// CampaignStore: the sweeps kept beside the runs in the same SQLite file.
// A campaign row holds the campaign file's path and SHA-256 (a changed file
// cannot be resumed) and text, its status and the process running it; one cell
// row per planned cell holds its parameters, status (pending, running, ok,
// failed, interrupted), attempts, the run that measured it, the reset
// steps done (each external command with its output and exit status) and
// its error, and its expanded plan (config/campaign_plan.h) as the
// campaign started. Each cell is its own short transaction, so a killed
// sweep leaves every finished cell recorded and at most one cell
// "running". The mounts a campaign made and has not undone are kept too
// (system/mount_ledger.h), each saved as soon as it is made.
//
// Ownership: a campaign is run by one process at a time (its host, pid
// and boot id). Claim() checks that no live process owns it and takes it
// in one transaction (BEGIN IMMEDIATE), so of two `--resume` started at
// once exactly one gets it.
//
// Threading: one CampaignStore per thread (its own connection; WAL lets a
// RunStore in the same process write the runs). Errors name the file.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "config/campaign_spec.h"
#include "store/sqlite.h"
#include "system/mount_ledger.h"

namespace flashmark {

// kSkipped: not needed, the campaign's rounds became steady before it
// (config/campaign_spec.h, RoundSteadyState); finished like ok and failed.
enum class CellStatus {
  kPending,
  kRunning,
  kOk,
  kFailed,
  kInterrupted,
  kSkipped
};
std::string CellStatusName(CellStatus status);  // "pending", "running", ...

// "running" (a live process), "interrupted", "finished".
enum class CampaignStatus { kRunning, kInterrupted, kFinished };
std::string CampaignStatusName(CampaignStatus status);

struct StoredCampaign {
  int64_t id = 0;
  std::string name;
  std::string file_path;  // absolute
  std::string file_hash;
  std::string command_line;
  // kRunning only while the process that runs it is alive; one killed
  // reads back as kInterrupted.
  CampaignStatus status = CampaignStatus::kRunning;
  int cell_count = 0;
  int64_t start_unix_ns = 0;
  int64_t end_unix_ns = 0;  // 0 while not finished
  std::string host;         // of the process running it (or that ran it last)
  int64_t pid = 0;
  // The campaign file as the sweep read it (CampaignSpec::text): a stored
  // campaign reproduces without the original file. Empty for one stored
  // before flashmark kept it.
  std::string file_text;
};

struct StoredCell {
  int index = 0;  // 0-based plan position
  std::vector<std::pair<std::string, std::string>> parameters;
  CellStatus status = CellStatus::kPending;
  int attempts = 0;
  std::optional<int64_t> run_id;
  nlohmann::json reset = nlohmann::json::array();  // steps done, in order
  std::string error;                               // failed cells
  // CellPlanJson() as the campaign started; null for a campaign stored by
  // a flashmark that kept no plan.
  nlohmann::json plan;
  int64_t start_unix_ns = 0;
  int64_t end_unix_ns = 0;

  bool finished() const {
    return status == CellStatus::kOk || status == CellStatus::kFailed ||
           status == CellStatus::kSkipped;
  }
};

class CampaignStore {
 public:
  // Opens the database (creating and migrating it like RunStore::Open).
  static Result<CampaignStore> Open(const std::string& path);
  // An existing database for reading only (store/store_file.h); only the
  // reading methods (LatestForFile, Find, List, Cells) may be called.
  static Result<CampaignStore> OpenForReading(const std::string& path);

  // A new campaign, owned by this process, with every cell pending.
  Result<int64_t> Create(const CampaignSpec& spec, const std::string& file_path,
                         const std::vector<CampaignCell>& cells,
                         const std::string& command_line);
  // The latest campaign made from the file at `file_path`, if any.
  Result<std::optional<StoredCampaign>> LatestForFile(
      const std::string& file_path);
  // An unknown id is a usage error.
  Result<StoredCampaign> Find(int64_t id);
  Result<std::vector<StoredCampaign>> List();
  Result<std::vector<StoredCell>> Cells(int64_t campaign_id);

  // Takes over a campaign for --resume: this process now runs it. In one
  // transaction: refused (usage error naming the process, exit 2) while a
  // live process runs it, or once it finished.
  Status Claim(int64_t campaign_id);
  // The cell starts (again): running, one more attempt, no run yet.
  Status StartCell(int64_t campaign_id, int index);
  Status SetCellRun(int64_t campaign_id, int index, int64_t run_id);
  Status FinishCell(int64_t campaign_id, int index, CellStatus status,
                    const nlohmann::json& reset, const std::string& error);
  Status Finish(int64_t campaign_id, CampaignStatus status);

  // The mounts the campaign made and has not undone, in the order made.
  Result<std::vector<MadeMount>> Mounts(int64_t campaign_id);
  // Keeps (`made`) or forgets one of them: a MountLedger's Save.
  Status SaveMount(int64_t campaign_id, const MadeMount& mount, bool made);

  const std::string& path() const { return db_.path(); }

 private:
  explicit CampaignStore(Database db) : db_(std::move(db)) {}
  Status UpdateCell(const std::string& sql, int64_t campaign_id, int index);
  Result<std::vector<StoredCampaign>> Select(const std::string& where,
                                             int64_t key,
                                             const std::string& text_key = {});
  Database db_;
};

}  // namespace flashmark
