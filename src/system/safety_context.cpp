#include "system/safety_context.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>

#include "system/block_device_info.h"
#include "system/external_command.h"
#include "system/mount_table.h"

namespace flashmark {
namespace {

dev_t FilesystemDevice(const std::string& path) {
  struct stat st;
  std::string existing = path;
  if (stat(existing.c_str(), &st) != 0) {
    existing = std::filesystem::path(path).parent_path().string();
    if (existing.empty())
      existing.assign(1, '.');  // (not = ".": GCC 12 -Wrestrict)
    if (stat(existing.c_str(), &st) != 0) return 0;
  }
  if (major(st.st_dev) != 0) return st.st_dev;
  // An anonymous device number (btrfs): the mount's source names the disk.
  const auto mount = FindMountFor(existing);
  if (!mount) return 0;
  return BlockDeviceNumber(mount->source).value_or(0);
}

void AddProtectedFile(SafetyContext& context, const std::string& what,
                      const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    context.protected_files.push_back({what, st.st_dev, st.st_ino});
  }
}

}  // namespace

SafetyContext CaptureSafetyContext(const std::string& database_path) {
  SafetyContext context;
  AddProtectedPath(context, "/ (the root filesystem)", "/");
  const std::string own_path = ProgramPath();
  const std::string program_path =
      own_path.empty() ? "/proc/self/exe" : own_path;
  AddProtectedPath(context, "the program " + program_path, "/proc/self/exe");
  if (!database_path.empty()) {
    AddProtectedPath(context, "the database " + database_path, database_path);
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
      const std::string journal = database_path + suffix;
      AddProtectedFile(context, "the database journal " + journal, journal);
    }
  }
  return context;
}

void AddProtectedPath(SafetyContext& context, const std::string& what,
                      const std::string& path) {
  const dev_t device = FilesystemDevice(path);
  if (device != 0) context.protected_paths.push_back({what, device});
  AddProtectedFile(context, what, path);
}

}  // namespace flashmark
