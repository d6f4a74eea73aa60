#pragma once
// Request parsing and response shapes every /api/v1 resource shares.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/net/http_message.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// The body as a JSON object; request.validation.invalid otherwise.
Json ParseBody(const HttpRequest& request);
// body[field] as a string; request.validation.invalid naming the field otherwise.
std::string RequiredString(const Json& body, const char* field);
// 204 with no body.
HttpResponse NoContent();
// The path below `prefix` split on '/', percent-decoded ("/a/b%2Fc" → ["a", "b/c"]);
// nullopt when `path` is not `prefix` or below it.
std::optional<std::vector<std::string>> PathSegmentsBelow(std::string_view path,
                                                          std::string_view prefix);

}  // namespace dp
