#include "store/writer_identity.h"

#include <signal.h>

#include <cerrno>

namespace flashmark {

bool WriterIsGone(const std::string& host, int64_t pid,
                  const std::string& boot_id) {
  if (host != HostName()) return false;  // cannot tell from here
  if (boot_id != BootId()) return true;
  return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace flashmark
