#include "datapipelines/semantics/fact_ref.hpp"

#include <algorithm>

namespace dp {
namespace {

Json NullIfEmpty(const std::string& text) { return text.empty() ? Json() : Json(text); }

std::string StringMember(const Json& object, const char* name) {
  auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string FactRef::TableKey() const { return schema.empty() ? table : schema + "." + table; }

Json FactRef::ToJson() const {
  return Json{{"schema", NullIfEmpty(schema)}, {"table", table}, {"column", NullIfEmpty(column)}};
}

FactRef FactRef::FromJson(const Json& ref) {
  if (!ref.is_object()) return {};
  return FactRef{StringMember(ref, "schema"), StringMember(ref, "table"),
                 StringMember(ref, "column")};
}

std::vector<FactRef> NormaliseRefs(std::vector<FactRef> refs) {
  std::sort(refs.begin(), refs.end());
  refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
  return refs;
}

Json RefsToJson(const std::vector<FactRef>& refs) {
  Json out = Json::array();
  for (const auto& ref : refs) out.push_back(ref.ToJson());
  return out;
}

std::vector<FactRef> RefsFromJson(const Json& refs) {
  std::vector<FactRef> out;
  if (!refs.is_array()) return out;
  for (const auto& ref : refs) out.push_back(FactRef::FromJson(ref));
  return out;
}

}  // namespace dp
