#include "datapipelines/service/templates/template_id.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr size_t kMaxSegmentChars = 64;

// Splits on '/' and checks every segment; returns the segment count, or -1 when one is bad.
int CountValidSegments(std::string_view path) {
  int count = 0;
  while (true) {
    size_t slash = path.find('/');
    if (!IsTemplateSegment(path.substr(0, slash))) return -1;
    ++count;
    if (slash == std::string_view::npos) return count;
    path.remove_prefix(slash + 1);
  }
}

}  // namespace

bool IsTemplateSegment(std::string_view segment) {
  if (segment.empty() || segment.size() > kMaxSegmentChars) return false;
  for (size_t i = 0; i < segment.size(); ++i) {
    char c = segment[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '.' && c != '-'))) return false;
  }
  return true;
}

bool IsTemplateId(std::string_view id) {
  int segments = CountValidSegments(id);
  return segments >= 2 && segments <= 10;
}

bool IsTemplateFolderPath(std::string_view path) {
  int segments = CountValidSegments(path);
  return segments >= 1 && segments <= 9;
}

void ValidateTemplateId(std::string_view id) {
  if (IsTemplateId(id)) return;
  bool bare = CountValidSegments(id) == 1;
  throw DomainError(
      errc::kTemplateIdInvalid,
      bare ? "A template id is a folder path: put it in a folder (e.g. test/" + std::string(id) +
                 " or <owner>/lib/" + std::string(id) + ")."
           : std::string("A template id is 2-10 lower-case '/'-separated segments, each "
                         "[a-z0-9][a-z0-9_.-]{0,63}."),
      Json{{"reason", bare ? "folder_required" : "pattern"}, {"id", std::string(id)}});
}

std::string TemplateRoot(std::string_view id) { return std::string(id.substr(0, id.find('/'))); }

std::string GenerateTestTemplateId() {
  return "test/tpl_" + Sha256Hex(RandomBytes(16)).substr(0, 12);
}

}  // namespace dp
