"""Replays (issue "Playtesting"): `play --record FILE` keeps a game as its
game, decks, seed and actions; `replay FILE` plays it again and prints the
same game; a file that is not a replay, or a game whose files changed since,
is refused with its reason, never shown wrong; nothing is written over."""

from __future__ import annotations

import json

from click.testing import CliRunner

from errors_support import fixture_path
from interpreter.cli import main

DUEL = fixture_path("engine", "rules", "duel.rules")


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_a_recorded_game_replays_the_same(tmp_path):
    kept = tmp_path / "game.json"
    played = run("play", DUEL, "--seed", "3", "--record", str(kept))
    assert played.exit_code == 0
    data = json.loads(kept.read_text(encoding="utf-8"))
    assert data["format"] == "cardrules replay 1" and data["seed"] == 3
    assert data["decks"] == ["Knights", "Rush"] and data["actions"]
    again = run("replay", str(kept))
    assert again.exit_code == 0
    assert again.stdout == played.stdout          # byte for byte
    # from a seat: the other hand stays hidden
    seat = run("replay", str(kept), "--viewer", "1")
    assert seat.exit_code == 0 and seat.stdout != played.stdout
    drawn = [line.strip() for line in seat.stdout.splitlines()
             if "from Player 2's deck to Player 2's hand" in line]
    assert drawn and all(line.lower().startswith("a card moves") for line in drawn)


def test_nothing_is_written_over_and_bad_replays_are_refused(tmp_path):
    kept = tmp_path / "game.json"
    kept.write_text("mine", encoding="utf-8")
    refused = run("play", DUEL, "--seed", "3", "--record", str(kept))
    assert refused.exit_code == 2 and refused.stderr.startswith("E912 ")
    assert kept.read_text(encoding="utf-8") == "mine"

    not_json = run("replay", str(kept))
    assert not_json.exit_code == 2
    assert not_json.stderr.startswith(f"E813 {kept} is not a replay cardrules can read: not JSON")

    good = tmp_path / "good.json"
    assert run("play", DUEL, "--seed", "3", "--record", str(good)).exit_code == 0
    data = json.loads(good.read_text(encoding="utf-8"))
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps({**data, "actions": data["actions"][:5] + [99]}),
                       encoding="utf-8")
    illegal = run("replay", str(changed))
    assert illegal.exit_code == 2
    assert illegal.stderr.startswith("E814 the replay's action 6 (99) is not legal")
    changed.write_text(json.dumps({**data, "digest": "0" * 64}), encoding="utf-8")
    other = run("replay", str(changed))
    assert other.exit_code == 2 and "log differs from the recorded one" in other.stderr
    changed.write_text(json.dumps({**data, "seed": "three"}), encoding="utf-8")
    assert '"seed" is missing or not a int' in run("replay", str(changed)).stderr
