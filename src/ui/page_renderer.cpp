#include "datapipelines/ui/page_renderer.hpp"

#include <stdexcept>

#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"
#include "datapipelines/ui/ui_assets.hpp"

namespace dp {
namespace {

constexpr std::string_view kSuffix = ".ftl";
constexpr std::string_view kLayout = "layout";

}  // namespace

PageRenderer::PageRenderer() {
  for (const EmbeddedFile& file : EmbeddedUiTemplates()) {
    std::string_view path = file.path;
    if (path.size() <= kSuffix.size() || path.substr(path.size() - kSuffix.size()) != kSuffix) {
      continue;
    }
    std::string name(path.substr(0, path.size() - kSuffix.size()));
    ParseOptions options;
    options.mode = TemplateMode::kHtml;
    options.name = "ui/" + std::string(path);
    options.library = name == kLayout;
    auto parsed =
        std::make_shared<const ParsedTemplate>(TemplateParser::Parse(file.bytes, options));
    if (name == kLayout) {
      layout_ = std::move(parsed);
    } else {
      pages_[name] = std::move(parsed);
    }
  }
  if (!layout_) throw std::runtime_error("ui: layout.ftl is not embedded");
}

std::string PageRenderer::Render(const std::string& page, const Json& model) const {
  auto it = pages_.find(page);
  if (it == pages_.end()) throw std::runtime_error("ui: no page template " + page);
  RenderOptions options;
  options.timeout_ms = 2000;
  return TemplateRenderer::Render(*it->second, model, options, {{"layout", layout_.get()}});
}

}  // namespace dp
