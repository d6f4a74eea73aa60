"""Random expression cases: 25 expressions a template (slices, string built-ins with non-ASCII
and control characters, escapers, ?url, ?truncate, ?sort, lambda streams), each inside
<#attempt>...<#recover>E</#attempt> so success and failure are both compared with FreeMarker.

    python3 tools/freemarker-oracle/random_expression_cases.py <seed> <out-dir> <count>

Generate the expectations with FreeMarkerOracle generate <out-dir>, copy the folders into
tests/template_cases and run dp_unit_template. expr_random_* are samples of seeds 1 and 11.
"""
import random, os, sys, json
random.seed(int(sys.argv[1])); out = sys.argv[2]; count = int(sys.argv[3])
pool = list("abcAB ._-/<>!?]'\"\\é☺\t\n") + ["\u2028", "\u0001", "\u007f", "\u0085", "-->", "]]>", "</", "<!"]
def rstr(n=None):
    n = random.randint(0, 7) if n is None else n
    return "".join(random.choice(pool) for _ in range(n))
def lit(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\u2028", "\\x2028").replace("\u0001", "\\x0001").replace("\u007f", "\\x007F").replace("\u0085", "\\x0085") + '"'
def num(): return str(random.randint(-2, 9))
def expr():
    r = random.random()
    s = "s%d" % random.randint(0, 2)
    if r < 0.2:
        op = random.choice(["..", "..<", "..*", ".."])
        return "%s[%s%s%s]" % (s, num(), op, "" if random.random() < 0.15 and op == ".." else num())
    if r < 0.3:
        return "xs[%s%s%s]?join(',')" % (num(), random.choice(["..", "..<", "..*"]), num())
    if r < 0.5:
        b = random.choice(["index_of", "last_index_of"])
        return "%s?%s(%s%s)" % (s, b, lit(rstr(random.randint(0, 2))), ", " + num() if random.random() < 0.5 else "")
    if r < 0.55:
        return "%s?substring(%s, %s)" % (s, num(), num())
    if r < 0.62:
        return "%s?%s(%s, %s)" % (s, random.choice(["left_pad", "right_pad"]), num(), lit(rstr(random.randint(1, 3))))
    if r < 0.7:
        return "%s?%s(%s)" % (s, random.choice(["truncate", "truncate_w", "truncate_c"]), num())
    if r < 0.78:
        return "%s?%s" % (s, random.choice(["js_string", "json_string", "j_string", "length", "trim", "cap_first", "uncap_first", "capitalize", "upper_case", "lower_case", "chop_linebreak", "word_list?join('|')", "html", "xml", "xhtml"]))
    if r < 0.82:
        return "%s?url('%s')" % (s, random.choice(["UTF-8", "ISO-8859-1"]))
    if r < 0.86:
        return "%s?%s(%s)" % (s, random.choice(["keep_after", "keep_before", "keep_after_last", "keep_before_last", "remove_beginning", "remove_ending", "ensure_starts_with", "ensure_ends_with", "contains", "starts_with", "ends_with"]), lit(rstr(random.randint(0, 2))))
    if r < 0.9:
        return "ws?sort?join('|')"
    if r < 0.95:
        ops = []
        for _ in range(random.randint(1, 3)):
            k = random.choice(["filter", "map", "take_while", "drop_while"])
            if k == "map":
                ops.append("?map(x -> x %s %s)" % (random.choice(["+", "*", "-"]), random.randint(0, 3)))
            else:
                ops.append("?%s(x -> x %s %s)" % (k, random.choice(["<", ">", "==", "!="]), random.randint(-2, 9)))
        tail = random.choice(["?join(',')", "?size", "?first!'none'", "?seq_index_of(%d)" % random.randint(0, 6), "?seq_contains(%d)?c" % random.randint(0, 6)])
        return "ns" + "".join(ops) + tail
    return "%s?split(%s)?join('|')" % (s, lit(rstr(random.randint(0, 1))))
for n in range(count):
    d = os.path.join(out, "zz_expr_%03d" % n)
    os.makedirs(d, exist_ok=True)
    data = {"s0": rstr(), "s1": rstr(), "s2": rstr(9), "xs": [1, 2, 3, 4, 5], "ns": [random.randint(0, 6) for _ in range(random.randint(0, 7))],
            "ws": ["".join(random.choice("aAbB_- .1") for _ in range(random.randint(0, 3))) for _ in range(6)]}
    json.dump(data, open(os.path.join(d, "data.json"), "w"))
    body = "".join("[<#attempt>${%s}<#recover>E</#attempt>]\n" % expr() for _ in range(25))
    body += "<#compress>%s</#compress>\n" % rstr(12).replace("<", "x").replace("$", "x").replace("#", "x")
    open(os.path.join(d, "template.ftl"), "w").write(body)
