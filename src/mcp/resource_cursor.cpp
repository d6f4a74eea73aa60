#include "datapipelines/mcp/resource_cursor.hpp"

#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

constexpr std::string_view kDomain = "datapipelines/resources-list-cursor/v1\n";
constexpr std::size_t kMacBytes = 16;

}  // namespace

ResourceCursor::ResourceCursor(std::string signing_key) : signing_key_(std::move(signing_key)) {}

std::string ResourceCursor::Mac(std::string_view payload, std::string_view api_key_id) const {
  std::string message(kDomain);
  message += api_key_id;
  message += '\n';
  message += payload;
  return HmacSha256(signing_key_, message).substr(0, kMacBytes);
}

std::string ResourceCursor::Issue(const ResourcePosition& position,
                                  std::string_view api_key_id) const {
  std::string payload = Json{{"r", position.rank}, {"k", position.key}}.dump();
  return Base64Encode(payload) + "." + Base64Encode(Mac(payload, api_key_id));
}

std::optional<ResourcePosition> ResourceCursor::Redeem(std::string_view token,
                                                       std::string_view api_key_id) const {
  auto dot = token.find('.');
  if (dot == std::string_view::npos || token.size() > 4096) return std::nullopt;
  try {
    std::string payload = Base64Decode(token.substr(0, dot));
    std::string mac = Base64Decode(token.substr(dot + 1));
    if (!ConstantTimeEquals(mac, Mac(payload, api_key_id))) return std::nullopt;
    // Only the exact issued spelling: a non-canonical base64 variant is an edit too.
    if (Base64Encode(payload) + "." + Base64Encode(mac) != token) return std::nullopt;
    Json decoded = Json::parse(payload);
    ResourcePosition position;
    position.rank = decoded.at("r").get<int>();
    position.key = decoded.at("k").get<std::string>();
    return position;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace dp
