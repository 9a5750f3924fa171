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

}  // namespace flashmark
