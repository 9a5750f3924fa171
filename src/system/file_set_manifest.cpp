#include "system/file_set_manifest.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>

#include "common/json_text.h"

namespace flashmark {
namespace {

using nlohmann::json;

constexpr int kManifestVersion = 2;

Manifest Foreign(std::string reason) {
  Manifest manifest;
  manifest.kind = ManifestKind::kForeign;
  manifest.foreign_reason = std::move(reason);
  return manifest;
}

}  // namespace

std::string SetFileName(int index) {
  return fmt::format("flashmark.{}", index);
}

bool IsSetFileName(const std::string& name) {
  constexpr std::string_view kPrefix = "flashmark.";
  if (name.size() <= kPrefix.size() ||
      name.compare(0, kPrefix.size(), kPrefix) != 0) {
    return false;
  }
  return std::all_of(name.begin() + kPrefix.size(), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

Manifest ReadManifest(const TargetDirectory& directory) {
  auto text = directory.ReadFile(kManifestName);
  if (!text.ok()) return Foreign(text.error().message);
  if (!text->has_value()) return {};
  const json doc = json::parse(**text, nullptr, false);
  if (!doc.is_object() || doc.value("tool", "") != "flashmark") {
    return Foreign(fmt::format("{} is not a flashmark manifest",
                               directory.PathOf(kManifestName)));
  }
  if (!doc.contains("version")) {
    return Foreign(
        fmt::format("{} comes from an older flashmark, which recorded no file "
                    "identities",
                    directory.PathOf(kManifestName)));
  }
  if (doc.value("version", 0) != kManifestVersion) {
    return Foreign(fmt::format("{} has version {} (this flashmark reads {})",
                               directory.PathOf(kManifestName),
                               JsonText(doc["version"]), kManifestVersion));
  }
  Manifest manifest;
  manifest.kind = ManifestKind::kCurrent;
  try {
    manifest.complete = doc.at("complete").get<bool>();
    manifest.contents = doc.at("contents").get<std::string>();
    manifest.file_size = doc.at("file_size").get<uint64_t>();
    manifest.data = doc.at("data").get<std::string>();
    for (const json& file : doc.at("files")) {
      ManifestFile entry{file.at("name").get<std::string>(),
                         file.at("inode").get<uint64_t>(),
                         file.at("size").get<uint64_t>()};
      // Only flashmark's own names, never paths or anyone's file.
      if (IsSetFileName(entry.name)) manifest.files.push_back(entry);
    }
  } catch (const json::exception& e) {
    return Foreign(fmt::format("{} is malformed ({})",
                               directory.PathOf(kManifestName), e.what()));
  }
  return manifest;
}

Status WriteManifest(const TargetDirectory& directory,
                     const Manifest& manifest) {
  json files = json::array();
  for (const ManifestFile& file : manifest.files) {
    files.push_back(
        {{"name", file.name}, {"inode", file.inode}, {"size", file.size}});
  }
  const json doc = {
      {"tool", "flashmark"},           {"kind", "file-set"},
      {"version", kManifestVersion},   {"complete", manifest.complete},
      {"contents", manifest.contents}, {"file_size", manifest.file_size},
      {"data", manifest.data},         {"files", files}};
  return directory.WriteFileAtomically(kManifestName, JsonText(doc, 2) + "\n");
}

Inspection InspectSetFile(const TargetDirectory& directory,
                          const std::string& name, const ManifestFile* listed,
                          bool layout_complete) {
  Inspection found;
  const dev_t device = DeviceOf(directory);
  if (fstatat(directory.fd(), name.c_str(), &found.st, AT_SYMLINK_NOFOLLOW) !=
      0) {
    const int error_number = errno;
    found.present = error_number != ENOENT;
    if (found.present) {
      found.why =
          std::string("it cannot be inspected: ") + std::strerror(error_number);
    }
    return found;
  }
  found.present = true;
  const uint64_t size = found.st.st_size;
  if (listed == nullptr) {
    found.why = "it is in no flashmark manifest";
  } else if (!S_ISREG(found.st.st_mode)) {
    found.why = "it is not a regular file";
  } else if (found.st.st_dev != device) {
    found.why = "it lies on another filesystem than its directory";
  } else if (found.st.st_ino != listed->inode) {
    found.why = fmt::format(
        "it is another file than the one flashmark laid out: inode {}, the "
        "manifest records {}",
        found.st.st_ino, listed->inode);
  } else if (layout_complete ? size != listed->size : size > listed->size) {
    found.why = fmt::format(
        "its size changed: {} bytes, the manifest "
        "records {}",
        size, listed->size);
  } else {
    found.ours = true;
  }
  return found;
}

dev_t DeviceOf(const TargetDirectory& directory) {
  struct stat st;
  return fstat(directory.fd(), &st) == 0 ? st.st_dev : 0;
}

const ManifestFile* FindListed(const Manifest& manifest,
                               const std::string& name) {
  for (const ManifestFile& file : manifest.files) {
    if (file.name == name) return &file;
  }
  return nullptr;
}

}  // namespace flashmark
