"""The command line: exit codes (0 clean, 1 problems, 2 could not run), the
text and JSON output of ``cardrules check``, ``cardrules explain`` errors, and
no Python traceback ever."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from errors_support import (  # noqa: F401  (at_repo_root is an autouse fixture)
    REPO,
    at_repo_root,
    card_file,
    deck_file,
    fixture_path,
)
from interpreter import balance as cli
from interpreter.cli import _COMMAND_MODULES, main
from interpreter.language.games import shipped_games
from interpreter.rulings import load_rulings
from interpreter.source import SourceText


def run(*args: str):
    result = CliRunner().invoke(main, list(args), prog_name="cardrules")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return result


THREE = card_file("ryft", "three.cards")
DUEL = fixture_path("engine", "rules", "duel.rules")


# ---------------------------------------------------------------- exit codes


def test_check_shipped_games_is_clean():
    result = run("check")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("0 problems in ")


def test_check_a_clean_fixture_file_exits_0():
    result = run("check", deck_file("ryft", "empty.deck"))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""


def test_an_empty_card_file_is_a_warning_that_does_not_fail_the_check():
    empty = card_file("ryft", "empty.cards")
    result = run("check", empty)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{empty}:1:1: W401 this card file defines no cards")
    assert result.stderr.startswith("0 problems, 1 warning in 1 file")
    data = json.loads(run("check", "--format", "json", empty).stdout)
    assert data["problems"] == []
    assert [(w["code"], w["line"]) for w in data["warnings"]] == [("W401", 1)]


def test_check_a_file_with_problems_exits_1_and_prints_all_of_them():
    result = run("check", THREE)
    assert result.exit_code == 1
    assert result.stdout == (
        f'{THREE}:10:7: E409 stat "HP" must be a number, not "lots"\n'
        "  10 |   HP: lots\n"
        "     |       ^^^^\n"
        "  expected: a whole number such as 3\n"
        f'{THREE}:14:9: E410 "LEGEND" is not a rank\n'
        "  14 |   rank: LEGEND\n"
        "     |         ^^^^^^\n"
        "  expected: ADV., BASIC, MAX\n"
        f'{THREE}:26:3: E303 unknown stat "AP" for a Code\n'
        "  26 |   AP: 10\n"
        "     |   ^^\n"
        "  expected: code type, domain, synergy, text\n")
    assert result.stderr.startswith("3 problems in 1 file")


def test_summary_line_wording():
    result = run("check", THREE)
    assert result.stderr.startswith("3 problems in 1 file (")
    assert result.stderr.endswith(", 1 game)\n")


def test_check_a_missing_file_exits_2():
    result = run("check", "no/such/file.cards")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "E901 no such file or directory: no/such/file.cards\n"


def test_check_a_file_of_no_game_exits_2(tmp_path):
    stray = tmp_path / "stray.cards"
    stray.write_text('card "Nowhere"\n', encoding="utf-8")
    result = run("check", str(stray))
    assert result.exit_code == 2
    assert result.stderr == (
        f"E903 cannot tell which game {stray} belongs to\n"
        "  expected: rules/<game-id>.rules, or a file under cards/<game-id>/ beside it\n"
        f"  to check it against a game, name the game: cardrules check --game ID {stray} "
        f"(ID: {', '.join(shipped_games())})\n")


def test_unknown_option_exits_2():
    result = run("check", "--bogus")
    assert result.exit_code == 2
    assert "Error: No such option '--bogus'." in result.stderr
    assert "Try 'cardrules check --help' for help." in result.stderr


def test_unknown_format_exits_2():
    result = run("check", "--format", "yaml")
    assert result.exit_code == 2
    assert "'yaml' is not one of 'text', 'json'" in result.stderr


def test_unknown_command_exits_2():
    result = run("frobnicate")
    assert result.exit_code == 2
    assert "No such command 'frobnicate'" in result.stderr


def test_help_lists_every_command_and_each_is_found_in_its_module():
    # the group loads a command's module only when the command is asked for:
    # its table names every command each module defines, and no other
    defined = {}
    for module in set(_COMMAND_MODULES.values()):
        for command in importlib.import_module(f"interpreter.cli.{module}").COMMANDS:
            defined[command.name] = module
    assert defined == _COMMAND_MODULES
    listed = run("--help").output
    for name in defined:
        assert f"  {name} " in listed


def test_check_loads_only_what_checking_needs():
    # a cold process: check does not wait for the web table's, the language
    # server's or the simulations' libraries
    probe = ("import sys; from interpreter.cli import main\n"
             "try: main(['check', %r])\n"
             "except SystemExit as done: code = done.code\n"
             "print(code, sorted(m for m in ('interpreter.cli.playing', "
             "'interpreter.cli.simulating', 'interpreter.cli.serving', "
             "'interpreter.cli.editing', 'matplotlib', 'ray', 'starlette', 'rich', "
             "'lsprotocol', 'pygls') if m in sys.modules))" % str(DUEL))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr


# ---------------------------------------------------------------- explain


def test_explain_unknown_game_exits_2():
    result = run("explain", "ryfft", "Draw a card.")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        'E902 unknown game "ryfft"\n'
        "  expected: arcane-duel, pocket-league, rival-rush, ryft, saturday-wars, "
        "silver-wing-rivals\n"
        '  did you mean "ryft"?\n')


def test_explain_bad_text_exits_1_with_a_positioned_problem():
    result = run("explain", "rival-rush", "Dump.")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[:3] == [
        '<text>:1:5: E203 "Dump {n}" is not complete: unexpected "."',
        "  1 | Dump.",
        "    |     ^",
    ]


def test_explain_unclosed_quote_exits_1():
    result = run("explain", "ryft", 'ABILITY: Exile "Cinderpup.')
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:3] == [
        '<text>:1:16: E203 "Exile {card}" is not complete: unclosed quote: a card name '
        "must end with a closing quote",
        '  1 | ABILITY: Exile "Cinderpup.',
        "    |                ^",
    ]


def test_explain_unclosed_quote_names_the_right_pattern():
    result = run("explain", "saturday-wars", 'ANIMATE: Purge "Lost Soul.')
    assert result.exit_code == 1
    assert '"Purge {n}"' not in result.stderr.splitlines()[0]


# ---------------------------------------------------------------- JSON


def test_json_output_shape_with_problems():
    result = run("check", "--format", "json", THREE)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) == {"problems", "warnings", "summary"}
    assert data["summary"] == {"ryft": {"cards": data["summary"]["ryft"]["cards"],
                                        "decks": data["summary"]["ryft"]["decks"],
                                        "files": 1}}
    assert data["problems"] == [
        {"path": THREE, "line": 10, "column": 7, "code": "E409",
         "message": 'stat "HP" must be a number, not "lots"',
         "expected": ["a whole number such as 3"]},
        {"path": THREE, "line": 14, "column": 9, "code": "E410",
         "message": '"LEGEND" is not a rank', "expected": ["ADV., BASIC, MAX"]},
        {"path": THREE, "line": 26, "column": 3, "code": "E303",
         "message": 'unknown stat "AP" for a Code',
         "expected": ["code type, domain, synergy, text"]},
    ]


def test_json_output_of_the_shipped_games():
    result = run("check", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["problems"] == []
    assert set(data["summary"]) == {"ryft", "silver-wing-rivals", "rival-rush",
                                    "saturday-wars", "pocket-league",
                                    "arcane-duel"}
    for counts in data["summary"].values():
        assert set(counts) == {"cards", "decks", "files"}
        assert all(isinstance(v, int) and v > 0 for v in counts.values())


def test_json_output_with_a_suggestion():
    path = deck_file("ryft", "lines.deck")
    data = json.loads(run("check", "--format", "json", path).stdout)
    first = [p for p in data["problems"] if p["code"] == "E305"][0]
    assert first == {"path": path, "line": 5, "column": 5, "code": "E305",
                     "message": 'unknown card "Cinderpupp"',
                     "suggestion": 'did you mean "Cinderpup"?'}


def test_json_output_when_the_command_cannot_run():
    result = run("check", "--format", "json", "no/such/file.deck")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "problems": [{"path": None, "line": None, "column": None, "code": "E901",
                      "message": "no such file or directory: no/such/file.deck"}],
        "warnings": [], "summary": {}}


# ---------------------------------------------------------------- whole fixture roots


@pytest.mark.parametrize("root", ["ryft", "silver-wing-rivals", "rival-rush",
                                  "saturday-wars", "rules-errors", "rules-verb",
                                  "rules-empty"])
def test_checking_a_broken_root_exits_1_without_traceback(root):
    result = run("check", "--format", "json", fixture_path(root))
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["problems"]
    for p in data["problems"]:
        assert set(p) >= {"path", "line", "column", "code", "message"}
        assert p["path"].startswith(fixture_path(root) + "/")
        assert p["line"] >= 1 and p["column"] >= 1


# ---------------------------------------------------------------- the games' commands


def test_play_saturday_wars_with_four_players():
    result = run("play", "saturday-wars", "--players", "4", "--seed", "1")
    assert result.exit_code == 0, result.output[-2000:]
    lines = result.output.splitlines()
    assert [line.split(" plays ")[0] for line in lines[:4]] == [
        "Player 1", "Player 2", "Player 3", "Player 4"]
    assert lines[4].startswith("A game of Saturday Wars CCG for 4 players (seed 1)")
    assert lines[-1].startswith("== Player ") and " wins: " in lines[-1]


def test_simulate_saturday_wars_with_three_players():
    result = run("simulate", "saturday-wars", "--players", "3", "-n", "3", "--seed", "1",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 3 and report["errors"] == 0
    assert set(report["wins"]) <= {"player 1", "player 2", "player 3"}
    assert sum(report["wins"].values()) + report["draws"] == 3


@pytest.mark.parametrize("command", ["play", "simulate", "soak"])
@pytest.mark.parametrize("seed,told", [("-1", "-1"), ("1.5", '"1.5"')])
def test_a_seed_is_a_whole_number_0_or_more(command, seed, told):
    # "--seed -1" was taken silently
    result = run(command, "ryft", "--seed", seed)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.endswith(
        f"Error: Invalid value for '--seed': {told} is not a seed: a seed is a whole "
        "number, 0 or more\n")
    # and a ruling's seed is refused the same way, at its line
    ruling = SourceText("neg.ruling", f'ruling "R"\n  game: ryft\n  seed: {seed}\n'
                        "  expect:\n    player 1 hand has 5 cards\n")
    problem, = load_rulings(ruling)[1]
    assert (problem.code, problem.span.line, problem.message) == (
        "E703", 3, f'seed must be a whole number, not "{seed}"')


def _interrupted_at_game(monkeypatch, number: int) -> None:
    """Ctrl-C while game ``number`` of a run is played."""
    played = []

    def play_out(match, agents):
        played.append(match)
        if len(played) == number:
            raise KeyboardInterrupt
        return real_play_out(match, agents)

    real_play_out = cli.play_out
    monkeypatch.setattr(cli, "play_out", play_out)


def test_ctrl_c_stops_a_simulation_and_reports_the_games_it_finished(monkeypatch):
    # it printed "Aborted!" and exited 1 (the code of problems found), the
    # finished games lost
    _interrupted_at_game(monkeypatch, 4)
    result = run("simulate", DUEL, "-n", "1000", "--seed", "5")
    assert result.exit_code == 130, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "duel: 3 games, seeds 5 to 7"
    # the seats' wins ("  player 1 won 2"; the decks' lines say "won N of M games")
    won = sum(int(line.split(" won ")[1]) for line in lines if line.startswith("  player "))
    draws = next(int(line.split("draws ")[1].split(",")[0]) for line in lines
                 if line.startswith("  draws "))
    assert won + draws == 3
    assert lines[-1] == ("interrupted: the figures count the first 3 of 1000 games "
                         "(seeds 5 to 7)")
    assert "Aborted!" not in result.output
    _interrupted_at_game(monkeypatch, 3)
    report = run("simulate", DUEL, "-n", "1000", "--seed", "5", "--format", "json")
    assert report.exit_code == 130
    data = json.loads(report.stdout)
    assert (data["games"], data["interrupted"], data["errors"]) == (2, True, 0)
    assert sum(data["wins"].values()) + data["draws"] == 2
    assert report.stderr == ("interrupted: the figures count the first 2 of 1000 games "
                             "(seeds 5 to 6)\n")
    _interrupted_at_game(monkeypatch, 1)
    nothing = run("simulate", DUEL, "-n", "1000", "--seed", "5")
    assert nothing.exit_code == 130
    assert nothing.stdout.splitlines()[-1] == "interrupted before the first game was played"


def test_play_a_silver_wing_rivals_match_best_of_three():
    result = run("play", "silver-wing-rivals", "--match", "--seed", "1")
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.startswith("A match of Silver Wing Rivals: the best of 3 games.")
    games = [line for line in result.output.splitlines() if line.startswith("==== Game ")]
    assert 2 <= len(games) <= 3
    last = result.output.splitlines()[-1]
    assert last in ("==== Player 1 wins the match 2-1.", "==== Player 1 wins the match 2-0.",
                    "==== Player 2 wins the match 1-2.", "==== Player 2 wins the match 0-2.")


@pytest.mark.parametrize("text, cannot", [
    ("ABILITY: Draw a card: Gain 1 Synergy.", 'the cost "draw"'),
    # "that much" is the amount of the event a replacement takes the place of
    # (or, "that many", how many cards a step before it acted on)
    ("TRIGGER: When this is Summoned: Deal that much damage to each Being.",
     '"that much" with no event replaced (in a replacement: "prevent that much damage") '
     'nor a step on cards before it ("Discard your hand, then draw that many cards")'),
    ("TRIGGER: When this is Summoned: Prevent that damage.",
     '"prevent that damage" outside a replacement of damage'),
    ("If this would be destroyed, prevent that damage.",
     '"prevent that damage" outside a replacement of damage'),
    ("TRIGGER: When this is Summoned: Gain Synergy equal to the excess.",
     '"the excess" outside a replacement of paying more than a player has'),
    ("TRIGGER: When this is Summoned: Gain X Synergy.",
     'X without "where X is ..." in its sentence'),
    ("TRIGGER: When this is Summoned: Otherwise, draw a card.",
     '"otherwise" not at the start of the sentence after an "if"'),
    # after "If", "and" joins a second condition: a step there is refused
    ("TRIGGER: When this is Summoned: If you control a Being and draw a card, gain 1 Synergy.",
     'a step joined to "If ..." by "and" (write "If A, if B, ...")'),
])
def test_check_compiles_what_it_checks(tmp_path, text, cannot):
    """Check means it runs: a text the grammar reads but the engine cannot run
    is a problem at its line, reported by check before any game is played."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "rules", tmp_path / "rules")
    shutil.copytree(root / "cards" / "ryft", tmp_path / "cards" / "ryft")
    cards = tmp_path / "cards" / "ryft" / "extra.cards"
    cards.write_text('card "Strange Bargain"\n  kind: Being\n  rank: BASIC\n  synergy: 1\n'
                     '  domain: STORM\n  type: Beast\n  AP: 10\n  HP: 10\n  text:\n'
                     f'    {text}\n')
    result = run("check", str(tmp_path / "cards" / "ryft"))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith(f"extra.cards:10:5: E801 the engine cannot run {cannot} "
                             "yet"), result.output
    assert lines[1] == f"  10 |     {text}"


def test_check_refuses_giving_a_keyword_whose_ability_triggers(tmp_path):
    """A keyword given by an effect works like a printed one for continuous
    abilities and replacements; one whose definition triggers cannot be
    given yet, and check says so at the sentence that gives it."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "rules", tmp_path / "rules")
    shutil.copytree(root / "cards" / "ryft", tmp_path / "cards" / "ryft")
    rules = tmp_path / "rules" / "ryft.rules"
    rules.write_text(rules.read_text() + '\nkeyword Echo: TRIGGER: When this is Summoned: '
                     'Draw a card.\n')
    cards = tmp_path / "cards" / "ryft" / "extra.cards"
    cards.write_text('card "Echo Giver"\n  kind: Being\n  rank: BASIC\n  synergy: 1\n'
                     '  domain: STORM\n  type: Beast\n  AP: 10\n  HP: 10\n  text:\n'
                     '    INFINITE: Each Being you control has Echo.\n')
    result = run("check", str(tmp_path / "cards" / "ryft"))
    assert result.exit_code == 1, result.output
    assert ('extra.cards:10:5: E801 the engine cannot run giving "Echo" by an effect (its '
            'definition triggers) yet') in result.output, result.output


def test_check_refuses_repeat_this_in_a_procedure(tmp_path):
    """ "Repeat this" repeats the ability or verb it is written in; on a line
    of the rules file's own procedures it would restart the procedure (once
    the whole game, from its setup), so check reports it at its line."""
    import shutil
    from pathlib import Path

    engine = Path(__file__).resolve().parent / "fixtures" / "engine"
    shutil.copytree(engine / "rules", tmp_path / "rules")
    shutil.copytree(engine / "cards", tmp_path / "cards")
    rules = tmp_path / "rules" / "duel.rules"
    text = rules.read_text()
    line = "    The turn player discards down to 5 cards.\n"
    assert line in text
    rules.write_text(text.replace(line, line + "    Repeat this.\n"))
    number = text[:text.index(line)].count("\n") + 2
    for checked in (rules, tmp_path / "cards" / "duel"):
        # (checking only the game's cards reports it too: no game of it can run)
        result = run("check", str(checked))
        assert result.exit_code == 1, result.output
        assert result.output.startswith(
            f'{rules}:{number}:5: E801 the engine cannot run "Repeat this" outside a '
            "card's ability or a verb (it would start the whole procedure again) yet"), \
            result.output


def test_a_wrong_number_of_players_reads_as_a_sentence():
    # issue 22: it said "is for 2 to 2 players"
    result = run("play", "ryft", "--players", "3", "--seed", "1")
    assert result.exit_code == 2
    assert result.stderr == "E804 RYFT Card Battle is for 2 players, not 3\n"
    result = run("play", "saturday-wars", "--players", "5", "--seed", "1")
    assert result.stderr == "E804 Saturday Wars CCG is for 2 to 4 players, not 5\n"


def test_play_shows_the_board_at_each_turns_first_decision():
    # issue 22: "a short board summary at the start of each turn"
    result = run("play", DUEL, "--seed", "3")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    at = lines.index("   Board, turn 4:")
    assert lines[at + 1:at + 3] == [
        "     Player 1: Life 9, Mana 1, Guess 0; 5 cards in hand.",
        "     Player 2: Life 10, Mana 1, Guess 0; 2 cards in hand; board: Squire, Squire."]
    assert "-- Turn 4: Player 1" in lines[:at] and lines[at + 3].startswith("   Player 1")
    # the boards are added between the lines of the log, none of which is lost
    boards = sum(1 for line in lines if line.startswith("   Board, turn "))
    assert boards == sum(1 for line in lines if line.startswith("-- Turn "))


def test_check_refuses_a_relation_with_a_duration(tmp_path):
    """docs/core.md "Relations": a relation lasts until it is ended or a card
    moves; "until the end of the turn" after one is a check problem."""
    cards = tmp_path / "extra.cards"
    text = ("Choose a Creature you control. It is blocking a Creature your Rival controls "
            "until the end of the turn.")
    cards.write_text('card "Test Wisp"\n  kind: Sorcery\n  colour: Tide\n  pips: 1\n'
                     f'  generic: 0\n  text:\n    {text}\n')
    result = run("check", "--game", "arcane-duel", str(cards))
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[0].endswith(
        "extra.cards:7:5: E801 the engine cannot run a relation or a role with a duration "
        "(a relation lasts until it is ended or either card changes zone) yet")


def test_a_rules_file_problem_is_reported_without_what_follows_from_it(tmp_path):
    """A rules file with a problem is not read to its end (its adjectives'
    meanings): check reports the problem, not the adjectives that then seem
    unreadable (Pocket League's "basic", "benched")."""
    root = tmp_path / "game"
    shutil.copytree(REPO / "rules", root / "rules")
    shutil.copytree(REPO / "cards" / "pocket-league", root / "cards" / "pocket-league")
    rules = root / "rules" / "pocket-league.rules"
    rules.write_text(rules.read_text().replace('given by "Paralyse {card}"',
                                               'given by "Paralyze {card}"'))
    result = run("check", str(rules))
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if ": E" in line]
    assert len(lines) == 1, result.output
    assert lines[0].endswith('E546 status "paralysed" is given by "Paralyze {card}", '
                             'which is not a declared verb')
    assert 'did you mean "Paralyse {card}"?' in result.output
