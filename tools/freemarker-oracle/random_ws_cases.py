"""Random white-space-stripping cases: templates of text, line breaks, tabs and the directives
that take part in FreeMarker's stripping (#if, #list, #assign, comments, #t/#lt/#rt/#nt,
#compress, #attempt, #noparse, macros), written as golden-case folders without expectations.

    python3 tools/freemarker-oracle/random_ws_cases.py <seed> <out-dir> <count>

Let the oracle write the expectations (FreeMarkerOracle generate <out-dir>), copy the folders into
tests/template_cases and run dp_unit_template: any difference is a stripping bug. The
ws_random_* cases are a sample of three runs (seeds 1, 2, 3) kept as regression cases.
"""
import random, os, sys
random.seed(int(sys.argv[1]))
out = sys.argv[2]; count = int(sys.argv[3])
texts = ["a", "b ", " c", "  ", "\n", "\n  ", "  \n", "x\n", "\t", "\r\n", " y z ", "\n\n"]
def block(depth):
    parts = []
    for _ in range(random.randint(1, 5)):
        r = random.random()
        if r < 0.35 or depth > 2:
            parts.append(random.choice(texts))
        elif r < 0.45:
            parts.append(random.choice(["<#t>", "<#lt>", "<#rt>", "<#nt>"]))
        elif r < 0.52:
            parts.append("${1}")
        elif r < 0.58:
            parts.append(random.choice(["<#assign v = 1>", "<#setting locale=\"en_US\">"]))
        elif r < 0.62:
            parts.append("<#-- c -->")
        elif r < 0.72:
            parts.append("<#if true>" + block(depth + 1) + "</#if>")
        elif r < 0.80:
            parts.append("<#list 1..2 as i>" + block(depth + 1) + "</#list>")
        elif r < 0.85:
            parts.append("<#if false>" + block(depth + 1) + "<#else>" + block(depth + 1) + "</#if>")
        elif r < 0.90:
            parts.append("<#compress>" + block(depth + 1) + "</#compress>")
        elif r < 0.95:
            parts.append("<#attempt>" + block(depth + 1) + "<#recover>" + block(depth + 1) + "</#attempt>")
        else:
            parts.append("<#noparse>" + random.choice(texts) + "</#noparse>")
    return "".join(parts)
for n in range(count):
    d = os.path.join(out, "zz_rand_%03d" % n)
    os.makedirs(d, exist_ok=True)
    body = block(0)
    if random.random() < 0.3:
        body = "<#macro m>" + block(1) + "</#macro>" + block(0) + "<@m/>" + block(0)
    open(os.path.join(d, "template.ftl"), "w").write(body)
