"""The host package's shape, read from its own imports: import cycles, packages importing each other,
long modules, and imports hidden inside functions.

    python tools/import_graph.py              # the report
    python tools/import_graph.py --json       # the same as JSON

Every import of a flagfall module counts, wherever it is written: at the top of a module, inside a
function (a "lazy" import) or under `if TYPE_CHECKING:`. A cycle that only a lazy or a type-checking
import closes is still a cycle: the two modules cannot be understood, or moved, one without the other.

`from flagfall.x import y` is an edge to flagfall.x.y when that is a module, else to flagfall.x.
A package is one folder under host/flagfall (bridge, broadcast, event, ...); a module at the top of
host/flagfall is its own unit for the package-level report.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Iterator, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "host")
PACKAGE = "flagfall"
MAX_LINES = 700         # issue #29: no host module over this many lines


@dataclass(frozen=True)
class Import:
    """One import of a flagfall module: where it is written and how (top, lazy, type-checking)."""
    source: str             # the importing module, dotted
    target: str             # the imported module, dotted
    line: int
    where: str              # "top", "function" (inside a def), "type-checking" (under if TYPE_CHECKING)


@dataclass
class Graph:
    """Every flagfall module of the tree with its line count and its imports of other flagfall modules."""
    lines: dict[str, int] = field(default_factory=dict)
    imports: list[Import] = field(default_factory=list)

    def edges(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {m: set() for m in self.lines}
        for imp in self.imports:
            if imp.target != imp.source:
                out[imp.source].add(imp.target)
        return out


def module_name(path: str, base: str = HOST) -> str:
    rel = os.path.relpath(path, base)[:-3].split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return ".".join(rel)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST, where: str) -> Iterator[tuple[ast.AST, str]]:
    """Every node under node with where it sits: "top", "function" or "type-checking"."""
    for child in ast.iter_child_nodes(node):
        inner = where
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner = "function"
        elif isinstance(child, ast.If) and _is_type_checking(child.test) and where == "top":
            yield child, where
            for sub in child.body:
                yield sub, "type-checking"
                yield from _walk(sub, "type-checking")
            for sub in child.orelse:
                yield sub, where
                yield from _walk(sub, where)
            continue
        yield child, inner
        yield from _walk(child, inner)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of `from <node.module> import ...`, relative imports resolved against module."""
    if not node.level:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def read_graph(base: str = HOST, package: str = PACKAGE) -> Graph:
    """The graph of every module under base/package."""
    g = Graph()
    files = []
    for folder, dirs, names in os.walk(os.path.join(base, package)):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".py")]
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        g.lines[module_name(path, base)] = text.count("\n")
    for path in files:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        src = module_name(path, base)
        is_package = path.endswith("__init__.py")
        for node, where in _walk(tree, "top"):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mod = _resolve(src, is_package, node)
                for a in node.names:
                    full = mod + "." + a.name
                    targets.append(full if full in g.lines else mod)
            for t in dict.fromkeys(targets):
                while t and t not in g.lines and "." in t:     # `import flagfall.x.y as z` names a module
                    t = t.rsplit(".", 1)[0]
                if t in g.lines and (t == package or t.startswith(package + ".")):
                    g.imports.append(Import(src, t, getattr(node, "lineno", 0), where))
    return g


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        # iterative: a deep chain of imports must not hit the recursion limit
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out, key=lambda c: (-len(c), c))


def unit_of(module: str) -> Optional[str]:
    """The package (folder under host/flagfall) or top-level module a module belongs to; None for the root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def is_package(unit: str, graph: Graph, package: str = PACKAGE) -> bool:
    return any(m.startswith("%s.%s." % (package, unit)) for m in graph.lines)


def packages_importing_each_other(graph: Graph) -> list[tuple[str, str]]:
    """Pairs of packages (folders) each of which imports a module of the other."""
    deps: dict[str, set[str]] = {}
    for imp in graph.imports:
        a, b = unit_of(imp.source), unit_of(imp.target)
        if a and b and a != b:
            deps.setdefault(a, set()).add(b)
    return sorted((a, b) for a in deps for b in deps[a]
                  if a < b and a in deps.get(b, ()) and is_package(a, graph) and is_package(b, graph))


def imports_between(graph: Graph, source_prefix: str, target_prefix: str) -> list[Import]:
    """Every import from a module under source_prefix of a module under target_prefix."""
    def under(m: str, p: str) -> bool:
        return m == p or m.startswith(p + ".")
    return [i for i in graph.imports if under(i.source, source_prefix) and under(i.target, target_prefix)]


def report(graph: Graph) -> dict[str, object]:
    inside = [i for i in graph.imports if i.where == "function"]
    return {
        "modules": len(graph.lines),
        "imports": len(graph.imports),
        "imports_in_functions": len(inside),
        "imports_type_checking": sum(i.where == "type-checking" for i in graph.imports),
        "cycles": cycles(graph.edges()),
        "packages_importing_each_other": [list(p) for p in packages_importing_each_other(graph)],
        "modules_over_%d_lines" % MAX_LINES: {m: n for m, n in sorted(graph.lines.items(), key=lambda x: -x[1])
                                              if n > MAX_LINES},
    }


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    graph = read_graph()
    r = report(graph)
    if args.json:
        print(json.dumps(r, indent=1))
        return 0
    print("%d modules, %d imports of flagfall modules: %d inside functions, %d under TYPE_CHECKING"
          % (r["modules"], r["imports"], r["imports_in_functions"], r["imports_type_checking"]))
    cyc = r["cycles"]
    assert isinstance(cyc, list)
    print("import cycles (lazy and TYPE_CHECKING imports counted): %d" % len(cyc))
    edges = graph.edges()
    for comp in cyc:
        print("  " + ", ".join(comp))
        for m in comp:
            for imp in graph.imports:
                if imp.source == m and imp.target in comp and imp.target in edges[m]:
                    print("    %s:%d -> %s (%s)" % (imp.source, imp.line, imp.target, imp.where))
    pairs = r["packages_importing_each_other"]
    assert isinstance(pairs, list)
    print("packages importing each other: %d" % len(pairs))
    for a, b in pairs:
        print("  %s <-> %s" % (a, b))
        for imp in imports_between(graph, "%s.%s" % (PACKAGE, a), "%s.%s" % (PACKAGE, b)) + \
                imports_between(graph, "%s.%s" % (PACKAGE, b), "%s.%s" % (PACKAGE, a)):
            print("    %s:%d -> %s (%s)" % (imp.source, imp.line, imp.target, imp.where))
    long = r["modules_over_%d_lines" % MAX_LINES]
    assert isinstance(long, dict)
    print("modules over %d lines: %d" % (MAX_LINES, len(long)))
    for m, n in long.items():
        print("  %s: %d" % (m, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
