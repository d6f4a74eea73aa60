// The Apache FreeMarker 2.3.31 side of bench/template-render: the same template, library and
// data model as dp_bench_template_render, with the Configuration of the differential oracle
// (tools/freemarker-oracle/FreeMarkerOracle.java, compiled alongside: its configuration() and
// JSON reader are reused so both sides see the same settings and the same model).
//
//   java -cp freemarker.jar:<classes> FreeMarkerRenderBench <dir> [--print]
//        [--renders=N] [--rounds=R] [--warmup=W]
//
// The template is parsed once; each render creates a processing environment, imports the
// library under "sql" (served from FreeMarker's template cache, parsed once) and processes.
// The JIT is warmed up with W renders before the timed rounds.
import freemarker.cache.StringTemplateLoader;
import freemarker.core.Environment;
import freemarker.template.Configuration;
import freemarker.template.Template;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;

public final class FreeMarkerRenderBench {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: FreeMarkerRenderBench <dir> [--print] [--renders=N] [--rounds=R] [--warmup=W]");
      System.exit(2);
    }
    Path dir = Paths.get(args[0]);
    StringTemplateLoader loader = new StringTemplateLoader();
    loader.putTemplate("lib_sql.ftl", read(dir.resolve("lib_sql.ftl")));
    Configuration cfg = FreeMarkerOracle.configuration(false, loader);
    // The loader never changes: no staleness checks during the timed renders.
    cfg.setTemplateUpdateDelayMilliseconds(Long.MAX_VALUE);
    Template template = new Template("report.ftl", new StringReader(read(dir.resolve("report.ftl"))), cfg);
    Map<String, Object> model = FreeMarkerOracle.readJsonObject(dir.resolve("data.json"));

    if (Arrays.asList(args).contains("--print")) {
      System.out.print(render(template, model));
      System.out.flush();
      return;
    }
    int renders = flag(args, "--renders", 20000);
    int rounds = flag(args, "--rounds", 5);
    int warmup = flag(args, "--warmup", 50000);
    long sink = 0;
    for (int i = 0; i < warmup; i++) sink += render(template, model).length();
    // Process CPU time (all JVM threads: the JIT and GC work a render causes is charged too).
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    double[] wall = new double[rounds];
    double[] cpu = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long cpuStart = os.getProcessCpuTime();
      long start = System.nanoTime();
      for (int i = 0; i < renders; i++) sink += render(template, model).length();
      wall[r] = (System.nanoTime() - start) / 1000.0 / renders;
      cpu[r] = (os.getProcessCpuTime() - cpuStart) / 1000.0 / renders;
    }
    System.out.printf(java.util.Locale.ROOT,
        "engine=freemarker version=%s java=%s us_per_render=%.3f cpu_us_per_render=%.3f renders=%d rounds=%d bytes=%d%n",
        Configuration.getVersion(), System.getProperty("java.version"), median(wall), median(cpu), renders, rounds, sink / ((long) renders * rounds + warmup));
  }

  static double median(double[] samples) {
    double[] s = samples.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static String render(Template template, Map<String, Object> model) throws Exception {
    StringWriter out = new StringWriter(2048);
    Environment env = template.createProcessingEnvironment(model, out);
    env.importLib("lib_sql.ftl", "sql");
    env.process();
    return out.toString();
  }

  static String read(Path path) throws Exception {
    return new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
  }

  static int flag(String[] args, String name, int fallback) {
    for (String a : args) {
      if (a.startsWith(name + "=")) return Integer.parseInt(a.substring(name.length() + 1));
    }
    return fallback;
  }
}
