// libFuzzer target for the template engine: any byte string must either parse or fail with a
// DomainError, and any parsed template must render or fail with a DomainError, within the
// render guards — never crash, hang or throw anything else. Not wired into CMake; build with
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
//     tests/fuzz/template_parser_fuzz.cpp src/template/*.cpp src/domain/domain_error.cpp \
//     src/domain/error_codes.cpp -o template_parser_fuzz
//   ./template_parser_fuzz -max_total_time=60 tests/template_cases/*/template.ftl
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/template/template_parser.hpp"
#include "datapipelines/template/template_renderer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  dp::ParseOptions parse_options;
  parse_options.max_body_chars = 65536;
  try {
    dp::ParsedTemplate tmpl = dp::TemplateParser::Parse(body, parse_options);
    dp::RenderOptions render_options;
    render_options.max_steps = 20000;
    render_options.max_output_bytes = 1 << 16;
    render_options.max_call_depth = 50;
    const dp::Json model = {{"name", "Ada"}, {"n", 3}, {"xs", {1, 2, 3}}, {"h", {{"a", 1}}}};
    dp::TemplateRenderer::Render(tmpl, model, render_options);
  } catch (const dp::DomainError&) {
    // Refusals and render failures are expected outcomes.
  }
  return 0;
}
