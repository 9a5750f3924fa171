#include <iostream>

#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"

namespace flashmark {

int ExecuteDelete(const StoreCommandOptions& options) {
  std::vector<int64_t> ids;
  for (const auto& text : options.runs) {
    auto id = ParseRunId(text);
    if (!id.ok()) return PrintError(id.error());
    ids.push_back(*id);
  }
  auto store = OpenExistingStore(options.db);
  if (!store.ok()) return PrintError(store.error());
  for (int64_t id : ids) {
    if (Status deleted = store->DeleteRun(id); !deleted.ok()) {
      return PrintError(deleted.error());
    }
    std::cout << "deleted run " << id << "\n";
  }
  return 0;
}

}  // namespace flashmark
