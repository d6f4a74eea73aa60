#include "template/syntax/template_validator.hpp"

#include <optional>

#include "template/evaluation/builtins/builtin_names.hpp"

namespace dp::tmpl {
namespace {

std::optional<Violation> ScanExpr(const Expr* expr) {
  if (!expr) return std::nullopt;
  if (expr->IsBuiltInOf(BuiltInFamily::kForbidden)) {
    return Violation{"?" + expr->name, expr->pos};
  }
  for (const auto& arg : expr->args) {
    if (auto v = ScanExpr(arg.get())) return v;
  }
  for (const auto& arg : expr->call_args) {
    if (auto v = ScanExpr(arg.get())) return v;
  }
  return std::nullopt;
}

std::optional<Violation> ScanNode(const Node* node) {
  if (node->kind == NodeKind::kForbidden) return Violation{node->text, node->begin};
  for (const auto& expr : node->exprs) {
    if (auto v = ScanExpr(expr.get())) return v;
  }
  for (const auto& param : node->params) {
    if (auto v = ScanExpr(param.default_value.get())) return v;
  }
  for (const auto& arg : node->named_args) {
    if (auto v = ScanExpr(arg.second.get())) return v;
  }
  for (const auto& child : node->children) {
    if (auto v = ScanNode(child.get())) return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Violation> TemplateValidator::FindDangerousConstruct(const TemplateAst& ast) {
  return ScanNode(ast.root.get());
}

bool TemplateValidator::IsLibraryBody(const TemplateAst& ast) {
  bool has_definition = false;
  for (const auto& child : ast.root->children) {
    switch (child->kind) {
      case NodeKind::kMacro:
      case NodeKind::kFunction:
        has_definition = true;
        break;
      case NodeKind::kComment:
        break;
      case NodeKind::kText:
        if (child->text.find_first_not_of(" \t\r\n") != std::string::npos) return false;
        break;
      default:
        return false;
    }
  }
  return has_definition;
}

}  // namespace dp::tmpl
