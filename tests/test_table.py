"""Playing a game yourself (``play --p1 human``): the table screen under a
pseudo-terminal, the plain-text screen, the prompt's commands and mistakes,
and saved games that resume exactly where they were."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from errors_support import at_repo_root, fixture_path  # noqa: F401  (autouse fixture)
from interpreter.cli import main
from interpreter.cli.common import load_playable
from interpreter.tables import Table, repeats_counted

DUEL = fixture_path("engine", "rules", "duel.rules")
REPO = Path(__file__).resolve().parent.parent
PROMPT = "play> "


def run(*args: str, typed: str = ""):
    result = CliRunner().invoke(main, list(args), input=typed, prog_name="cardrules")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return result


def always_first(times: int = 400) -> str:
    return "1\n" * times


# ---------------------------------------------------------------- a terminal


def _spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "interpreter.cli", *args], cwd=str(REPO),
                         encoding="utf-8", timeout=60, dimensions=(60, 160),
                         env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "160"})


def _no_colours(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "")


def test_a_whole_game_at_the_terminal(tmp_path):
    """A person plays RYFT against a random agent under a pseudo-terminal:
    mistakes, help, a card's text, the log, choices, undo, save and quit;
    then the saved game resumed and played to its end."""
    saved = tmp_path / "game.json"
    child = _spawn("play", "ryft", "--p1", "human", "--p2", "random", "--seed", "1")
    child.expect_exact(PROMPT)
    screen = _no_colours(child.before)
    assert "RYFT Card Battle: turn" in screen and "(you are Player 1)" in screen
    assert re.search(r"Player 1 \(you\) +Life Force 300", screen)   # the players' table
    assert "╭─ Your hand" in screen                                   # a rich panel
    assert "You may Reset:\n  1. yes\n  2. no" in screen    # the mulligan: a question
    for typed, shown in [("frobnicate", 'E845 "frobnicate" is not an option or a command'),
                         ("help", "undo         back to your previous decision"),
                         ("card cinderpupp", 'did you mean "Cinderpup"?'),
                         ("card Cinderpup", "TRIGGER: When this is Summoned"),
                         ("log 3", ""),
                         ("1", "You must "),
                         ("1", "You must "),
                         ("undo", "Back to your previous decision."),
                         (f"save {saved}", f"Saved to {saved}")]:
        child.sendline(typed)
        child.expect_exact(PROMPT)
        assert shown in _no_colours(child.before), typed
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert f"resume it with: cardrules play --load {saved}" in _no_colours(child.before)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(saved.read_text())["seats"] == ["human", "random"]

    child = _spawn("play", "--load", str(saved))
    screens = []
    while child.expect_exact([PROMPT, pexpect.EOF]) == 0:
        screens.append(_no_colours(child.before))
        child.sendline("1")
    last = _no_colours(child.before)
    child.close()
    assert child.exitstatus == 0
    assert "Resumed after" in screens[0]
    assert re.search(r"The game is over: (Player \d wins|a draw)", last)
    assert re.search(r"Player 2 +Life Force \d+", last)     # the last board's life totals


def test_ctrl_c_at_the_prompt_stops_with_130():
    child = _spawn("play", DUEL, "--p1", "human", "--seed", "3")
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    assert "Interrupted: the game stops here." in _no_colours(child.before)
    assert "The game was not saved" in _no_colours(child.before)
    child.close()
    assert child.exitstatus == 130


# ---------------------------------------------------------------- plain text


def test_plain_text_screen_and_prompt_mistakes():
    result = run("play", DUEL, "--p1", "human", "--seed", "3",
                 typed="xyz\n\n9\nundo\ncard squre\ncard knight\nlog 2\nhelp\n1\nquit\n")
    assert result.exit_code == 0
    out = result.output
    assert "\x1b" not in out and "╭" not in out          # no colours, no boxes
    lines = out.splitlines()
    assert lines[:2] == ["Player 1 (you) plays Knights.", "Player 2 (hinted) plays Rush."]
    assert "==== Duel: turn 2, Player 1's turn, Main (you are Player 1)" in lines
    assert "Player 1 (you): Life 9, Mana 1, Guess 0 | deck 16, hand 4" in lines
    assert "Player 2's board: Squire (cost 0, power 1; exhausted); Squire (cost 0, power 1)" \
        in lines
    assert "  1. cast Scholar (your hand)" in lines
    assert 'E845 "xyz" is not an option or a command' in lines
    assert "E845 nothing typed" in lines
    assert "E841 there is no option 9" in lines
    assert "E842 nothing to undo: no decision taken yet" in lines
    assert '  did you mean "Squire"?' in lines
    assert lines[lines.index("play> card knight") + 1:][:2] == ["Knight (Creature)",
                                                                "  cost: 1, power: 2"]
    assert "  Player 1: cast Scholar." in lines      # what happened since the last decision
    assert lines[-1] == "The game was not saved (type save FILE before quit to keep it)."



def test_a_question_reads_may_and_a_choice_must():
    # Pocket League's setup: the choice of the first player and of the
    # active creature must be made; "You may draw a card" (the rival's
    # mulligans) is a question answered yes or no
    result = run("play", "pocket-league", "--p1", "human", "--p2", "random", "--seed", "4",
                 typed="1\n1\nquit\n")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "You must choose the first player:" in lines
    at = lines.index("You may draw a card:")
    assert lines[at + 1:at + 3] == ["  1. yes", "  2. no"]
    assert "You must choose a card to put a basic creature in their hand into play:" in lines
    assert not any(line.startswith("You must") and line.endswith("?:") for line in lines)
    # the rival's mulligan: seven hidden cards back to the deck, told as one line
    assert "  A card moves from Player 2's hand to Player 2's deck. (x7)" in lines


def test_the_same_event_in_a_row_is_one_line_with_its_count():
    assert repeats_counted(["a", "b", "b", "b", "a", "c", "c"]) == \
        ["a", "b (x3)", "a", "c (x2)"]
    assert repeats_counted([]) == []

def test_end_of_input_leaves_cleanly():
    result = run("play", DUEL, "--p2", "human", "--seed", "3", typed="")
    assert result.exit_code == 0
    assert "(you are Player 2)" in result.output
    assert "End of input: the game stops here." in result.output


def test_a_game_to_its_end_in_plain_text():
    result = run("play", DUEL, "--p1", "human", "--seed", "3", typed=always_first())
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "The game is over: Player 1 wins (player 2 lost: Life 0).")
    assert "  == Player 1 wins: player 2 lost: Life 0." in result.output


def test_no_human_seat_prints_the_game_as_before():
    """--p1/--p2 agents: the narrated game, as play has always printed it."""
    plain = run("play", DUEL, "--seed", "2")
    named = run("play", DUEL, "--seed", "2", "--p1", "random", "--p2", "random")
    assert plain.exit_code == named.exit_code == 0
    assert plain.output == named.output and "Player 1 plays" in plain.output
    first = run("play", DUEL, "--seed", "2", "--p1", "first", "--p2", "first")
    assert first.exit_code == 0 and first.output != plain.output


# ---------------------------------------------------------------- save, load, undo


def test_a_saved_game_goes_on_as_the_unsaved_one(tmp_path):
    """Saved after two decisions, resumed: the agent chooses as it would
    have, and the finished game's record is the same byte for byte."""
    whole, saved, resumed = tmp_path / "whole.json", tmp_path / "saved.json", tmp_path / "r.json"
    assert run("play", DUEL, "--p1", "human", "--seed", "5", "--record", str(whole),
               typed=always_first()).exit_code == 0
    part = run("play", DUEL, "--p1", "human", "--seed", "5",
               typed=f"1\n1\nsave {saved}\nquit\n")
    assert part.exit_code == 0
    assert f"resume it with: cardrules play --load {saved}" in part.output
    end = run("play", "--load", str(saved), "--record", str(resumed), typed=always_first())
    assert end.exit_code == 0 and "Resumed after" in end.output
    assert resumed.read_bytes() == whole.read_bytes()
    assert len(json.loads(saved.read_text())["actions"]) < len(
        json.loads(whole.read_text())["actions"])


def test_undo_rebuilds_the_game_from_its_seed():
    """A choice taken back: the game (and the agent's generator) as if it
    had never been taken, so the agent then plays as it would have."""
    playable = load_playable(DUEL, None)
    tables = [Table.open(playable.compiled, playable.seats(), 5, ("human", "random"), DUEL,
                         ("Knights", "Rush")) for _ in range(2)]
    straight, undone = tables
    for table in tables:
        table.play_agents()
        table.choose(1)
        table.play_agents()
    before = list(straight.actions)
    undone.choose(1)           # another choice, then taken back
    undone.undo()
    assert undone.actions == before
    assert undone.match.log_digest() == straight.match.log_digest()
    for _ in range(4):         # pass, pass...: the agent's turns, its random choices
        for table in tables:
            table.choose(len(table.match.legal_actions()))
            table.play_agents()
    assert len(straight.actions) > len(before) + 3
    assert undone.actions == straight.actions
    assert undone.match.log_digest() == straight.match.log_digest()


def test_save_never_writes_over_a_file_it_did_not_write(tmp_path):
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    save = tmp_path / "game.json"
    result = run("play", DUEL, "--p1", "human", "--seed", "3",
                 typed=f"save {mine}\nsave {save}\n1\nsave {save}\nquit\n")
    assert result.exit_code == 0
    assert mine.read_text() == "my notes\n"
    assert f"E912 {mine} already exists" in result.output
    assert len(json.loads(save.read_text())["actions"]) >= 2   # saved again, after a choice


def test_deck_files_and_load_mistakes(tmp_path):
    deck = tmp_path / "mine.deck"
    shutil.copy(REPO / "tests/fixtures/engine/cards/duel/decks/rush.deck", deck)
    saved = tmp_path / "game.json"
    result = run("play", DUEL, "--p1", "human", "--deck1", str(deck), "--seed", "3",
                 typed=f"save {saved}\nquit\n")
    assert result.exit_code == 0
    assert result.output.splitlines()[:2] == ["Player 1 (you) plays Rush.",
                                              "Player 2 (hinted) plays Rush."]
    assert json.loads(saved.read_text())["decks"] == [str(deck.resolve()), "Rush"]
    resumed = run("play", "--load", str(saved), typed="quit\n")
    assert resumed.exit_code == 0 and "Resumed after" in resumed.output

    twice = run("play", DUEL, "--load", str(saved))
    assert twice.exit_code == 2 and "E848 --load takes the game" in twice.output
    record = tmp_path / "record.json"
    assert run("play", DUEL, "--seed", "1", "--record", str(record)).exit_code == 0
    not_saved = run("play", "--load", str(record))
    assert not_saved.exit_code == 2 and "E849" in not_saved.output
    match = run("play", "ryft", "--p1", "human", "--match")
    assert match.exit_code == 2 and "E847" in match.output
    missing = run("play", DUEL, "--deck1", str(tmp_path / "none.deck"))
    assert missing.exit_code == 2 and "E901 no such file" in missing.output
