#include "datapipelines/rest/rest_support.hpp"

#include <charconv>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/util/percent_encoding.hpp"

namespace dp {

DomainError InvalidField(const std::string& field, const std::string& what) {
  return DomainError(errc::kRequestInvalid, "'" + field + "' " + what + ".",
                     Json{{"field", field}});
}

int ParseIntField(const std::string& text, const std::string& field) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw InvalidField(field, "must be an integer");
  }
  return value;
}

void ParseListWindow(const HttpRequest& request, int& limit, int& offset) {
  if (auto text = QueryParam(request.query, "limit")) {
    limit = ParseIntField(*text, "limit");
    if (limit < 1 || limit > 200) throw InvalidField("limit", "must be 1..200");
  }
  if (auto text = QueryParam(request.query, "offset")) {
    offset = ParseIntField(*text, "offset");
    if (offset < 0) throw InvalidField("offset", "must be >= 0");
  }
}

Json PagedItems(const Json& items, int offset, int limit, int64_t total, bool has_more) {
  return Json{{"items", items},
              {"pagination",
               {{"offset", offset}, {"limit", limit}, {"total", total}, {"has_more", has_more}}}};
}

Json ParseBody(const HttpRequest& request) {
  Json body = Json::parse(request.body, nullptr, false);
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
    segments.push_back(std::move(*decoded));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  return segments;
}

}  // namespace dp
