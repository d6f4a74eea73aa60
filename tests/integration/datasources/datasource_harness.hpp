#pragma once
// Shared by the datasource integration tests: the service over a fresh SQLite metadata store
// with workspaces alpha (ws-a) and beta (ws-b), principals, and refusal capture.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {

inline std::string Pid() { return std::to_string(::getpid()); }

inline Principal AdminSession(const std::string& ws) {
  Principal p;
  p.user_id = "admin-user";
  p.workspace_id = ws;
  p.workspace_name = ws == "ws-a" ? "alpha" : "beta";
  p.membership = MemberFlags{true, true, true};
  p.scope = Scope::kAuthor;
  p.super_admin = true;
  p.via_session = true;
  return p;
}

inline Principal Key(const std::string& ws, Scope scope = Scope::kAuthor,
                     MemberFlags role = MemberFlags{true, true, true}) {
  Principal p;
  p.user_id = "agent-user";
  p.key_id = "dpk_testkey00001";
  p.workspace_id = ws;
  p.workspace_name = ws == "ws-a" ? "alpha" : "beta";
  p.scope = scope;
  p.membership = role;
  return p;
}

// The service over a fresh SQLite metadata store with workspaces alpha (ws-a) and beta (ws-b).
class ServiceHarness {
 public:
  ServiceHarness() {
    path_ = std::filesystem::temp_directory_path() /
            ("dp_dsit_meta_" + Pid() + "_" + RandomBase32(6) + ".db");
    store_ = OpenMetadataStore("sqlite:" + path_.string());
    store_->Migrate();
    store_->Workspaces().InsertWorkspace(Workspace{"ws-a", "alpha", "Alpha", "", 1});
    store_->Workspaces().InsertWorkspace(Workspace{"ws-b", "beta", "Beta", "", 2});
    audit_ = std::make_unique<AuditLog>(store_->Audit());
    DatasourceServicePorts ports;
    ports.users_of = [this](const std::string& name) {
      return users_of ? users_of(name) : std::vector<std::string>{};
    };
    ports.lake_tables = [this](const std::string& name) {
      return lake_tables ? lake_tables(name) : std::vector<LakeTable>{};
    };
    service_ = std::make_unique<DatasourceService>(store_->Datasources(), store_->Workspaces(),
                                                   *audit_, SecretBox(RandomBytes(32)),
                                                   DatasourceServiceOptions{}, std::move(ports));
    explorer_ = std::make_unique<DatasourceExplorer>(*service_);
  }
  ~ServiceHarness() {
    explorer_.reset();
    service_.reset();
    store_.reset();
    std::filesystem::remove(path_);
  }
  DatasourceService& service() { return *service_; }
  DatasourceExplorer& explorer() { return *explorer_; }
  MetadataStore& store() { return *store_; }

  // What the registry reads from services this harness does not build; a test sets them.
  std::function<std::vector<std::string>(const std::string& name)> users_of;
  std::function<std::vector<LakeTable>(const std::string& name)> lake_tables;

 private:
  std::filesystem::path path_;
  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<DatasourceService> service_;
  std::unique_ptr<DatasourceExplorer> explorer_;
};

// Runs `fn` and returns the DomainError it threw (failing the test when none was thrown).
inline DomainError Refusal(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const DomainError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a DomainError";
  return DomainError(ErrorCode{"none", 0}, "none");
}

}  // namespace dp
