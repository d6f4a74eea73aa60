#!/usr/bin/env python3
"""Extracts the MCP tool catalog from the spec text into one JSON file per tool.

    tools/tool-catalog/extract.py --spec SPEC --auth AUTH --write src/mcp/catalog
    tools/tool-catalog/extract.py --spec SPEC --auth AUTH --check src/mcp/catalog

order.json is the §6.1 list (the order tools/list serves). Each file src/mcp/catalog/<tool>.json is {name, description, inputSchema, scope, mutating}:
  - description and inputSchema: the tool's §6.2 JSON block, verbatim except the ENGINE_WORDING
    phrases (where the spec names H2 as the staging engine, this server runs SQLite: a
    description must never lie);
  - scope: the tool's row in the authoritative auth §7.6 MCP table, which must agree with the
    tool's own §6.2 "Scope:" line where it has one;
  - mutating: §14's known writers plus every §6.2 section that declares its tool mutating.
pipelines_update has no block of its own (§6.2.5 is prose): its schema is pipelines_create's
plus the required id and expected_hash, and its description is authored here from that prose,
so it is kept from the checked-in file.

--check exits 1 naming every file that differs from what the spec gives (the build embeds the
checked-in files, so a drift is a catalog that no longer says what the spec says). When the
spec text is absent (a clone without it), --check says so and passes: the files stand.
"""

import argparse
import json
import os
import re
import sys

ENGINE_WORDING = [
    ("against an EMPTY scratch H2 in the staging mode (no staged tables, no data)",
     "against an EMPTY scratch tempdb \u2014 a private in-memory SQLite database, the engine "
     "executions stage into (no staged tables, no data)"),
    ("means H2 stopped at the first staged table it could not find",
     "means SQLite stopped at the first staged table it could not find"),
    ("an error is a real H2 error (a syntax slip, a `VALUES` column named column1 where H2 says "
     "C1)",
     "an error is a real SQLite error (a syntax slip, a misspelled column or function)"),
    ("to prepare a staging (H2) statement against an empty scratch engine",
     "to prepare a staging statement against an empty scratch tempdb (SQLite)"),
    ("means H2 stopped at a staged table that exists only inside a full execution",
     "means SQLite stopped at a staged table that exists only inside a full execution"),
]

# Sections whose wording declares their tool mutating (besides §14's known-writer list).
MUTATING_DECLARATIONS = re.compile(r"\bMutating\b|[Dd]eclared mutating|declares the tool mutating")

# Writers whose own section does not say so. §14: "a read tool declared mutating is a harmless
# over-audit; a mutating tool declared read is the hole".
UNDECLARED_WRITERS = {
    # §4.1: "it opens a live connection and writes the datasource's health down".
    "datasources_test",
    # v1.19: they publish and unpublish an endpoint row (REST POST/DELETE /api/v1/endpoints);
    # the "Mutating." after §6.2.26 is the removed datasources_create's leftover.
    "endpoints_create", "endpoints_delete",
}


def engine_wording(text):
    for spec_phrase, ours in ENGINE_WORDING:
        text = text.replace(spec_phrase, ours)
    return text


def match_brace(text, open_at):
    """Index of the brace closing the object opening at open_at, honouring strings."""
    depth, in_string, i = 0, False, open_at
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unbalanced JSON block at offset %d" % open_at)


def tool_sections(spec):
    """{tool: its §6.2 section text}, from its heading to the next 6.2.N heading."""
    heads = list(re.finditer(r"^6\.2\.[0-9]+[a-z]? ([a-z_]+)$", spec, re.M))
    sections = {}
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else spec.find("\n7.", head.end())
        sections[head.group(1)] = spec[head.start():end]
    return sections


def tool_blocks(spec):
    """{tool: its JSON definition block}: a line "{" then a line "\"name\": \"<tool>\",". """
    blocks = {}
    for head in re.finditer(r'\n\{[ \t\r]*\n"name": "([a-z_]+)",', spec):
        open_at = head.start() + 1
        block = json.loads(spec[open_at:match_brace(spec, open_at) + 1])
        if "inputSchema" in block:
            if head.group(1) in blocks:
                raise ValueError("two §6.2 blocks for " + head.group(1))
            blocks[head.group(1)] = block
    return blocks


def matrix_scopes(auth):
    """{tool: min scope} from the auth §7.6 "MCP tools" table."""
    table = auth[auth.index("**MCP tools**"):]
    table = table[:table.index("\n\n", table.index("| Tool |"))]
    scopes = {}
    for row in table.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].startswith("`"):
            continue
        for tool in re.findall(r"`([a-z_]+)`", cells[0].split(" \u2014 ")[0]):
            scopes[tool] = cells[1].strip("`")
    return scopes


def known_writers(spec):
    """§14's list: "... or a known writer (a, b, ... and since 140 f — ...) is flagged read"."""
    audit = spec[spec.index("\n14. Audit"):]
    listed = audit[audit.index("known writer ("):]
    listed = listed[:listed.index(") is flagged")]
    return set(re.findall(r"\b([a-z]+_[a-z_]+)\b", listed))


def section61_order(spec, names):
    """The §6.1 list: the tool names run together on the line after "Tools are named"."""
    line = spec[spec.index("Tools are named {domain}_{action}:"):].splitlines()[1].strip()
    order, at = [], 0
    longest_first = sorted(names, key=len, reverse=True)
    while at < len(line):
        name = next((n for n in longest_first if line.startswith(n, at)), None)
        if name is None:
            raise ValueError("§6.1 names an unknown tool at: " + line[at:at + 40])
        order.append(name)
        at += len(name)
    return order


def extract(spec, auth, checked_in):
    """{file name: text} the spec gives for every tool of the §6.1 list."""
    blocks = tool_blocks(spec)
    sections = tool_sections(spec)
    scopes = matrix_scopes(auth)
    writers = known_writers(spec)
    files = {}
    for name, section in sections.items():
        if name not in blocks and name != "pipelines_update":
            continue
        scope_line = re.search(r"^Scope: (read|execute|author)\b", section, re.M)
        if scope_line and scope_line.group(1) != scopes[name]:
            raise ValueError("%s: §6.2 says scope %s, auth §7.6 says %s"
                             % (name, scope_line.group(1), scopes[name]))
        if name == "pipelines_update":
            tool = pipelines_update(blocks["pipelines_create"], checked_in)
        else:
            tool = {"name": name,
                    "description": engine_wording(blocks[name]["description"]),
                    "inputSchema": json.loads(engine_wording(
                        json.dumps(blocks[name]["inputSchema"], ensure_ascii=False)))}
        tool["scope"] = scopes[name]
        tool["mutating"] = (name in writers or name in UNDECLARED_WRITERS
                            or bool(MUTATING_DECLARATIONS.search(section)))
        files[name + ".json"] = json.dumps(tool, indent=2, ensure_ascii=False) + "\n"
    if len(files) != len(scopes):
        raise ValueError("the spec names %d tools, auth §7.6 %d" % (len(files), len(scopes)))
    order = section61_order(spec, [name[:-len(".json")] for name in files])
    if sorted(order) != sorted(name[:-len(".json")] for name in files):
        raise ValueError("§6.1 lists other tools than §6.2 defines")
    files["order.json"] = json.dumps(order, indent=2) + "\n"
    return files


def pipelines_update(create, checked_in):
    """§6.2.5: "Same input as pipelines_create plus required id and required expected_hash"."""
    kept = checked_in.get("pipelines_update.json")
    if kept is None:
        raise ValueError("pipelines_update.json must exist: its description is authored")
    kept = json.loads(kept)
    schema = json.loads(json.dumps(create["inputSchema"]))
    # The two added properties' wording is authored with the description.
    properties = {key: kept["inputSchema"]["properties"][key] for key in ("id", "expected_hash")}
    if properties["id"].get("format") != "uuid" or properties["expected_hash"]["type"] != "string":
        raise ValueError("pipelines_update.json: id must be a uuid string, expected_hash a string")
    properties.update(schema["properties"])
    schema["properties"] = properties
    schema["required"] = ["id", "expected_hash"] + schema.get("required", [])
    ordered = {"type": schema.pop("type"), "required": schema.pop("required")}
    ordered.update(schema)
    return {"name": "pipelines_update", "description": kept["description"], "inputSchema": ordered}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True)
    parser.add_argument("--auth", required=True)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="DIR")
    mode.add_argument("--check", metavar="DIR")
    args = parser.parse_args()
    folder = args.write or args.check
    checked_in = {f: read(os.path.join(folder, f))
                  for f in sorted(os.listdir(folder)) if f.endswith(".json")}
    if not (os.path.exists(args.spec) and os.path.exists(args.auth)):
        if args.write:
            sys.exit("the spec text is not here: nothing to extract from")
        print("tool catalog: the spec text is not in this checkout; the %d checked-in files "
              "stand" % len(checked_in))
        return
    files = extract(read(args.spec), read(args.auth), checked_in)
    if args.write:
        for name in set(checked_in) - set(files):
            os.remove(os.path.join(folder, name))
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
        print("tool catalog: wrote %d files into %s" % (len(files), folder))
        return
    drifted = sorted(name for name in set(files) | set(checked_in)
                     if files.get(name) != checked_in.get(name))
    for name in drifted:
        print("tool catalog drift: %s %s" % (
            name, "is not in the spec" if name not in files else
            "is missing" if name not in checked_in else "differs from the spec"))
    if drifted:
        print("regenerate with: tools/tool-catalog/extract.py --spec ... --auth ... --write %s"
              % folder)
        sys.exit(1)
    print("tool catalog: %d files agree with the spec" % len(files))


if __name__ == "__main__":
    main()
