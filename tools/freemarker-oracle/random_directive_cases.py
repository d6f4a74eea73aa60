"""Random directive programs: nested #list (with #sep, #else, #break, #continue, ?index,
?has_next), #if/#elseif, #switch, #attempt, #assign/#global/#local, macros with <#nested> loop
variables and functions, printing as they go; compared with FreeMarker like the other
generators.

    python3 tools/freemarker-oracle/random_directive_cases.py <seed> <out-dir> <count>
"""
import os
import random
import sys

random.seed(int(sys.argv[1]))
out = sys.argv[2]
count = int(sys.argv[3])
names = ["a", "b", "c", "x", "y"]


def val(loops):
    r = random.random()
    if loops and r < 0.4:
        v = random.choice(loops)
        return random.choice([v, v + "?index", v + "?counter", "(" + v + "?has_next)?c", v + " * 2"])
    if r < 0.6:
        return random.choice(names) + "!0"
    if r < 0.7:
        return "f(%d)" % random.randint(0, 3)
    return str(random.randint(0, 5))


def block(depth, loops, in_macro):
    parts = []
    for _ in range(random.randint(1, 4)):
        r = random.random()
        if r < 0.25 or depth > 3:
            parts.append("${%s} " % val(loops))
        elif r < 0.35:
            parts.append("<#%s %s = %s>" % (random.choice(["assign", "global"] + (["local"] if in_macro else [])),
                                             random.choice(names), val(loops)))
        elif r < 0.5:
            v = "i%d" % depth
            body = block(depth + 1, loops + [v], in_macro)
            if random.random() < 0.3:
                body += "<#sep>,</#sep>"
            if random.random() < 0.2:
                body = "<#if %s == %d><#%s></#if>" % (v, random.randint(0, 3), random.choice(["break", "continue"])) + body
            tail = "<#else>empty" if random.random() < 0.2 else ""
            src = random.choice(["1..3", "[]", "[4, 5]", "0..<2", "(1..4)?filter(n -> n != 2)"])
            parts.append("<#list %s as %s>%s%s</#list>" % (src, v, body, tail))
        elif r < 0.62:
            parts.append("<#if %s gt %d>%s<#elseif %s == 1>E<#else>%s</#if>" % (
                val(loops), random.randint(0, 3), block(depth + 1, loops, in_macro), val(loops), block(depth + 1, loops, in_macro)))
        elif r < 0.7:
            parts.append("<#switch %s><#case 1>one<#case 2>two<#break><#default>d</#switch>" % val(loops))
        elif r < 0.8:
            parts.append("<#attempt>%s${nope}<#recover>R</#attempt>" % block(depth + 1, loops, in_macro))
        elif r < 0.9 and not in_macro:
            parts.append("<@m %s; p, q>[${p}:${q!'-'}|%s]</@m>" % (val(loops), block(depth + 1, loops + ["p"][:0], in_macro)))
        else:
            parts.append(random.choice(["\n", " ", "\n  "]))
    return "".join(parts)


for i in range(count):
    d = os.path.join(out, "zz_dir_%03d" % i)
    os.makedirs(d, exist_ok=True)
    head = ("<#function f n><#return n * 10></#function>"
            "<#macro m k><#local a = k><#list 1..2 as j><#nested j, a></#list>%s</#macro>" % block(1, [], True))
    open(os.path.join(d, "template.ftl"), "w").write(head + block(0, [], False) + "|${a!'na'} ${b!'nb'} ${x!'nx'}")
