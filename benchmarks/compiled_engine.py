"""How far compiling the engine's own Python to C takes random play.

    python benchmarks/compiled_engine.py [GAME ...]

Issue 20 asks every game for 1.5x RLCard Gin Rummy's decisions/s. This
measures the one way of running the rules faster that needs no rewrite: the
engine's modules (``interpreter/engine`` and ``interpreter/compiler``),
unchanged, compiled by Cython into C extensions. It copies the project into
a temporary directory, builds the extensions there (a few minutes on two
cores) and runs ``engine_speed.py`` on the copy, then on this checkout, on
the same core, so the two figures are comparable. Nothing in this checkout
is built or changed.

Needs Cython (``pip install -e '.[bench]'``) and a C compiler. Modules that
use ``match`` statements, which Cython 3.0 does not compile, stay Python;
none is in the hot path. Default games: Pocket League (the slowest) and
RYFT.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GAMES = ["pocket-league", "ryft"]

# Run inside the copy: cythonize every engine and compiler module Cython
# can compile, in place, so that the copy imports the extensions.
BUILD = """
import glob, re
from setuptools import setup
from Cython.Build import cythonize
modules = [path for path in sorted(glob.glob("interpreter/engine/*.py")
                                   + glob.glob("interpreter/compiler/*.py"))
           if not path.endswith("__init__.py")
           and not re.search(r"^\\s*match .*:$", open(path).read(), re.M)]
print(f"compiling {len(modules)} modules", flush=True)
setup(ext_modules=cythonize(modules, language_level=3, nthreads=os.cpu_count() or 1,
                            quiet=True,
                            # the annotations are documentation, not C types
                            compiler_directives={"annotation_typing": False}),
      script_args=["build_ext", "--inplace", "-j", str(os.cpu_count() or 1)])
"""


def main(argv: list[str]) -> int:
    games = argv or DEFAULT_GAMES
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("Cython is not installed (pip install -e '.[bench]')", file=sys.stderr)
        return 2
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        print("no C compiler (cc or gcc) on PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cardrules-compiled-") as tmp:
        copy = Path(tmp) / "project"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
            ".git", ".venv", "__pycache__", "*.so", "build", "node_modules"))
        print("building the compiled copy ...", flush=True)
        built = subprocess.run([sys.executable, "-c", "import os\n" + BUILD], cwd=copy,
                               capture_output=True, text=True)
        if built.returncode != 0:
            print(built.stdout[-3000:], built.stderr[-3000:], file=sys.stderr)
            return 1
        extensions = sorted(copy.glob("interpreter/*/*.so"))
        print(f"{len(extensions)} modules compiled")
        for label, where in (("compiled (Cython)", copy), ("Python (this checkout)", ROOT)):
            print(f"\n== {label}", flush=True)
            subprocess.run([sys.executable, str(where / "benchmarks/engine_speed.py"), *games],
                           cwd=where, check=False, env={**os.environ, "PYTHONPATH": str(where)})
        print()
        for game in games:
            print(f"{game}: the compiled copy plays {SAME_GAMES} games "
                  f"{'the same' if same_games(game, copy, Path(tmp)) else 'DIFFERENTLY'}")
    return 0


SAME_GAMES = 100


def same_games(game: str, copy: Path, tmp: Path) -> bool:
    """Whether the compiled copy and this checkout play the same games: the
    same result and length for each seed (``simulate --out``)."""
    records = []
    for where in (copy, ROOT):
        out = tmp / f"{where.name}-{game}.jsonl"
        subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", game,
                        "-n", str(SAME_GAMES), "--seed", "1", "--out", str(out)],
                       cwd=where, capture_output=True, check=True,
                       env={**os.environ, "PYTHONPATH": str(where)})
        records.append(out.read_text())
    return records[0] == records[1]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
