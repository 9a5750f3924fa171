#include "store/writer_identity.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

namespace flashmark {

std::string BootId() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

std::string HostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

bool WriterIsGone(const std::string& host, int64_t pid,
                  const std::string& boot_id) {
  if (host != HostName()) return false;  // cannot tell from here
  if (boot_id != BootId()) return true;
  return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace flashmark
