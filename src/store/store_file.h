// The file a results database lives in, judged before SQLite opens it, so
// that a wrong --db (a device, a fifo, another program's database, a JSON
// report, a damaged file) is refused with exit status 2 before anything is
// written, created or laid out.
//
// A flashmark database is a regular file that is empty (a new database) or
// a SQLite file whose schema version (PRAGMA user_version) is at most
// kSchemaVersion and, from v1 on, holds the `runs` table; at v0 it holds
// no table at all. Everything here reads only: checks open the file with
// SQLITE_OPEN_READONLY. Errors name the file and say what was found.
// Thread-safe (each call has its own connection).
#pragma once

#include <string>

#include "common/result.h"
#include "store/sqlite.h"

namespace flashmark {

// Whether an existing file may be opened as a flashmark database (see
// above): its kind by stat(2), its header and schema on a read-only SQLite
// connection of its own, so it is safe in a process that has the database
// open already (it never opens and closes the file itself, which would
// drop the POSIX locks of the process's connections). `deep` also runs PRAGMA
// quick_check, which reads every page (about 0.3 s per 100 MiB here, when
// cached); otherwise only the header and the schema are read. OK for a
// file that does not exist.
Status CheckStoreFile(const std::string& path, bool deep);

// The checks of CheckStoreFile(path, false) split in two, for a writer that
// opens the file itself (RunStore::Open), safe in a process that has the
// database open already: before SQLite opens it, the file's kind, by
// stat(2) only (`empty` is set for a new or empty file); then, on the
// writer's own connection, the schema (SQLite itself refuses a non-empty
// regular file without its header, and writes nothing to it). Opening and
// closing the file here would drop the POSIX locks of the process's other
// SQLite connections to it.
Status CheckStoreHeader(const std::string& path, bool* empty);
Status CheckStoreSchema(Database& db, const std::string& path);

// Before a run: the database path is judged as an output
// (system/output_path.h; a new name needs a writable directory) and an
// existing file with CheckStoreFile(path, deep = true). Creates nothing.
Status CheckStoreBeforeWriting(const std::string& path);

// An existing flashmark database opened for reading only (list, show,
// export, analyze, compare, report). Never creates the file; a missing,
// empty or foreign file is a usage error. When the file's directory cannot
// be written (a read-only mount) and the -wal and -shm files are not both
// there, it is opened immutable (no locks, no -wal or -shm created). An
// older schema is migrated first, which needs a writable file.
Result<Database> OpenStoreForReading(const std::string& path);

}  // namespace flashmark
