#include "system/target_set.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "common/units.h"
#include "engine/engine_registry.h"
#include "engine/nvme_generic.h"
#include "system/block_device_info.h"
#include "system/device_health.h"
#include "system/environment_capture.h"
#include "system/file_set.h"

namespace flashmark {
namespace {

std::string RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

// Direct-IO alignment of a regular file: the smallest of 512 and 4096 that
// an aligned read at offset 0 accepts; 0 when neither works.
uint32_t ProbeDirectAlignment(int fd) {
  void* buffer = std::aligned_alloc(4096, 4096);
  std::unique_ptr<void, void (*)(void*)> guard(buffer, std::free);
  for (uint32_t size : {512u, 4096u}) {
    if (pread(fd, buffer, size, 0) >= 0 || errno != EINVAL) return size;
  }
  return 0;
}

Error OpenError(const std::string& path, int flags, int error_number) {
  if (error_number == EINVAL && (flags & O_DIRECT)) {
    return UsageError(
        fmt::format("{}: the filesystem does not support O_DIRECT", path),
        "drop --direct");
  }
  if (error_number == EBUSY) {
    return UsageError(
        fmt::format("refusing to write {}: the kernel reports it busy "
                    "(mounted or in use)",
                    path));
  }
  return RuntimeError(
      fmt::format("cannot open {}: {}", path, std::strerror(error_number)));
}

// The path the kernel gives for an opened file (links resolved); `path`
// resolved when there is no descriptor or the kernel cannot say.
std::string DescriptorPath(int fd, const std::string& path) {
  if (fd < 0) return RealPath(path);
  char resolved[PATH_MAX];
  const std::string link = fmt::format("/proc/self/fd/{}", fd);
  const ssize_t n = readlink(link.c_str(), resolved, sizeof resolved - 1);
  if (n <= 0) return RealPath(path);
  return std::string(resolved, static_cast<size_t>(n));
}

// A regular file written as a target: never inside a system directory
// (directly or through a symlink), never one of the protected files (the
// database, the --json output, the program).
Status CheckFileTargetWritable(const std::string& path, int fd,
                               const struct stat& st,
                               const SafetyContext& safety) {
  const std::string real = DescriptorPath(fd, path);
  if (const std::string system = ProtectedSystemDirectory(real);
      !system.empty()) {
    return UsageError(
        fmt::format(
            "refusing to write {}: {} inside the system directory {}", path,
            real == path ? "it is" : "it resolves to " + real + ",", system),
        "give a file or directory on the filesystem under test");
  }
  for (const ProtectedFile& file : safety.protected_files) {
    if (file.device == st.st_dev && file.inode == st.st_ino) {
      return UsageError(
          fmt::format("refusing to write {}: it is {}", path, file.what),
          "flashmark never writes its own program or results; "
          "choose another file");
    }
  }
  return OkStatus();
}

}  // namespace

TargetSet::TargetSet(TargetSet&& other) noexcept
    : files_(std::move(other.files_)),
      info_(std::move(other.info_)),
      file_sets_(std::move(other.file_sets_)),
      held_(std::move(other.held_)),
      resolved_size_(other.resolved_size_),
      keep_files_(other.keep_files_),
      writes_(other.writes_),
      data_(other.data_) {
  other.files_.clear();
  other.file_sets_.clear();
  other.held_.clear();
}

TargetSet::~TargetSet() {
  ReleaseFileSets();
  for (const IoFile& file : files_) {
    if (file.fd >= 0) close(file.fd);
  }
  for (int fd : held_) close(fd);
}

// Through the descriptor each set was opened with, whatever its path
// leads to now.
void TargetSet::ReleaseFileSets() {
  for (const FileSetTarget& set : file_sets_) {
    if (!keep_files_ && (writes_ || set.laid_out)) {
      (void)RemoveFileSet(set.directory);
    } else if (keep_files_ && writes_ && !set.complete) {
      std::vector<int> fds;
      for (size_t i = 0; i < set.file_count; ++i) {
        fds.push_back(files_[set.first_file + i].fd);
      }
      (void)RecordWrittenContents(set.directory, fds, data_);
    }
  }
}

std::vector<const TargetDirectory*> TargetSet::file_set_directories() const {
  std::vector<const TargetDirectory*> directories;
  for (const FileSetTarget& set : file_sets_) {
    directories.push_back(&set.directory);
  }
  return directories;
}

Result<TargetSet> TargetSet::Open(const JobSpec& spec, std::ostream& log) {
  return Open(spec, CaptureSafetyContext(""), log);
}

Result<TargetSet> TargetSet::Open(const JobSpec& spec,
                                  const SafetyContext& safety,
                                  std::ostream& log) {
  return Build(spec, safety, log, false);
}

Status TargetSet::Judge(const JobSpec& spec, const SafetyContext& safety) {
  std::ostream quiet(nullptr);
  auto judged = Build(spec, safety, quiet, true);
  if (!judged.ok()) return judged.error();
  return OkStatus();
}

Result<TargetSet> TargetSet::Build(const JobSpec& spec,
                                   const SafetyContext& safety,
                                   std::ostream& log, bool judge_only) {
  TargetSet set;
  set.judge_only_ = judge_only;
  set.keep_files_ = spec.keep_files;
  set.writes_ = Writes(spec.mode);
  set.data_ = spec.data;
  const EngineInfo* engine = FindEngine(spec.engine);
  if (engine != nullptr && (engine->capabilities & kCapDiskless)) {
    if (!spec.targets.empty()) {
      return UsageError(
          fmt::format("the {} engine touches no target, but {} was given",
                      spec.engine, spec.targets.front()),
          "drop the TARGET; --size sets the offset range");
    }
    if (spec.size.share > 0) {
      return UsageError("--size as a share needs a target",
                        "give the offset range in bytes, e.g. --size 1G");
    }
    set.resolved_size_ = spec.size.bytes;
    set.files_.push_back(IoFile{-1, spec.size.bytes, ""});
    // Only the kind and span are known; every other field keeps its default.
    TargetInfo none;
    none.kind = "none";
    none.bytes = spec.size.bytes;
    set.info_.push_back(std::move(none));
    return set;
  }
  if (spec.targets.empty()) {
    return UsageError("no TARGET given",
                      "name a directory, a file or a block device, e.g. "
                      "`flashmark run /mnt/ssd`; or use --engine null");
  }
  SafetyContext context = safety;
  if (!spec.json_path.empty() && spec.json_path != "-") {
    AddProtectedPath(context, "the --json output " + spec.json_path,
                     spec.json_path);
  }
  for (const auto& path : spec.targets) {
    if (Status added = set.AddTarget(spec, path, context, log); !added.ok()) {
      return added.error();
    }
  }
  return set;
}

Status TargetSet::AddTarget(const JobSpec& spec, const std::string& path,
                            const SafetyContext& safety, std::ostream& log) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return UsageError(fmt::format("TARGET {}: {}", path, std::strerror(errno)),
                      "give an existing directory, file or block device");
  }
  const EngineInfo* engine = FindEngine(spec.engine);
  const bool nvme_commands =
      engine != nullptr && (engine->capabilities & kCapNvmeCommands) != 0;
  if (nvme_commands != S_ISCHR(st.st_mode)) {
    if (nvme_commands) {
      return UsageError(
          fmt::format("TARGET {}: --engine {} needs an NVMe generic "
                      "character device, not a {}",
                      path, spec.engine,
                      S_ISDIR(st.st_mode)   ? "directory"
                      : S_ISBLK(st.st_mode) ? "block device"
                                            : "file"),
          std::string(kNvmeGenericHint));
    }
    return UsageError(
        fmt::format("TARGET {} is a character device", path),
        "an NVMe generic device (/dev/ngXnY) takes --engine io_uring_cmd; "
        "other engines take its block device /dev/nvmeXnY");
  }
  if (nvme_commands) return AddNvmeGeneric(spec, path, safety);
  if (S_ISDIR(st.st_mode)) return AddDirectory(spec, path, log);
  if (S_ISREG(st.st_mode)) return AddRegularFile(spec, path, safety);
  if (S_ISBLK(st.st_mode)) return AddBlockDevice(spec, path, safety);
  return UsageError(
      fmt::format("TARGET {} is neither a directory, a regular file nor a "
                  "block device",
                  path));
}

Status TargetSet::AddDirectory(const JobSpec& spec, const std::string& path,
                               std::ostream& log) {
  auto opened = TargetDirectory::Open(path);
  if (!opened.ok()) return opened.error();
  TargetDirectory directory = std::move(*opened);
  uint64_t total = spec.size.bytes;
  if (spec.size.share > 0) {
    struct statvfs fs;
    if (fstatvfs(directory.fd(), &fs) != 0) {
      return RuntimeError(fmt::format("cannot read the capacity of {}: {}",
                                      path, std::strerror(errno)));
    }
    total = static_cast<uint64_t>(spec.size.share * fs.f_blocks * fs.f_frsize);
  }
  const uint32_t max_bs = MaxBlockSize(spec.block_sizes);
  const uint64_t file_size = total / spec.file_num / max_bs * max_bs;
  if (file_size == 0) {
    return UsageError(
        fmt::format("--size {} over --file-num {} leaves less than one "
                    "{}-byte block per file",
                    FormatBytes(total), spec.file_num, max_bs),
        "use a larger --size or fewer --file-num");
  }
  resolved_size_ = file_size * spec.file_num;
  if (judge_only_) return OkStatus();
  FileSetPlan plan{spec.file_num, file_size, spec.data,
                   spec.mode != IoMode::kSeqWr, Writes(spec.mode)};
  auto state = LayOutFileSet(directory, plan, log);
  if (!state.ok()) return state.error();
  file_sets_.push_back(FileSetTarget{std::move(directory), files_.size(), 0,
                                     !state->reused, state->complete});
  FileSetTarget& set = file_sets_.back();

  TargetInfo info;
  info.path = path;
  info.kind = "file set";
  info.bytes = resolved_size_;
  info.file_count = spec.file_num;
  if (const auto disk = DescribeMount(info)) {
    info.health = ReadDeviceHealth(*disk, FindHealthTools());
  }
  info_.push_back(info);
  // Each file is opened relative to the directory, never through a link,
  // and must be the very file the set lists.
  const int flags = (Writes(spec.mode) ? O_RDWR : O_RDONLY) |
                    (spec.direct ? O_DIRECT : 0) | O_NOFOLLOW | O_CLOEXEC;
  for (const FileSetFile& file : state->files) {
    const std::string file_path = set.directory.PathOf(file.name);
    const int fd = openat(set.directory.fd(), file.name.c_str(), flags);
    if (fd < 0) {
      if (errno == EINVAL && spec.direct) {
        return UsageError(
            fmt::format("{}: the filesystem does not support O_DIRECT",
                        file_path),
            "drop --direct");
      }
      return RuntimeError(
          fmt::format("cannot open {}: {}", file_path, std::strerror(errno)));
    }
    files_.push_back(IoFile{fd, 0, file_path});  // closed by the destructor
    ++set.file_count;
    if (Status same = CheckFileSetFile(set.directory, file, fd); !same.ok()) {
      return same;
    }
    struct stat st;
    if (fstat(fd, &st) == 0) files_.back().size = st.st_size;
    if (spec.direct) {
      if (Status aligned = CheckDirectAlignment(spec, files_.back(), false);
          !aligned.ok()) {
        return aligned;
      }
    }
  }
  return OkStatus();
}

Status TargetSet::AddBlockDevice(const JobSpec& spec, const std::string& path,
                                 const SafetyContext& safety) {
  // Opened once, then the opened device is judged by its number: a link
  // flipped after the stat above cannot redirect the write. O_EXCL makes
  // the kernel refuse a mounted or held device, and keeps it unmounted
  // while the run holds it.
  const bool writes = Writes(spec.mode);
  const int flags = (writes ? O_RDWR | O_EXCL : O_RDONLY) |
                    (spec.direct ? O_DIRECT : 0) | O_CLOEXEC;
  const int fd = open(path.c_str(), flags);
  if (fd < 0) {
    const int error_number = errno;
    if (error_number == EBUSY && writes) {
      // Refused either way; the rules say better than the kernel what
      // holds it (this names a device that is not opened, for the
      // message only).
      if (const auto number = BlockDeviceNumber(path)) {
        Status judged =
            CheckDestroyAllowed(*number, path, spec.allow_destroy, safety);
        if (!judged.ok()) return judged;
      }
    }
    return OpenError(path, flags, error_number);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
    close(fd);
    return UsageError(
        fmt::format("TARGET {} changed while it was opened: it is no longer "
                    "a block device",
                    path),
        "name the device node itself, not a link that changes");
  }
  if (writes) {
    Status allowed =
        CheckDestroyAllowed(st.st_rdev, path, spec.allow_destroy, safety);
    if (!allowed.ok()) {
      close(fd);
      return allowed;
    }
  }
  return AddOpenFile(spec, path, fd, true, false);
}

Status TargetSet::AddNvmeGeneric(const JobSpec& spec, const std::string& path,
                                 const SafetyContext& safety) {
  const bool writes = Writes(spec.mode);
  const int flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC;
  const int fd = open(path.c_str(), flags);
  if (fd < 0) return OpenError(path, flags, errno);
  files_.push_back(IoFile{fd, 0, path});  // owned now: closed by the destructor
  IoFile& file = files_.back();
  struct stat st;
  std::optional<NvmeGeneric> generic;
  if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode)) {
    generic = DescribeNvmeGeneric(st.st_rdev);
  }
  if (!generic) {
    return UsageError(
        fmt::format("TARGET {} is a character device, but no NVMe generic one",
                    path),
        std::string(kNvmeGenericHint));
  }
  const std::string block_path = "/dev/" + generic->block_name;
  const int nsid = ioctl(fd, NVME_IOCTL_ID);
  if (nsid <= 0 || static_cast<uint32_t>(nsid) != generic->nsid) {
    return UsageError(
        fmt::format("TARGET {}: its namespace ({}) is not the one {} shows "
                    "({})",
                    path, nsid, block_path, generic->nsid),
        "flashmark cannot tell which block device is this namespace, so it "
        "cannot judge the write; use --engine io_uring on the block device");
  }
  if (writes) {
    // --allow-destroy may name the namespace by either of its nodes.
    std::vector<std::string> allowed = spec.allow_destroy;
    for (const std::string& name : spec.allow_destroy) {
      struct stat named;
      if (stat(name.c_str(), &named) == 0 && S_ISCHR(named.st_mode) &&
          named.st_rdev == st.st_rdev) {
        allowed.push_back(block_path);
      }
    }
    Status judged =
        CheckDestroyAllowed(generic->block_number, block_path, allowed, safety);
    if (!judged.ok()) return judged;
    // Held exclusively while the run writes: a mount (or another exclusive
    // user) is refused by the kernel until the run ends. It must be the
    // very device judged.
    const int held = open(block_path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    if (held < 0) return OpenError(block_path, O_RDONLY | O_EXCL, errno);
    held_.push_back(held);
    struct stat held_st;
    if (fstat(held, &held_st) != 0 || !S_ISBLK(held_st.st_mode) ||
        held_st.st_rdev != generic->block_number) {
      return UsageError(
          fmt::format("{} changed while it was opened: it is no longer the "
                      "namespace's block device",
                      block_path),
          "run again once the device nodes are settled");
    }
  }
  file.size = generic->capacity_bytes;
  if (generic->max_transfer_bytes > 0 &&
      MaxBlockSize(spec.block_sizes) > generic->max_transfer_bytes) {
    return UsageError(
        fmt::format("--bs {}: {} moves at most {} per NVMe command "
                    "(/sys/block/{}/queue/max_hw_sectors_kb)",
                    BlockSizesText(spec.block_sizes), path,
                    FormatBytes(generic->max_transfer_bytes),
                    generic->block_name),
        "use a smaller --bs");
  }
  if (spec.size.share > 0) {
    file.size = static_cast<uint64_t>(file.size * spec.size.share);
  } else if (spec.size_given && spec.size.bytes < file.size) {
    file.size = spec.size.bytes;
  }
  for (const auto& entry : spec.block_sizes) {
    if (entry.bytes % generic->lba_bytes != 0) {
      return UsageError(
          fmt::format("--bs {}: {} has {}-byte LBAs, and NVMe commands move "
                      "whole LBAs",
                      BlockSizesText(spec.block_sizes), path,
                      generic->lba_bytes),
          fmt::format("use block sizes that are multiples of {}",
                      generic->lba_bytes));
    }
  }
  if (file.size < MaxBlockSize(spec.block_sizes)) {
    return UsageError(
        fmt::format("{} holds {} bytes, less than one block of --bs {}", path,
                    file.size, BlockSizesText(spec.block_sizes)),
        "use a larger --size or a smaller --bs");
  }
  TargetInfo info;
  info.path = path;
  info.kind = "NVMe generic device";
  info.bytes = file.size;
  info.file_count = 1;
  info.device = block_path;
  if (const auto disk = DescribeBlockDevice(info)) {
    info.health = ReadDeviceHealth(*disk, FindHealthTools());
  }
  info_.push_back(info);
  return OkStatus();
}

Status TargetSet::AddRegularFile(const JobSpec& spec, const std::string& path,
                                 const SafetyContext& safety) {
  // Judged by path before it is opened for writing, then again on the file
  // opened: by its identity against the protected files (the database, the
  // --json output, the program) and by the path the kernel gives for the
  // descriptor against the system directories, so a link flipped between
  // the two cannot redirect the write.
  const bool writes = Writes(spec.mode);
  if (writes) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
      Status judged = CheckFileTargetWritable(path, -1, st, safety);
      if (!judged.ok()) return judged;
    }
  }
  const int flags =
      (writes ? O_RDWR : O_RDONLY) | (spec.direct ? O_DIRECT : 0) | O_CLOEXEC;
  const int fd = open(path.c_str(), flags);
  if (fd < 0) {
    if (errno == ETXTBSY && writes) {
      return UsageError(
          fmt::format("refusing to write {}: it is a running program", path),
          "choose another file");
    }
    return OpenError(path, flags, errno);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return UsageError(
        fmt::format("TARGET {} changed while it was opened: it is no longer "
                    "a regular file",
                    path),
        "name the file itself, not a link that changes");
  }
  if (writes) {
    if (Status ok = CheckFileTargetWritable(path, fd, st, safety); !ok.ok()) {
      close(fd);
      return ok;
    }
  }
  return AddOpenFile(spec, path, fd, false, false);
}

Status TargetSet::AddOpenFile(const JobSpec& spec, const std::string& path,
                              int fd, bool block_device, bool in_file_set) {
  IoFile file{fd, 0, path};
  if (block_device) {
    uint64_t bytes = 0;
    ioctl(fd, BLKGETSIZE64, &bytes);
    file.size = bytes;
  } else {
    struct stat st;
    fstat(fd, &st);
    file.size = st.st_size;
  }
  if (!in_file_set) {  // a single file or device: --size caps the range
    if (spec.size.share > 0) {
      file.size = static_cast<uint64_t>(file.size * spec.size.share);
    } else if (spec.size_given && spec.size.bytes < file.size) {
      file.size = spec.size.bytes;
    }
  }
  files_.push_back(file);  // owned now: closed by the destructor
  if (file.size < MaxBlockSize(spec.block_sizes)) {
    return UsageError(
        fmt::format("{} holds {} bytes, less than one block of --bs {}", path,
                    file.size, BlockSizesText(spec.block_sizes)),
        "use a larger file or a smaller --bs");
  }
  if (spec.direct) {
    if (Status aligned = CheckDirectAlignment(spec, file, block_device);
        !aligned.ok()) {
      return aligned;
    }
  }
  if (in_file_set) return OkStatus();
  TargetInfo info;
  info.path = path;
  info.kind = block_device ? "block device" : "file";
  info.bytes = file.size;
  info.file_count = 1;
  if (block_device) {
    // The opened device's node, not wherever `path` points by now.
    struct stat st;
    fstat(fd, &st);
    info.device = KernelDeviceNode(st.st_rdev).value_or(RealPath(path));
  }
  if (const auto disk =
          block_device ? DescribeBlockDevice(info) : DescribeMount(info)) {
    info.health = ReadDeviceHealth(*disk, FindHealthTools());
  }
  info_.push_back(info);
  return OkStatus();
}

Status TargetSet::CheckDirectAlignment(const JobSpec& spec, const IoFile& file,
                                       bool block_device) {
  uint32_t alignment = 0;
  if (block_device) {
    int logical = 0;
    if (ioctl(file.fd, BLKSSZGET, &logical) == 0) alignment = logical;
  } else {
    alignment = ProbeDirectAlignment(file.fd);
  }
  if (alignment == 0) {
    return UsageError(
        fmt::format("{}: direct IO is refused at every alignment up to 4096 "
                    "bytes",
                    file.path),
        "drop --direct");
  }
  for (const auto& entry : spec.block_sizes) {
    if (entry.bytes % alignment != 0) {
      return UsageError(
          fmt::format("--bs {}: O_DIRECT on {} needs multiples of {} bytes",
                      FormatBytes(entry.bytes), file.path, alignment),
          fmt::format("use --bs {}k or drop --direct",
                      std::max(4u, alignment / 1024)));
    }
  }
  return OkStatus();
}

}  // namespace flashmark
