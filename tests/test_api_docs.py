"""docs/api.md, the reference for bot builders, names every field of the
JSON state and of the player's view as the engine writes them."""

from __future__ import annotations

import re
from pathlib import Path

from interpreter.engine import Match, compile_game
from interpreter.engine.state import GameState
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent.parent
API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
DUEL = ROOT / "tests" / "fixtures" / "engine"


def _table(heading: str) -> str:
    return API.split(heading, 1)[1].split("\n## ", 1)[0]


def test_the_json_state_and_the_view_are_documented_field_by_field():
    game = load_game("duel", DUEL)
    match = Match.start(compile_game(game), game.decks[:2], seed=3)
    match.apply_action(match.legal_actions()[0])
    data = match.state.to_json()
    documented = set(re.findall(r"`([a-z_]+)`", " ".join(
        line.split("|")[1] for line in _table("## The state as JSON").splitlines()
        if line.startswith("| `"))))
    assert documented == set(data)
    card_fields = re.search(r'`\{("id".*?)\}`', API).group(1)
    assert re.findall(r'"([a-z_]+)"', card_fields) == list(data["cards"][0])
    assert '{"player", "kind", "prompt", "options", "store", "labels"}' in API
    assert list(data["decision"]) == ["player", "kind", "prompt", "options", "store", "labels"]
    assert GameState.from_json(data).to_json() == data
    view = match.observation(match.current_player())
    for key in view:
        assert f'"{key}"' in _table("## `observation(player)`")
    for method in ("current_player", "legal_actions", "action_to_string", "apply_action",
                   "is_terminal", "returns", "clone", "observation", "narration",
                   "log_digest"):
        assert hasattr(match, method) and f"`{method}(" in API
