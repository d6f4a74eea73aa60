#include "datapipelines/store/metadata_store.hpp"

#include <stdexcept>

#include "datapipelines/store/postgres_metadata_store.hpp"
#include "datapipelines/store/redact_url.hpp"
#include "datapipelines/store/sqlite_metadata_store.hpp"

namespace dp {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// "sqlite:<path>" and "sqlite://<path>" name a file; "sqlite::memory:" an in-memory db.
std::string SqlitePath(std::string_view url) {
  url.remove_prefix(std::string_view("sqlite:").size());
  if (StartsWith(url, "//")) url.remove_prefix(2);
  return std::string(url);
}

}  // namespace

MetadataStore::MetadataStore()
    : users_(OpenUserStore(*this)),
      workspaces_(OpenWorkspaceStore(*this)),
      credentials_(OpenCredentialStore(*this)),
      audit_(OpenAuditSink(*this)),
      templates_(OpenTemplateStore(*this)),
      datasources_(OpenDatasourceStore(*this)) {}

MetadataStore::~MetadataStore() = default;

std::unique_ptr<MetadataStore> OpenMetadataStore(const std::string& url) {
  if (StartsWith(url, "postgresql://") || StartsWith(url, "postgres://")) {
    return std::make_unique<PostgresMetadataStore>(url);
  }
  if (StartsWith(url, "sqlite:")) {
    std::string path = SqlitePath(url);
    if (path.empty()) throw std::runtime_error("metadata store URL 'sqlite:' names no file");
    return std::make_unique<SqliteMetadataStore>(path);
  }
  if (url.empty()) throw std::runtime_error("metadata store URL is empty");
  if (url.find("://") != std::string::npos) {
    throw std::runtime_error("unsupported metadata store URL " + RedactUrl(url) +
                             " (expected sqlite:<path>, a file path or postgresql://…)");
  }
  return std::make_unique<SqliteMetadataStore>(url);  // a bare path or ":memory:"
}

}  // namespace dp
