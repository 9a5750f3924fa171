#include "store/sqlite.h"

#include <fmt/format.h>

namespace flashmark {

Result<Database> Database::Open(const std::string& path, bool create) {
  sqlite3* handle = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
                    SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    sqlite3_close(handle);
    return RuntimeError(
        fmt::format("cannot open database {}: {}", path, message),
        "check the path and its directory's permissions, or "
        "choose another with --db");
  }
  sqlite3_busy_timeout(handle, 30000);
  sqlite3_extended_result_codes(handle, 1);
  return Database(handle, path);
}

Result<Database> Database::OpenReadOnly(const std::string& path,
                                        bool immutable) {
  std::string name = path;
  int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
  if (immutable) {
    // A URI: "file:" and the path with the characters URIs reserve escaped.
    name = "file:";
    for (char c : path) {
      if (c == '%' || c == '?' || c == '#') {
        name += fmt::format("%{:02x}", static_cast<unsigned char>(c));
      } else {
        name += c;
      }
    }
    name += "?immutable=1";
    flags |= SQLITE_OPEN_URI;
  }
  sqlite3* handle = nullptr;
  const int rc = sqlite3_open_v2(name.c_str(), &handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    sqlite3_close(handle);
    return RuntimeError(
        fmt::format("cannot open database {}: {}", path, message),
        "check the path and its permissions");
  }
  sqlite3_busy_timeout(handle, 30000);
  sqlite3_extended_result_codes(handle, 1);
  return Database(handle, path);
}

void Database::StopWhen(const std::atomic<bool>* stop) {
  sqlite3_progress_handler(
      db_, stop ? 1000 : 0,
      [](void* flag) -> int {
        return static_cast<const std::atomic<bool>*>(flag)->load(
                   std::memory_order_relaxed)
                   ? 1
                   : 0;
      },
      const_cast<std::atomic<bool>*>(stop));
}

Database::Database(Database&& other) noexcept
    : db_(other.db_), path_(std::move(other.path_)) {
  other.db_ = nullptr;
}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close(db_);
    db_ = other.db_;
    path_ = std::move(other.path_);
    other.db_ = nullptr;
  }
  return *this;
}

Database::~Database() { sqlite3_close(db_); }

Error Database::Failure(const std::string& doing) const {
  const int code = sqlite3_errcode(db_);
  std::string hint;
  switch (code & 0xff) {
    case SQLITE_FULL:
      hint = "the disk holding the database is full";
      break;
    case SQLITE_READONLY:
      hint = "the database or its directory is read-only; use --db elsewhere";
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      hint = "another process holds the database locked; retry later";
      break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      hint =
          "the file is damaged or not a flashmark database; use another --db";
      break;
    default:
      break;
  }
  return RuntimeError(fmt::format("database {}: {} failed: {}", path_, doing,
                                  sqlite3_errmsg(db_)),
                      hint);
}

Status Database::Execute(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    sqlite3_free(message);
    return Failure("executing \"" + sql.substr(0, 40) + "\"");
  }
  return OkStatus();
}

Result<Statement> Database::Prepare(const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) !=
      SQLITE_OK) {
    return Failure("preparing \"" + sql.substr(0, 40) + "\"");
  }
  return Statement(statement, this);
}

int64_t Database::LastInsertId() const {
  return sqlite3_last_insert_rowid(db_);
}
int Database::Changes() const { return sqlite3_changes(db_); }

Statement::Statement(Statement&& other) noexcept
    : statement_(other.statement_), db_(other.db_) {
  other.statement_ = nullptr;
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement& Statement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
  return *this;
}
Statement& Statement::Bind(int index, double value) {
  sqlite3_bind_double(statement_, index, value);
  return *this;
}
Statement& Statement::Bind(int index, std::string_view text) {
  sqlite3_bind_text(statement_, index, text.data(),
                    static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::BindBlob(int index, const std::vector<uint8_t>& blob) {
  sqlite3_bind_blob(statement_, index, blob.data(),
                    static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::BindNull(int index) {
  sqlite3_bind_null(statement_, index);
  return *this;
}

Result<bool> Statement::Step() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_->Failure("a statement");
}

Status Statement::Run() {
  for (;;) {
    auto row = Step();
    if (!row.ok()) return row.error();
    if (!*row) break;
  }
  sqlite3_reset(statement_);
  return OkStatus();
}

void Statement::Reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int64_t Statement::Int(int column) const {
  return sqlite3_column_int64(statement_, column);
}
double Statement::Real(int column) const {
  return sqlite3_column_double(statement_, column);
}
std::string Statement::Text(int column) const {
  const auto* text = sqlite3_column_text(statement_, column);
  return text ? reinterpret_cast<const char*>(text) : "";
}
std::vector<uint8_t> Statement::Blob(int column) const {
  const auto* data =
      static_cast<const uint8_t*>(sqlite3_column_blob(statement_, column));
  const int size = sqlite3_column_bytes(statement_, column);
  return data ? std::vector<uint8_t>(data, data + size)
              : std::vector<uint8_t>{};
}
bool Statement::IsNull(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

Result<Transaction> Transaction::Begin(Database& db) {
  if (Status begun = db.Execute("BEGIN IMMEDIATE"); !begun.ok())
    return begun.error();
  return Transaction(&db);
}

Result<Transaction> Transaction::BeginRead(Database& db) {
  if (Status begun = db.Execute("BEGIN DEFERRED"); !begun.ok())
    return begun.error();
  return Transaction(&db);
}

Transaction::Transaction(Transaction&& other) noexcept : db_(other.db_) {
  other.db_ = nullptr;
}

Transaction::~Transaction() {
  if (db_ != nullptr) (void)db_->Execute("ROLLBACK");
}

Status Transaction::Commit() {
  Status committed = db_->Execute("COMMIT");
  if (committed.ok()) db_ = nullptr;
  return committed;
}

}  // namespace flashmark
