// A small RAII layer over the SQLite C API: a connection, prepared
// statements with typed binding and reading, and transactions. Errors are
// values carrying SQLite's message. Threading: one Database per thread
// (SQLite's multi-thread mode); not shared.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace flashmark {

class Statement;

class Database {
 public:
  // Opens (creating when `create`) the database file.
  static Result<Database> Open(const std::string& path, bool create);
  // Opens an existing file for reading only (SQLITE_OPEN_READONLY: no
  // statement can change it). `immutable`: also without locks and without
  // the -wal and -shm files (SQLite's immutable=1), for a file nothing can
  // change, e.g. on a read-only mount.
  static Result<Database> OpenReadOnly(const std::string& path, bool immutable);
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  ~Database();

  Status Execute(const std::string& sql);
  Result<Statement> Prepare(const std::string& sql);
  int64_t LastInsertId() const;
  int Changes() const;
  // Once `stop` is set (by any thread), the statement running and every
  // later one fail with SQLite's "interrupted" (checked every 1000 virtual
  // machine steps); nullptr removes the check. `stop` must outlive it.
  void StopWhen(const std::atomic<bool>* stop);
  const std::string& path() const { return path_; }
  // An Error whose message names the database file and SQLite's message.
  Error Failure(const std::string& doing) const;

 private:
  Database(sqlite3* handle, std::string path)
      : db_(handle), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  ~Statement();

  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, double value);
  Statement& Bind(int index, std::string_view text);
  Statement& BindBlob(int index, const std::vector<uint8_t>& blob);
  Statement& BindNull(int index);

  // true: a row is available; false: done. Errors come back as Error.
  Result<bool> Step();
  Status Run();  // steps to completion
  void Reset();

  int64_t Int(int column) const;
  double Real(int column) const;
  std::string Text(int column) const;
  std::vector<uint8_t> Blob(int column) const;
  bool IsNull(int column) const;

 private:
  friend class Database;
  Statement(sqlite3_stmt* statement, const Database* db)
      : statement_(statement), db_(db) {}
  sqlite3_stmt* statement_ = nullptr;
  const Database* db_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolls back when destroyed uncommitted.
// BeginRead is a deferred BEGIN: the statements in it read one snapshot of
// the file (what another connection commits meanwhile is not seen).
class Transaction {
 public:
  static Result<Transaction> Begin(Database& db);
  static Result<Transaction> BeginRead(Database& db);
  Transaction(Transaction&& other) noexcept;
  ~Transaction();
  Status Commit();

 private:
  explicit Transaction(Database* db) : db_(db) {}
  Database* db_ = nullptr;
};

}  // namespace flashmark
