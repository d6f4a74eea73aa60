// RestRouter: patterns parsed once, first match in order, captures percent-decoded, a path or
// method no route has is "no route" (the API answers request.route.not_found).
#include "datapipelines/rest/rest_router.hpp"

#include <gtest/gtest.h>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

// A read key whose issuer is a viewer: the floor of the routes below (templates_list).
Principal Viewer() {
  Principal principal;
  principal.key_id = "dpk_test";
  principal.scope = Scope::kRead;
  principal.membership = MemberFlags{};
  return principal;
}

HttpRequest Request(const std::string& method, const std::string& path) {
  HttpRequest request;
  request.method = method;
  request.path = path;
  request.correlation_id = "c-1";
  return request;
}

// Each route answers its own name and the captures it saw, in the response body.
class RestRouterTest : public ::testing::Test {
 protected:
  RestRouterTest() {
    auto echo = [](std::string name, std::vector<std::string> params) {
      return [name, params](const RestCall& call) {
        Json captured = Json::object();
        for (const auto& p : params) captured[p] = call.Param(p);
        return call.Ok(Json{{"route", name}, {"params", captured}});
      };
    };
    router_.On("GET", "", Operation::kTemplatesList, echo("list", {}))
        .On("POST", "", Operation::kTemplatesList, echo("create", {}))
        .On("GET", "/{id}", Operation::kTemplatesList, echo("get", {"id"}))
        .On("POST", "/{id}/release", Operation::kTemplatesList, echo("release", {"id"}))
        .On("GET", "/{id}/versions", Operation::kTemplatesList, echo("versions", {"id"}))
        .On("GET", "/{id}/versions/{version}", Operation::kTemplatesList, [](const RestCall& call) {
          return call.Ok(Json{{"route", "version"}, {"version", call.IntParam("version")}});
        });
  }

  Json Answer(const std::string& method, const std::string& path) {
    Principal principal = Viewer();
    auto response = router_.Route(Request(method, path), principal);
    if (!response) return nullptr;
    return Json::parse(response->body)["data"];
  }

  RestRouter router_{"/api/v1/things"};
};

TEST_F(RestRouterTest, MatchesMethodAndShape) {
  EXPECT_EQ(Answer("GET", "/api/v1/things")["route"], "list");
  EXPECT_EQ(Answer("POST", "/api/v1/things")["route"], "create");
  EXPECT_EQ(Answer("GET", "/api/v1/things/t1")["params"]["id"], "t1");
  EXPECT_EQ(Answer("POST", "/api/v1/things/t1/release")["route"], "release");
  EXPECT_EQ(Answer("GET", "/api/v1/things/t1/versions")["route"], "versions");
  EXPECT_EQ(Answer("GET", "/api/v1/things/t1/versions/3")["version"], 3);
}

TEST_F(RestRouterTest, CapturesArePercentDecodedSegments) {
  // A folder-path id travels as one encoded segment.
  EXPECT_EQ(Answer("GET", "/api/v1/things/shop%2Forders.sql")["params"]["id"], "shop/orders.sql");
}

TEST_F(RestRouterTest, NoRouteForAnotherMethodShapeOrPrefix) {
  EXPECT_TRUE(Answer("DELETE", "/api/v1/things/t1").is_null());
  EXPECT_TRUE(Answer("GET", "/api/v1/things/t1/release").is_null());
  EXPECT_TRUE(Answer("GET", "/api/v1/things/t1/versions/3/extra").is_null());
  EXPECT_TRUE(Answer("GET", "/api/v1/thingsx").is_null());
  EXPECT_TRUE(Answer("GET", "/api/v1/other/t1").is_null());
}

TEST_F(RestRouterTest, ABadIntegerOrEncodingIsRequestInvalid) {
  try {
    Answer("GET", "/api/v1/things/t1/versions/three");
    FAIL() << "a non-integer version was accepted";
  } catch (const DomainError& error) {
    EXPECT_EQ(error.code(), errc::kRequestInvalid);
    EXPECT_EQ(error.details()["field"], "version");
  }
  EXPECT_THROW(Answer("GET", "/api/v1/things/%zz"), DomainError);
  EXPECT_THROW(Answer("GET", "/api/v1/things/a%00b"), DomainError);
}

TEST_F(RestRouterTest, TheFirstMatchingRouteWins) {
  RestRouter router{"/api/v1/x"};
  router
      .On("GET", "/special", Operation::kTemplatesList,
          [](const RestCall& c) { return c.Ok("literal"); })
      .On("GET", "/{id}", Operation::kTemplatesList,
          [](const RestCall& c) { return c.Ok("capture"); });
  Principal principal = Viewer();
  EXPECT_EQ(Json::parse(router.Route(Request("GET", "/api/v1/x/special"), principal)->body)["data"],
            "literal");
  EXPECT_EQ(Json::parse(router.Route(Request("GET", "/api/v1/x/other"), principal)->body)["data"],
            "capture");
}

TEST_F(RestRouterTest, ARouteBelowItsFloorIsRefusedBeforeItsHandlerRuns) {
  RestRouter router{"/api/v1/x"};
  bool ran = false;
  router.On("POST", "/{id}/release", Operation::kTemplatesRelease, [&ran](const RestCall& c) {
    ran = true;
    return c.Ok("released");
  });
  try {
    router.Route(Request("POST", "/api/v1/x/a/release"), Viewer());
    FAIL() << "expected auth.scope.insufficient";
  } catch (const DomainError& error) {
    EXPECT_EQ(error.code(), errc::kScopeInsufficient);
    EXPECT_EQ(error.details()["required"], "author");
  }
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace dp
