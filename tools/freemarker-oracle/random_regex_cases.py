"""Random regular-expression cases: 12 regex built-in calls a template (?matches as boolean, as
match list with ?groups, ?replace with $n / \\$ replacements, ?split, ?keep_*,
?ensure_starts_with) over random Java regexes (classes, anchors, quantifiers lazy and
possessive, groups, lookaround, back references, \\Q..\\E, \\b, \\R, \\p{..}, inline flags) and
random flags ("rimscf"), on subjects with line terminators, non-ASCII and astral characters.
Each call sits inside <#attempt>...<#recover>E</#attempt> so success and failure are both
compared with FreeMarker.

    python3 tools/freemarker-oracle/random_regex_cases.py <seed> <out-dir> <count>

Generate the expectations with FreeMarkerOracle generate <out-dir>, then run dp_unit_template
with DP_TEMPLATE_CASES_DIR=<out-dir>. A regex the engine refuses (unsupported_construct) is a
refusal, not a difference; every other mismatch is a bug. regex_random_* are samples.
"""
import json
import os
import random
import sys

random.seed(int(sys.argv[1]))
out = sys.argv[2]
count = int(sys.argv[3])

SUBJECT_CHARS = list("aaabbcAB01 _-.,;:/é") + ["\n", "\r\n", "\r", "\t", "\u2028", "\u0085", "😀", "É", "ß", "\u00a0"]
LITERALS = list("abcAB01 _-,:/é") + ["\\.", "\\-", "\\/", "\\t", "\\n", "\\r", "\\x41", "\\u00e9", "\\Q.*\\E", "😀"]
CLASS_ITEMS = ["a", "b", "c", "A", "0-9", "a-c", "A-Z", "\\d", "\\s", "\\w", "é", "_", "\\-", ".", "\\p{L}", "\\p{Lu}", "\\p{Punct}", "\\t"]
SIMPLE = [".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\h", "\\R", "\\p{L}", "\\p{Lower}", "\\p{Alpha}", "\\P{Digit}", "\\p{javaLowerCase}", "\\p{Nd}"]
ANCHORS = ["^", "$", "\\b", "\\B", "\\A", "\\z", "\\Z"]


def subject():
    return "".join(random.choice(SUBJECT_CHARS) for _ in range(random.randint(0, 10)))


def char_class():
    items = "".join(random.choice(CLASS_ITEMS) for _ in range(random.randint(1, 3)))
    return "[" + ("^" if random.random() < 0.25 else "") + items + "]"


def quantifier():
    q = random.choice(["*", "+", "?", "{2}", "{1,2}", "{0,}", "{1,3}"])
    r = random.random()
    if r < 0.2:
        q += "?"
    elif r < 0.3:
        q += "+"
    return q


class Gen:
    def __init__(self):
        self.groups = 0
        self.case_insensitive = False

    def atom(self, depth):
        r = random.random()
        if r < 0.35:
            return random.choice(LITERALS)
        if r < 0.5:
            return random.choice(SIMPLE)
        if r < 0.62:
            return char_class()
        if r < 0.72 and depth < 2:
            return self.group(depth + 1)
        if r < 0.78 and depth < 2:
            kind = random.choice(["(?=", "(?!", "(?<=", "(?<!", "(?>", "(?:"])
            body = random.choice(LITERALS) if kind.startswith("(?<") else self.seq(depth + 1)
            return kind + body + ")"
        if r < 0.82 and self.groups and not self.case_insensitive:
            return "\\%d" % random.randint(1, self.groups)
        return random.choice(LITERALS)

    def group(self, depth):
        if random.random() < 0.15:
            self.groups += 1
            return "(?<g%d>" % self.groups + self.seq(depth) + ")"
        self.groups += 1
        return "(" + self.seq(depth) + ")"

    def piece(self, depth):
        if random.random() < 0.12:
            return random.choice(ANCHORS)
        a = self.atom(depth)
        # Groups are quantified less often: a repeated capturing group that can match empty is
        # refused, and would hide the rest of the template from the comparison.
        if random.random() < (0.12 if a.endswith(")") else 0.35):
            a += quantifier()
        return a

    def seq(self, depth):
        parts = "".join(self.piece(depth) for _ in range(random.randint(1, 3)))
        if random.random() < 0.15:
            parts += "|" + "".join(self.piece(depth) for _ in range(random.randint(0, 2)))
        return parts

    def regex(self, flags):
        self.groups = 0
        self.case_insensitive = "i" in flags
        prefix = ""
        if random.random() < 0.08:
            prefix = random.choice(["(?i)", "(?m)", "(?s)", "(?x)", "(?-i)"])
            if "i" in prefix and "-" not in prefix:
                self.case_insensitive = True
        return prefix + self.seq(0)


def flags():
    f = "".join(c for c in "rimscf" if random.random() < 0.3)
    return f


def ftl(s):  # a raw FTL string literal (the pools hold no double quotes)
    return 'r"' + s + '"'


def replacement(groups):
    parts = []
    for _ in range(random.randint(0, 3)):
        r = random.random()
        if r < 0.3:
            parts.append("$%d" % random.randint(0, groups))
        elif r < 0.4:
            parts.append("\\$")
        elif r < 0.45 and groups:
            parts.append("${g1}")
        else:
            parts.append(random.choice(["<", ">", "-", "x", "é", ""]))
    return "".join(parts)


def call(gen, var):
    f = flags()
    kind = random.choice(["matches_bool", "matches_list", "matches_groups", "replace", "replace", "split", "keep", "ensure"])
    if kind.startswith("matches"):
        re_ = gen.regex(f)
        fl = (", " + ftl(f)) if random.random() < 0.6 else ""
        if kind == "matches_bool":
            return "%s?matches(%s%s)?c" % (var, ftl(re_), fl)
        if kind == "matches_list":
            return "%s?matches(%s%s)?join('|')" % (var, ftl(re_), fl)
        return ("%s?matches(%s%s)?map(m -> m?groups?map(g -> g!'~')?join(','))?join('|')"
                % (var, ftl(re_), fl))
    if "r" not in f and random.random() < 0.7:
        f = "r" + f
    re_ = gen.regex(f)
    if kind == "replace":
        return "%s?replace(%s, %s, %s)" % (var, ftl(re_), ftl(replacement(gen.groups)), ftl(f))
    if kind == "split":
        return "%s?split(%s, %s)?join('|')" % (var, ftl(re_), ftl(f))
    if kind == "keep":
        b = random.choice(["keep_before", "keep_after", "keep_before_last", "keep_after_last"])
        return "%s?%s(%s, %s)" % (var, b, ftl(re_), ftl(f))
    if random.random() < 0.5:
        return "%s?ensure_starts_with(%s, 'P')" % (var, ftl(re_))
    return "%s?ensure_starts_with(%s, 'P', %s)" % (var, ftl(re_), ftl(f))


os.makedirs(out, exist_ok=True)
for i in range(count):
    gen = Gen()
    data = {"s%d" % k: subject() for k in range(3)}
    lines = []
    for _ in range(12):
        expr = call(gen, "s%d" % random.randint(0, 2))
        lines.append("<#attempt>[${%s}]<#recover>E</#attempt>" % expr)
    d = os.path.join(out, "regex_random_%d_%04d" % (int(sys.argv[1]), i))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "template.ftl"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    with open(os.path.join(d, "data.json"), "w") as fh:
        json.dump(data, fh, ensure_ascii=False)
        fh.write("\n")
