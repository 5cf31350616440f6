"""Copies of the Duel fixture game (tests/fixtures/engine) for tests that try
a rules change or a card: one place that copies, edits and loads it."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.language.games import load_game

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"


def duel_copy(tmp_path: Path, rules_changes=(), rules_extra: str = "", cards: str = "",
              deck_line: str | None = None) -> Path:
    """A fresh copy of the Duel under ``tmp_path``: each (old, new) of
    ``rules_changes`` replaced in its rules file (the old text must be there),
    ``rules_extra`` and ``cards`` appended, ``deck_line`` added to a deck."""
    root = tmp_path / f"duel{len(list(tmp_path.iterdir()))}"
    shutil.copytree(DUEL / "rules", root / "rules")
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel")
    rules = root / "rules" / "duel.rules"
    text = rules.read_text()
    for old, new in rules_changes:
        assert old in text, old
        text = text.replace(old, new)
    rules.write_text(text + rules_extra)
    with open(root / "cards" / "duel" / "core.cards", "a") as f:
        f.write(cards)
    if deck_line:
        deck = next((root / "cards" / "duel" / "decks").glob("*.deck"))
        deck.write_text(deck.read_text().rstrip("\n") + "\n" + deck_line + "\n")
    return root


def load_duel(tmp_path: Path, **changes):
    """The copied Duel, loaded (its problems are the caller's to look at)."""
    return load_game("duel", duel_copy(tmp_path, **changes))
