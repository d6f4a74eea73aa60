"""Random number and sequence expression cases: arithmetic on integers and decimals, ?string
patterns, rounding, ?c, comparisons, ranges, ?chunk/?reverse/?sort/?min/?max, ?then/?switch and
defaults, 25 expressions a template inside <#attempt>...<#recover>E</#attempt>.

    python3 tools/freemarker-oracle/random_number_cases.py <seed> <out-dir> <count>

Generate expectations with FreeMarkerOracle generate <out-dir>, copy into tests/template_cases
and run dp_unit_template; num_random_* are samples.
"""
import json
import os
import random
import sys

random.seed(int(sys.argv[1]))
out = sys.argv[2]
count = int(sys.argv[3])
nums = ["0", "1", "2", "7", "10", "0.5", "1.25", "2.675", "-3", "-0.5", "100", "1234567.891", "0.001", "999999", "3.14159"]
pats = ["currency", "number", "percent", "computer", "0", "0.0", "0.00", "0.##", "#,##0", "#,##0.00", "0%", "0.0%", "000", "#.#", "00.00", "#,###", ",##0.0#"]


def n():
    return random.choice(nums + ["a", "b", "c", "d"])


def expr():
    r = random.random()
    if r < 0.25:
        return "(%s %s %s)?c" % (n(), random.choice(["+", "-", "*", "/", "%"]), n())
    if r < 0.4:
        return "(%s)?string('%s')" % (n(), random.choice(pats))
    if r < 0.5:
        return "(%s)?%s" % (n(), random.choice(["round", "floor", "ceiling", "abs", "int", "c", "string", "is_infinite?c", "lower_abc", "upper_abc"]))
    if r < 0.6:
        return "(%s %s %s)?c" % (n(), random.choice(["==", "!=", "<", "<=", ">", ">="]), n())
    if r < 0.7:
        lo, hi = random.randint(-3, 5), random.randint(-3, 5)
        return "(%d%s%d)?join(',')" % (lo, random.choice(["..", "..<", "..*"]), hi)
    if r < 0.8:
        return "xs?%s" % random.choice(["reverse?join(',')", "sort?join(',')", "min", "max", "size", "first", "last",
                                         "chunk(%d)?map(c -> c?join('+'))?join(' ')" % random.randint(1, 4),
                                         "chunk(%d, 0)?size" % random.randint(1, 4), "seq_contains(%s)?c" % n()])
    if r < 0.9:
        return "(%s > %s)?then('yes', 'no')" % (n(), n())
    return "(%s)?switch(1, 'one', 2, 'two', 'other')" % n()


for i in range(count):
    d = os.path.join(out, "zz_num_%03d" % i)
    os.makedirs(d, exist_ok=True)
    data = {"a": random.choice([3, -7, 0, 12]), "b": random.choice([0.1, 2.5, -1.75, 1e-05]),
            "c": random.choice([1000000, 7, 19.99]), "d": random.choice([0, 1, 2]),
            "xs": [random.choice([1, 2, 3, 2.5, -1, 10]) for _ in range(random.randint(0, 6))]}
    json.dump(data, open(os.path.join(d, "data.json"), "w"))
    body = "".join("[<#attempt>${%s}<#recover>E</#attempt>]\n" % expr() for _ in range(25))
    open(os.path.join(d, "template.ftl"), "w").write(body)
