#include "datapipelines/service/docs/skill_docs.hpp"

#include <map>

#include <stdexcept>
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

constexpr std::string_view kMapHeading = "## References";
constexpr std::string_view kReferencePrefix = "references/";

std::string FirstHeading(std::string_view markdown) {
  std::size_t pos = 0;
  while (pos < markdown.size()) {
    auto end = markdown.find('\n', pos);
    std::string_view line = markdown.substr(pos, end == std::string_view::npos ? end : end - pos);
    if (line.rfind("# ", 0) == 0) return std::string(line.substr(2));
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return "";
}

struct MapLine {
  std::string name;
  std::string purpose;
};

// Lines "- [name](references/name.md) — purpose" under "## References".
std::vector<MapLine> ParseMap(std::string_view skill) {
  std::vector<MapLine> lines;
  auto start = skill.find(kMapHeading);
  if (start == std::string_view::npos) return lines;
  std::size_t pos = skill.find('\n', start);
  while (pos != std::string_view::npos && pos + 1 < skill.size()) {
    auto end = skill.find('\n', pos + 1);
    std::string_view line =
        skill.substr(pos + 1, end == std::string_view::npos ? end : end - pos - 1);
    pos = end;
    if (line.rfind("## ", 0) == 0) break;
    if (line.rfind("- [", 0) != 0) continue;
    auto close = line.find("](");
    auto paren = line.find(')', close);
    if (close == std::string_view::npos || paren == std::string_view::npos) continue;
    MapLine entry;
    entry.name = std::string(line.substr(3, close - 3));
    std::string_view rest = line.substr(paren + 1);
    for (std::string_view dash : {" — ", " - ", " – "}) {
      if (rest.rfind(dash, 0) == 0) {
        rest.remove_prefix(dash.size());
        break;
      }
    }
    entry.purpose = std::string(rest);
    lines.push_back(std::move(entry));
  }
  return lines;
}

// The operating core has no map line of its own (it holds the map).
constexpr std::string_view kSkillPurpose =
    "open this first: how to work with this server — the workflow, the rules every call follows "
    "and the map of the references below.";

}  // namespace

SkillDocs::SkillDocs(std::span<const EmbeddedFile> files) {
  std::string_view skill;
  std::map<std::string, std::string_view> references;
  for (const auto& file : files) {
    if (file.path == "SKILL.md") {
      skill = file.bytes;
    } else if (file.path == "INSTRUCTIONS.md") {
      instructions_ = file.bytes;
    } else if (file.path.rfind(kReferencePrefix, 0) == 0 && file.path.size() > 3 &&
               file.path.substr(file.path.size() - 3) == ".md") {
      std::string_view name = file.path.substr(kReferencePrefix.size());
      references.emplace(std::string(name.substr(0, name.size() - 3)), file.bytes);
    }
  }
  if (skill.empty()) throw std::runtime_error("skill: SKILL.md is not packaged");
  docs_.push_back({"skill", FirstHeading(skill), std::string(kSkillPurpose), skill});
  for (auto& line : ParseMap(skill)) {
    auto it = references.find(line.name);
    if (it == references.end()) {
      throw std::runtime_error("skill: map line '" + line.name + "' has no references/" +
                               line.name + ".md");
    }
    docs_.push_back({line.name, FirstHeading(it->second), line.purpose, it->second});
    references.erase(it);
  }
  if (!references.empty()) {
    throw std::runtime_error("skill: references/" + references.begin()->first +
                             ".md has no line in the SKILL.md map");
  }
}

const SkillDoc* SkillDocs::Find(std::string_view name) const {
  if (name.size() > 3 && name.substr(name.size() - 3) == ".md") name.remove_suffix(3);
  for (const auto& doc : docs_) {
    if (doc.name == name) return &doc;
  }
  return nullptr;
}

std::vector<std::string> SkillDocs::Names() const {
  std::vector<std::string> names;
  for (const auto& doc : docs_) names.push_back(doc.name);
  return names;
}

const SkillDoc& SkillDocs::Require(std::string_view name) const {
  if (const SkillDoc* doc = Find(name)) return *doc;
  throw DomainError(errc::kDocNotFound, "No skill document named '" + std::string(name) + "'.",
                    Json{{"name", std::string(name)}, {"known_docs", Names()}});
}

const SkillDocs& BuiltInSkillDocs() {
  static const SkillDocs kDocs(EmbeddedSkillFiles());
  return kDocs;
}

}  // namespace dp
