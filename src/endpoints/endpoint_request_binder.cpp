#include "datapipelines/endpoints/endpoint_request_binder.hpp"

#include <cctype>
#include <set>

#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "datapipelines/util/percent_encoding.hpp"

namespace dp {
namespace {

constexpr const char* kUnknown = "endpoint.request.parameter_unknown";
constexpr const char* kRepeated = "endpoint.request.parameter_repeated";
constexpr const char* kTooLarge = "endpoint.request.value_too_large";
constexpr const char* kRequired = "pipeline.execution.parameter_required";
constexpr const char* kBadType = "pipeline.execution.invalid_parameter_type";
constexpr const char* kInvalid = "request.validation.invalid";
constexpr const char* kFormat = "result.format_unsupported";

// Form decoding of one query component: '+' is a space, then RFC 3986 percent-decoding.
std::optional<std::string> DecodeComponent(std::string text) {
  for (char& c : text) {
    if (c == '+') c = ' ';
  }
  return PercentDecode(text);
}

bool IsJsonNumber(const std::string& text) {
  if (text.empty()) return false;
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_number();
}

}  // namespace

Json EndpointRequestDefect::ToJson() const {
  return Json{{"parameter", parameter}, {"code", code}, {"message", message}};
}

Json EndpointRequestBinder::WireValue(const ParameterDecl& parameter, const std::string& text) {
  if ((parameter.type == "INTEGER" || parameter.type == "DECIMAL") && IsJsonNumber(text)) {
    return Json::parse(text);
  }
  if (parameter.type == "BOOLEAN" && (text == "true" || text == "false")) return text == "true";
  return text;
}

BoundEndpointRequest EndpointRequestBinder::Bind(
    const std::vector<ParameterDecl>& declared,
    const std::map<std::string, std::string>& path_variables, const std::string& raw_query) {
  BoundEndpointRequest out;
  std::map<std::string, const ParameterDecl*> by_name;
  for (const auto& p : declared) by_name[p.name] = &p;
  const bool format_reserved = by_name.count("format") == 0;
  auto defect = [&out](std::string parameter, const char* code, std::string message) {
    out.defects.push_back({std::move(parameter), code, std::move(message)});
  };

  // Every supplied text, by parameter name: the path first (the URL decides), then the query.
  std::map<std::string, std::string> texts(path_variables.begin(), path_variables.end());
  std::set<std::string> reported;  // one repeated/unknown defect per key
  std::size_t start = 0;
  while (start <= raw_query.size() && !raw_query.empty()) {
    std::size_t end = raw_query.find('&', start);
    if (end == std::string::npos) end = raw_query.size();
    std::string piece = raw_query.substr(start, end - start);
    start = end + 1;
    if (piece.empty()) continue;
    std::size_t eq = piece.find('=');
    auto key = DecodeComponent(piece.substr(0, eq));
    auto value = DecodeComponent(eq == std::string::npos ? "" : piece.substr(eq + 1));
    if (!key || !value) {
      defect(key.value_or(piece.substr(0, eq)), kInvalid,
             "The query component is not valid percent-encoding.");
      continue;
    }
    if (format_reserved && *key == "format") {
      if (out.format) {
        if (reported.insert(*key).second) {
          defect(*key, kRepeated, "'format' appears more than once in the query string.");
        }
      } else if (*value != "json" && *value != "csv") {
        defect(*key, kFormat, "format is json or csv.");
        out.format = *value;
      } else {
        out.format = *value;
      }
      continue;
    }
    if (!by_name.count(*key)) {
      if (reported.insert(*key).second) {
        defect(*key, kUnknown,
               "'" + *key +
                   "' is not a parameter of this endpoint's pipeline; a misspelt name "
                   "would silently run the default, so it is refused.");
      }
      continue;
    }
    if (texts.count(*key)) {
      if (reported.insert(*key).second) {
        defect(*key, kRepeated,
               path_variables.count(*key)
                   ? "'" + *key + "' is bound by the path; the URL decides, not the query string."
                   : "'" + *key + "' appears more than once; an endpoint takes one value each.");
      }
      continue;
    }
    texts[*key] = *value;
  }

  for (const auto& p : declared) {
    auto it = texts.find(p.name);
    if (it == texts.end()) {
      if (p.required && !p.default_value) {
        defect(p.name, kRequired, "'" + p.name + "' is required and has no default.");
      }
      continue;
    }
    if (reported.count(p.name)) continue;
    if (it->second.size() > kMaxValueBytes) {
      defect(p.name, kTooLarge, "The value of '" + p.name + "' is longer than 4 KB.");
      continue;
    }
    Json wire = WireValue(p, it->second);
    if (auto failure = CoercionFailure(p, wire)) {
      defect(p.name, kBadType, "'" + p.name + "' (" + p.type + ") " + *failure + ".");
      continue;
    }
    out.parameters[p.name] = std::move(wire);
  }
  return out;
}

}  // namespace dp
