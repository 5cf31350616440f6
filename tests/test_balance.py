"""Balance reports (``cardrules simulate``, interpreter/balance.py and
interpreter/reports.py): the figures, the files, and their refusals."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.balance import GameRecord, summarize, wilson
from interpreter.cli import common, main, simulating

DUEL = str(Path(__file__).parent / "fixtures" / "engine" / "rules" / "duel.rules")


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("wins, games, low, high", [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_the_wilson_interval_of_known_cases(wins, games, low, high):
    got = wilson(wins, games)
    assert got == pytest.approx((low, high), abs=1e-4)


def _record(index, winner, played, decks=("Red", "Blue"), first=0, turns=10):
    return GameRecord(index, index, decks, ("random", "random"), "win", winner, first,
                      turns, 30, "win: a player lost: Life", played, None)


def test_cards_are_counted_in_the_games_they_were_played_and_not():
    records = [
        _record(0, 0, (("Bolt", "Wolf"), ("Shield",))),     # Red plays Bolt and wins
        _record(1, 1, (("Wolf",), ("Shield",)), turns=12),  # Red holds Bolt, does not play it
        _record(2, 0, (("Bolt",), ()), first=1, turns=14),  # Red plays Bolt and wins
    ]
    decks = {"Red": frozenset({"Bolt", "Wolf"}), "Blue": frozenset({"Shield"})}
    report = summarize(records, decks)
    bolt = report["cards"]["Bolt"]
    assert bolt["played"] == 2 and bolt["when_played"]["wins"] == 2
    assert (bolt["when_not"]["wins"], bolt["when_not"]["games"]) == (0, 1)
    assert report["cards"]["Shield"]["when_played"]["wins"] == 1
    assert report["cards"]["Shield"]["when_not"]["games"] == 1
    assert report["decks"]["Red"]["wins"] == 2 and report["decks"]["Red"]["games"] == 3
    assert report["matchups"] == [{"decks": ["Blue", "Red"], "wins": 1, "games": 3,
                                   **{k: report["matchups"][0][k]
                                      for k in ("rate", "low", "high")}}]
    # the first player won games 0 and 2? seat 0 went first in 0 and 1, seat 1 in 2
    assert report["first_player"]["wins"] == 1 and report["first_player"]["games"] == 3
    assert report["length"]["turns"]["median"] == 12
    assert report["turn_histogram"] == {"10": 1, "12": 1, "14": 1}


def test_the_same_seed_gives_the_same_report_with_one_or_two_workers():
    one = run("simulate", DUEL, "-n", "24", "--seed", "3", "--format", "json")
    two = run("simulate", DUEL, "-n", "24", "--seed", "3", "--format", "json",
              "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.output == two.output
    report = json.loads(one.output)
    assert report["games"] == 24 and sum(report["wins"].values()) + report["draws"] == 24
    assert set(report["cards"]) and report["first_player"]["games"] == 24



@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="workers inherit what was loaded only when forked")
def test_forked_workers_start_with_the_game_already_loaded(monkeypatch):
    # a worker forked by simulate or soak would load and compile the game
    # again only through these: made to fail, the runs must not need them
    def loads_again(*args):
        raise AssertionError("a forked worker loaded the game again")
    monkeypatch.setattr(simulating, "_batch_playable", loads_again)
    monkeypatch.setattr(simulating, "_worker_playable", loads_again)
    two = run("simulate", DUEL, "-n", "8", "--seed", "3", "--format", "json",
              "--workers", "2")
    assert two.exit_code == 0, two.output
    assert json.loads(two.output)["games"] == 8
    soaked = run("soak", DUEL, "-n", "4", "--jobs", "2")
    assert soaked.exit_code == 0, soaked.output
    assert common.loaded_before_fork() is None       # nothing kept in this process

def test_the_text_report_has_its_tables(tmp_path):
    out = run("simulate", DUEL, "-n", "12", "--seed", "1", "--p1", "first")
    assert out.exit_code == 0, out.output
    text = out.output
    assert text.startswith("duel: 12 games, seeds 1 to 12 (first vs hinted)")
    for heading in ("Win rates, with 95% intervals (Wilson):", "Length of games:",
                    "Cards (the "):
        assert heading in text
    assert "  first player" in text and "win rate [95%]" in text


def test_out_and_record_files_replay_any_game(tmp_path):
    lines, replays = tmp_path / "games.jsonl", tmp_path / "games.replays"
    out = run("simulate", DUEL, "-n", "6", "--seed", "10", "--decks", "Knights",
              "--decks", "Rush", "--out", str(lines), "--record", str(replays))
    assert out.exit_code == 0, out.output
    games = [json.loads(line) for line in lines.read_text().splitlines()]
    assert [g["seed"] for g in games] == list(range(10, 16))
    # the pair in both seats, in turn
    assert [g["decks"] for g in games[:2]] == [["Knights", "Rush"], ["Rush", "Knights"]]
    assert all(g["result"] == "win" and g["winner"] in (1, 2) for g in games)
    again = run("replay", str(lines), "--seed", "12")
    assert again.exit_code == 0, again.output
    winner = games[2]["winner"]
    assert again.output.splitlines()[-1].startswith(f"== Player {winner} wins")
    assert run("replay", str(replays), "--seed", "12").output == again.output
    unnamed = run("replay", str(replays))
    assert unnamed.exit_code == 2 and "E854" in unnamed.output
    refused = run("simulate", DUEL, "-n", "2", "--out", str(lines))
    assert refused.exit_code == 2 and "E912" in refused.output
    assert len(lines.read_text().splitlines()) == 6          # not written over


def test_the_report_folder_holds_the_page_its_figures_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "report"
    out = run("simulate", DUEL, "-n", "8", "--seed", "2", "--report", str(folder))
    assert out.exit_code == 0, out.output
    assert {p.name for p in folder.iterdir()} == {
        "index.html", "report.json", "win-rates.png", "lengths.png", "cards.png"}
    page = (folder / "index.html").read_text()
    assert "duel: 8 games" in page and 'src="win-rates.png"' in page
    assert json.loads((folder / "report.json").read_text())["games"] == 8
    assert run("simulate", DUEL, "-n", "2", "--report", str(folder)).exit_code == 2


@pytest.mark.parametrize("args, code, says", [
    (["--deck", "Rush", "--decks", "Knights"], "E850", "cannot be used together"),
    (["--p2", "greddy"], "E816", 'no agent called "greddy"'),
    (["--decks", "Knigts"], "E810", 'did you mean "Knights"'),
])
def test_simulate_refuses_what_it_cannot_run(args, code, says):
    out = run("simulate", DUEL, "-n", "2", *args)
    assert out.exit_code == 2 and code in out.output and says in out.output


def test_a_ray_cluster_gives_the_same_report(tmp_path):
    pytest.importorskip("ray")
    local = run("simulate", DUEL, "-n", "12", "--seed", "4", "--format", "json")
    on_ray = run("simulate", DUEL, "-n", "12", "--seed", "4", "--format", "json",
                 "--backend", "ray")
    assert on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout == local.stdout


def test_ray_options_say_what_they_need(monkeypatch):
    assert "E856" in run("simulate", DUEL, "-n", "2", "--address", "x:1").output
    monkeypatch.setattr("interpreter.cluster.ray", None)
    missing = run("simulate", DUEL, "-n", "2", "--backend", "ray")
    assert missing.exit_code == 2
    assert "E857" in missing.output and "cardrules[ray]" in missing.output
