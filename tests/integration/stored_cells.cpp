#include "stored_cells.h"

#include <gtest/gtest.h>

namespace flashmark::testing {

std::vector<StoredCell> StoredCells(const std::string& db, int64_t campaign) {
  auto store = CampaignStore::OpenForReading(db);
  EXPECT_TRUE(store.ok());
  if (!store.ok()) return {};
  auto cells = store->Cells(campaign);
  EXPECT_TRUE(cells.ok());
  return cells.ok() ? *cells : std::vector<StoredCell>{};
}

}  // namespace flashmark::testing
