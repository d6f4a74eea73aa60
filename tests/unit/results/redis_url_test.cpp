#include "datapipelines/redis/redis_url.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace dp {
namespace {

TEST(RedisUrlTest, ParsesHostPortAndDatabase) {
  RedisUrl url = RedisUrl::Parse("redis://cache.internal:6380/3");
  EXPECT_EQ(url.host, "cache.internal");
  EXPECT_EQ(url.port, 6380);
  EXPECT_EQ(url.db, 3);
  EXPECT_TRUE(url.password.empty());
  EXPECT_TRUE(url.username.empty());
}

TEST(RedisUrlTest, DefaultsPortAndDatabase) {
  RedisUrl url = RedisUrl::Parse("redis://localhost");
  EXPECT_EQ(url.host, "localhost");
  EXPECT_EQ(url.port, 6379);
  EXPECT_EQ(url.db, 0);
  EXPECT_EQ(RedisUrl::Parse("redis://localhost:7000/").db, 0);
}

TEST(RedisUrlTest, ParsesPasswordOnlyUserinfo) {
  RedisUrl url = RedisUrl::Parse("redis://:s3cret@127.0.0.1:6379/1");
  EXPECT_EQ(url.password, "s3cret");
  EXPECT_TRUE(url.username.empty());
  EXPECT_EQ(url.host, "127.0.0.1");
  EXPECT_EQ(url.db, 1);
}

TEST(RedisUrlTest, ParsesAclUserAndPercentEncodedPassword) {
  RedisUrl url = RedisUrl::Parse("redis://app:p%40ss%3Aword@h:1");
  EXPECT_EQ(url.username, "app");
  EXPECT_EQ(url.password, "p@ss:word");
  EXPECT_EQ(url.host, "h");
  EXPECT_EQ(url.port, 1);
}

TEST(RedisUrlTest, BareUserinfoIsAPassword) {
  RedisUrl url = RedisUrl::Parse("redis://s3cret@h:6379");
  EXPECT_EQ(url.password, "s3cret");
  EXPECT_TRUE(url.username.empty());
}

TEST(RedisUrlTest, PasswordMayContainAt) {
  RedisUrl url = RedisUrl::Parse("redis://:a@b@h:6379");
  EXPECT_EQ(url.password, "a@b");
  EXPECT_EQ(url.host, "h");
}

TEST(RedisUrlTest, ParsesBracketedIpv6) {
  RedisUrl url = RedisUrl::Parse("redis://[::1]:6390/2");
  EXPECT_EQ(url.host, "::1");
  EXPECT_EQ(url.port, 6390);
  EXPECT_EQ(url.db, 2);
  EXPECT_EQ(url.Redacted(), "redis://[::1]:6390/2");
}

TEST(RedisUrlTest, RedactedHidesCredentials) {
  RedisUrl url = RedisUrl::Parse("redis://app:s3cret@h:6379/4");
  EXPECT_EQ(url.Redacted(), "redis://***@h:6379/4");
  EXPECT_EQ(RedisUrl::Parse("redis://h").Redacted(), "redis://h:6379/0");
}

class RedisUrlRejectTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RedisUrlRejectTest, RejectsWithoutEchoingTheSecret) {
  try {
    RedisUrl::Parse(GetParam());
    FAIL() << "accepted " << GetParam();
  } catch (const std::invalid_argument& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("invalid redis URL"), std::string::npos) << message;
    EXPECT_EQ(message.find("s3cret"), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Malformed, RedisUrlRejectTest,
                         ::testing::Values("http://:s3cret@h:6379", "rediss://:s3cret@h:6379",
                                           "redis://:s3cret@", "redis://:s3cret@h:port",
                                           "redis://:s3cret@h:0", "redis://:s3cret@h:70000",
                                           "redis://:s3cret@h:6379/-1", "redis://:s3cret@h:6379/x",
                                           "redis://:s3cret@h:", "redis://:s3cret@h:6379?db=1",
                                           "redis://:s3cret%zz@h:6379",
                                           "redis://:s3cret@[::1:6379"));

}  // namespace
}  // namespace dp
