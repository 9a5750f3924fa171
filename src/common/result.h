// Errors as values. Core code returns Result<T> (a value or an Error) and
// never prints or exits; the application prints an Error once, at the top,
// as "error: <message>" followed by its hint, and exits with exit_code.
// Usage errors (bad option values, bad input files) use kUsageExit. An
// interruption (SIGINT/SIGTERM) noticed outside a run's measuring loop
// (while a file set is laid out, during a reset step) is not a failure:
// InterruptedError, exit 130, and the caller treats it as an interrupted
// run (a sweep leaves the cell to rerun on --resume).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace flashmark {

inline constexpr int kUsageExit = 2;
inline constexpr int kRuntimeExit = 1;
// 128 + SIGINT, as a shell shows it.
inline constexpr int kInterruptedExit = 130;

struct Error {
  std::string message;  // what was wrong, naming the value
  std::string hint;     // what to try instead; may be empty
  int exit_code = kRuntimeExit;
};

inline Error UsageError(std::string message, std::string hint = {}) {
  return Error{std::move(message), std::move(hint), kUsageExit};
}

inline Error RuntimeError(std::string message, std::string hint = {}) {
  return Error{std::move(message), std::move(hint), kRuntimeExit};
}

// What a command stopped by SIGINT/SIGTERM ends with (the one definition:
// analyses cancelled through analysis/cancel.h return it too).
inline Error InterruptedError(
    std::string message = "interrupted (SIGINT or SIGTERM)",
    std::string hint = {}) {
  return Error{std::move(message), std::move(hint), kInterruptedExit};
}

inline bool IsInterruption(const Error& error) {
  return error.exit_code == kInterruptedExit;
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : value_(std::move(error)) {}  // NOLINT

  bool ok() const { return value_.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<0>(value_); }
  T& value() & { return std::get<0>(value_); }
  T&& value() && { return std::get<0>(std::move(value_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const Error& error() const { return std::get<1>(value_); }

 private:
  std::variant<T, Error> value_;
};

using Status = Result<std::monostate>;
inline Status OkStatus() { return std::monostate{}; }

}  // namespace flashmark
