"""`cardrules new`: a designer's project folder, made from the template.

The template (``templates/new-game/`` in the repository, shipped inside the
package as ``interpreter/templates``) is a small complete game — a rules
file, a card file, a deck, rulings and a README — with ``__GAME_ID__`` and
``__TITLE__`` standing for the new game's id and title in file names and
text. The scaffold never writes over anything: the folder must be new or
empty, and every file is created exclusively.
"""

from __future__ import annotations

import re
from pathlib import Path

from interpreter.errors import CouldNotRun, Problem
from interpreter.resources import data_dir

GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _suggested_id(text: str) -> str:
    """A valid game id made from what the user typed ("My Game" -> my-game)."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = "-".join(words).lstrip("0123456789-")
    return slug or "my-game"


def check_game_id(game_id: str, installed: list[str]) -> None:
    """A new game's id: lower-case words joined by hyphens, not an installed game's."""
    if not GAME_ID.fullmatch(game_id):
        raise CouldNotRun(Problem(
            "E906", f'"{game_id}" cannot be a game id', None, None,
            ("lower-case letters and digits, words joined by hyphens, starting with a letter",),
            f'cardrules new {_suggested_id(game_id)}'))
    if game_id in installed:
        raise CouldNotRun(Problem(
            "E907", f'"{game_id}" is an installed game; a project folder with its own '
            f"rules for it would replace it", None, None, ("a new game id",),
            f"to add cards to {game_id}, make an expansion folder instead: "
            f"cards/{game_id}/ with your .cards files (and decks/) in any folder"))


def title_of(game_id: str) -> str:
    return " ".join(word.capitalize() for word in game_id.split("-"))


def scaffold(game_id: str, folder: Path, title: str) -> list[Path]:
    """Write the new project into ``folder``; the files written, in order."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise CouldNotRun(Problem(
            "E908", f"{folder} already exists and is not an empty folder; nothing was written",
            None, None, ("a new folder, or an empty one",),
            f"cardrules new {game_id} {folder.parent / (folder.name + '-2')}"))
    template = data_dir("templates") / "new-game"
    written = []
    for source in sorted(p for p in template.rglob("*") if p.is_file()):
        relative = str(source.relative_to(template)).replace("__GAME_ID__", game_id)
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        text = source.read_text(encoding="utf-8")
        text = text.replace("__GAME_ID__", game_id).replace("__TITLE__", title)
        with target.open("x", encoding="utf-8") as out:   # never over a file
            out.write(text)
        written.append(target)
    return written
