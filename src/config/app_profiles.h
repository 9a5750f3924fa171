// The built-in application profiles (`--profile innodb|rocksdb|
// postgres-wal`): each database's IO mix as model/app_profile.h describes
// it, with where every figure comes from in app_profiles.cpp. Lookup by
// name; an unknown name is a usage error that lists the known ones and
// suggests the closest. Pure; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/result.h"
#include "model/app_profile.h"

namespace flashmark {

std::span<const AppProfile> BuiltInProfiles();
// "innodb, rocksdb, postgres-wal"
std::string ProfileNames();
Result<AppProfile> FindAppProfile(std::string_view name);

}  // namespace flashmark
