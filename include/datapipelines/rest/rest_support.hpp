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
// The query-string parameters a route reads, by the JSON type they translate to.
struct QueryFields {
  std::vector<const char*> strings = {};
  std::vector<const char*> integers = {};  // whole decimal ints
  std::vector<const char*> booleans = {};  // "true" | "false"
  bool empty_is_absent = false;            // a present-but-empty ?name= is not given at all
};
// The named parameters of the query string as a JSON object of typed members, for the service's
// FromJson both surfaces share (absent parameters stay absent). Only the text is translated: a
// non-integer is request.validation.invalid "'<name>' must be an integer.", a boolean other than
// true/false "'<name>' must be true or false."; ranges and defaults are the service's.
Json QueryArguments(const HttpRequest& request, const QueryFields& fields);
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
