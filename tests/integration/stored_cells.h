// The cells of a campaign as the store holds them, read with the store's
// own reader; for integration tests only. A failure to read is a test
// failure (EXPECT) and gives no cells.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/campaign_store.h"

namespace flashmark::testing {

std::vector<StoredCell> StoredCells(const std::string& db,
                                    int64_t campaign = 1);

}  // namespace flashmark::testing
