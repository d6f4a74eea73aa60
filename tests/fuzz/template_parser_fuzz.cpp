// libFuzzer target for the template engine: any byte string must either parse or fail with a
// DomainError, and any parsed template must render or fail with a DomainError, within the
// render guards — never crash, leak, hang or throw anything else.
//
// Wired by cmake/fuzz.cmake as the ctest test integration.template_fuzz (tests/fuzz/run_fuzz.sh
// compiles it with clang++ -fsanitize=fuzzer,address,undefined and runs it for a bounded time
// over the seed corpus of tests/template_cases). Inputs of odd length are parsed in html mode,
// even length in sql mode, so both output formats are exercised from the same corpus; a fixed
// library is bound under the alias "lib" for <@lib.m/> and lib.f() calls.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"

namespace {

const dp::ParsedTemplate& Library() {
  static const dp::ParsedTemplate library = [] {
    dp::ParseOptions options;
    options.library = true;
    options.name = "lib";
    return dp::TemplateParser::Parse(
        "<#macro m a b=2><#nested a/>${a}${b}</#macro>\n"
        "<#function f x><#return x * 2></#function>\n",
        options);
  }();
  return library;
}

const dp::Json& Model() {
  static const dp::Json model = {{"name", "Ada"},
                                 {"n", 3},
                                 {"x", 1.5},
                                 {"flag", true},
                                 {"xs", {1, 2, 3}},
                                 {"names", {"a", "b'c", "<d>"}},
                                 {"h", {{"a", 1}, {"b", "two"}}},
                                 {"rows", {{{"id", 1}, {"v", nullptr}}, {{"id", 2}, {"v", "x"}}}}};
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  dp::ParseOptions parse_options;
  parse_options.max_body_chars = 65536;
  parse_options.mode = size % 2 ? dp::TemplateMode::kHtml : dp::TemplateMode::kSql;
  try {
    dp::ParsedTemplate tmpl = dp::TemplateParser::Parse(body, parse_options);
    dp::RenderOptions render_options;
    render_options.max_steps = 20000;
    render_options.max_output_bytes = 1 << 16;
    render_options.max_call_depth = 50;
    const std::map<std::string, const dp::ParsedTemplate*> libraries = {{"lib", &Library()}};
    dp::TemplateRenderer::Render(tmpl, Model(), render_options, libraries);
  } catch (const dp::DomainError&) {
    // Refusals and render failures are expected outcomes.
  }
  return 0;
}
