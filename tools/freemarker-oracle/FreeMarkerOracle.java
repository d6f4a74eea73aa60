// Differential oracle for the template engine: renders every golden case of
// tests/template_cases with Apache FreeMarker (the Debian libfreemarker-java jar, 2.3.31),
// configured the way our engine behaves, and compares with the case's expectation.
//
//   java -cp freemarker.jar:<dir> FreeMarkerOracle check    <cases-dir>   exit 1 on any difference
//   java -cp freemarker.jar:<dir> FreeMarkerOracle generate <cases-dir>   write missing expectations
//
// Case layout: template.ftl, data.json (optional), options.json (optional:
// {"mode": "html", "oracle": "skip", "oracle_reason": "..."}), lib_<alias>.ftl libraries
// imported under <alias>, and expected.txt or expected_error.txt (first line: error code).
// Cases marked "oracle": "skip" test our engine's own policy (forbidden constructs, render
// budgets) where FreeMarker deliberately behaves differently; they are listed, not compared.
import freemarker.cache.StringTemplateLoader;
import freemarker.core.Environment;
import freemarker.core.HTMLOutputFormat;
import freemarker.core.ParseException;
import freemarker.core.TemplateClassResolver;
import freemarker.template.Configuration;
import freemarker.template.SimpleObjectWrapper;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

public final class FreeMarkerOracle {
  static final String SYNTAX = "template.validation.syntax_error";
  static final String RENDER = "pipeline.node.template_render_failed";

  public static void main(String[] args) throws Exception {
    // <#attempt> logs every error it recovers from; the oracle compares outputs only.
    System.setProperty("org.freemarker.loggerLibrary", "none");
    if (args.length != 2 || !(args[0].equals("check") || args[0].equals("generate"))) {
      System.err.println("usage: FreeMarkerOracle check|generate <cases-dir>");
      System.exit(2);
    }
    boolean generate = args[0].equals("generate");
    File[] dirs = new File(args[1]).listFiles(File::isDirectory);
    if (dirs == null) throw new IOException("not a directory: " + args[1]);
    Arrays.sort(dirs);
    int compared = 0, skipped = 0, failed = 0, written = 0;
    for (File dir : dirs) {
      Path d = dir.toPath();
      Map<String, Object> options = readJsonObject(d.resolve("options.json"));
      if ("skip".equals(options.get("oracle"))) {
        System.out.println("SKIP  " + dir.getName() + " — " + options.getOrDefault("oracle_reason", "engine policy"));
        skipped++;
        continue;
      }
      Outcome outcome = render(d, options);
      Path expectedOut = d.resolve("expected.txt");
      Path expectedErr = d.resolve("expected_error.txt");
      boolean hasOut = Files.exists(expectedOut), hasErr = Files.exists(expectedErr);
      if (generate && !hasOut && !hasErr) {
        if (outcome.error == null) {
          Files.write(expectedOut, outcome.output.getBytes(StandardCharsets.UTF_8));
        } else {
          Files.write(expectedErr, (outcome.code + "\n").getBytes(StandardCharsets.UTF_8));
        }
        System.out.println("WROTE " + dir.getName() + (outcome.error == null ? "" : " (" + outcome.code + ": " + firstLine(outcome.error) + ")"));
        written++;
        continue;
      }
      compared++;
      String problem = null;
      if (hasOut) {
        String expected = new String(Files.readAllBytes(expectedOut), StandardCharsets.UTF_8);
        if (outcome.error != null) {
          problem = "FreeMarker failed (" + firstLine(outcome.error) + ") but expected.txt exists";
        } else if (!outcome.output.equals(expected)) {
          problem = "output differs\n--- expected.txt\n" + expected + "\n--- FreeMarker\n" + outcome.output;
        }
      } else if (hasErr) {
        String code = new String(Files.readAllBytes(expectedErr), StandardCharsets.UTF_8).split("\n")[0].trim();
        if (outcome.error == null) {
          problem = "FreeMarker rendered successfully but " + code + " is expected:\n" + outcome.output;
        } else if (!outcome.code.equals(code)) {
          problem = "FreeMarker failed with " + outcome.code + " but " + code + " is expected: " + firstLine(outcome.error);
        }
      } else {
        problem = "no expected.txt or expected_error.txt";
      }
      if (problem != null) {
        failed++;
        System.out.println("FAIL  " + dir.getName() + ": " + problem);
      } else {
        System.out.println("OK    " + dir.getName());
      }
    }
    System.out.println("compared=" + compared + " skipped=" + skipped + " failed=" + failed
        + (generate ? " written=" + written : ""));
    System.exit(failed == 0 ? 0 : 1);
  }

  static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  static final class Outcome {
    String output;
    String error;
    String code;
  }

  static Configuration configuration(boolean html, StringTemplateLoader loader) {
    Configuration cfg = new Configuration(Configuration.VERSION_2_3_31);
    cfg.setNumberFormat("computer");
    cfg.setBooleanFormat("c");
    cfg.setLocale(Locale.US);
    cfg.setTimeZone(TimeZone.getTimeZone("UTC"));
    cfg.setNewBuiltinClassResolver(TemplateClassResolver.ALLOWS_NOTHING_RESOLVER);
    cfg.setAPIBuiltinEnabled(false);
    cfg.setObjectWrapper(new SimpleObjectWrapper(Configuration.VERSION_2_3_31));
    cfg.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
    cfg.setLogTemplateExceptions(false);
    cfg.setWrapUncheckedExceptions(true);
    cfg.setTagSyntax(Configuration.ANGLE_BRACKET_TAG_SYNTAX);
    cfg.setInterpolationSyntax(Configuration.LEGACY_INTERPOLATION_SYNTAX);
    cfg.setWhitespaceStripping(true);
    cfg.setTemplateLoader(loader);
    if (html) cfg.setOutputFormat(HTMLOutputFormat.INSTANCE);
    return cfg;
  }

  static Outcome render(Path dir, Map<String, Object> options) throws IOException {
    Outcome outcome = new Outcome();
    String source = new String(Files.readAllBytes(dir.resolve("template.ftl")), StandardCharsets.UTF_8);
    Path dataPath = dir.resolve("data.json");
    Map<String, Object> model = Files.exists(dataPath) ? readJsonObject(dataPath) : new LinkedHashMap<>();
    StringTemplateLoader loader = new StringTemplateLoader();
    List<String> aliases = new ArrayList<>();
    File[] libs = dir.toFile().listFiles((d, n) -> n.startsWith("lib_") && n.endsWith(".ftl"));
    if (libs != null) {
      Arrays.sort(libs);
      for (File lib : libs) {
        String alias = lib.getName().substring(4, lib.getName().length() - 4);
        loader.putTemplate(lib.getName(), new String(Files.readAllBytes(lib.toPath()), StandardCharsets.UTF_8));
        aliases.add(alias);
      }
    }
    Configuration cfg = configuration("html".equals(options.get("mode")), loader);
    Template template;
    try {
      template = new Template("template", new StringReader(source), cfg);
    } catch (ParseException e) {
      outcome.error = e.getMessage();
      outcome.code = SYNTAX;
      return outcome;
    }
    StringWriter out = new StringWriter();
    try {
      Environment env = template.createProcessingEnvironment(model, out);
      for (String alias : aliases) env.importLib("lib_" + alias + ".ftl", alias);
      env.process();
      outcome.output = out.toString();
    } catch (ParseException e) {
      outcome.error = e.getMessage();
      outcome.code = SYNTAX;
    } catch (TemplateException | RuntimeException | StackOverflowError e) {
      outcome.error = String.valueOf(e.getMessage());
      outcome.code = RENDER;
    }
    return outcome;
  }

  // ---- a tiny JSON reader: objects -> LinkedHashMap, arrays -> ArrayList, numbers -> BigDecimal

  static Map<String, Object> readJsonObject(Path path) throws IOException {
    if (!Files.exists(path)) return new LinkedHashMap<>();
    Object value = new Json(new String(Files.readAllBytes(path), StandardCharsets.UTF_8)).parse();
    if (!(value instanceof Map)) throw new IOException(path + ": expected a JSON object");
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) value;
    return map;
  }

  static final class Json {
    private final String s;
    private int i;

    Json(String s) { this.s = s; }

    Object parse() throws IOException {
      Object v = value();
      ws();
      if (i != s.length()) throw err("trailing data");
      return v;
    }

    private IOException err(String m) { return new IOException("JSON " + m + " at offset " + i); }

    private void ws() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private Object value() throws IOException {
      ws();
      if (i >= s.length()) throw err("unexpected end");
      char c = s.charAt(i);
      if (c == '{') return object();
      if (c == '[') return array();
      if (c == '"') return string();
      if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
      if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
      if (s.startsWith("null", i)) { i += 4; return null; }
      return number();
    }

    private Map<String, Object> object() throws IOException {
      Map<String, Object> map = new LinkedHashMap<>();
      i++;
      ws();
      if (s.charAt(i) == '}') { i++; return map; }
      while (true) {
        ws();
        String key = string();
        ws();
        if (s.charAt(i++) != ':') throw err("expected ':'");
        map.put(key, value());
        ws();
        char c = s.charAt(i++);
        if (c == '}') return map;
        if (c != ',') throw err("expected ',' or '}'");
      }
    }

    private List<Object> array() throws IOException {
      List<Object> list = new ArrayList<>();
      i++;
      ws();
      if (s.charAt(i) == ']') { i++; return list; }
      while (true) {
        list.add(value());
        ws();
        char c = s.charAt(i++);
        if (c == ']') return list;
        if (c != ',') throw err("expected ',' or ']'");
      }
    }

    private String string() throws IOException {
      if (s.charAt(i) != '"') throw err("expected a string");
      i++;
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') return b.toString();
        if (c != '\\') { b.append(c); continue; }
        char e = s.charAt(i++);
        switch (e) {
          case 'n': b.append('\n'); break;
          case 'r': b.append('\r'); break;
          case 't': b.append('\t'); break;
          case 'b': b.append('\b'); break;
          case 'f': b.append('\f'); break;
          case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
          default: b.append(e);
        }
      }
    }

    // Integers stay exact; other numbers go through double, as the C++ side (nlohmann) reads
    // them, then to the shortest decimal that round-trips (negative scales normalised to 0).
    private BigDecimal number() throws IOException {
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String text = s.substring(start, i);
      if (text.isEmpty()) throw err("unexpected character");
      if (text.matches("-?\\d+")) return new BigDecimal(text);
      BigDecimal d = new BigDecimal(Double.toString(Double.parseDouble(text)));
      return d.scale() < 0 ? d.setScale(0) : d;
    }
  }
}
