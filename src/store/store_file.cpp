#include "store/store_file.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "store/schema.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

constexpr const char* kOtherDbHint =
    "name a flashmark database with --db, or a new file";

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// Names of the tables in the schema, or an error (not a database, damaged).
Result<std::vector<std::string>> TableNames(Database& db) {
  auto statement = db.Prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  if (!statement.ok()) return statement.error();
  std::vector<std::string> names;
  for (;;) {
    auto row = statement->Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
    names.push_back(statement->Text(0));
  }
  return names;
}

// A usage error for a database SQLite could not read.
Error Unreadable(const std::string& path, const Error& error) {
  return UsageError(
      fmt::format("{} is not a readable flashmark database: {}", path,
                  error.message),
      "the file is damaged or not a database; " + std::string(kOtherDbHint));
}

// Header, schema version and tables of an open database, read as one
// snapshot: another process may be creating the schema meanwhile, and a
// version read before its commit with tables read after it would make a
// new flashmark database look like somebody else's.
Status CheckSchema(Database& db, const std::string& path, int* version_out) {
  auto snapshot = Transaction::BeginRead(db);
  if (!snapshot.ok()) return Unreadable(path, snapshot.error());
  auto version = SchemaVersion(db);
  if (!version.ok()) return Unreadable(path, version.error());
  auto tables = TableNames(db);
  if (!tables.ok()) return Unreadable(path, tables.error());
  if (*version > kSchemaVersion) {
    return UsageError(fmt::format("database {} has schema v{}, newer than this "
                                  "flashmark reads (up to v{})",
                                  path, *version, kSchemaVersion),
                      "use a newer flashmark, or another --db");
  }
  bool has_runs = false;
  for (const auto& name : *tables) has_runs |= name == "runs";
  if ((*version == 0 && !tables->empty()) || (*version > 0 && !has_runs)) {
    return UsageError(
        fmt::format("{} is a SQLite database, but not flashmark's (schema v{}, "
                    "tables: {})",
                    path, *version,
                    tables->empty()
                        ? "none"
                        : fmt::format("{}", fmt::join(*tables, ", "))),
        kOtherDbHint);
  }
  *version_out = *version;
  return OkStatus();
}

// A regular file (`empty` is set when it has no bytes yet). Only stat(2):
// opening and closing the file would drop the POSIX locks that this
// process's SQLite connections to it hold.
Status CheckFileKind(const std::string& path, bool* empty) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return UsageError(
        fmt::format("database {}: {}", path, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return UsageError(fmt::format("database {}: it is {}; flashmark keeps "
                                  "databases in regular files only",
                                  path, FileTypeName(st.st_mode)),
                      kOtherDbHint);
  }
  *empty = st.st_size == 0;
  return OkStatus();
}

}  // namespace

Status CheckStoreHeader(const std::string& path, bool* empty) {
  *empty = true;
  if (!Exists(path)) return OkStatus();
  return CheckFileKind(path, empty);
}

Status CheckStoreSchema(Database& db, const std::string& path) {
  int version = 0;
  return CheckSchema(db, path, &version);
}

Status CheckStoreFile(const std::string& path, bool deep) {
  bool empty = true;
  if (Status kind = CheckStoreHeader(path, &empty); !kind.ok()) return kind;
  if (empty) return OkStatus();
  // The header is read by SQLite on a connection of its own, never with
  // open(2) here: closing that file would drop the POSIX locks of this
  // process's other connections to it.
  auto db = Database::OpenReadOnly(path, false);
  if (!db.ok()) return Unreadable(path, db.error());
  int version = 0;
  if (Status schema = CheckSchema(*db, path, &version); !schema.ok()) {
    if (schema.error().message.find("file is not a database") !=
        std::string::npos) {
      return UsageError(
          fmt::format("{} is not a database: it has no SQLite header", path),
          kOtherDbHint);
    }
    return schema;
  }
  if (!deep) return OkStatus();
  auto check = db->Prepare("PRAGMA quick_check(1)");
  if (!check.ok()) return Unreadable(path, check.error());
  auto row = check->Step();
  if (!row.ok()) return Unreadable(path, row.error());
  if (!*row || check->Text(0) != "ok") {
    return UsageError(
        fmt::format("database {} is damaged: {}", path,
                    *row ? check->Text(0) : "quick_check gave no answer"),
        "restore it from a copy, or choose another --db");
  }
  return OkStatus();
}

Status CheckStoreBeforeWriting(const std::string& path) {
  auto judged = CheckOutputPath("--db", path, OutputKind::kDatabase);
  if (!judged.ok()) return judged.error();
  return CheckStoreFile(path, true);
}

Result<Database> OpenStoreForReading(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return UsageError(fmt::format("no database at {}", path),
                      "runs are stored by `flashmark run`; name another file "
                      "with --db or $FLASHMARK_DB");
  }
  char resolved[PATH_MAX];
  const std::string real = realpath(path.c_str(), resolved) ? resolved : path;
  if (const std::string tree = KernelFilesystemTree(real); !tree.empty()) {
    return UsageError(
        fmt::format("database {}: it is under {}, where the kernel's "
                    "devices and files live, not a database file",
                    path, tree),
        kOtherDbHint);
  }
  bool empty = false;
  if (Status kind = CheckFileKind(path, &empty); !kind.ok())
    return kind.error();
  if (empty) {
    return UsageError(
        fmt::format("{} is empty: no runs are stored there", path),
        "runs are stored by `flashmark run`");
  }
  const std::string directory =
      real.substr(0, std::max<size_t>(real.rfind('/'), 1));
  const bool immutable = access(directory.c_str(), W_OK) != 0 &&
                         !(Exists(real + "-wal") && Exists(real + "-shm"));
  auto db = Database::OpenReadOnly(real, immutable);
  if (!db.ok()) return Unreadable(path, db.error());
  int version = 0;
  if (Status schema = CheckSchema(*db, path, &version); !schema.ok()) {
    return schema.error();
  }
  if (version == 0) {
    return UsageError(
        fmt::format("{} holds no flashmark runs yet (an empty database)", path),
        "runs are stored by `flashmark run`");
  }
  if (version < kSchemaVersion) {
    // Written by an older flashmark: bring it up to date once (a writer).
    auto writable = Database::Open(real, false);
    if (!writable.ok()) return writable.error();
    if (Status migrated = Migrate(*writable); !migrated.ok()) {
      Error error = migrated.error();
      error.message = fmt::format(
          "database {} has the older schema v{} and could "
          "not be updated: {}",
          path, version, error.message);
      return error;
    }
    db = Database::OpenReadOnly(real, false);
    if (!db.ok()) return db.error();
  }
  if (Status fk = db->Execute("PRAGMA foreign_keys=ON"); !fk.ok())
    return fk.error();
  return db;
}

}  // namespace flashmark
