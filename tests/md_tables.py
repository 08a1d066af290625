#!/usr/bin/env python3
"""A strict reader of the pipe tables bpfbench's --md writes (GitHub's rules).

md_tables.py [--merged] FILE prints the tables as JSON, [{"section", "header",
"rows"}], or exits 1 naming the first line that is not a well-formed table part: a
block of '|' lines must be a header, a delimiter row of ---, :---, ---: cells,
then rows with exactly the header's number of cells.  Code blocks are refused:
a figure in a code block is no table cell.  --merged: a section's tables of
Steps as one (the columns past 120 go on in a table under the first, keyed
by the same Step); a table of its own (map-batch's op x batch) stays apart.
"""
import json
import re
import sys

DELIM = re.compile(r"^:?-{3,}:?$")


def cells(line):
    """The cells of '| a | b \\| c |' as ['a', 'b | c']."""
    if not (line.startswith("|") and line.endswith("|")) or line.endswith("\\|"):
        raise ValueError("a table line must start and end with an unescaped '|'")
    parts, cur, i = [], "", 1
    while i < len(line) - 1:
        if line[i] == "\\" and i + 1 < len(line) - 1:
            cur += line[i + 1]
            i += 2
            continue
        if line[i] == "|":
            parts.append(cur.strip())
            cur = ""
        else:
            cur += line[i]
        i += 1
    parts.append(cur.strip())
    return parts


def tables(text):
    out, section, block = [], None, []
    lines = text.split("\n") + [""]
    for no, line in enumerate(lines, 1):
        if line.startswith("```"):
            raise ValueError("line %d: a code block" % no)
        if line.startswith("|"):
            block.append((no, line))
            continue
        if block:
            out.append(table(section, block))
            block = []
        if line.startswith("## "):
            section = line[3:]
    return out


def table(section, block):
    if len(block) < 2:
        raise ValueError("line %d: a table needs a header and a delimiter row" % block[0][0])
    header = cells(block[0][1])
    delim = cells(block[1][1])
    if len(delim) != len(header) or not all(DELIM.match(c) for c in delim):
        raise ValueError("line %d: not a delimiter row for %d columns" % (block[1][0], len(header)))
    rows = []
    for no, line in block[2:]:
        row = cells(line)
        if len(row) != len(header):
            raise ValueError("line %d: %d cells, the header has %d" % (no, len(row), len(header)))
        rows.append(dict(zip(header, row)))
    return {"section": section, "header": header, "rows": rows}


def merged(tabs):
    """The Step tables of a section as one: its columns in order, a row per Step."""
    out = []
    for t in tabs:
        first = next((o for o in out if o["section"] == t["section"] and o["header"][0] == "Step"),
                     None)
        if t["header"][0] != "Step" or first is None:
            out.append({"section": t["section"], "header": list(t["header"]),
                        "rows": [dict(r) for r in t["rows"]]})
            continue
        first["header"] += [h for h in t["header"] if h not in first["header"]]
        for r in t["rows"]:
            row = next((o for o in first["rows"] if o["Step"] == r["Step"]), None)
            if row is None:
                raise ValueError("a continued table's Step %r is not in the first" % r["Step"])
            row.update(r)
    for o in out:	# a row the continuation left out has those cells empty
        for r in o["rows"]:
            for h in o["header"]:
                r.setdefault(h, "")
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    merge = args[:1] == ["--merged"]
    try:
        tabs = tables(open(args[-1]).read())
        print(json.dumps(merged(tabs) if merge else tabs))
    except ValueError as e:
        print("%s: %s" % (args[-1], e), file=sys.stderr)
        sys.exit(1)
