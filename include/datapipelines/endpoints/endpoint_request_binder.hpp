#pragma once
// The request validator of a published endpoint (REST API §19.3, the published-endpoints design
// §5.3): path variables and the query string bound to the released version's declared
// parameters with the strict §6.3 coercion, every defect collected so one 400 names them all.
// Pure: no I/O, no clock.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct EndpointRequestDefect {
  std::string parameter;
  std::string code;  // a catalogued code: endpoint.request.* or pipeline.execution.*
  std::string message;
  Json ToJson() const;
};

struct BoundEndpointRequest {
  Json parameters = Json::object();  // name → wire value, only what the request supplied
  std::vector<EndpointRequestDefect> defects;
  // ?format=json|csv when the pipeline declares no parameter named `format` (the one reserved
  // query key); nullopt when absent.
  std::optional<std::string> format;
};

class EndpointRequestBinder {
 public:
  static constexpr std::size_t kMaxValueBytes = 4096;

  // `path_variables` come from PathPattern::Match (already decoded); `raw_query` is the
  // undecoded text after '?'.
  static BoundEndpointRequest Bind(const std::vector<ParameterDecl>& declared,
                                   const std::map<std::string, std::string>& path_variables,
                                   const std::string& raw_query);

  // A query-string (or path) text as the wire value its declared type takes: INTEGER and
  // DECIMAL as JSON numbers, BOOLEAN as true/false, everything else the string itself. Text
  // that is not of the type's shape stays a string, so the coercion names what is wrong.
  static Json WireValue(const ParameterDecl& parameter, const std::string& text);
};

}  // namespace dp
