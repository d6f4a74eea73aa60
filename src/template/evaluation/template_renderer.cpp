#include "datapipelines/template/evaluation/template_renderer.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "template/evaluation/evaluator.hpp"
#include "template/evaluation/value_pool.hpp"

namespace dp {

std::string TemplateRenderer::Render(
    const ParsedTemplate& tmpl, const Json& data_model, const RenderOptions& options,
    const std::map<std::string, const ParsedTemplate*>& libraries) {
  tmpl::Evaluator evaluator(options, tmpl.mode(), tmpl.name());
  try {
    return evaluator.Run(tmpl, data_model, libraries);
  } catch (const tmpl::RenderError& error) {
    Json details = {{"reason", error.reason},
                    {"line", error.pos.line},
                    {"column", error.pos.column},
                    {"template", tmpl.name()}};
    if (error.extra.is_object()) {
      for (auto it = error.extra.begin(); it != error.extra.end(); ++it)
        details[it.key()] = it.value();
    }
    throw DomainError(errc::kTemplateRenderFailed,
                      "Template " + tmpl.name() + " failed to render: " + error.message, details);
  } catch (const tmpl::ValuePool::Exhausted&) {
    throw DomainError(errc::kTemplateRenderFailed,
                      "Template " + tmpl.name() + " failed to render: its values exceed the " +
                          std::to_string(options.max_memory_bytes) + "-byte memory budget",
                      Json{{"reason", "memory_budget_exceeded"},
                           {"template", tmpl.name()},
                           {"max_memory_bytes", options.max_memory_bytes}});
  }
}

}  // namespace dp
