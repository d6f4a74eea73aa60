// dp_bench_template_render: parse the bench template and its library once, then render it
// many times against the same data model; prints µs per render (median of several rounds).
// The FreeMarker twin is bench/template/FreeMarkerRenderBench.java; bench/template-render
// runs both in the same run after checking their outputs are byte-identical.
//
//   dp_bench_template_render <dir> [--print] [--renders=N] [--rounds=R] [--warmup=W]
//   <dir> holds report.ftl, lib_sql.ftl (imported as "sql") and data.json.
//   --print writes one render to stdout and exits (for the byte comparison).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"

namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Fixture {
  dp::ParsedTemplate report;
  dp::ParsedTemplate library;
  dp::Json model;
  std::map<std::string, const dp::ParsedTemplate*> libraries;
};

Fixture Load(const std::filesystem::path& dir) {
  dp::ParseOptions library_options;
  library_options.library = true;
  library_options.name = "lib_sql.ftl";
  dp::ParseOptions report_options;
  report_options.name = "report.ftl";
  Fixture f{dp::TemplateParser::Parse(ReadFile(dir / "report.ftl"), report_options),
            dp::TemplateParser::Parse(ReadFile(dir / "lib_sql.ftl"), library_options),
            dp::Json::parse(ReadFile(dir / "data.json")),
            {}};
  return f;
}

struct Sample {
  double wall_us = 0;  // per render
  double cpu_us = 0;   // per render, process CPU time
};

// One round: `renders` renders. The output size is accumulated so the renders cannot be
// optimised away.
Sample Round(const Fixture& f, long renders, size_t& sink) {
  const double cpu_start = dp::bench::ProcessCpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < renders; ++i) {
    sink += dp::TemplateRenderer::Render(f.report, f.model, {}, f.libraries).size();
  }
  const double n = static_cast<double>(renders);
  return {dp::bench::SecondsSince(start) * 1e6 / n,
          (dp::bench::ProcessCpuSeconds() - cpu_start) * 1e6 / n};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: dp_bench_template_render <dir> [--print] [--renders=N] [--rounds=R]\n";
    return 2;
  }
  return dp::bench::ReportFailures([&] {
    Fixture f = Load(argv[1]);
    f.libraries["sql"] = &f.library;
    if (dp::bench::HasFlag(argc, argv, "--print")) {
      std::cout << dp::TemplateRenderer::Render(f.report, f.model, {}, f.libraries);
      return 0;
    }
    const long renders = dp::bench::FlagValue(argc, argv, "--renders", 20000);
    const long rounds = dp::bench::FlagValue(argc, argv, "--rounds", 5);
    const long warmup = dp::bench::FlagValue(argc, argv, "--warmup", 2000);
    size_t sink = 0;
    Round(f, warmup, sink);
    std::vector<double> wall, cpu;
    for (long r = 0; r < rounds; ++r) {
      const Sample sample = Round(f, renders, sink);
      wall.push_back(sample.wall_us);
      cpu.push_back(sample.cpu_us);
    }
    std::printf(
        "engine=datapipelines us_per_render=%.3f cpu_us_per_render=%.3f renders=%ld rounds=%ld "
        "bytes=%zu\n",
        dp::bench::Median(wall), dp::bench::Median(cpu), renders, rounds,
        sink / (renders * rounds + warmup));
    return 0;
  });
}
