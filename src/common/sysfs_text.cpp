#include "common/sysfs_text.h"

#include <exception>
#include <fstream>

namespace flashmark {

std::string ReadSysfsLine(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n')) {
    line.pop_back();
  }
  return line;
}

uint64_t ReadSysfsNumber(const std::filesystem::path& path, uint64_t fallback) {
  const std::string text = ReadSysfsLine(path);
  if (text.empty()) return fallback;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return fallback;
  }
}

}  // namespace flashmark
