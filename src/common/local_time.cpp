#include "common/local_time.h"

#include <ctime>

namespace flashmark {

std::string LocalTimeText(int64_t unix_ns, const char* format) {
  const time_t seconds = unix_ns / 1000000000;
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[64];
  std::strftime(text, sizeof text, format, &local);
  return text;
}

std::string UtcNowText() {
  const time_t now = time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

}  // namespace flashmark
