#include "common/host_identity.h"

#include <unistd.h>

#include "common/sysfs_text.h"

namespace flashmark {

std::string HostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

std::string BootId() {
  return ReadSysfsLine("/proc/sys/kernel/random/boot_id");
}

}  // namespace flashmark
