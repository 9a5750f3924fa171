// The reset steps before one campaign cell ([[reset]] in the campaign
// file): discard, secure-erase, mkfs, mount, precondition, idle and exec,
// in file order, the ones that apply to the cell (when; once: see
// ResetSettings::first_of_session). Before
// them, the campaign's own mounts (made by earlier cells, or by a killed
// sweep of the same campaign: ResetSettings::mounts) that this cell's
// steps redo or whose device they destroy are unmounted, each only while
// it is still the mount on top at its point (system/mount_ledger.h). What
// the campaign did not mount is never unmounted: a mount step whose
// mount point has anything else mounted on it fails the cell before any
// of its steps runs.
//
// Interruption: a SIGINT/SIGTERM taken before or during a step (an idle
// step, a precondition run or its layout, a Ctrl-C that also ended the
// step's program) makes the outcome kInterrupted, never a failed step.
//
// Safety: every destructive step (discard, secure-erase, mkfs,
// precondition) acts only on a block device named in --allow-destroy that
// passes the same checks as `flashmark run` (not mounted, not held,
// nothing underneath in use, ...), judged by device number just before
// the step; the step's tool is then given the kernel's node of the device
// judged (/dev/sdb for a /dev/disk/by-id/... link), so a link changed in
// between cannot redirect it. CheckCampaignDevices() checks the names
// (by device number) for the whole plan up front, before anything is
// touched.
//
// Each step done (and each unmount) is appended to `record` as JSON (its
// commands, outputs and exit statuses) even when a later step fails.
// Blocking; main thread (idle and precondition take SIGINT / SIGTERM / SIGHUP).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/campaign_spec.h"
#include "system/device_safety.h"
#include "system/mount_ledger.h"

namespace flashmark {

enum class ResetOutcome { kDone, kInterrupted };

struct ResetSettings {
  std::vector<std::string> allow_destroy;
  // What destructive steps must never touch besides mounted and held
  // devices: /, the program, the campaign's database.
  SafetyContext safety;
  bool terminal = false;  // progress bar for preconditioning
  // The first cell this sweep process runs: `once` steps run before it
  // (cell 1 of a new campaign, the first unfinished one on --resume, so a
  // resumed campaign gets its one-time setup, e.g. a mount, again).
  bool first_of_session = false;
  // The campaign's mounts: mount steps record theirs here, releases undo
  // only these. Not owned; required.
  MountLedger* mounts = nullptr;
};

// Usage error naming the first device a destructive step of some cell
// would act on without being named in --allow-destroy, or that is not a
// block device at all (DestroyedDevices, in the order met).
Status CheckCampaignDevices(const CampaignSpec& campaign,
                            const std::vector<CampaignCell>& cells,
                            const std::vector<std::string>& allow_destroy);

// Every device a destructive step of some cell acts on, or a cell's run
// writes to raw (a writing workload on a block device target, "run
// writes"), in the order first met, with those steps and whether
// --allow-destroy names it (for `sweep --dry-run`). A device that is not
// there yet (a RAID an exec step creates) is judged by its name. Reads
// device numbers (stat); changes nothing.
struct DestroyedDevice {
  std::string device;
  std::vector<std::string> steps;  // "discard", "mkfs", ... (first met first)
  bool allowed = false;            // a block device --allow-destroy names
  bool block_device = false;
  bool exists = false;
  bool by_run_only = false;  // no reset step acts on it: only runs write it
};
std::vector<DestroyedDevice> DestroyedDevices(
    const CampaignSpec& campaign, const std::vector<CampaignCell>& cells,
    const std::vector<std::string>& allow_destroy);

Result<ResetOutcome> ResetCell(const CampaignSpec& campaign,
                               const CampaignCell& cell,
                               const ResetSettings& settings, std::ostream& log,
                               nlohmann::json& record);

// Usage error naming what is mounted at a mount step's mount point when
// the campaign did not mount it (checked for the whole plan before a sweep
// touches anything; `mounts` is empty for a new campaign).
Status CheckCampaignMountPoints(const CampaignSpec& campaign,
                                const MountLedger& mounts);

// Undoes the campaign's own mounts that are still on top at their points
// (at the end of a sweep: leave the machine as found).
Status ReleaseCampaignMounts(MountLedger& mounts, std::ostream& log);

}  // namespace flashmark
