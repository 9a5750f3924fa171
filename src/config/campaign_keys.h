// The workload options of `flashmark run`, described once: long name, the
// fio/sysbench alias, how a campaign range of its values reads, the
// RunOptions field it sets, the key its value lands under in the run
// document's "config" (document/json_format), and its help. The run
// command's options are made from this table (app/run_command), and a
// campaign file's keys are its names and aliases ("iodepth", "file-num",
// "numjobs"), with the closest-key suggestion for unknown keys.
// Options that belong to `flashmark sweep` itself (--db, --allow-destroy,
// --json, --label, --tag, --quiet) and targets are not campaign keys; they
// get a hint that says where they go instead. Pure; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "config/campaign_range.h"
#include "config/run_options.h"

namespace flashmark {

struct CampaignOption {
  std::string_view name;   // canonical: "threads"
  std::string_view alias;  // "numjobs"; "" when none
  RangeKind range;         // how a range of its values reads
  std::optional<std::string> RunOptions::*text;  // a valued option, or
  bool RunOptions::*flag;                        // a true/false one
  std::string_view json_key;  // in the run document's "config"
  std::string_view help;      // --help, with the default in [brackets]
};

std::span<const CampaignOption> CampaignOptions();
// By canonical name or alias; nullptr when unknown.
const CampaignOption* FindCampaignOption(std::string_view name);
// Every canonical name and alias, for suggestions.
std::vector<std::string_view> CampaignOptionNames();

// Sets `option` in `options` from its text ("true"/"false" for a flag).
void ApplyCampaignOption(const CampaignOption& option, const std::string& text,
                         RunOptions& options);

// The workload options set in `options` as `flashmark run` arguments
// ("--threads", "4", "--direct", ...), in table order; no targets and none
// of the non-campaign options (db, json, label, tags, quiet...).
std::vector<std::string> WorkloadArguments(const RunOptions& options);

// Checks one value on its own, as `flashmark run` would (with the context
// it needs: --read-pct is checked in the rndrw mode...). The message
// starts with the option's name: "threads: 0 is not a positive number".
Status CheckCampaignOptionValue(const CampaignOption& option,
                                const std::string& text);

// Where a known non-campaign key belongs ("pass --db to flashmark
// sweep"), or "" when `name` is not one.
std::string_view MisplacedKeyHint(std::string_view name);

// Optimal-string-alignment distance (Levenshtein plus adjacent swaps).
size_t EditDistance(std::string_view a, std::string_view b);
// The closest of `known` when it is close enough to be a typo, else "".
std::string ClosestKey(std::string_view name,
                       std::span<const std::string_view> known);
// "did you mean iodepth?", or "known keys: a, b, c" when nothing is close.
std::string SuggestKey(std::string_view name,
                       std::span<const std::string_view> known);

}  // namespace flashmark
