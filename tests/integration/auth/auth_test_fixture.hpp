#pragma once
// A real SQLite metadata store (in memory) behind a real AuthService with a hand-driven clock
// and cheap Argon2 parameters.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "support/core_stack.hpp"

namespace dp::test {

inline constexpr int64_t kStartMs = 1'800'000'000'000;
inline constexpr int64_t kTtlMs = 60'000;
inline constexpr const char* kPassword = "correct horse battery";

// The code a call throws, "<none>" when it returns.
template <typename F>
std::string CodeOf(F&& call) {
  try {
    call();
  } catch (const DomainError& e) {
    return std::string(e.code().code);
  }
  return "<none>";
}

class AuthServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AuthOptions options = test::CheapAuthOptions();
    options.cache_ttl = std::chrono::milliseconds(kTtlMs);
    options.clock = [this] { return now_.load(); };
    test::OpenCoreStack(store_, audit_, service_, options);
  }

  void Advance(int64_t ms) { now_ += ms; }

  // A workspace "default" with alice as `role`.
  User MakeMember(const std::string& email, MemberFlags role, const std::string& workspace = "default",
                  bool super_admin = false) {
    User user = service_->accounts().CreateUser(email, "", kPassword, super_admin);
    if (!store_->Workspaces().FindWorkspaceByName(workspace))
      service_->accounts().CreateWorkspace(workspace, "", email, /*creator_joins=*/false);
    service_->accounts().SetMembership(workspace, email, role);
    return user;
  }

  IssuedApiKey KeyFor(const std::string& email, Scope scope, KeyKind kind = KeyKind::kUser,
                      std::optional<int64_t> expires_at_ms = std::nullopt) {
    return service_->keys().CreateApiKeyFor(email, "default", "test key", scope, kind,
                                            expires_at_ms);
  }

  std::atomic<int64_t> now_{kStartMs};
  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> service_;
};

}  // namespace dp::test
