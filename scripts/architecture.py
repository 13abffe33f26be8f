#!/usr/bin/env python3
"""Writes the module graph of docs/architecture.md from Package.swift (between the
`<!-- generated: modules -->` markers). `--check` only compares: exit 1 when the page is stale
(ArchitectureTests runs it, so the page can't drift from the manifest)."""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
manifest = open(os.path.join(root, "Package.swift"), encoding="utf-8").read()

targets = []  # (kind, name, [dependencies])
for m in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*\"([^\"]+)\"", manifest):
    kind, name = m.group(1), m.group(2)
    # The dependencies list of this target: from "dependencies: [" to its closing bracket.
    rest = manifest[m.end():]
    end = rest.find("\n    .")  # the next target starts on a new line at this indent
    body = rest if end < 0 else rest[:end]
    deps = []
    d = re.search(r"dependencies:\s*\[", body)
    if d:
        depth, i = 1, d.end()
        while depth and i < len(body):
            depth += {"[": 1, "]": -1}.get(body[i], 0)
            i += 1
        inside = body[d.end():i - 1]
        deps = re.findall(r"\.product\(name:\s*\"([^\"]+)\"|\"([^\"]+)\"", inside)
        deps = [a or b for a, b in deps if (a or b) not in ("swift-argument-parser", "swift-clocks")]
    # A target of C sources (CGit2: libgit2's headers and the stubs that load it) is a C library
    # in the table and, like the system's, left out of the graph.
    folder = os.path.join(root, "Sources", name)
    if kind == "target" and os.path.isdir(folder) and any(f.endswith(".c") for f in os.listdir(folder)):
        # CGit2 loads libgit2 itself (loader.c); CScan is plain C of ours, linked in.
        kind = "cLoader" if os.path.exists(os.path.join(folder, "loader.c")) else "cTarget"
    targets.append((kind, name, deps))

kinds = {"systemLibrary": "C library", "cLoader": "C library (loaded on first use)", "cTarget": "C (vector code of ours)", "target": "library", "executableTarget": "program", "testTarget": "tests"}
lines = ["<!-- generated: modules (scripts/architecture.py from Package.swift; do not edit) -->", "",
         "| module | kind | depends on |", "|---|---|---|"]
for kind, name, deps in targets:
    lines.append("| `%s` | %s | %s |" % (name, kinds[kind], ", ".join("`%s`" % d for d in deps) or "-"))
lines += ["", "```mermaid", "graph TD"]
for kind, name, deps in targets:
    if kind in ("testTarget", "systemLibrary", "cTarget", "cLoader"): continue
    for d in deps:
        if any(t[1] == d and t[0] in ("systemLibrary", "cTarget", "cLoader") for t in targets): continue
        lines.append("  %s --> %s" % (name, d))
lines += ["```", "", "<!-- end generated: modules -->"]
generated = "\n".join(lines)

page_path = os.path.join(root, "docs", "architecture.md")
page = open(page_path, encoding="utf-8").read()
start = page.index("<!-- generated: modules")
end = page.index("<!-- end generated: modules -->") + len("<!-- end generated: modules -->")
new = page[:start] + generated + page[end:]
if "--check" in sys.argv:
    if new != page:
        sys.stderr.write("docs/architecture.md is stale: run 'python3 scripts/architecture.py'\n")
        sys.exit(1)
    sys.exit(0)
open(page_path, "w", encoding="utf-8").write(new)
