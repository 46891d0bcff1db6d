"""The shape of the code, read from its imports: no import circle among the toolkit's modules, and
nothing below the command line imports it (``toolkit.cli`` is a thin layer on top: only it, the
console script's ``toolkit.entry`` and ``python -m toolkit`` reach it)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "toolkit"
ON_TOP = ("toolkit.entry", "toolkit.__main__")


def modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def imports(name: str, tree: ast.Module, known) -> set[str]:
    """The toolkit modules ``name`` imports, anywhere in it (a function's late import counts too)."""
    is_package = (PACKAGE / Path(*name.split(".")[1:]) / "__init__.py").is_file()
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if is_package else name.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    return {target for target in targets if target in known and target != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, tree, found) for name, tree in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), less a package's own
    ``__init__`` importing its submodules."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [c for c in found if not all(m == c[0] or m.startswith(c[0] + ".") for m in c)]


def test_no_import_circle():
    assert circles(graph()) == []


def test_nothing_below_the_command_line_imports_it():
    edges = graph()
    below = {name: sorted(t for t in targets if t == "toolkit.cli" or t.startswith("toolkit.cli."))
             for name, targets in edges.items()
             if not (name == "toolkit.cli" or name.startswith("toolkit.cli.")) and name not in ON_TOP}
    assert {name: targets for name, targets in below.items() if targets} == {}


def test_the_solvers_import_no_game_and_no_question():
    """``toolkit.solve`` is the math below the odds, the rules and the games: it imports none of them (the
    base package's contract, its CHANCE and TERMINAL, and the step compiler are below it)."""
    edges = graph()
    allowed = {"toolkit.fast", "toolkit.fast.steps", "toolkit.game", "toolkit.game.contract"}
    up = {name: sorted(t for t in targets if not t.startswith("toolkit.solve") and t not in allowed)
          for name, targets in edges.items() if name == "toolkit.solve" or name.startswith("toolkit.solve.")}
    assert up and {name: targets for name, targets in up.items() if targets} == {}


def test_the_check_sees_a_circle_and_an_arrow_up():
    """The checks can fail: a made-up graph with a circle, and a module importing the CLI."""
    made_up = {"toolkit.a": {"toolkit.b"}, "toolkit.b": {"toolkit.a"}, "toolkit.c": set(),
               "toolkit.cli": set(), "toolkit.d": {"toolkit.cli"}}
    assert circles(made_up) == [["toolkit.a", "toolkit.b"]]
    tree = ast.parse("from toolkit.cli import say\nfrom . import sibling\n")
    assert imports("toolkit.odds.report", tree, {"toolkit.cli", "toolkit.odds.sibling"}) == {
        "toolkit.cli", "toolkit.odds.sibling"}


def test_the_commands_are_thin():
    """No function of ``toolkit.cli`` is over 80 lines, and none asks where the game came from: the
    commands read ``--rules`` only to hand it to ``toolkit.setup.game_setup`` with the other game options."""
    long, asks = [], []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 80:
                long.append(f"{path.name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)")
            if isinstance(node, ast.Compare) and any(isinstance(side, ast.Name) and side.id == "rules_spec"
                                                     for side in (node.left, *node.comparators)):
                asks.append(f"{path.name}:{node.lineno}")
    assert long == []
    allowed = {"options.py"}  # --param and --rules-timeout are refused without --rules, in the option itself
    assert [where for where in asks if where.split(":")[0] not in allowed] == []


def _outside(package: str) -> dict[str, ast.Module]:
    return {name: tree for name, tree in modules().items() if not (name == package or name.startswith(package + "."))}


def test_only_the_typeset_module_holds_the_fonts_and_the_units():
    """One definition of each font and unit: no module outside ``toolkit.typeset`` registers a font with
    reportlab, makes one of its own (reportlab's TrueType fonts), names a bundled font's package or a PDF font
    name (``PTSans-Bold``...), or defines millimetres per inch or points per millimetre (25.4, 2.54, reportlab's
    ``units``); and the typesetting imports nothing it serves."""
    import re

    pdf_name = re.compile(r"PT(?:Sans|Serif)-")
    units = ("PT_PER_MM", "MM_PER_INCH")
    found = []
    for name, tree in _outside("toolkit.typeset").items():
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute) and node.attr in ("registerFont", "registerFontFamily"):
                found.append(f"{where} {node.attr}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                targets = [alias.name for alias in node.names]
                if isinstance(node, ast.ImportFrom):
                    targets = [node.module or "", *(f"{node.module}.{t}" for t in targets)]
                for target in targets:
                    if target.startswith(("fontpkg_", "reportlab.pdfbase.ttfonts", "reportlab.lib.units")):
                        found.append(f"{where} imports {target}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and pdf_name.search(node.value):
                found.append(f"{where} {node.value[:40]!r}")
            elif isinstance(node, ast.Constant) and type(node.value) is float and node.value in (25.4, 2.54):
                found.append(f"{where} {node.value}")
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in units:
                found.append(f"{where} defines {node.id}")
    assert found == []
    below = {name: sorted(t for t in targets if not t.startswith("toolkit.typeset") and t != "toolkit.errors")
             for name, targets in graph().items() if name.startswith("toolkit.typeset")}
    assert below and {name: targets for name, targets in below.items() if targets} == {}


def test_the_player_aid_reads_the_placeholders_not_the_rulebook():
    """The rulebook and the player aid fill the same placeholders from ``toolkit.placeholders``; the print
    sheets and aids import nothing of the rulebook's, and the placeholders neither of them."""
    edges = graph()
    printing = {name: sorted(t for t in targets if t.startswith("toolkit.rulebook"))
                for name, targets in edges.items() if name.startswith("toolkit.print")}
    assert {name: targets for name, targets in printing.items() if targets} == {}
    placeholders = {name: sorted(t for t in targets if t.startswith(("toolkit.rulebook", "toolkit.print")))
                    for name, targets in edges.items() if name.startswith("toolkit.placeholders")}
    assert placeholders and {name: targets for name, targets in placeholders.items() if targets} == {}
    assert {t for t in edges["toolkit.print.aids"] if t.startswith("toolkit.placeholders")}
