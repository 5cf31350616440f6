"""A built wheel, installed into a fresh virtualenv, works on its own:
grammar/, rules/ and cards/ ship inside it."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_checks_and_plays_shipped_games(tmp_path):
    wheel_dir = tmp_path / "wheel"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(wheel_dir), str(ROOT)],
        capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    (wheel,) = wheel_dir.glob("cardrules-*.whl")
    env_dir = tmp_path / "env"
    # no pip of its own (ensurepip was a tenth of this test's time): this
    # run's pip installs into it (pip --python)
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    # The dependencies (lark, attrs, click, rich) are borrowed from this test run's
    # environment through a .pth file, so the test needs no network; the
    # package itself comes only from the wheel.
    import attrs, click, lark, rich  # noqa: E401
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True).stdout.strip()
    deps = {str(Path(m.__file__).resolve().parent.parent) for m in (attrs, click, lark, rich)}
    (Path(site) / "borrowed-deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                              "--no-deps", "-q", str(wheel)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    # Run from an empty directory so the source checkout cannot be imported.
    run = subprocess.run([str(env_dir / "bin" / "cardrules"), "check"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 problems" in run.stderr
    # the README's first command ends by playing a full game from the wheel
    game = subprocess.run([str(env_dir / "bin" / "cardrules"), "play", "ryft", "--seed", "1"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert game.returncode == 0, game.stdout + game.stderr
    assert game.stdout.splitlines()[-1].startswith("== Player ")
    where = subprocess.run([str(python), "-c", "import interpreter, sys; "
                            "print(interpreter.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert str(env_dir) in where.stdout
    listing = subprocess.run([str(python), "-m", "zipfile", "-l", str(wheel)],
                             capture_output=True, text=True).stdout
    for shipped in ("interpreter/grammar/effect.lark", "interpreter/grammar/outline.lark",
                    "interpreter/rules/ryft.rules", "interpreter/rules/rival-rush.hints",
                    "interpreter/cards/ryft/core.cards",
                    "interpreter/cards/ryft/decks/starter.deck",
                    "interpreter/templates/new-game/rules/__GAME_ID__.rules",
                    "interpreter/web/static/index.html", "interpreter/web/static/app.js",
                    "interpreter/cli/serving.py", "interpreter/balance.py"):
        assert shipped in listing
    # a project folder made by the installed copy checks and plays from it
    cardrules = str(env_dir / "bin" / "cardrules")
    made = subprocess.run([cardrules, "new", "moon-duel"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    inside = subprocess.run([cardrules, "check"], capture_output=True, text=True,
                            cwd=tmp_path / "moon-duel")
    assert inside.stderr == "0 problems in 3 files (8 cards, 1 game)\n"
    # run in the source checkout, the installed copy reads the checkout's files
    # (the README's first command): an edit there is never silently ignored
    seen = subprocess.run([cardrules, "games"], capture_output=True, text=True, cwd=ROOT)
    assert "ryft" in seen.stdout and f"project {ROOT}" in seen.stdout
