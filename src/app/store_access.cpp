#include "app/store_access.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <charconv>

namespace flashmark {

void AddDatabaseOption(CLI::App* command, std::optional<std::string>& db) {
  command->add_option_function<std::string>(
      "--db", [&db](const std::string& value) { db = value; },
      "results database [$FLASHMARK_DB or ./flashmark.db]");
}

Result<RunStore> OpenExistingStore(const std::optional<std::string>& db) {
  const std::string path = db.value_or(DefaultDatabasePath());
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return UsageError(fmt::format("no database at {}", path),
                      "runs are stored by `flashmark run`; name another file "
                      "with --db or $FLASHMARK_DB");
  }
  auto store = RunStore::Open(path);
  if (!store.ok()) {
    Error error = store.error();
    error.exit_code = kUsageExit;
    return error;
  }
  return store;
}

Result<RunStore> OpenStoreToRead(const std::optional<std::string>& db) {
  auto store = RunStore::OpenForReading(db.value_or(DefaultDatabasePath()));
  if (!store.ok()) {
    Error error = store.error();
    error.exit_code = kUsageExit;
    return error;
  }
  return store;
}

Result<int64_t> ParseRunId(const std::string& text) {
  int64_t id = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, id);
  if (ec != std::errc() || ptr != end || id <= 0) {
    return UsageError(
        fmt::format("\"{}\" is not a run id", text),
        "run ids are positive numbers; `flashmark list` shows them");
  }
  return id;
}

}  // namespace flashmark
