#pragma once
// Request parsing and response shapes every /api/v1 resource shares.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/net/http_message.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// The body as a JSON object; request.validation.invalid otherwise.
Json ParseBody(const HttpRequest& request);
// body[field] as a string; request.validation.invalid naming the field otherwise.
std::string RequiredString(const Json& body, const char* field);
// request.validation.invalid naming `field`: "'<field>' <what>."
DomainError InvalidField(const std::string& field, const std::string& what);
// `text` as a whole decimal int; request.validation.invalid naming `field` otherwise.
int ParseIntField(const std::string& text, const std::string& field);
// ?limit= (1..200) and ?offset= (>= 0) of a listing, left unchanged when absent.
void ParseListWindow(const HttpRequest& request, int& limit, int& offset);
// The flat listing envelope of rest-api §4.3: {items, pagination: {offset, limit, total,
// has_more}}.
Json PagedItems(const Json& items, int offset, int limit, int64_t total, bool has_more);
// 204 with no body.
HttpResponse NoContent();
// The path below `prefix` split on '/', percent-decoded ("/a/b%2Fc" → ["a", "b/c"]);
// nullopt when `path` is not `prefix` or below it.
std::optional<std::vector<std::string>> PathSegmentsBelow(std::string_view path,
                                                          std::string_view prefix);

}  // namespace dp
