#include "system/mount_table.h"

#include <sys/sysmacros.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace flashmark {

std::string UnescapeMountField(const std::string& field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      out += static_cast<char>(
          std::strtol(field.substr(i + 1, 3).c_str(), nullptr, 8));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

std::vector<MountEntry> ParseMountInfo(const std::string& text) {
  std::vector<MountEntry> entries;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string id, parent, numbers, root, mount_point, options, field;
    if (!(fields >> id >> parent >> numbers >> root >> mount_point >>
          options)) {
      continue;
    }
    while (fields >> field && field != "-") {
    }
    MountEntry entry;
    fields >> entry.filesystem >> entry.source >> entry.super_options;
    unsigned major_number = 0, minor_number = 0;
    if (std::sscanf(numbers.c_str(), "%u:%u", &major_number, &minor_number) !=
        2) {
      continue;
    }
    entry.mount_id = std::strtoll(id.c_str(), nullptr, 10);
    entry.parent_id = std::strtoll(parent.c_str(), nullptr, 10);
    entry.device = makedev(major_number, minor_number);
    entry.mount_point = UnescapeMountField(mount_point);
    entry.mount_options = options;
    entry.source = UnescapeMountField(entry.source);
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<MountEntry> ReadMountTable() {
  std::ifstream in("/proc/self/mountinfo");
  std::stringstream text;
  text << in.rdbuf();
  return ParseMountInfo(text.str());
}

std::optional<MountEntry> FindMountFor(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  const std::string real = resolved;
  std::optional<MountEntry> best;
  for (auto& entry : ReadMountTable()) {
    const std::string& mp = entry.mount_point;
    const bool inside =
        real == mp || mp == "/" ||
        (real.size() > mp.size() && real.compare(0, mp.size(), mp) == 0 &&
         real[mp.size()] == '/');
    // Later entries over the same point shadow earlier ones.
    if (inside && (!best || mp.size() >= best->mount_point.size())) {
      best = entry;
    }
  }
  return best;
}

std::optional<MountEntry> TopMountAt(const std::vector<MountEntry>& table,
                                     const std::string& mount_point) {
  // A mount stacked on another at the same point has it as its parent: the
  // top one is the parent of none there.
  std::vector<const MountEntry*> here;
  for (const auto& entry : table) {
    if (entry.mount_point == mount_point) here.push_back(&entry);
  }
  for (const MountEntry* candidate : here) {
    bool covered = false;
    for (const MountEntry* other : here) {
      covered = covered || other->parent_id == candidate->mount_id;
    }
    if (!covered) return *candidate;
  }
  return std::nullopt;
}

}  // namespace flashmark
