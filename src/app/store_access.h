// What the commands that read the store share: the --db option, opening
// an existing database (never creating one; read-only for the commands
// that only read), and parsing run ids.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "common/result.h"
#include "store/run_store.h"

namespace flashmark {

void AddDatabaseOption(CLI::App* command, std::optional<std::string>& db);

// Opens an existing database to change it (delete); a missing file is a
// usage error with a hint.
Result<RunStore> OpenExistingStore(const std::optional<std::string>& db);
// Opens an existing database for reading only (list, show, export,
// analyze, compare, report: RunStore::OpenForReading); errors are usage
// errors.
Result<RunStore> OpenStoreToRead(const std::optional<std::string>& db);

// "42" -> 42; anything else is a usage error naming the text.
Result<int64_t> ParseRunId(const std::string& text);

}  // namespace flashmark
