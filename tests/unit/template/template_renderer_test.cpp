// TemplateRenderer API behaviour beyond the golden cases: error details, guards, library
// binding (including transitive imports) and concurrent rendering of one parsed template.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"

namespace dp {
namespace {

std::string Render(std::string_view body, const Json& model = Json::object(),
                   const RenderOptions& options = {}) {
  return TemplateRenderer::Render(TemplateParser::Parse(body), model, options);
}

DomainError RenderError(std::string_view body, const Json& model = Json::object(),
                        const RenderOptions& options = {}) {
  try {
    Render(body, model, options);
  } catch (const DomainError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a render failure for: " << body;
  return DomainError(errc::kInternal, "no error");
}

TEST(TemplateRenderer, MissingVariableNamesItAndItsPosition) {
  DomainError error = RenderError("SELECT *\nFROM t WHERE a = ${start_date}");
  EXPECT_EQ(error.code(), errc::kTemplateRenderFailed);
  EXPECT_EQ(error.details()["reason"], "undefined_variable");
  EXPECT_EQ(error.details()["variable"], "start_date");
  EXPECT_EQ(error.details()["line"], 2);
  EXPECT_EQ(error.details()["column"], 20);
}

TEST(TemplateRenderer, StepBudgetStopsRunawayLoops) {
  RenderOptions options;
  options.max_steps = 10000;
  DomainError error = RenderError("<#list 1..2000000000 as i></#list>", Json::object(), options);
  EXPECT_EQ(error.details()["reason"], "step_budget_exceeded");
}

TEST(TemplateRenderer, TimeLimitStopsARenderTheStepBudgetWouldAllow) {
  RenderOptions options;
  options.max_steps = UINT64_MAX;
  options.timeout_ms = 50;
  auto started = std::chrono::steady_clock::now();
  DomainError error = RenderError("<#list 1..2000000000 as i></#list>", Json::object(), options);
  EXPECT_EQ(error.details()["reason"], "render_timeout");
  EXPECT_EQ(error.details()["timeout_ms"], 50);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(TemplateRenderer, NoTimeLimitLeavesTheStepBudgetInCharge) {
  RenderOptions options;
  options.max_steps = 5000;
  options.timeout_ms = 0;
  DomainError error = RenderError("<#list 1..2000000000 as i></#list>", Json::object(), options);
  EXPECT_EQ(error.details()["reason"], "step_budget_exceeded");
}

TEST(TemplateRenderer, StringGrowthIsBoundedWithoutWritingOutput) {
  RenderOptions options;
  options.max_output_bytes = 1 << 20;
  DomainError error = RenderError("<#assign s='x'><#list 1..64 as i><#assign s=s+s></#list>",
                                  Json::object(), options);
  EXPECT_EQ(error.details()["reason"], "output_limit_exceeded");
}

TEST(TemplateRenderer, OutputCapApplies) {
  RenderOptions options;
  options.max_output_bytes = 100;
  EXPECT_EQ(
      RenderError("<#list 1..1000 as i>x</#list>", Json::object(), options).details()["reason"],
      "output_limit_exceeded");
  EXPECT_EQ(Render("<#list 1..100 as i>x</#list>", Json::object(), options).size(), 100u);
}

TEST(TemplateRenderer, RecursionIsBounded) {
  EXPECT_EQ(RenderError("<#macro m><@m/></#macro><@m/>").details()["reason"],
            "call_depth_exceeded");
}

TEST(TemplateRenderer, DeepRecursionThroughNestedDirectivesIsBounded) {
  // Recursion depth x directive nesting is capped before it can exhaust a worker's stack.
  std::string body = "<#macro m n>";
  for (int i = 0; i < 150; ++i) body += "<#if true>";
  body += "<@m n=n+1/>";
  for (int i = 0; i < 150; ++i) body += "</#if>";
  body += "</#macro><@m n=0/>";
  EXPECT_EQ(RenderError(body).details()["reason"], "call_depth_exceeded");
}

TEST(TemplateRenderer, LibrariesAreBoundUnderAliases) {
  ParseOptions lib_options;
  lib_options.library = true;
  ParsedTemplate dates = TemplateParser::Parse(
      "<#macro range col lo hi>${col} BETWEEN '${lo}' AND '${hi}'</#macro>", lib_options);
  ParsedTemplate main = TemplateParser::Parse("WHERE <@d.range col='day' lo=a hi=b/>");
  EXPECT_EQ(TemplateRenderer::Render(main, Json{{"a", "2026-01-01"}, {"b", "2026-02-01"}}, {},
                                     {{"d", &dates}}),
            "WHERE day BETWEEN '2026-01-01' AND '2026-02-01'");
}

TEST(TemplateRenderer, LibrariesImportOtherLibrariesTransitively) {
  ParseOptions lib_options;
  lib_options.library = true;
  auto quoting = std::make_shared<const ParsedTemplate>(
      TemplateParser::Parse("<#function q s><#return \"'\" + s + \"'\"></#function>", lib_options));
  ParsedTemplate filters =
      TemplateParser::Parse("<#macro eq col v>${col} = ${qt.q(v)}</#macro>", lib_options)
          .WithImports({{"qt", quoting}});
  ParsedTemplate main = TemplateParser::Parse("WHERE <@f.eq col='name' v=who/>");
  EXPECT_EQ(TemplateRenderer::Render(main, Json{{"who", "Ada"}}, {}, {{"f", &filters}}),
            "WHERE name = 'Ada'");
}

TEST(TemplateRenderer, HtmlModeEscapes) {
  ParseOptions html;
  html.mode = TemplateMode::kHtml;
  EXPECT_EQ(TemplateRenderer::Render(TemplateParser::Parse("<b>${x}</b>", html),
                                     Json{{"x", "<a href='x'>&</a>"}}),
            "<b>&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;</b>");
}

TEST(TemplateRenderer, ParsedTemplateIsSharedAcrossThreads) {
  const ParsedTemplate tmpl =
      TemplateParser::Parse("<#list items as i>${i * factor}<#sep>,</#list>");
  std::vector<std::thread> threads;
  std::vector<std::string> results(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 200; ++k) {
        results[t] = TemplateRenderer::Render(tmpl, Json{{"items", {1, 2, 3}}, {"factor", t}});
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(results[t],
              std::to_string(t) + "," + std::to_string(2 * t) + "," + std::to_string(3 * t));
  }
}

TEST(TemplateRenderer, NumbersRenderPlainAndExact) {
  EXPECT_EQ(
      Render("${a} ${b} ${c} ${a / 3}", Json{{"a", 10}, {"b", 9223372036854775807LL}, {"c", 0.5}}),
      "10 9223372036854775807 0.5 3.333333333333");
}

}  // namespace
}  // namespace dp
