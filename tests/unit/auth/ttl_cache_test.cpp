#include "datapipelines/service/identity/ttl_cache.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(TtlCache, EntriesGoStaleAfterTheTtlButStayReadable) {
  TtlCache<int> cache(1000, 10);
  cache.Put("k", 7, 5000, cache.generation());
  auto fresh = cache.Lookup("k", 5999);
  ASSERT_TRUE(fresh.has_value());
  EXPECT_TRUE(fresh->fresh);
  EXPECT_EQ(fresh->value, 7);
  auto stale = cache.Lookup("k", 6000);
  ASSERT_TRUE(stale.has_value());
  EXPECT_FALSE(stale->fresh);
  EXPECT_FALSE(cache.Lookup("other", 5000).has_value());
}

TEST(TtlCache, PutAfterAnInvalidationIsDropped) {
  TtlCache<int> cache(1000, 10);
  uint64_t seen = cache.generation();
  cache.EraseIf([](int) { return false; });  // an invalidation raced with the refresh
  cache.Put("k", 1, 0, seen);
  EXPECT_FALSE(cache.Lookup("k", 0).has_value());
  cache.Put("k", 2, 0, cache.generation());
  EXPECT_EQ(cache.Lookup("k", 0)->value, 2);
}

TEST(TtlCache, EraseIfAndErase) {
  TtlCache<int> cache(1000, 10);
  for (int i = 0; i < 4; ++i) cache.Put("k" + std::to_string(i), i, 0, cache.generation());
  cache.EraseIf([](int v) { return v % 2 == 0; });
  EXPECT_EQ(cache.size(), 2u);
  cache.Erase("k1");
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_TRUE(cache.Lookup("k3", 0).has_value());
}

TEST(TtlCache, StaysBoundedWhenFull) {
  TtlCache<int> cache(1000, 3);
  cache.Put("old", 0, 0, cache.generation());
  cache.Put("a", 1, 1500, cache.generation());
  cache.Put("b", 2, 1500, cache.generation());
  cache.Put("c", 3, 1600, cache.generation());  // full: the stale "old" goes
  EXPECT_FALSE(cache.Lookup("old", 1600).has_value());
  EXPECT_EQ(cache.size(), 3u);
  cache.Put("d", 4, 1700, cache.generation());  // full of fresh entries: cleared, then stored
  EXPECT_LE(cache.size(), 3u);
  EXPECT_EQ(cache.Lookup("d", 1700)->value, 4);
}

}  // namespace
}  // namespace dp
