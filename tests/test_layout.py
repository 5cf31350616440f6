"""The package's layout shows the pipeline (docs/architecture.md).

Every module under ``interpreter/`` belongs to a stage; a module imports only
from its own stage or earlier ones:

    errors, source, resources (and the package itself)  ->  language/
    ->  compiler/  ->  engine/  ->  agents, series, soak, rulings,
    pytest_plugin, cli

Read with ``ast`` (nothing is imported): no import from a later stage, no
import inside a function, method or class body, no import cycle between
modules, no module over 800 lines, and each module opens with a docstring
saying what it owns.

An import names a module: ``from interpreter.engine import operations`` the
module ``interpreter.engine.operations``, ``from interpreter.engine import
Match`` the package ``interpreter.engine`` (its ``__init__``). Importing a
submodule is not counted as importing its package's ``__init__`` too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "interpreter"
MAX_LINES = 800

# The stages, in the order of the pipeline: a module (or a subpackage, all
# of its modules) and its stage's number.
STAGES = {
    "interpreter": 0,
    "interpreter.errors": 0,
    "interpreter.source": 0,
    "interpreter.resources": 0,
    "interpreter.collector": 0,
    "interpreter.language": 1,
    "interpreter.compiler": 2,
    "interpreter.engine": 3,
    "interpreter.agents": 4,
    "interpreter.series": 4,
    "interpreter.soak": 4,
    "interpreter.rulings": 4,
    "interpreter.corpus": 4,
    "interpreter.ruling_decks": 4,
    "interpreter.ruling_cards": 4,
    "interpreter.pytest_plugin": 4,
    "interpreter.scaffold": 4,
    "interpreter.replays": 4,
    "interpreter.web": 4,
    "interpreter.balance": 4,
    "interpreter.reports": 4,
    "interpreter.cluster": 4,
    "interpreter.tables": 4,
    "interpreter.cli": 4,
    "interpreter.editor": 4,
    "interpreter.adapters": 4,
}
STAGE_NAMES = ["shared (errors, source, resources, collector)", "language", "compiler", "engine",
               "agents / series / soak / rulings / pytest_plugin / web / editor / adapters "
               "/ cli"]


def _modules() -> dict[str, Path]:
    """Module name -> file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path))
         for name, path in MODULES.items()}


def _stage(module: str) -> int | None:
    """The stage of a module: its own entry, else its subpackage's."""
    name = module
    while name:
        if name in STAGES and (name == module or name != "interpreter"):
            return STAGES[name]
        name = name.rpartition(".")[0]
    return None


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _imports(module: str, tree: ast.Module):
    """(import node, imported module) for each module of the package a node
    imports."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module if _is_package(module) else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            if base not in MODULES:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield node, sub if sub in MODULES else base


def _where(module: str, node: ast.AST) -> str:
    return f"{MODULES[module].relative_to(ROOT)}:{node.lineno}"


def test_every_module_belongs_to_a_stage():
    assert [m for m in MODULES if _stage(m) is None] == []


def test_imports_point_forward_only():
    offenders = []
    for module, tree in TREES.items():
        for node, imported in _imports(module, tree):
            if _stage(imported) > _stage(module):
                offenders.append(
                    f"{_where(module, node)}: {module} ({STAGE_NAMES[_stage(module)]}) "
                    f"imports {imported} ({STAGE_NAMES[_stage(imported)]})")
    assert offenders == []


def test_no_import_inside_a_function_method_or_class():
    offenders = []

    def visit(module, node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                offenders.append(f"{_where(module, child)}: {ast.unparse(child)}")
            visit(module, child, inside or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)))
    for module, tree in TREES.items():
        visit(module, tree, False)
    assert offenders == []


def test_no_import_cycle():
    graph = {module: sorted({imported for _, imported in _imports(module, tree)})
             for module, tree in TREES.items()}
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def connect(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph[module]:
            if imported not in index:
                connect(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in graph[module]:
                cycles.append(sorted(component))
    for module in graph:
        if module not in index:
            connect(module)
    assert cycles == []


def test_no_module_over_800_lines():
    sizes = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
             for path in MODULES.values()}
    assert {path: n for path, n in sizes.items() if n > MAX_LINES} == {}


def test_every_module_opens_with_a_docstring():
    assert [str(MODULES[m].relative_to(ROOT)) for m, tree in TREES.items()
            if not ast.get_docstring(tree)] == []


def test_rulebooks_are_cited_by_title_never_by_a_path():
    """The rulebooks sit beside the project only while it is worked on: the
    project names a rulebook by its title and section, never by where a copy
    of it happened to be."""
    shipped = [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *ROOT.glob("rules/*.rules"),
               *ROOT.glob("cards/**/*.cards"), *ROOT.glob("tests/**/*.md"),
               *ROOT.glob("tests/**/*.rules"), *MODULES.values()]
    # a folder of rulebooks, the machine's work folder, the folder beside the
    # project (written as a pattern so that this file does not cite them)
    machine_path = re.compile(r"rulebooks[/]|[/]work[/]|[.][.][/]shared")
    citing_a_path = [str(path.relative_to(ROOT)) for path in shipped
                     if machine_path.search(path.read_text(encoding="utf-8"))]
    assert citing_a_path == []
    # nor by the name of a copy's file: a game's "rulebook:" field is a title
    by_file = [str(path.relative_to(ROOT)) for path in shipped
               if re.search(r"rulebook:[^\n]*[.]txt", path.read_text(encoding="utf-8"))]
    assert by_file == []


def test_no_file_refers_to_a_path_on_one_machine():
    # issue 22: rulebooks are cited by title and section; nothing points at a
    # folder outside the repository or at one machine's home. Where that is
    # is read from this machine: the folder holding the checkout, the home
    # folder, and the folders beside the checkout reached by "../NAME".
    beside = [p.name for p in ROOT.parent.iterdir()
              if p.is_dir() and p != ROOT and not p.name.startswith(".")]
    outside = [re.escape(str(ROOT.parent)) + "/", re.escape(str(Path.home())) + "/"]
    outside += [r"\.\./" + re.escape(name) + r"\b" for name in beside]
    pattern = re.compile("|".join(outside))
    offenders = []
    for folder in ("interpreter", "grammar", "rules", "cards", "docs", "templates",
                   "benchmarks", "tests", ".ci"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix not in (".pyc",) and path != Path(__file__):
                text = path.read_text(encoding="utf-8", errors="replace")
                offenders += [f"{path.relative_to(ROOT)}:{n}" for n, line
                              in enumerate(text.splitlines(), 1) if pattern.search(line)]
    for name in ("README.md", "pyproject.toml"):
        if pattern.search((ROOT / name).read_text(encoding="utf-8")):
            offenders.append(name)
    assert offenders == []
