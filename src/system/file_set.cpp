#include "system/file_set.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "common/signals.h"
#include "common/units.h"
#include "system/file_set_manifest.h"
#include "workload/data_filler.h"

namespace flashmark {
namespace {

constexpr size_t kChunk = 1 << 20;

std::string Errno(int error_number) { return std::strerror(error_number); }

// A size as --size takes it: "512k", "3M", "2G", or plain bytes.
std::string SizeOption(uint64_t bytes) {
  for (const auto& [unit, factor] :
       {std::pair{"G", uint64_t{1} << 30}, std::pair{"M", uint64_t{1} << 20},
        std::pair{"k", uint64_t{1} << 10}}) {
    if (bytes >= factor && bytes % factor == 0) {
      return fmt::format("{}{}", bytes / factor, unit);
    }
  }
  return std::to_string(bytes);
}

// Removes the files this layout created, if they are still the ones it
// created, and the manifest it wrote.
void RemoveCreated(const TargetDirectory& directory,
                   const std::vector<FileSetFile>& created) {
  for (const FileSetFile& file : created) {
    struct stat st;
    if (fstatat(directory.fd(), file.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) ==
            0 &&
        S_ISREG(st.st_mode) && st.st_ino == file.inode) {
      unlinkat(directory.fd(), file.name.c_str(), 0);
    }
  }
  unlinkat(directory.fd(), kManifestName, 0);
}

Status FillFile(const TargetDirectory& directory, int fd,
                const FileSetPlan& plan, DataFiller& filler, void* chunk,
                const std::string& path) {
  for (uint64_t done = 0; done < plan.file_size;) {
    if (TakePendingInterrupt() != 0) {
      // Not a failure: the caller stops as for any interruption (exit 130).
      return InterruptedError(fmt::format(
          "interrupted during layout of the file set in {} (the files laid out "
          "so far are removed)",
          directory.path()));
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

// Whether every block of the open file up to `size` holds data: no hole,
// and as many blocks allocated as the size needs (a filesystem without
// SEEK_HOLE reports none).
bool HoldsDataEverywhere(int fd, uint64_t size) {
  struct stat st;
  if (fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < size ||
      static_cast<uint64_t>(st.st_blocks) * 512 < size) {
    return false;
  }
  const off_t hole = lseek(fd, 0, SEEK_HOLE);
  return hole >= 0 && static_cast<uint64_t>(hole) >= size;
}

std::string ContentsText(const Manifest& manifest) {
  if (manifest.contents == kContentsFilled)
    return "filled with " + manifest.data;
  if (manifest.contents == kContentsWritten) {
    return "written in full, last with " + manifest.data;
  }
  return "sparse: laid out for a sequential write and not written in full";
}

// What a read run found in the directory, for its refusal.
std::string DescribeExisting(const Manifest& manifest, bool map_present,
                             bool files_intact) {
  std::string what;
  if (manifest.kind == ManifestKind::kCurrent) {
    if (!manifest.complete) {
      what = "an unfinished layout (" + std::string(kManifestName) + ")";
    } else {
      what = fmt::format("a file set of {} files x {} ({}){}",
                         manifest.files.size(), FormatBytes(manifest.file_size),
                         ContentsText(manifest),
                         files_intact ? "" : ", some of its files missing");
    }
  }
  if (map_present) {
    what += fmt::format("{}a generation map ({})", what.empty() ? "" : " and ",
                        kGenerationMapName);
  }
  return what;
}

Error ReadRunRefusal(const TargetDirectory& directory, const FileSetPlan& plan,
                     const Manifest& manifest, bool map_present,
                     bool files_intact, bool same_shape) {
  const uint64_t total = plan.file_size * plan.file_count;
  std::string hint = fmt::format(
      "remove the set with `flashmark cleanup {}` ({} lost) and run again",
      directory.path(),
      map_present ? "its data and generation map are" : "its data is");
  if (manifest.kind == ManifestKind::kCurrent && manifest.complete &&
      files_intact) {
    const uint64_t existing = manifest.file_size * manifest.files.size();
    if (same_shape) {
      hint += fmt::format(
          "; or write it in full first, e.g. `--mode seqwr "
          "--bytes {}`",
          SizeOption(existing));
    } else if (manifest.contents != kContentsSparse) {
      hint += fmt::format("; or read it as it is with --file-num {} --size {}",
                          manifest.files.size(), SizeOption(existing));
    }
  }
  return UsageError(
      fmt::format("refusing to lay out a file set in {} for a read run: it "
                  "holds {}, and this run needs {} files x {} ({}) holding "
                  "data; a read run never overwrites or removes what is there",
                  directory.path(),
                  DescribeExisting(manifest, map_present, files_intact),
                  plan.file_count, FormatBytes(plan.file_size),
                  FormatBytes(total)),
      hint);
}

Error ForeignManifestRefusal(const TargetDirectory& directory,
                             const Manifest& manifest) {
  return UsageError(
      fmt::format("refusing to touch the file set in {}: {}, so flashmark "
                  "neither reuses nor removes the files it lists",
                  directory.path(), manifest.foreign_reason),
      fmt::format(
          "if they may go, remove them yourself (e.g. `rm {}/flashmark.*`), "
          "or choose another directory",
          directory.path()));
}

}  // namespace

namespace {

// What is in the directory before a layout, and whether it fits the plan.
struct Existing {
  Manifest manifest;
  std::vector<Inspection> listed;  // per manifest.files
  bool map_present = false;
  bool files_intact = true;  // every listed file is there
  bool same_shape = false;   // a finished set of the plan's shape
  bool contents_complete = false;
  uint64_t reclaimable = 0;  // bytes its files take
};

// Refuses (usage error) a manifest flashmark cannot take, and a listed
// file that is not flashmark's or has other names.
Result<Existing> InspectExisting(const TargetDirectory& directory,
                                 const FileSetPlan& plan) {
  Existing found;
  found.manifest = ReadManifest(directory);
  const Manifest& manifest = found.manifest;
  if (manifest.kind == ManifestKind::kForeign) {
    return ForeignManifestRefusal(directory, manifest);
  }
  struct stat map_st;
  found.map_present = fstatat(directory.fd(), kGenerationMapName, &map_st,
                              AT_SYMLINK_NOFOLLOW) == 0;
  for (const ManifestFile& file : manifest.files) {
    found.listed.push_back(
        InspectSetFile(directory, file.name, &file, manifest.complete));
    const Inspection& listed = found.listed.back();
    if (listed.present && !listed.ours) {
      return UsageError(
          fmt::format("refusing to use {}: flashmark did not create it ({})",
                      directory.PathOf(file.name), listed.why),
          "remove it yourself or choose another directory");
    }
    if (listed.ours && listed.st.st_nlink > 1) {
      return UsageError(
          fmt::format("refusing to use {}: it has {} links, so writing or "
                      "removing it would change what its other names show",
                      directory.PathOf(file.name), listed.st.st_nlink),
          fmt::format("remove its other names (`find / -xdev -samefile {}`) "
                      "or the file itself",
                      directory.PathOf(file.name)));
    }
    found.files_intact = found.files_intact && listed.ours;
    if (listed.ours) found.reclaimable += listed.st.st_blocks * 512ull;
  }
  found.same_shape = manifest.kind == ManifestKind::kCurrent &&
                     manifest.complete && found.files_intact &&
                     manifest.file_size == plan.file_size &&
                     static_cast<int>(manifest.files.size()) == plan.file_count;
  for (int i = 0; found.same_shape && i < plan.file_count; ++i) {
    found.same_shape = manifest.files[i].name == SetFileName(i);
  }
  found.contents_complete = manifest.contents == kContentsFilled ||
                            manifest.contents == kContentsWritten;
  return found;
}

// The existing set as the run's, when the plan may reuse it; nullopt when
// it may not.
std::optional<FileSetState> Reuse(const TargetDirectory& directory,
                                  const FileSetPlan& plan,
                                  const Existing& existing, std::ostream& log) {
  const Manifest& manifest = existing.manifest;
  const std::string data = DataPatternText(plan.data);
  const bool reuse =
      existing.same_shape &&
      (plan.writes ? manifest.data == data &&
                         (!plan.filled || existing.contents_complete)
                   : existing.contents_complete || existing.map_present);
  if (!reuse) return std::nullopt;
  FileSetState state;
  state.reused = true;
  state.complete = existing.contents_complete;
  for (const ManifestFile& file : manifest.files) {
    state.files.push_back({file.name, file.inode});
  }
  log << fmt::format("reusing file set in {}: {} files x {}{}\n",
                     directory.path(), plan.file_count,
                     FormatBytes(plan.file_size),
                     plan.writes ? "" : " (a read run leaves it as it is)");
  if (!plan.writes && !existing.contents_complete) {
    log << fmt::format(
        "warning: the set in {} was laid out sparse for a sequential write "
        "and not written in full: reads of its holes measure no device\n",
        directory.path());
  } else if (!plan.writes && manifest.data != data) {
    log << fmt::format(
        "note: the set holds {} data, not --data {}; this "
        "read run reads it as it is\n",
        manifest.data, data);
  }
  return state;
}

// Creates and fills (or sizes) the files of a new set. Every file is
// created first (O_EXCL: nothing that is there is opened) and listed with
// its inode before any data goes in; on failure what it created goes.
Result<FileSetState> CreateFileSet(const TargetDirectory& directory,
                                   const FileSetPlan& plan, std::ostream& log) {
  Manifest laid_out;
  laid_out.kind = ManifestKind::kCurrent;
  laid_out.contents = plan.filled ? kContentsFilled : kContentsSparse;
  laid_out.file_size = plan.file_size;
  laid_out.data = DataPatternText(plan.data);
  if (Status written = WriteManifest(directory, laid_out); !written.ok()) {
    return written.error();
  }
  const uint64_t total = plan.file_size * plan.file_count;
  log << fmt::format("laying out {} files x {} ({}) in {}{}", plan.file_count,
                     FormatBytes(plan.file_size), FormatBytes(total),
                     directory.path(), plan.filled ? " ..." : " (sparse) ...")
      << std::flush;
  const auto started = std::chrono::steady_clock::now();
  FileSetState state;
  std::vector<int> fds;
  const auto close_all = [&fds] {
    for (int fd : fds) close(fd);
    fds.clear();
  };
  const auto fail = [&](Error error) {
    close_all();
    RemoveCreated(directory, state.files);
    log << "\n";
    return error;
  };
  for (int i = 0; i < plan.file_count; ++i) {
    const std::string name = SetFileName(i);
    const int fd =
        openat(directory.fd(), name.c_str(),
               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
      const int error_number = errno;
      if (fd >= 0) close(fd);
      return fail(RuntimeError(fmt::format("cannot create {}: {}",
                                           directory.PathOf(name),
                                           Errno(error_number))));
    }
    fds.push_back(fd);
    state.files.push_back({name, static_cast<uint64_t>(st.st_ino)});
    laid_out.files.push_back(
        {name, static_cast<uint64_t>(st.st_ino), plan.file_size});
  }
  if (Status written = WriteManifest(directory, laid_out); !written.ok()) {
    return fail(written.error());
  }
  DataFiller filler(plan.data, 0x5eed);
  void* chunk = std::aligned_alloc(4096, kChunk);
  std::unique_ptr<void, void (*)(void*)> chunk_guard(chunk, std::free);
  for (int i = 0; i < plan.file_count; ++i) {
    const std::string path = directory.PathOf(state.files[i].name);
    Status status = OkStatus();
    if (plan.filled) {
      status = FillFile(directory, fds[i], plan, filler, chunk, path);
    } else if (ftruncate(fds[i], plan.file_size) != 0) {
      status =
          RuntimeError(fmt::format("cannot size {}: {}", path, Errno(errno)));
    }
    if (!status.ok()) return fail(status.error());
  }
  close_all();
  laid_out.complete = true;
  if (Status written = WriteManifest(directory, laid_out); !written.ok()) {
    return fail(written.error());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  log << fmt::format(" {:.1f} s", seconds);
  if (plan.filled && seconds > 0) {
    log << fmt::format(" ({:.0f} MiB/s)", total / 1048576.0 / seconds);
  }
  log << "\n";
  state.complete = plan.filled;
  return state;
}

}  // namespace

Result<FileSetState> LayOutFileSet(const TargetDirectory& directory,
                                   const FileSetPlan& plan, std::ostream& log) {
  auto inspected = InspectExisting(directory, plan);
  if (!inspected.ok()) return inspected.error();
  const Existing& existing = *inspected;
  if (auto reused = Reuse(directory, plan, existing, log)) return *reused;
  if (!plan.writes && (existing.manifest.kind == ManifestKind::kCurrent ||
                       existing.map_present)) {
    return ReadRunRefusal(directory, plan, existing.manifest,
                          existing.map_present, existing.files_intact,
                          existing.same_shape);
  }
  // Refuse to overwrite files flashmark did not create.
  for (int i = 0; i < plan.file_count; ++i) {
    const std::string name = SetFileName(i);
    const ManifestFile* entry = FindListed(existing.manifest, name);
    const Inspection found =
        InspectSetFile(directory, name, entry, existing.manifest.complete);
    if (found.present && !found.ours) {
      return UsageError(
          fmt::format("refusing to overwrite {}: flashmark did not create it "
                      "({})",
                      directory.PathOf(name), found.why),
          "remove it yourself or choose another directory");
    }
  }
  const uint64_t total = plan.file_size * plan.file_count;
  struct statvfs fs;
  if (plan.filled && fstatvfs(directory.fd(), &fs) == 0) {
    const uint64_t available = fs.f_bavail * fs.f_frsize + existing.reclaimable;
    if (available < total) {
      return RuntimeError(
          fmt::format("{} has {} free, the file set needs {}", directory.path(),
                      FormatBytes(available), FormatBytes(total)),
          "use a smaller --size or another directory");
    }
  }
  // The old set goes (only files that are flashmark's), and the map that
  // described its contents.
  for (size_t i = 0; i < existing.manifest.files.size(); ++i) {
    if (existing.listed[i].ours) {
      unlinkat(directory.fd(), existing.manifest.files[i].name.c_str(), 0);
    }
  }
  unlinkat(directory.fd(), kGenerationMapName, 0);
  return CreateFileSet(directory, plan, log);
}

Status CheckFileSetFile(const TargetDirectory& directory,
                        const FileSetFile& file, int fd) {
  struct stat st;
  const std::string path = directory.PathOf(file.name);
  if (fstat(fd, &st) != 0) {
    return RuntimeError(
        fmt::format("cannot inspect {}: {}", path, Errno(errno)));
  }
  std::string why;
  if (!S_ISREG(st.st_mode)) {
    why = "it is not a regular file";
  } else if (st.st_dev != DeviceOf(directory) || st.st_ino != file.inode) {
    why = "it is not the file flashmark laid out there";
  } else if (st.st_nlink != 1) {
    why = fmt::format(
        "it has {} links, so writing it would change what its "
        "other names show",
        st.st_nlink);
  }
  if (why.empty()) return OkStatus();
  return UsageError(fmt::format("refusing to use {}: {}", path, why),
                    "something changed the set while flashmark opened it; "
                    "check the directory and run again");
}

Result<bool> RecordWrittenContents(const TargetDirectory& directory,
                                   std::span<const int> fds,
                                   const DataPattern& data) {
  Manifest manifest = ReadManifest(directory);
  if (manifest.kind != ManifestKind::kCurrent || !manifest.complete ||
      manifest.contents != kContentsSparse ||
      manifest.files.size() != fds.size()) {
    return false;
  }
  for (size_t i = 0; i < fds.size(); ++i) {
    struct stat st;
    if (fstat(fds[i], &st) != 0 || st.st_ino != manifest.files[i].inode ||
        !HoldsDataEverywhere(fds[i], manifest.file_size)) {
      return false;
    }
  }
  manifest.contents = kContentsWritten;
  manifest.data = DataPatternText(data);
  if (Status written = WriteManifest(directory, manifest); !written.ok()) {
    return written.error();
  }
  return true;
}

Result<FileSetRemoval> RemoveFileSet(const TargetDirectory& directory) {
  const Manifest manifest = ReadManifest(directory);
  if (manifest.kind == ManifestKind::kForeign) {
    return ForeignManifestRefusal(directory, manifest);
  }
  if (manifest.kind == ManifestKind::kNone) {
    return UsageError(fmt::format("no flashmark file set in {}: there is no {}",
                                  directory.path(), kManifestName),
                      "flashmark removes only sets whose manifest lists them");
  }
  FileSetRemoval removal;
  for (const ManifestFile& file : manifest.files) {
    const Inspection found =
        InspectSetFile(directory, file.name, &file, manifest.complete);
    if (!found.present) continue;
    if (!found.ours) {
      removal.left.push_back(
          fmt::format("{} ({})", directory.PathOf(file.name), found.why));
      continue;
    }
    if (unlinkat(directory.fd(), file.name.c_str(), 0) == 0) {
      ++removal.files;
      removal.bytes += found.st.st_size;
    }
  }
  removal.map = unlinkat(directory.fd(), kGenerationMapName, 0) == 0;
  if (removal.left.empty()) {
    removal.manifest = unlinkat(directory.fd(), kManifestName, 0) == 0;
  }
  return removal;
}

}  // namespace flashmark
