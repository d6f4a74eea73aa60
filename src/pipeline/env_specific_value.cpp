#include "pipeline/env_specific_value.hpp"

#include <array>
#include <cctype>
#include <functional>
#include <vector>

#include "datapipelines/util/ascii.hpp"

namespace dp {
namespace {

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool IsHostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
}

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Maximal runs of [a-z0-9.-] — the candidates for host names, IPs and host:port.
std::vector<std::string_view> HostTokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || !IsHostChar(text[i])) {
      if (i > start) tokens.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return tokens;
}

std::vector<std::string_view> Labels(std::string_view token) {
  std::vector<std::string_view> labels;
  size_t start = 0;
  for (size_t i = 0; i <= token.size(); ++i) {
    if (i == token.size() || token[i] == '.') {
      labels.push_back(token.substr(start, i - start));
      start = i + 1;
    }
  }
  return labels;
}

bool IsJdbcUrl(std::string_view lower) { return lower.rfind("jdbc:", 0) == 0; }

// [a-z0-9-]+\.[a-z0-9-.]+:[0-9]+ anywhere, and localhost[:port].
bool HasHostPort(std::string_view lower) {
  if (lower.find("localhost") != std::string_view::npos) return true;
  for (size_t colon = lower.find(':'); colon != std::string_view::npos;
       colon = lower.find(':', colon + 1)) {
    if (colon + 1 >= lower.size() || !std::isdigit(static_cast<unsigned char>(lower[colon + 1]))) {
      continue;
    }
    size_t start = colon;
    while (start > 0 && IsHostChar(lower[start - 1])) --start;
    const std::string_view host = lower.substr(start, colon - start);
    const size_t dot = host.find('.');
    if (dot != std::string_view::npos && dot > 0 && dot + 1 < host.size()) return true;
  }
  return false;
}

bool HasKnownTldHost(std::string_view lower) {
  static constexpr std::array<std::string_view, 20> kTlds = {
      "com",   "net", "org",      "io",   "co",  "edu",   "gov",       "biz", "info", "cloud",
      "local", "lan", "internal", "corp", "aws", "azure", "amazonaws", "app", "svc",  "intra"};
  for (auto token : HostTokens(lower)) {
    const auto labels = Labels(token);
    if (labels.size() < 2) continue;
    bool all_named = true;
    for (auto label : labels) all_named = all_named && !label.empty();
    if (!all_named) continue;
    for (auto tld : kTlds) {
      if (labels.back() == tld) return true;
    }
  }
  return false;
}

bool HasIpAddress(std::string_view lower) {
  for (auto token : HostTokens(lower)) {
    const auto labels = Labels(token);
    if (labels.size() != 4) continue;
    bool quad = true;
    for (auto label : labels) {
      quad = quad && AsciiAllDigits(label) && label.size() <= 3 &&
             std::stoi(std::string(label)) <= 255;
    }
    if (quad) return true;
  }
  // Bracketed IPv6: [hex and colons, at least two colons].
  for (size_t open = lower.find('['); open != std::string_view::npos;
       open = lower.find('[', open + 1)) {
    size_t colons = 0;
    size_t i = open + 1;
    while (i < lower.size() && (IsHex(lower[i]) || lower[i] == ':')) colons += lower[i++] == ':';
    if (i < lower.size() && lower[i] == ']' && colons >= 2) return true;
  }
  return false;
}

bool HasUuid(std::string_view lower) {
  static constexpr std::array<size_t, 4> kDashes = {8, 13, 18, 23};
  constexpr size_t kLength = 36;
  for (size_t start = 0; start + kLength <= lower.size(); ++start) {
    bool match = true;
    for (size_t i = 0; i < kLength && match; ++i) {
      const bool dash = i == kDashes[0] || i == kDashes[1] || i == kDashes[2] || i == kDashes[3];
      match = dash ? lower[start + i] == '-' : IsHex(lower[start + i]);
    }
    if (match) return true;
  }
  return false;
}

bool HasCredential(std::string_view lower) {
  static constexpr std::array<std::string_view, 4> kFragments = {
      "password=", "pwd=", "token=", "secret="};
  for (auto fragment : kFragments) {
    if (lower.find(fragment) != std::string_view::npos) return true;
  }
  return lower.rfind("dpk_", 0) == 0;
}

bool IsAbsolutePath(std::string_view text) {
  if (text.empty()) return false;
  if (text[0] == '/' || text[0] == '\\') return true;
  return text.size() >= 3 && std::isalpha(static_cast<unsigned char>(text[0])) && text[1] == ':' &&
         (text[2] == '\\' || text[2] == '/');
}

bool IsEnvironmentLiteral(std::string_view lower) {
  return lower == "dev" || lower == "staging" || lower == "prod" || lower == "production";
}

struct Heuristic {
  const char* name;
  bool (*matches)(std::string_view lower);
};

// Order matters only for which name is reported: the most specific shape first.
constexpr std::array<Heuristic, 8> kHeuristics = {{
    {"jdbc_url", IsJdbcUrl},
    {"credential", HasCredential},
    {"uuid", HasUuid},
    {"ip_address", HasIpAddress},
    {"host_port", HasHostPort},
    {"hostname", HasKnownTldHost},
    {"absolute_path", IsAbsolutePath},
    {"environment_literal", IsEnvironmentLiteral},
}};

}  // namespace

std::optional<std::string> EnvSpecificPattern(std::string_view value) {
  if (value.size() > kEnvScanMaxLength) return std::nullopt;
  const std::string lower = Lower(value);
  for (const auto& heuristic : kHeuristics) {
    if (heuristic.matches(lower)) return std::string(heuristic.name);
  }
  return std::nullopt;
}

}  // namespace dp
