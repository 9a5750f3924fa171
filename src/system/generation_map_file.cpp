#include "system/generation_map_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>

#include "common/json_text.h"
#include "system/file_set.h"

namespace flashmark {
namespace {

using nlohmann::json;

static_assert(std::endian::native == std::endian::little,
              "block states are stored little-endian");

constexpr const char* kKind = "generation-map";
constexpr int kVersion = 1;

bool PlainName(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos && name != "." &&
         name != "..";
}

}  // namespace

Result<std::optional<StoredGenerationMap>> ReadGenerationMap(
    const TargetDirectory& directory) {
  const std::string path = directory.PathOf(kGenerationMapName);
  auto read = directory.ReadFile(kGenerationMapName);
  if (!read.ok()) return read.error();
  if (!read->has_value()) return std::optional<StoredGenerationMap>();
  const std::string& bytes = **read;
  auto malformed = [&path](const std::string& why) {
    return RuntimeError(
        fmt::format("{} is not a flashmark generation map: {}", path, why),
        "remove it; the next --verify run writes a new one");
  };
  const size_t newline = bytes.find('\n');
  if (newline == std::string::npos) return malformed("no header line");
  const json header = json::parse(bytes.substr(0, newline), nullptr, false);
  if (!header.is_object() || header.value("tool", "") != "flashmark" ||
      header.value("kind", "") != kKind) {
    return malformed("bad header");
  }
  if (header.value("version", 0) != kVersion) {
    return malformed(fmt::format("version {} (this flashmark reads {})",
                                 header.value("version", 0), kVersion));
  }
  StoredGenerationMap stored;
  std::vector<uint64_t> sizes;
  uint64_t blocks = 0;
  try {
    const uint32_t block_bytes = header.at("block_bytes").get<uint32_t>();
    if (block_bytes < 512 || block_bytes % 512 != 0) {
      return malformed(fmt::format("block size {}", block_bytes));
    }
    for (const json& file : header.at("files")) {
      const std::string name = file.at("name").get<std::string>();
      if (!PlainName(name)) return malformed("a file name is not plain");
      stored.file_names.push_back(name);
      sizes.push_back(file.at("size").get<uint64_t>());
      blocks += sizes.back() / block_bytes;
    }
    stored.seed = header.value("seed", uint64_t{0});
    if (bytes.size() - newline - 1 != blocks * sizeof(uint32_t)) {
      return malformed(fmt::format("{} bytes of states for {} blocks",
                                   bytes.size() - newline - 1, blocks));
    }
    stored.map = std::make_unique<GenerationMap>(block_bytes, std::move(sizes));
  } catch (const json::exception& e) {
    return malformed(e.what());
  }
  std::vector<uint32_t> states(blocks);
  std::memcpy(states.data(), bytes.data() + newline + 1,
              blocks * sizeof(uint32_t));
  stored.map->Import(states);
  return std::optional<StoredGenerationMap>(std::move(stored));
}

Status WriteGenerationMap(const TargetDirectory& directory,
                          const GenerationMap& map,
                          const std::vector<std::string>& file_names,
                          uint64_t seed) {
  json files = json::array();
  for (uint32_t i = 0; i < map.file_count(); ++i) {
    files.push_back({{"name", i < file_names.size() ? file_names[i] : ""},
                     {"size", map.file_size(i)},
                     {"blocks", map.BlocksOf(i)}});
  }
  const json header = {
      {"tool", "flashmark"}, {"kind", kKind},
      {"version", kVersion}, {"block_bytes", map.block_bytes()},
      {"seed", seed},        {"files", files}};
  std::string text = JsonText(header) + "\n";
  const std::vector<uint32_t> states = map.Export();
  text.append(reinterpret_cast<const char*>(states.data()),
              states.size() * sizeof(uint32_t));
  return directory.WriteFileAtomically(kGenerationMapName, text);
}

bool RemoveGenerationMap(const TargetDirectory& directory) {
  return unlinkat(directory.fd(), kGenerationMapName, 0) == 0;
}

}  // namespace flashmark
