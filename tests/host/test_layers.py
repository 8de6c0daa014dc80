"""The host package's layers (issue #19): games never import the bridge; the occupancy matcher
imports neither; no module reaches into another's private members across packages.

Every import counts, including those under TYPE_CHECKING and inside functions: a circle that
only type checking or a lazy import hides is still a circle.
"""
import ast
import os

HOST = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "host", "flagfall")


def _imports(path):
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            for a in node.names:
                yield node.lineno, node.module + "." + a.name


def _modules(folder):
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            yield os.path.join(folder, name)


def test_games_never_import_the_bridge():
    bad = ["%s:%d imports %s" % (os.path.relpath(p, HOST), n, m)
           for p in _modules(os.path.join(HOST, "games")) for n, m in _imports(p)
           if m.startswith("flagfall.bridge")]
    assert bad == []


def test_the_occupancy_matcher_imports_no_game_and_no_bridge():
    bad = [(n, m) for n, m in _imports(os.path.join(HOST, "occupancy.py"))
           if m.startswith(("flagfall.games", "flagfall.bridge"))]
    assert bad == []


def test_no_private_member_of_another_module_is_called():
    """engine._handle was called by the session: a module calls another's members through public names
    (a module may use its own classes' private members)."""
    bad = []
    for folder in ("bridge", "event", "tournament", "broadcast", "commands", "games"):
        for p in _modules(os.path.join(HOST, folder)):
            tree = ast.parse(open(p, encoding="utf-8").read(), p)
            own = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                        and node.attr not in own \
                        and isinstance(node.value, ast.Name) and node.value.id in ("engine", "eng", "game", "session"):
                    bad.append("%s:%d %s.%s" % (os.path.relpath(p, HOST), node.lineno, node.value.id, node.attr))
    assert bad == []
