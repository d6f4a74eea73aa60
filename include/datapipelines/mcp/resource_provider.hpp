#pragma once
// One kind of entity resource (spec §7.1) behind McpServer's resources/list and resources/read.
// A provider translates URIs to ONE service call with the caller's Principal; the service
// decides visibility, so another workspace's entity fails exactly like a missing one.
#include <optional>
#include <string_view>

#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class ResourceProvider {
 public:
  virtual ~ResourceProvider() = default;

  // The §7.3 kind ("pipelines", "templates", "datasources", "executions"): resources/list
  // enumerates kinds in that order whatever the registration order.
  virtual std::string_view Kind() const = 0;

  // The descriptors ({uri, name, title?, description?, mimeType}) the caller may read, by id.
  // A DomainError (access refused) leaves the kind out of the listing.
  virtual Json List(const Principal& principal) = 0;

  // The resources/read `contents` array for `uri`, or nullopt when the URI is not this
  // provider's. A URI it owns that names nothing readable throws DomainError (a 404 or 400
  // code reads as RESOURCE_NOT_FOUND, 401/403 as forbidden).
  virtual std::optional<Json> Read(const Principal& principal, std::string_view uri) = 0;

  // The resources/templates/list entries ({uriTemplate, name, description, mimeType}) that
  // tell a client which URIs this provider reads without enumerating them.
  virtual Json UriTemplates() const = 0;
};

// One text entry of a resources/read `contents` array.
inline Json TextResourceContents(std::string_view uri, std::string_view mime_type,
                                 std::string text) {
  return Json{
      {"uri", std::string(uri)}, {"mimeType", std::string(mime_type)}, {"text", std::move(text)}};
}

}  // namespace dp
