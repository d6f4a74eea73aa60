#include "template_import_resolver.hpp"

#include <algorithm>
#include <set>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/templates/parsed_template_cache.hpp"
#include "datapipelines/store/template_store.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"

namespace dp {
namespace {

constexpr int kMaxImportDepth = 10;  // templates.md §6.4: a fixed constant, not a config key

bool IsAlias(const std::string& alias) {
  if (alias.empty() || alias.size() > 64) return false;
  for (size_t i = 0; i < alias.size(); ++i) {
    char c = alias[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && (i == 0 || c < '0' || c > '9')) return false;
  }
  return true;
}

// Path-shaped: only the characters an id may hold. Whether it names a real template is the
// lookup's question (import_not_found), not this one.
bool IsPathShaped(const std::string& id) {
  if (id.empty() || id.size() > 1000) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
           c == '/';
  });
}

std::string Key(const std::string& id, int64_t version) {
  return id + "@" + std::to_string(version);
}

DomainError Injection(size_t index, const char* field) {
  return DomainError(errc::kTemplateDangerousConstruct,
                     std::string("imports[") + std::to_string(index) + "]." + field +
                         " is not a plain identifier; it would be spliced into the import "
                         "prologue.",
                     Json{{"construct", "import_entry"}, {"index", index}, {"field", field}});
}

}  // namespace

ParsedTemplate ParseTemplateVersion(const TemplateVersionRecord& version, size_t max_body_chars) {
  ParseOptions options;
  options.mode = version.type == "html" ? TemplateMode::kHtml : TemplateMode::kSql;
  options.max_body_chars = max_body_chars;
  options.library = version.is_library;
  options.name = Key(version.template_id, version.version);
  return TemplateParser::Parse(version.body, options);
}

void CheckImportsShape(const Json& imports) {
  if (!imports.is_array()) {
    throw DomainError(errc::kRequestInvalid, "'imports' must be an array.",
                      Json{{"field", "imports"}});
  }
  std::set<std::string> aliases;
  for (size_t i = 0; i < imports.size(); ++i) {
    const Json& entry = imports[i];
    if (!entry.is_object() || !entry.contains("alias") || !entry["alias"].is_string() ||
        !IsAlias(entry["alias"].get<std::string>())) {
      throw Injection(i, "alias");
    }
    if (!entry.contains("id") || !entry["id"].is_string() ||
        !IsPathShaped(entry["id"].get<std::string>())) {
      throw Injection(i, "id");
    }
    if (!entry.contains("version") || !entry["version"].is_number_integer() ||
        entry["version"].get<int64_t>() < 1) {
      throw Injection(i, "version");
    }
    const std::string& alias = entry["alias"].get_ref<const std::string&>();
    if (!aliases.insert(alias).second) {
      throw DomainError(errc::kTemplateDuplicateAlias,
                        "Two imports share the alias '" + alias + "'; aliases must be unique.",
                        Json{{"alias", alias}});
    }
  }
}

TemplateImportResolver::TemplateImportResolver(TemplateStore& store, std::string workspace_id,
                                               size_t max_body_chars, bool for_save,
                                               ParsedTemplateCache* cache)
    : store_(store),
      workspace_id_(std::move(workspace_id)),
      max_body_chars_(max_body_chars),
      for_save_(for_save),
      cache_(cache) {}

LibraryMap TemplateImportResolver::Resolve(const std::string& self_key, const Json& imports) {
  stack_ = {self_key};
  return ResolveAt(imports, 1);
}

LibraryMap TemplateImportResolver::ResolveAt(const Json& imports, int depth) {
  LibraryMap libraries;
  for (const Json& entry : imports) {
    libraries[entry["alias"].get<std::string>()] = Library(entry, depth);
  }
  return libraries;
}

std::shared_ptr<const ParsedTemplate> TemplateImportResolver::Library(const Json& entry,
                                                                      int depth) {
  const std::string id = entry["id"].get<std::string>();
  const int version = entry["version"].get<int>();
  const std::string key = Key(id, version);
  if (std::find(stack_.begin(), stack_.end(), key) != stack_.end()) {
    std::vector<std::string> cycle(std::find(stack_.begin(), stack_.end(), key), stack_.end());
    cycle.push_back(key);
    throw DomainError(errc::kTemplateImportCycle, "The import graph has a cycle.",
                      Json{{"cycle", cycle}});
  }
  if (depth > kMaxImportDepth) {
    throw DomainError(errc::kTemplateImportDepthExceeded,
                      "Imports nest deeper than " + std::to_string(kMaxImportDepth) + ".",
                      Json{{"max_depth", kMaxImportDepth}, {"at", key}});
  }
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  auto tmpl = store_.FindTemplate(workspace_id_, id);
  auto found = tmpl ? store_.FindTemplateVersion(workspace_id_, id, version) : std::nullopt;
  bool usable = found && (!for_save_ || (!tmpl->is_deleted && found->status != "DISCARDED"));
  if (!usable) {
    throw DomainError(errc::kTemplateImportNotFound,
                      "Import '" + entry["alias"].get<std::string>() + "' names " + key +
                          ", which does not exist in this workspace.",
                      Json{{"id", id}, {"version", version}, {"alias", entry["alias"]}});
  }
  if (!found->is_library) {
    throw DomainError(errc::kTemplateImportNotLibrary,
                      key + " is not a library template (is_library is false).",
                      Json{{"id", id}, {"version", version}});
  }
  stack_.push_back(key);
  LibraryMap own = ResolveAt(found->imports, depth + 1);
  stack_.pop_back();
  auto parsed = std::make_shared<const ParsedTemplate>(
      (cache_ ? cache_->Get(*found, max_body_chars_)
              : ParseTemplateVersion(*found, max_body_chars_))
          .WithImports(std::move(own)));
  memo_[key] = parsed;
  return parsed;
}

}  // namespace dp
