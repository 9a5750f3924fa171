#include "system/file_set.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "config/units.h"
#include "system/signals.h"
#include "workload/data_filler.h"

namespace flashmark {
namespace {

using nlohmann::json;

constexpr size_t kChunk = 1 << 20;

std::string FileName(int index) { return fmt::format("flashmark.{}", index); }

std::string Errno(int error_number) { return std::strerror(error_number); }

struct Manifest {
  bool present = false;
  bool complete = false;
  bool filled = false;
  uint64_t file_size = 0;
  std::string data;
  std::vector<std::string> files;
};

Manifest ReadManifest(int dir_fd) {
  Manifest manifest;
  const int fd = openat(dir_fd, kManifestName, O_RDONLY | O_NOFOLLOW);
  if (fd < 0) return manifest;
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(fd);
  const json doc = json::parse(text, nullptr, false);
  if (!doc.is_object() || doc.value("tool", "") != "flashmark") return manifest;
  manifest.present = true;
  manifest.complete = doc.value("complete", false);
  manifest.filled = doc.value("filled", false);
  manifest.file_size = doc.value("file_size", uint64_t{0});
  manifest.data = doc.value("data", "");
  for (const auto& name : doc.value("files", json::array())) {
    if (!name.is_string()) continue;
    const std::string file = name.get<std::string>();
    // Only plain names inside the directory, never paths.
    if (file.find('/') == std::string::npos && file != "." && file != "..") {
      manifest.files.push_back(file);
    }
  }
  return manifest;
}

Status WriteManifest(int dir_fd, const FileSetPlan& plan, bool complete) {
  json doc = {{"tool", "flashmark"},
              {"complete", complete},
              {"filled", plan.filled},
              {"file_size", plan.file_size},
              {"data", DataPatternText(plan.data)},
              {"files", json::array()}};
  for (int i = 0; i < plan.file_count; ++i) doc["files"].push_back(FileName(i));
  const std::string text = doc.dump(2) + "\n";
  const std::string temp = std::string(kManifestName) + ".tmp";
  const int fd = openat(dir_fd, temp.c_str(),
                        O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
  if (fd < 0 || write(fd, text.data(), text.size()) !=
                    static_cast<ssize_t>(text.size()) ||
      fsync(fd) != 0) {
    const int error_number = errno;
    if (fd >= 0) close(fd);
    return RuntimeError(fmt::format("cannot write {}/{}: {}", plan.directory,
                                    kManifestName, Errno(error_number)));
  }
  close(fd);
  if (renameat(dir_fd, temp.c_str(), dir_fd, kManifestName) != 0) {
    return RuntimeError(fmt::format("cannot write {}/{}: {}", plan.directory,
                                    kManifestName, Errno(errno)));
  }
  return OkStatus();
}

// Removes the listed names that are regular files (flashmark creates
// nothing else: a link or directory of that name is not its own), then
// the manifest. unlinkat never follows links.
void RemoveListed(int dir_fd, const std::vector<std::string>& files) {
  for (const auto& name : files) {
    struct stat st;
    if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(st.st_mode)) {
      unlinkat(dir_fd, name.c_str(), 0);
    }
  }
  unlinkat(dir_fd, kGenerationMapName, 0);
  unlinkat(dir_fd, kManifestName, 0);
}

bool Matches(int dir_fd, const Manifest& manifest, const FileSetPlan& plan) {
  if (!manifest.complete || manifest.file_size != plan.file_size ||
      static_cast<int>(manifest.files.size()) != plan.file_count ||
      manifest.data != DataPatternText(plan.data) ||
      (plan.filled && !manifest.filled)) {
    return false;
  }
  for (int i = 0; i < plan.file_count; ++i) {
    struct stat st;
    if (manifest.files[i] != FileName(i) ||
        fstatat(dir_fd, manifest.files[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) != plan.file_size) {
      return false;
    }
  }
  return true;
}

Status FillFile(int fd, const FileSetPlan& plan, DataFiller& filler,
                void* chunk, const std::string& path) {
  for (uint64_t done = 0; done < plan.file_size;) {
    if (TakePendingInterrupt() != 0) {
      // Not a failure: the caller stops as for any interruption (exit 130).
      return InterruptedError(fmt::format(
          "interrupted during layout of the file set in {} (the files laid out "
          "so far are removed)",
          plan.directory));
    }
    const size_t length = std::min<uint64_t>(kChunk, plan.file_size - done);
    filler.Fill(chunk, length);
    const ssize_t written = pwrite(fd, chunk, length, done);
    if (written != static_cast<ssize_t>(length)) {
      const int error_number = written < 0 ? errno : ENOSPC;
      return RuntimeError(fmt::format("cannot lay out {}: {} at offset {}",
                                      path, Errno(error_number), done),
                          "free some space or use a smaller --size");
    }
    done += length;
  }
  if (fdatasync(fd) != 0) {
    return RuntimeError(fmt::format("cannot sync {}: {}", path, Errno(errno)));
  }
  return OkStatus();
}

// Opens the target directory for *at() calls: refused when it resolves
// (through links anywhere in the path) into a system directory; the
// resolved path is opened with O_NOFOLLOW, so a link swapped in after the
// check is not followed either.
Result<int> OpenTargetDirectory(const std::string& directory) {
  char resolved[PATH_MAX];
  if (realpath(directory.c_str(), resolved) == nullptr) {
    return RuntimeError(fmt::format("cannot open directory {}: {}", directory,
                                    Errno(errno)));
  }
  const std::string real = resolved;
  const std::string system = ProtectedSystemDirectory(real);
  if (!system.empty()) {
    struct stat st;
    const bool link = lstat(directory.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
    const std::string what =
        real == directory ? "it is"
        : link            ? "it is a symlink to " + real + ","
                          : "it resolves to " + real + ",";
    return UsageError(
        fmt::format("refusing to lay out or remove files in {}: {} inside the "
                    "system directory {}",
                    directory, what, system),
        "give a directory on the filesystem under test, e.g. /mnt/ssd/bench");
  }
  const int fd =
      open(real.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    return RuntimeError(fmt::format("cannot open directory {}: {}", directory,
                                    Errno(errno)));
  }
  return fd;
}

}  // namespace

std::string ProtectedSystemDirectory(const std::string& real_path) {
  // The directory itself and everything under it.
  static constexpr const char* kTrees[] = {
      "/bin", "/boot", "/dev", "/etc",  "/lib", "/lib32",   "/lib64",
      "/libx32", "/proc", "/sbin", "/sys", "/usr", "/var/lib", "/var/log"};
  // Only the directory itself: what is below is the user's.
  static constexpr const char* kExact[] = {"/", "/var", "/home", "/root"};
  if (real_path == "/dev/shm" || real_path.rfind("/dev/shm/", 0) == 0) {
    return "";  // tmpfs for anyone's files
  }
  for (const char* tree : kTrees) {
    const std::string root = tree;
    if (real_path == root || real_path.rfind(root + "/", 0) == 0) return root;
  }
  for (const char* exact : kExact) {
    if (real_path == exact) return exact;
  }
  return "";
}

Result<FileSetState> LayOutFileSet(const FileSetPlan& plan, std::ostream& log) {
  auto opened = OpenTargetDirectory(plan.directory);
  if (!opened.ok()) return opened.error();
  const int dir_fd = *opened;
  std::unique_ptr<int, void (*)(int*)> dir_guard(new int(dir_fd), [](int* fd) {
    close(*fd);
    delete fd;
  });

  FileSetState state;
  for (int i = 0; i < plan.file_count; ++i) {
    state.paths.push_back(plan.directory + "/" + FileName(i));
  }
  const Manifest manifest = ReadManifest(dir_fd);
  if (manifest.present && Matches(dir_fd, manifest, plan)) {
    state.reused = true;
    log << fmt::format("reusing file set in {}: {} files x {}\n",
                       plan.directory, plan.file_count,
                       FormatBytes(plan.file_size));
    return state;
  }
  uint64_t reclaimable = 0;
  if (manifest.present) {
    for (const auto& name : manifest.files) {
      struct stat st;
      if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        reclaimable += st.st_blocks * 512ull;
      }
    }
  }
  // Refuse to overwrite files flashmark did not create.
  for (int i = 0; i < plan.file_count; ++i) {
    struct stat st;
    const std::string name = FileName(i);
    const bool listed = manifest.present &&
                        std::find(manifest.files.begin(), manifest.files.end(),
                                  name) != manifest.files.end();
    if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!listed || !S_ISREG(st.st_mode)) {
      return RuntimeError(
          fmt::format("refusing to overwrite {}/{}: flashmark did not create "
                      "it ({})",
                      plan.directory, name,
                      listed ? "it is not a regular file"
                             : "it is in no flashmark manifest"),
          "remove it yourself or choose another directory");
    }
  }
  const uint64_t total = plan.file_size * plan.file_count;
  struct statvfs fs;
  if (plan.filled && fstatvfs(dir_fd, &fs) == 0) {
    const uint64_t available = fs.f_bavail * fs.f_frsize + reclaimable;
    if (available < total) {
      return RuntimeError(
          fmt::format("{} has {} free, the file set needs {}", plan.directory,
                      FormatBytes(available), FormatBytes(total)),
          "use a smaller --size or another directory");
    }
  }
  if (manifest.present) RemoveListed(dir_fd, manifest.files);
  unlinkat(dir_fd, kGenerationMapName, 0);  // it described the old contents

  if (Status written = WriteManifest(dir_fd, plan, false); !written.ok()) {
    return written.error();
  }
  const auto started = std::chrono::steady_clock::now();
  log << fmt::format("laying out {} files x {} ({}) in {}{}", plan.file_count,
                     FormatBytes(plan.file_size), FormatBytes(total),
                     plan.directory, plan.filled ? " ..." : " (sparse) ...")
      << std::flush;
  std::vector<std::string> created;
  DataFiller filler(plan.data, 0x5eed);
  void* chunk = std::aligned_alloc(4096, kChunk);
  std::unique_ptr<void, void (*)(void*)> chunk_guard(chunk, std::free);
  for (int i = 0; i < plan.file_count; ++i) {
    const std::string name = FileName(i);
    const int fd = openat(dir_fd, name.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0) {
      const int error_number = errno;
      RemoveListed(dir_fd, created);
      log << "\n";
      return RuntimeError(fmt::format("cannot create {}: {}", state.paths[i],
                                      Errno(error_number)));
    }
    created.push_back(name);
    Status status = OkStatus();
    if (plan.filled) {
      status = FillFile(fd, plan, filler, chunk, state.paths[i]);
    } else if (ftruncate(fd, plan.file_size) != 0) {
      status = RuntimeError(fmt::format("cannot size {}: {}", state.paths[i],
                                        Errno(errno)));
    }
    close(fd);
    if (!status.ok()) {
      RemoveListed(dir_fd, created);
      log << "\n";
      return status.error();
    }
  }
  if (Status written = WriteManifest(dir_fd, plan, true); !written.ok()) {
    RemoveListed(dir_fd, created);
    return written.error();
  }
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - started)
                             .count();
  log << fmt::format(" {:.1f} s", seconds);
  if (plan.filled && seconds > 0) {
    log << fmt::format(" ({:.0f} MiB/s)", total / 1048576.0 / seconds);
  }
  log << "\n";
  return state;
}

Status RemoveFileSet(const std::string& directory) {
  auto opened = OpenTargetDirectory(directory);
  if (!opened.ok()) return opened.error();
  const int dir_fd = *opened;
  const Manifest manifest = ReadManifest(dir_fd);
  if (manifest.present) RemoveListed(dir_fd, manifest.files);
  close(dir_fd);
  return OkStatus();
}

}  // namespace flashmark
