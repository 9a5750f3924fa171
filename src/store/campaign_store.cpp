#include "store/campaign_store.h"

#include <fmt/format.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/json_text.h"
#include "config/campaign_plan.h"
#include "store/run_store.h"
#include "store/store_file.h"
#include "store/writer_identity.h"

namespace flashmark {
namespace {

using nlohmann::json;

CellStatus CellStatusFromName(const std::string& name) {
  if (name == "running") return CellStatus::kRunning;
  if (name == "ok") return CellStatus::kOk;
  if (name == "failed") return CellStatus::kFailed;
  if (name == "interrupted") return CellStatus::kInterrupted;
  if (name == "skipped") return CellStatus::kSkipped;
  return CellStatus::kPending;
}

constexpr const char* kCampaignColumns =
    "id, name, file_path, file_hash, command_line, status, cell_count, "
    "start_unix_ns, end_unix_ns, host, pid, boot_id, file_text";

}  // namespace

std::string CellStatusName(CellStatus status) {
  switch (status) {
    case CellStatus::kPending:
      return "pending";
    case CellStatus::kRunning:
      return "running";
    case CellStatus::kOk:
      return "ok";
    case CellStatus::kFailed:
      return "failed";
    case CellStatus::kInterrupted:
      return "interrupted";
    case CellStatus::kSkipped:
      return "skipped";
  }
  return "pending";
}

std::string CampaignStatusName(CampaignStatus status) {
  switch (status) {
    case CampaignStatus::kRunning:
      return "running";
    case CampaignStatus::kInterrupted:
      return "interrupted";
    case CampaignStatus::kFinished:
      return "finished";
  }
  return "running";
}

Result<CampaignStore> CampaignStore::Open(const std::string& path) {
  // RunStore::Open creates the file, turns on WAL and migrates the schema.
  if (auto runs = RunStore::Open(path); !runs.ok()) return runs.error();
  auto db = Database::Open(path, false);
  if (!db.ok()) return db.error();
  if (Status fk =
          db->Execute("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL");
      !fk.ok()) {
    return fk.error();
  }
  return CampaignStore(std::move(*db));
}

Result<CampaignStore> CampaignStore::OpenForReading(const std::string& path) {
  auto db = OpenStoreForReading(path);
  if (!db.ok()) return db.error();
  return CampaignStore(std::move(*db));
}

Result<int64_t> CampaignStore::Create(const CampaignSpec& spec,
                                      const std::string& file_path,
                                      const std::vector<CampaignCell>& cells,
                                      const std::string& command_line) {
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  auto insert = db_.Prepare(
      "INSERT INTO campaigns (name, file_path, file_hash, command_line, "
      "status, "
      "cell_count, start_unix_ns, host, pid, boot_id, file_text) VALUES "
      "(?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7, ?8, ?9, ?10)");
  if (!insert.ok()) return insert.error();
  insert->Bind(1, spec.name)
      .Bind(2, file_path)
      .Bind(3, spec.file_hash)
      .Bind(4, command_line)
      .Bind(5, static_cast<int64_t>(cells.size()))
      .Bind(6, UnixNowNs())
      .Bind(7, HostName())
      .Bind(8, static_cast<int64_t>(getpid()))
      .Bind(9, BootId())
      .Bind(10, spec.text);
  if (Status done = insert->Run(); !done.ok()) return done.error();
  const int64_t id = db_.LastInsertId();
  auto cell = db_.Prepare(
      "INSERT INTO campaign_cells (campaign_id, idx, parameters_json, status, "
      "plan_json) VALUES (?1, ?2, ?3, 'pending', ?4)");
  if (!cell.ok()) return cell.error();
  for (const auto& planned : cells) {
    json parameters = json::array();
    for (const auto& [key, value] : planned.parameters) {
      parameters.push_back({key, value});
    }
    cell->Reset();
    cell->Bind(1, id)
        .Bind(2, static_cast<int64_t>(planned.index))
        .Bind(3, JsonTextKeepingBytes(parameters))
        .Bind(4, JsonTextKeepingBytes(CellPlanJson(spec, planned)));
    if (Status done = cell->Run(); !done.ok()) return done.error();
  }
  if (Status committed = transaction->Commit(); !committed.ok()) {
    return committed.error();
  }
  return id;
}

Result<std::vector<StoredCampaign>> CampaignStore::Select(
    const std::string& where, int64_t key, const std::string& text_key) {
  auto query = db_.Prepare(fmt::format(
      "SELECT {} FROM campaigns {} ORDER BY id", kCampaignColumns, where));
  if (!query.ok()) return query.error();
  if (!text_key.empty()) {
    query->Bind(1, text_key);
  } else if (where.find("?1") != std::string::npos) {
    query->Bind(1, key);
  }
  std::vector<StoredCampaign> campaigns;
  for (;;) {
    auto row = query->Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
    StoredCampaign campaign;
    campaign.id = query->Int(0);
    campaign.name = query->Text(1);
    campaign.file_path = query->Text(2);
    campaign.file_hash = query->Text(3);
    campaign.command_line = query->Text(4);
    const std::string status = query->Text(5);
    campaign.status = status == "finished"      ? CampaignStatus::kFinished
                      : status == "interrupted" ? CampaignStatus::kInterrupted
                                                : CampaignStatus::kRunning;
    if (campaign.status == CampaignStatus::kRunning &&
        WriterIsGone(query->Text(9), query->Int(10), query->Text(11))) {
      campaign.status = CampaignStatus::kInterrupted;
    }
    campaign.cell_count = static_cast<int>(query->Int(6));
    campaign.start_unix_ns = query->Int(7);
    campaign.end_unix_ns = query->IsNull(8) ? 0 : query->Int(8);
    campaign.host = query->Text(9);
    campaign.pid = query->Int(10);
    campaign.file_text = query->IsNull(12) ? "" : query->Text(12);
    campaigns.push_back(std::move(campaign));
  }
  return campaigns;
}

Result<std::optional<StoredCampaign>> CampaignStore::LatestForFile(
    const std::string& file_path) {
  auto found = Select("WHERE file_path = ?1", 0, file_path);
  if (!found.ok()) return found.error();
  if (found->empty()) return std::optional<StoredCampaign>();
  return std::optional<StoredCampaign>(found->back());
}

Result<StoredCampaign> CampaignStore::Find(int64_t id) {
  auto found = Select("WHERE id = ?1", id);
  if (!found.ok()) return found.error();
  if (found->empty()) {
    return UsageError(
        fmt::format("no campaign {} in {}", id, path()),
        "`flashmark list --campaigns` shows the campaigns stored there");
  }
  return found->front();
}

Result<std::vector<StoredCampaign>> CampaignStore::List() {
  return Select("", 0);
}

Result<std::vector<StoredCell>> CampaignStore::Cells(int64_t campaign_id) {
  auto query = db_.Prepare(
      "SELECT idx, parameters_json, status, attempts, run_id, reset_json, "
      "error_json, start_unix_ns, end_unix_ns, plan_json FROM campaign_cells "
      "WHERE campaign_id = ?1 ORDER BY idx");
  if (!query.ok()) return query.error();
  query->Bind(1, campaign_id);
  std::vector<StoredCell> cells;
  for (;;) {
    auto row = query->Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
    StoredCell cell;
    cell.index = static_cast<int>(query->Int(0));
    for (const auto& pair : ParseJsonKeepingBytes(query->Text(1))) {
      if (pair.is_array() && pair.size() == 2) {
        cell.parameters.emplace_back(pair[0].get<std::string>(),
                                     pair[1].get<std::string>());
      }
    }
    cell.status = CellStatusFromName(query->Text(2));
    cell.attempts = static_cast<int>(query->Int(3));
    if (!query->IsNull(4)) cell.run_id = query->Int(4);
    if (!query->IsNull(5)) cell.reset = ParseJsonKeepingBytes(query->Text(5));
    if (!query->IsNull(6)) cell.error = query->Text(6);
    cell.start_unix_ns = query->IsNull(7) ? 0 : query->Int(7);
    cell.end_unix_ns = query->IsNull(8) ? 0 : query->Int(8);
    if (!query->IsNull(9)) cell.plan = ParseJsonKeepingBytes(query->Text(9));
    cells.push_back(std::move(cell));
  }
  return cells;
}

Status CampaignStore::Claim(int64_t campaign_id) {
  // BEGIN IMMEDIATE: the check and the take happen under the write lock,
  // so a second process claiming at the same moment sees this one as the
  // live owner.
  auto transaction = Transaction::Begin(db_);
  if (!transaction.ok()) return transaction.error();
  auto owner = db_.Prepare(
      "SELECT status, host, pid, boot_id FROM campaigns WHERE id = ?1");
  if (!owner.ok()) return owner.error();
  owner->Bind(1, campaign_id);
  auto row = owner->Step();
  if (!row.ok()) return row.error();
  if (!*row) {
    return UsageError(fmt::format("no campaign {} in {}", campaign_id, path()));
  }
  const std::string status = owner->Text(0);
  const std::string host = owner->Text(1);
  const int64_t pid = owner->Int(2);
  if (status == "finished") {
    return UsageError(
        fmt::format("campaign {} has finished; nothing to resume", campaign_id),
        "run it without --resume to start it again");
  }
  if (status == "running" && !WriterIsGone(host, pid, owner->Text(3))) {
    return UsageError(
        fmt::format("campaign {} is being run by process {} on {}", campaign_id,
                    pid, host),
        "wait for it, or stop that process first (SIGINT); --resume takes "
        "over only a campaign no live process runs");
  }
  auto update = db_.Prepare(
      "UPDATE campaigns SET status = 'running', end_unix_ns = NULL, host = ?2, "
      "pid = ?3, boot_id = ?4 WHERE id = ?1");
  if (!update.ok()) return update.error();
  update->Bind(1, campaign_id)
      .Bind(2, HostName())
      .Bind(3, static_cast<int64_t>(getpid()))
      .Bind(4, BootId());
  if (Status done = update->Run(); !done.ok()) return done;
  return transaction->Commit();
}

Status CampaignStore::UpdateCell(const std::string& sql, int64_t campaign_id,
                                 int index) {
  auto update = db_.Prepare(sql);
  if (!update.ok()) return update.error();
  update->Bind(1, campaign_id).Bind(2, static_cast<int64_t>(index));
  if (Status done = update->Run(); !done.ok()) return done;
  if (db_.Changes() == 0) {
    return RuntimeError(fmt::format("campaign {} has no cell {} in {}",
                                    campaign_id, index + 1, path()));
  }
  return OkStatus();
}

Status CampaignStore::StartCell(int64_t campaign_id, int index) {
  return UpdateCell(
      fmt::format("UPDATE campaign_cells SET status = 'running', "
                  "attempts = attempts + 1, run_id = NULL, reset_json = "
                  "NULL, error_json = NULL, start_unix_ns = {}, "
                  "end_unix_ns = NULL WHERE campaign_id = ?1 AND idx = ?2",
                  UnixNowNs()),
      campaign_id, index);
}

Status CampaignStore::SetCellRun(int64_t campaign_id, int index,
                                 int64_t run_id) {
  return UpdateCell(fmt::format("UPDATE campaign_cells SET run_id = {} "
                                "WHERE campaign_id = ?1 AND idx = ?2",
                                run_id),
                    campaign_id, index);
}

Status CampaignStore::FinishCell(int64_t campaign_id, int index,
                                 CellStatus status, const json& reset,
                                 const std::string& error) {
  auto update = db_.Prepare(
      "UPDATE campaign_cells SET status = ?3, reset_json = ?4, error_json = "
      "?5, "
      "end_unix_ns = ?6 WHERE campaign_id = ?1 AND idx = ?2");
  if (!update.ok()) return update.error();
  update->Bind(1, campaign_id)
      .Bind(2, static_cast<int64_t>(index))
      .Bind(3, CellStatusName(status))
      .Bind(4, JsonTextKeepingBytes(reset))
      .Bind(6, UnixNowNs());
  if (error.empty()) {
    update->BindNull(5);
  } else {
    update->Bind(5, error);
  }
  return update->Run();
}

Status CampaignStore::Finish(int64_t campaign_id, CampaignStatus status) {
  auto update = db_.Prepare(
      "UPDATE campaigns SET status = ?2, end_unix_ns = ?3 WHERE id = ?1");
  if (!update.ok()) return update.error();
  update->Bind(1, campaign_id)
      .Bind(2, CampaignStatusName(status))
      .Bind(3, UnixNowNs());
  return update->Run();
}

Result<std::vector<MadeMount>> CampaignStore::Mounts(int64_t campaign_id) {
  auto query = db_.Prepare(
      "SELECT mount_point, source, mount_id, device FROM campaign_mounts "
      "WHERE campaign_id = ?1 ORDER BY rowid");
  if (!query.ok()) return query.error();
  query->Bind(1, campaign_id);
  std::vector<MadeMount> mounts;
  for (;;) {
    auto row = query->Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
    mounts.push_back(MadeMount{query->Text(0), query->Text(1), query->Int(2),
                               static_cast<uint64_t>(query->Int(3))});
  }
  return mounts;
}

Status CampaignStore::SaveMount(int64_t campaign_id, const MadeMount& mount,
                                bool made) {
  auto statement = db_.Prepare(
      made
          ? "INSERT OR REPLACE INTO campaign_mounts (campaign_id, mount_point, "
            "mount_id, device, source) VALUES (?1, ?2, ?3, ?4, ?5)"
          : "DELETE FROM campaign_mounts WHERE campaign_id = ?1 AND "
            "mount_point = ?2 AND mount_id = ?3");
  if (!statement.ok()) return statement.error();
  statement->Bind(1, campaign_id)
      .Bind(2, mount.mount_point)
      .Bind(3, mount.mount_id);
  if (made) {
    statement->Bind(4, static_cast<int64_t>(mount.device))
        .Bind(5, mount.source);
  }
  return statement->Run();
}

}  // namespace flashmark
