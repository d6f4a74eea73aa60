// Issue 9, auth: the CSRF token is bound to the session. A planted dp_csrf cookie with the
// same header (the old double submit) is refused; another session's token is refused; the
// session's own token passes.
#include <gtest/gtest.h>

#include "support/surface_stack.hpp"

namespace dp {
namespace {

struct LoggedIn {
  std::string session;
  std::string csrf;
};

class CsrfBinding : public test::SurfaceStack {
 protected:
  void SetUp() override {
    OpenSurfaces();
    AddUser("ann", "ws", MemberFlags{true, true, false}, Scope::kAuthor);
  }

  LoggedIn Login() {
    HttpRequest request;
    request.method = "POST";
    request.path = request.target = "/api/v1/auth/login";
    request.body = Json{{"email", "ann@example.com"}, {"password", "correct horse battery"}}.dump();
    request.remote_ip = "127.0.0.1";
    HttpResponse response = rest_->HandleApi(request);
    EXPECT_EQ(response.status, 200) << response.body;
    LoggedIn out;
    for (const auto& [name, value] : response.headers) {
      if (name != "Set-Cookie") continue;
      std::string pair = value.substr(0, value.find(';'));
      if (pair.rfind("dp_session=", 0) == 0) out.session = pair.substr(11);
      if (pair.rfind("dp_csrf=", 0) == 0) out.csrf = pair.substr(8);
    }
    EXPECT_EQ(out.csrf, Json::parse(response.body)["data"]["csrf_token"].get<std::string>())
        << "the cookie carries the token the login answered";
    return out;
  }

  int Write(const std::string& cookie, const std::string& header) {
    HttpRequest request;
    request.method = "POST";
    request.path = request.target = "/api/v1/auth/logout";
    request.headers.Add("Cookie", cookie);
    if (!header.empty()) request.headers.Add("DP-CSRF-Token", header);
    request.remote_ip = "127.0.0.1";
    return rest_->HandleApi(request).status;
  }
};

TEST_F(CsrfBinding, OnlyTheSessionsOwnTokenPasses) {
  LoggedIn a = Login();
  LoggedIn b = Login();
  ASSERT_FALSE(a.session.empty());
  EXPECT_NE(a.csrf, b.csrf) << "each session its own token";
  EXPECT_EQ(a.csrf, Authenticator::CsrfTokenFor(a.session));
  const std::string planted = "planted-token-0123456789";
  EXPECT_EQ(Write("dp_session=" + a.session + "; dp_csrf=" + planted, planted), 403);
  EXPECT_EQ(Write("dp_session=" + a.session + "; dp_csrf=" + b.csrf, b.csrf), 403);
  EXPECT_EQ(Write("dp_session=" + a.session, ""), 403);
  EXPECT_EQ(Write("dp_session=" + a.session + "; dp_csrf=whatever", a.csrf), 204)
      << "the header must equal the session's token; the cookie is only its carrier";
}

}  // namespace
}  // namespace dp
