#pragma once
// The run store's schema as numbered migrations; PRAGMA user_version records how far a file got.
#include "store/sqlite.h"

namespace lf::store_detail {

// Brings the database to kRunStoreVersion, each step in its own transaction. Throws lf::Error
// (Input) for a file from a newer Layerforge.
void migrate(Db& db);

}  // namespace lf::store_detail
