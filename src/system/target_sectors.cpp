#include "system/target_sectors.h"

#include <fmt/format.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "common/sysfs_text.h"

namespace flashmark {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kTargetSectorBytes = 512;  // the block layer's unit

uint32_t TraceDev(dev_t dev) { return (major(dev) << 20) | minor(dev); }

// The whole disk under `dev` and where `dev` starts on it (bytes).
struct WholeDisk {
  dev_t dev = 0;
  uint64_t start = 0;
};

Result<WholeDisk> FindWholeDisk(dev_t dev, const std::string& what) {
  const fs::path node =
      fmt::format("/sys/dev/block/{}:{}", major(dev), minor(dev));
  std::error_code error;
  const fs::path real = fs::canonical(node, error);
  if (error) {
    return RuntimeError(
        fmt::format("--trace-latency: {} is on device {}:{}, which is no "
                    "block device (tmpfs, overlayfs or a network file "
                    "system): the block layer never sees its IO",
                    what, major(dev), minor(dev)),
        "trace a run on a block device or on files of a local disk");
  }
  WholeDisk disk{dev, 0};
  if (fs::exists(real / "partition")) {
    disk.start = ReadSysfsNumber(real / "start") * kTargetSectorBytes;
    unsigned parent_major = 0, parent_minor = 0;
    if (std::sscanf(ReadSysfsLine(real.parent_path() / "dev").c_str(), "%u:%u",
                    &parent_major, &parent_minor) == 2) {
      disk.dev = makedev(parent_major, parent_minor);
    }
  }
  return disk;
}

// The file's allocated extents, by logical offset, placed on the whole
// disk (the file system starts at `disk_start`); those the file system
// has not placed yet (delayed allocation) or packs (inline, encoded) are
// left out.
std::vector<SectorExtent> FileExtents(int fd, uint64_t disk_start) {
  std::vector<SectorExtent> extents;
  constexpr uint32_t kBatch = 256;
  const size_t bytes = sizeof(fiemap) + kBatch * sizeof(fiemap_extent);
  auto buffer = std::make_unique<uint64_t[]>(bytes / sizeof(uint64_t) + 1);
  auto* map = reinterpret_cast<fiemap*>(buffer.get());
  uint64_t from = 0;
  for (;;) {
    std::fill_n(buffer.get(), bytes / sizeof(uint64_t) + 1, 0);
    map->fm_start = from;
    map->fm_length = FIEMAP_MAX_OFFSET - from;
    map->fm_extent_count = kBatch;
    if (ioctl(fd, FS_IOC_FIEMAP, map) != 0 || map->fm_mapped_extents == 0) {
      break;
    }
    bool last = false;
    for (uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
      const fiemap_extent& e = map->fm_extents[i];
      constexpr uint32_t kUnplaced =
          FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
          FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_NOT_ALIGNED |
          FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL;
      if ((e.fe_flags & kUnplaced) == 0) {
        extents.push_back(
            {e.fe_logical, disk_start + e.fe_physical, e.fe_length});
      }
      from = e.fe_logical + e.fe_length;
      last = last || (e.fe_flags & FIEMAP_EXTENT_LAST) != 0;
    }
    if (last) break;
  }
  return extents;
}

}  // namespace

Result<TargetSectors> TargetSectors::Map(std::span<const IoFile> files) {
  TargetSectors sectors;
  for (const IoFile& file : files) {
    struct stat st {};
    if (fstat(file.fd, &st) != 0) {
      return RuntimeError(fmt::format("--trace-latency: cannot stat {}: {}",
                                      file.path, std::strerror(errno)));
    }
    const bool device = S_ISBLK(st.st_mode);
    auto disk = FindWholeDisk(device ? st.st_rdev : st.st_dev, file.path);
    if (!disk.ok()) return disk.error();
    FilePlace place{TraceDev(disk->dev), {}};
    if (device) {
      place.extents.push_back({0, disk->start, file.size});
    } else {
      place.extents = FileExtents(file.fd, disk->start);
    }
    if (std::ranges::find(sectors.devices_, place.dev) ==
        sectors.devices_.end()) {
      sectors.devices_.push_back(place.dev);
    }
    sectors.files_.push_back(std::move(place));
  }
  return sectors;
}

std::optional<SectorPlace> TargetSectors::Find(uint32_t file, uint64_t offset,
                                               uint32_t length) const {
  if (file >= files_.size()) return std::nullopt;
  const FilePlace& place = files_[file];
  // The last extent that starts at or before `offset`.
  auto after = std::ranges::upper_bound(place.extents, offset, {},
                                        &SectorExtent::logical);
  if (after == place.extents.begin()) return std::nullopt;
  const SectorExtent& extent = *std::prev(after);
  if (offset + length > extent.logical + extent.length) return std::nullopt;
  const uint64_t at = extent.physical + (offset - extent.logical);
  return SectorPlace{place.dev, at / kTargetSectorBytes,
                     static_cast<uint32_t>(length / kTargetSectorBytes)};
}

}  // namespace flashmark
