#pragma once
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// An API key as REST and the CLI show it: never the secret, never the hash.
Json ApiKeyView(const ApiKeyRecord& key);

}  // namespace dp
