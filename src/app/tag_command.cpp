#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <string_view>

#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "config/tag_options.h"
#include "report/text_escape.h"

namespace flashmark {
namespace {

Status CheckChangeable(const std::string& key) {
  if (!IsSweepTag(key)) return OkStatus();
  return UsageError(
      fmt::format("tag {}: set by flashmark sweep, it ties the run to its "
                  "campaign's cell",
                  TerminalText(key)),
      "choose another key, e.g. device= or note=");
}

}  // namespace

int ExecuteTag(const StoreCommandOptions& options) {
  std::vector<int64_t> ids;
  std::vector<std::string> tag_words;
  for (const std::string& word : options.runs) {
    if (word.find('=') != std::string::npos) {
      tag_words.push_back(word);
      continue;
    }
    if (!tag_words.empty()) {
      return PrintError(UsageError(
          fmt::format("tag: run id {} after the tags", TerminalText(word)),
          "give the run ids first: flashmark tag 3 4 device=ssd-a"));
    }
    auto id = ParseRunId(word);
    if (!id.ok()) return PrintError(id.error());
    ids.push_back(*id);
  }
  auto set = ParseTagOptions(tag_words);
  if (!set.ok()) return PrintError(set.error());
  if (ids.empty() || (set->empty() && options.remove_tags.empty())) {
    return PrintError(
        UsageError("tag needs run ids and KEY=VALUE tags or --remove KEY",
                   "e.g. flashmark tag 3 4 device=ssd-a --remove note"));
  }
  for (const auto& [key, value] : *set) {
    if (Status ok = CheckChangeable(key); !ok.ok())
      return PrintError(ok.error());
    if (std::find(options.remove_tags.begin(), options.remove_tags.end(),
                  key) != options.remove_tags.end()) {
      return PrintError(UsageError(
          fmt::format("tag {}: both set and removed", TerminalText(key)),
          "set it or --remove it"));
    }
  }
  for (const std::string& key : options.remove_tags) {
    if (Status ok = CheckChangeable(key); !ok.ok())
      return PrintError(ok.error());
  }
  auto store = OpenExistingStore(options.db);
  if (!store.ok()) return PrintError(store.error());
  if (Status done = store->RetagRuns(ids, *set, options.remove_tags);
      !done.ok()) {
    return PrintError(done.error());
  }
  for (const int64_t id : ids) {
    std::string change;
    for (const auto& [key, value] : *set) {
      change += fmt::format(" {}={}", key, value);
    }
    for (const std::string& key : options.remove_tags) {
      change += " -" + key;
    }
    std::cout << fmt::format("run {}:{}\n", id, TerminalText(change));
  }
  return 0;
}

}  // namespace flashmark
