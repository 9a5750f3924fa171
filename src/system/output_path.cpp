#include "system/output_path.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace flashmark {
namespace {

constexpr const char* kFileHint =
    "name a new or an existing regular file in a writable directory";

std::string Resolved(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : "";
}

// "dir/name" -> {"dir", "name"}; "name" -> {".", "name"}; "/name" -> {"/",
// "name"}.
std::pair<std::string, std::string> SplitName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

Error Refusal(const std::string& option, const std::string& path,
              const std::string& why, const std::string& hint = kFileHint) {
  return UsageError(fmt::format("{} {}: {}", option, path, why), hint);
}

// The directory `real_directory` must let flashmark create files.
Status CheckWritableDirectory(const std::string& option,
                              const std::string& path,
                              const std::string& real_directory) {
  if (access(real_directory.c_str(), W_OK | X_OK) == 0) return OkStatus();
  const int error_number = errno;
  if (error_number == EROFS) {
    return Refusal(
        option, path,
        fmt::format("{} is on a read-only filesystem", real_directory),
        "choose a path on a writable filesystem");
  }
  return Refusal(option, path,
                 fmt::format("cannot create files in {}: {}", real_directory,
                             std::strerror(error_number)),
                 "choose a directory you can write");
}

// Resolves `path` (an existing name or a new one in an existing directory):
// fills real, exists, device and inode.
Result<OutputPath> Resolve(const std::string& option, const std::string& path) {
  OutputPath output{option, path, "", false, 0, 0};
  if (path.empty()) return Refusal(option, "\"\"", "an empty name");
  struct stat st;
  if (lstat(path.c_str(), &st) == 0) {
    output.real = Resolved(path);
    if (output.real.empty()) {
      return Refusal(option, path,
                     S_ISLNK(st.st_mode) ? "it is a symlink to a missing file"
                                         : fmt::format("cannot resolve it: {}",
                                                       std::strerror(errno)));
    }
    if (stat(output.real.c_str(), &st) != 0) {
      return Refusal(option, path, std::strerror(errno));
    }
    output.exists = true;
    output.device = st.st_dev;
    output.inode = st.st_ino;
    return output;
  }
  if (errno != ENOENT) return Refusal(option, path, std::strerror(errno));
  const auto [directory, name] = SplitName(path);
  if (name.empty() || name == "." || name == "..") {
    return Refusal(option, path, "it names a directory, not a file");
  }
  const std::string real_directory = Resolved(directory);
  if (real_directory.empty() || stat(real_directory.c_str(), &st) != 0 ||
      !S_ISDIR(st.st_mode)) {
    return Refusal(option, path,
                   fmt::format("its directory {} does not exist", directory),
                   "create the directory first, or choose another path");
  }
  output.real =
      real_directory == "/" ? "/" + name : real_directory + "/" + name;
  return output;
}

Status CheckPlace(const OutputPath& output) {
  const std::string tree = KernelFilesystemTree(output.real);
  if (tree.empty()) return OkStatus();
  const std::string where = output.real == output.path
                                ? "it is"
                                : "it resolves to " + output.real + ",";
  return Refusal(
      output.option, output.path,
      fmt::format("{} under {}, where the kernel's devices and files "
                  "live; flashmark writes results to regular files only",
                  where, tree));
}

}  // namespace

bool OutputPath::SameFile(const OutputPath& other) const {
  if (exists && other.exists)
    return device == other.device && inode == other.inode;
  return real == other.real;
}

std::string FileTypeName(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a fifo";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symlink";
  return "not a regular file";
}

std::string KernelFilesystemTree(const std::string& real_path) {
  if (real_path == "/dev/shm" || real_path.rfind("/dev/shm/", 0) == 0)
    return "";
  for (const char* tree : {"/dev", "/proc", "/sys"}) {
    std::string root = tree;
    if (real_path == root || real_path.rfind(root + "/", 0) == 0) return root;
  }
  return "";
}

bool HasSqliteHeader(const std::string& path) {
  const int fd =
      open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  char header[16] = {};
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const bool read_all =
      regular && read(fd, header, sizeof header) == sizeof header;
  close(fd);
  return read_all && std::memcmp(header, "SQLite format 3", 16) == 0;
}

Result<OutputPath> CheckOutputPath(const std::string& option,
                                   const std::string& path, OutputKind kind) {
  auto output = Resolve(option, path);
  if (!output.ok()) return output.error();
  if (Status place = CheckPlace(*output); !place.ok()) return place.error();
  if (output->exists) {
    struct stat st;
    if (stat(output->real.c_str(), &st) != 0) {
      return Refusal(option, path, std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) {
      const std::string what = output->real == path
                                   ? "it is"
                                   : "it resolves to " + output->real + ",";
      return Refusal(
          option, path,
          fmt::format("{} {}; flashmark writes {} to regular files only", what,
                      FileTypeName(st.st_mode),
                      kind == OutputKind::kDatabase ? "databases" : "outputs"));
    }
    if (kind == OutputKind::kDocument && HasSqliteHeader(output->real)) {
      return Refusal(
          option, path,
          "it is a SQLite database (a results store?), which this output "
          "would replace",
          "choose another file name");
    }
    if (kind == OutputKind::kDatabase &&
        access(output->real.c_str(), W_OK) != 0 && errno == EROFS) {
      return Refusal(option, path, "it is on a read-only filesystem",
                     "choose a path on a writable filesystem");
    }
  }
  if (Status writable =
          CheckWritableDirectory(option, path, SplitName(output->real).first);
      !writable.ok()) {
    return writable.error();
  }
  return output;
}

Result<OutputPath> CheckOutputDirectory(const std::string& option,
                                        const std::string& path) {
  auto output = Resolve(option, path);
  if (!output.ok()) return output.error();
  if (Status place = CheckPlace(*output); !place.ok()) return place.error();
  std::string directory = SplitName(output->real).first;
  if (output->exists) {
    struct stat st;
    if (stat(output->real.c_str(), &st) != 0) {
      return Refusal(option, path, std::strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
      return Refusal(
          option, path,
          fmt::format("it is {}, not a directory", FileTypeName(st.st_mode)),
          "name a directory (it is created when missing)");
    }
    directory = output->real;
  }
  if (Status writable = CheckWritableDirectory(option, path, directory);
      !writable.ok()) {
    return writable.error();
  }
  return output;
}

Status CheckDistinctOutputs(std::span<const OutputPath> outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (size_t j = i + 1; j < outputs.size(); ++j) {
      if (!outputs[i].SameFile(outputs[j])) continue;
      return UsageError(
          fmt::format("{} {} and {} {} are the same file", outputs[i].option,
                      outputs[i].path, outputs[j].option, outputs[j].path),
          "give each output its own file");
    }
  }
  return OkStatus();
}

}  // namespace flashmark
