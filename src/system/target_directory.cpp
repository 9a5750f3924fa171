#include "system/target_directory.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace flashmark {
namespace {

std::string Errno(int error_number) { return std::strerror(error_number); }

// Where descriptor `fd` leads, links resolved; `fallback` when /proc is
// not there to say.
std::string OpenedPath(int fd, const std::string& fallback) {
  char resolved[PATH_MAX];
  const std::string link = fmt::format("/proc/self/fd/{}", fd);
  const ssize_t n = readlink(link.c_str(), resolved, sizeof resolved - 1);
  if (n > 0 && resolved[0] == '/') return std::string(resolved, n);
  return realpath(fallback.c_str(), resolved) ? std::string(resolved)
                                              : fallback;
}

}  // namespace

Result<TargetDirectory> TargetDirectory::Open(const std::string& path) {
  return OpenChecked(path, true);
}

Result<TargetDirectory> TargetDirectory::OpenForReading(
    const std::string& path) {
  return OpenChecked(path, false);
}

Result<TargetDirectory> TargetDirectory::OpenChecked(const std::string& path,
                                                     bool check_system) {
  const int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    const int error_number = errno;
    std::string message =
        fmt::format("cannot open directory {}: {}", path, Errno(error_number));
    if (error_number == ENOENT || error_number == ENOTDIR) {
      return UsageError(std::move(message), "give an existing directory");
    }
    return RuntimeError(std::move(message));
  }
  TargetDirectory directory(fd, path, OpenedPath(fd, path));
  if (!check_system) return directory;
  const std::string& real = directory.real_path_;
  const std::string system = ProtectedSystemDirectory(real);
  if (!system.empty()) {
    struct stat st;
    const bool link = lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
    const std::string what = real == path ? "it is"
                             : link       ? "it is a symlink to " + real + ","
                                          : "it resolves to " + real + ",";
    return UsageError(
        fmt::format("refusing to lay out or remove files in {}: {} inside the "
                    "system directory {}",
                    path, what, system),
        "give a directory on the filesystem under test, e.g. /mnt/ssd/bench");
  }
  return directory;
}

TargetDirectory::TargetDirectory(TargetDirectory&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      real_path_(std::move(other.real_path_)) {
  other.fd_ = -1;
}

TargetDirectory& TargetDirectory::operator=(TargetDirectory&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    real_path_ = std::move(other.real_path_);
    other.fd_ = -1;
  }
  return *this;
}

TargetDirectory::~TargetDirectory() {
  if (fd_ >= 0) close(fd_);
}

std::string TargetDirectory::PathOf(const std::string& name) const {
  return path_ + "/" + name;
}

Status TargetDirectory::WriteFileAtomically(const std::string& name,
                                            std::string_view text) const {
  const auto failed = [&](int error_number) {
    return RuntimeError(
        fmt::format("cannot write {}: {}", PathOf(name), Errno(error_number)));
  };
  // A fresh name: O_EXCL never opens what is there, a link included.
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = attempt == 0 ? fmt::format("{}.tmp.{}", name, getpid())
                        : fmt::format("{}.tmp.{}.{}", name, getpid(), attempt);
    fd = openat(fd_, temp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) return failed(errno);
  }
  if (fd < 0) return failed(EEXIST);
  size_t done = 0;
  errno = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += n;
  }
  const int write_error = done == text.size() ? 0 : (errno ? errno : ENOSPC);
  const bool ok = write_error == 0 && fsync(fd) == 0;
  const int sync_error = errno;
  close(fd);
  if (!ok || renameat(fd_, temp.c_str(), fd_, name.c_str()) != 0) {
    const int error_number =
        !ok ? (write_error ? write_error : sync_error) : errno;
    unlinkat(fd_, temp.c_str(), 0);  // the file this call created
    return failed(error_number);
  }
  return OkStatus();
}

Result<std::optional<std::string>> TargetDirectory::ReadFile(
    const std::string& name) const {
  const int fd = openat(fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    if (errno == ELOOP) {
      return RuntimeError(
          fmt::format("{} is a symbolic link, not a file flashmark wrote",
                      PathOf(name)),
          "remove it; flashmark never follows links in a file set");
    }
    return RuntimeError(
        fmt::format("cannot read {}: {}", PathOf(name), Errno(errno)));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return RuntimeError(
        fmt::format("{} is not a regular file, not a file flashmark wrote",
                    PathOf(name)),
        "remove it");
  }
  std::string text;
  char buffer[65536];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, n);
  const int error_number = errno;
  close(fd);
  if (n < 0) {
    return RuntimeError(
        fmt::format("cannot read {}: {}", PathOf(name), Errno(error_number)));
  }
  return std::optional<std::string>(std::move(text));
}

std::string ProtectedSystemDirectory(const std::string& real_path) {
  // The directory itself and everything under it.
  static constexpr const char* kTrees[] = {
      "/bin",    "/boot", "/dev",  "/etc", "/lib", "/lib32",   "/lib64",
      "/libx32", "/proc", "/sbin", "/sys", "/usr", "/var/lib", "/var/log"};
  // Only the directory itself: what is below is the user's.
  static constexpr const char* kExact[] = {"/", "/var", "/home", "/root"};
  if (real_path == "/dev/shm" || real_path.rfind("/dev/shm/", 0) == 0) {
    return "";  // tmpfs for anyone's files
  }
  for (const char* tree : kTrees) {
    std::string root = tree;
    if (real_path == root || real_path.rfind(root + "/", 0) == 0) return root;
  }
  for (const char* exact : kExact) {
    if (real_path == exact) return exact;
  }
  return "";
}

}  // namespace flashmark
