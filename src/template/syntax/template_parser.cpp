#include "datapipelines/template/syntax/template_parser.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "template/evaluation/value_pool.hpp"
#include "template/syntax/ast_builder.hpp"
#include "template/syntax/template_validator.hpp"
#include "template/syntax/whitespace_stripper.hpp"

namespace dp {

ParsedTemplate TemplateParser::Parse(std::string_view body, const ParseOptions& options) {
  if (body.size() > options.max_body_chars) {
    throw DomainError(errc::kTemplateSyntaxError,
                      "Template body exceeds the maximum length of " +
                          std::to_string(options.max_body_chars) + " characters",
                      Json{{"reason", "body_too_long"},
                           {"max_body_chars", options.max_body_chars},
                           {"template", options.name}});
  }
  // Parse-time literal values outlive any render: keep them off a render's value pool.
  tmpl::ValuePool::Scope no_pool(nullptr);
  tmpl::AstBuilder builder(body, options.max_nesting_depth, options.mode == TemplateMode::kHtml);
  std::shared_ptr<tmpl::TemplateAst> ast;
  try {
    ast = builder.Build();
  } catch (const tmpl::SyntaxError& error) {
    const tmpl::SourcePos pos = builder.PosAt(error.offset);
    Json details{{"line", pos.line}, {"column", pos.column}, {"template", options.name}};
    if (!error.unsupported.empty()) {
      details["reason"] = "unsupported_construct";
      details["construct"] = error.unsupported;
    }
    throw DomainError(errc::kTemplateSyntaxError,
                      "Syntax error in " + options.name + " at line " + std::to_string(pos.line) +
                          ", column " + std::to_string(pos.column) + ": " + error.message,
                      details);
  }
  if (auto violation = tmpl::TemplateValidator::FindDangerousConstruct(*ast)) {
    throw DomainError(errc::kTemplateDangerousConstruct,
                      "Forbidden construct " + violation->construct + " at line " +
                          std::to_string(violation->pos.line) + ", column " +
                          std::to_string(violation->pos.column),
                      Json{{"construct", violation->construct},
                           {"line", violation->pos.line},
                           {"column", violation->pos.column},
                           {"template", options.name}});
  }
  tmpl::WhitespaceStripper::Strip(ast->root.get());
  ast->name = options.name;
  if (options.library && !tmpl::TemplateValidator::IsLibraryBody(*ast)) {
    throw DomainError(errc::kTemplateLibraryWithoutMacros,
                      "A library body may contain only <#macro>/<#function> definitions and "
                      "must define at least one",
                      Json{{"template", options.name}});
  }
  return ParsedTemplate(std::move(ast), options.mode);
}

}  // namespace dp
