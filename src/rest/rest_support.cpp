#include "datapipelines/rest/rest_support.hpp"

#include <charconv>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/util/json_body.hpp"
#include "datapipelines/util/percent_encoding.hpp"
#include "datapipelines/util/utf8.hpp"

namespace dp {

DomainError InvalidField(const std::string& field, const std::string& what) {
  return InvalidRequestField(field, what);
}

int ParseIntField(const std::string& text, const std::string& field) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw InvalidField(field, "must be an integer");
  }
  return value;
}

Json QueryArguments(const HttpRequest& request, const QueryFields& fields) {
  Json arguments = Json::object();
  auto text = [&](const char* name) -> std::optional<std::string> {
    std::optional<std::string> value = QueryParam(request.query, name);
    if (value && value->empty() && fields.empty_is_absent) return std::nullopt;
    return value;
  };
  for (const char* name : fields.strings) {
    if (auto value = text(name)) arguments[name] = std::move(*value);
  }
  for (const char* name : fields.booleans) {
    if (auto value = text(name)) {
      if (*value != "true" && *value != "false") throw InvalidField(name, "must be true or false");
      arguments[name] = *value == "true";
    }
  }
  for (const char* name : fields.integers) {
    if (auto value = text(name)) arguments[name] = ParseIntField(*value, name);
  }
  return arguments;
}

Json PagedItems(const Json& items, int offset, int limit, int64_t total, bool has_more) {
  return Json{{"items", items},
              {"pagination",
               {{"offset", offset}, {"limit", limit}, {"total", total}, {"has_more", has_more}}}};
}

Json ParseBody(const HttpRequest& request) {
  JsonBody parsed = ParseJsonBody(request.body, request.max_json_depth);
  if (parsed.fault == JsonBodyFault::kTooDeep) {
    throw DomainError(
        errc::kRequestInvalid,
        "Request body nests deeper than " + std::to_string(request.max_json_depth) + " levels.",
        Json{{"max_depth", request.max_json_depth}});
  }
  if (parsed.fault == JsonBodyFault::kNulCharacter) {
    throw DomainError(errc::kRequestInvalid, "A string in the request body contains U+0000.");
  }
  Json body = std::move(parsed.value);
  if (body.is_discarded() || !body.is_object()) {
    throw DomainError(errc::kRequestInvalid, "Request body must be a JSON object.");
  }
  return body;
}

std::string RequiredString(const Json& body, const char* field) {
  return RequiredStringField(body, field);
}

HttpResponse NoContent() {
  HttpResponse response;
  response.status = 204;
  response.content_type.clear();
  return response;
}

std::optional<std::vector<std::string>> PathSegmentsBelow(std::string_view path,
                                                          std::string_view prefix) {
  if (path.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string_view rest = path.substr(prefix.size());
  if (!rest.empty() && rest.front() != '/') return std::nullopt;
  std::vector<std::string> segments;
  while (!rest.empty()) {
    rest.remove_prefix(1);  // the '/'
    size_t slash = rest.find('/');
    std::string_view raw = rest.substr(0, slash);
    auto decoded = PercentDecode(raw);
    if (!decoded) {
      throw DomainError(errc::kRequestInvalid, "Malformed percent-encoding in the path.");
    }
    if (!IsValidUtf8(*decoded) || decoded->find('\0') != std::string::npos) {
      throw DomainError(errc::kRequestInvalid,
                        "A path segment decodes to invalid UTF-8 or contains U+0000.");
    }
    segments.push_back(std::move(*decoded));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  return segments;
}

}  // namespace dp
