"""Soak: random games of every playable game with the invariants checked
after every action (interpreter.soak). CI runs 200 games per game; the long
run is the command, e.g. `cardrules soak GAME -n 10000`."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine import compile_game
from interpreter.language.games import load_game
from interpreter.soak import Violation, soak

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PLAYABLE = [
    (FIXTURES / "engine", "duel", 2),
    (FIXTURES / "engine", "duel", 4),
    (FIXTURES / "resolution", "chain", 2),
    (FIXTURES / "resolution", "stack", 2),
    (FIXTURES / "loops", "loops", 2),
    # an original game in the second edition's words (not a renamed copy of
    # a shipped game): heroes, mana crystals, minions, tokens, Fatigue
    (FIXTURES / "minions", "minions", 2),
    # another: ink, quests, challenges, keywords with numbers, a race to 20 lore
    (FIXTURES / "lore", "lore", 2),
    # another: a row of places fought over, positions, counters kept per
    # place, printed costs paid with a wildcard
    (FIXTURES / "fronts", "fronts", 2),
    # another: priority both ways -- quick spells and familiars' calls in
    # either player's turn, a counterspell, triggers on the stack rival first
    (FIXTURES / "hexwood", "hexwood", 2),
]


# In CI, the deep checks (every legal action applied on a clone) run once
# every 25 actions on average, not 9 as the command does: they were half of
# the suite's time; every action still gets the cheap checks. One game in 4
# is replayed to compare its log (a replay costs as much as the game: a third
# of the soaks' time); the command replays every game. The long runs are
# the command (figures in docs/reliability.md).
CI_CHECK_EVERY = 25
CI_REPLAY_EVERY = 4


@pytest.mark.parametrize("root,game_id,players", PLAYABLE,
                         ids=[f"{g}-{p}p" for _, g, p in PLAYABLE])
def test_soak_200_games(root, game_id, players):
    game = load_game(game_id, root)
    assert game.problems == []
    compiled = compile_game(game)
    decks = [game.decks[i % len(game.decks)] for i in range(players)]
    games = {"loops": 40, "minions": 100, "lore": 60, "hexwood": 100}.get(game_id, 200)
    report = soak(compiled, decks, games, seed=1, check_every=CI_CHECK_EVERY,
                  replay_every=CI_REPLAY_EVERY)
    assert report.violations == [], "\n".join(v.render() for v in report.violations)
    assert report.games == games
    assert sum(report.results.values()) == games


# The shipped games in CI: 200 games each (issue 9's floor), in parts of 100
# games so the parts share the cores; Saturday Wars with 4 players besides,
# 100 games (its 2-player games make the game's 200; the 4-player games cost
# three times as much each).
SHIPPED = [("ryft", 2, 200), ("silver-wing-rivals", 2, 200), ("saturday-wars", 2, 200),
           ("saturday-wars", 4, 100), ("rival-rush", 2, 200), ("pocket-league", 2, 200),
           ("arcane-duel", 2, 200)]
PART = 100
SHIPPED_PARTS = [(g, p, first) for g, p, games in SHIPPED for first in range(0, games, PART)]


@pytest.mark.parametrize("game_id,players,first", SHIPPED_PARTS,
                         ids=[f"{g}-{p}p-games-{first}-{first + PART - 1}"
                              for g, p, first in SHIPPED_PARTS])
def test_soak_shipped_games(game_id, players, first):
    game = load_game(game_id)
    compiled = compile_game(game)
    decks = lambda i: [game.decks[(i + p) % len(game.decks)]  # noqa: E731
                       for p in range(players)]
    report = soak(compiled, decks, PART, seed=1, check_every=CI_CHECK_EVERY, first=first,
                  replay_every=CI_REPLAY_EVERY)
    assert report.violations == [], "\n".join(v.render() for v in report.violations)
    assert report.games == PART
    assert sum(report.results.values()) == PART


def test_a_violation_names_the_seed_and_the_actions():
    violation = Violation(7, [0, 2, 1], "card 3 is in ('hand', 0) and in ('deck', 0)")
    assert violation.render() == (
        "seed 7: card 3 is in ('hand', 0) and in ('deck', 0)\n"
        "  reproduce: seed 7, actions [0, 2, 1]")


def test_a_replay_that_differs_is_a_violation_of_each_game_replayed(monkeypatch):
    import interpreter.soak as soaking

    game = load_game("duel", FIXTURES / "engine")
    compiled = compile_game(game)
    digests = iter(range(10 ** 6))
    # every digest differs: each replay "gives a different log"
    monkeypatch.setattr(soaking, "_digest", lambda match: next(digests))
    report = soak(compiled, game.decks[:2], 8, seed=1, replay_every=4)
    assert [v.seed for v in report.violations] == [1, 5]     # games 0 and 4
    assert all("replaying the same seed and actions gave a different log" in v.message
               for v in report.violations)


def test_soak_command():
    result = CliRunner().invoke(main, ["soak", str(FIXTURES / "engine" / "rules" / "duel.rules"),
                                       "-n", "20", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("duel: 20 games, ")
    assert "0 violations" in result.output


def test_sharing_a_soak_among_processes_gives_the_same_figures():
    rules = str(FIXTURES / "engine" / "rules" / "duel.rules")
    runner = CliRunner()
    alone = runner.invoke(main, ["soak", rules, "-n", "30", "--seed", "4"])
    shared = runner.invoke(main, ["soak", rules, "-n", "30", "--seed", "4", "--jobs", "2"])
    assert alone.exit_code == shared.exit_code == 0, alone.output + shared.output
    figures = alone.output.rsplit(" in ", 1)[0]
    assert figures.startswith("duel: 30 games,") and "0 violations (win 30)" in figures
    assert shared.output.rsplit(" in ", 1)[0] == figures


def test_a_soak_in_small_parts_gives_the_same_figures_and_shows_its_progress(monkeypatch):
    import interpreter.cli.simulating as cli

    rules = str(FIXTURES / "engine" / "rules" / "duel.rules")
    runner = CliRunner()
    whole = runner.invoke(main, ["soak", rules, "-n", "30", "--seed", "4"])
    monkeypatch.setattr(cli, "SOAK_PART", 7)
    monkeypatch.setattr(cli, "is_terminal", lambda stream: True)
    for jobs in ("1", "2"):
        parts = runner.invoke(main, ["soak", rules, "-n", "30", "--seed", "4", "--jobs", jobs])
        assert parts.exit_code == 0, parts.output
        assert parts.stdout.rsplit(" in ", 1)[0] == whole.stdout.rsplit(" in ", 1)[0]
        # five parts (7, 7, 7, 7, 2 games), each reported on stderr as it ends
        assert "\r7/30 games, 0 violations" in parts.stderr
        assert "\r30/30 games, 0 violations\n" in parts.stderr
        assert parts.stderr.count("/30 games") == 5


def test_ctrl_c_stops_a_soak_and_reports_the_games_it_finished(tmp_path):
    import os
    import pty
    import select
    import signal
    import subprocess
    import sys
    import time

    rules = str(FIXTURES / "engine" / "rules" / "duel.rules")
    for jobs in ("1", "2"):
        # stderr on a terminal, so the soak shows its progress: Ctrl-C is sent
        # once the first part of 100 games is done, however busy the machine
        watcher, terminal = pty.openpty()
        run = subprocess.Popen(
            [sys.executable, "-m", "interpreter.cli", "soak", rules, "-n", "1000000",
             "--seed", "5", "--jobs", jobs],
            stdout=subprocess.PIPE, stderr=terminal, text=True,
            # a runner that started us in the background may have Ctrl-C ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(terminal)
        shown, deadline = b"", time.monotonic() + 300
        while b"/1000000 games" not in shown and time.monotonic() < deadline:
            if select.select([watcher], [], [], 1)[0]:
                shown += os.read(watcher, 4096)
        run.send_signal(signal.SIGINT)
        out, _ = run.communicate(timeout=60)
        with contextlib.suppress(OSError):      # the terminal closes with the process
            while chunk := os.read(watcher, 4096):
                shown += chunk
        os.close(watcher)
        err = shown.decode("utf-8", "replace")
        assert run.returncode == 130, out + err
        assert "Traceback" not in out + err
        summary, note = out.strip().splitlines()[-2:]
        games = int(summary.split(": ", 1)[1].split(" games")[0])
        assert games > 0 and games % 100 == 0
        assert "0 violations" in summary
        assert note == (f"interrupted: the figures count the first {games} of 1000000 games "
                        f"(seeds 5 to {5 + games - 1})")
