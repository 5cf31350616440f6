"""Rulings: the .ruling format, strict running, `cardrules ruling`, and the
pytest plugin with syrupy snapshots (in a designer's own repository, built
with pytester)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main

HERE = Path(__file__).resolve().parent
BAD = HERE / "fixtures" / "rulings"
pytest_plugins = ["pytester"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def rel(name):
    return str((BAD / name).relative_to(Path.cwd())) if BAD.is_relative_to(Path.cwd()) \
        else str(BAD / name)


def test_a_wrong_expectation_shows_expected_and_actual_at_its_line():
    result = run("ruling", "--quiet", rel("wrong_expect.ruling"))
    assert result.exit_code == 1
    path = rel("wrong_expect.ruling")
    assert result.output.splitlines()[:3] == [
        f"{path}:14:5: E720 expected player 1's board to have 2 cards, but it has 1 (Squire)",
        "  14 |     player 1 board has 2 cards",
        "     |     ^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]
    assert result.output.endswith("0 passed, 1 failed\n")
    assert "Traceback" not in result.output


def test_format_mistakes_are_positioned_problems():
    result = run("ruling", "--quiet", rel("format.ruling"))
    path = rel("format.ruling")
    lines = [l for l in result.output.splitlines() if l.startswith(path)]
    assert lines == [
        f'{path}:3:3: E702 unknown field "sead"',
        f"{path}:5:11: E703 turn must be a whole number",
        f"{path}:10:5: E704 a play step is a player and a choice",
        f'{path}:11:9: E705 unknown stop "when it ends"',
        f"{path}:13:23: E706 this expect line cannot be read",
    ]
    assert 'did you mean "seed"?' in result.output
    assert "expected: a card name in quotes, a number" in result.output
    assert result.exit_code == 1


def test_position_names_are_checked_against_the_game():
    result = run("ruling", "--quiet", rel("position.ruling"))
    path = rel("position.ruling")
    assert f'{path}:6:7: E711 unknown zone or counter "hnd"' in result.output
    assert 'did you mean "hand"?' in result.output
    assert f'{path}:7:14: E710 unknown card "Squirre"' in result.output
    assert f'{path}:4:12: E712 unknown phase or step "Mian"' in result.output
    assert 'did you mean "Main"?' in result.output


def test_players_are_checked_against_the_game():
    # found by fuzzing expect lines: "player 3 Life is 20" in a game of two
    # was an IndexError; a position's "player 5" was silently left out
    result = run("ruling", "--quiet", rel("players.ruling"))
    path = rel("players.ruling")
    lines = [l for l in result.output.splitlines() if l.startswith(path)]
    assert lines == [
        f"{path}:4:18: E718 there is no player 3: this ruling plays a game of 2 players",
        f"{path}:8:5: E718 there is no player 5: this ruling plays a game of 2 players",
        f"{path}:11:5: E718 there is no player 4: this ruling plays a game of 2 players",
        f"{path}:13:5: E718 there is no player 3: this ruling plays a game of 2 players",
        f"{path}:14:5: E718 there is no player 0: this ruling plays a game of 2 players",
        f"{path}:18:12: E718 this game is played by 2 to 4 players, not 7",
        f"{path}:25:10: E718 3 decks for a game of 2 players",
    ]
    assert "expected: player 1 to player 2" in result.output
    assert "expected: players: 2 to 4" in result.output
    assert "Traceback" not in result.output
    assert result.exit_code == 1


def test_a_deck_per_player_sets_the_number_of_players(tmp_path):
    ruling = tmp_path / "three.ruling"
    ruling.write_text(f"""ruling "Three decks, three players"
  game: {HERE / "fixtures" / "engine" / "rules" / "duel.rules"}
  decks: Knights, Knights, Rush
  stop: at the next decision
  expect:
    player 3 hand has 3 cards
""")
    result = run("ruling", str(ruling))
    assert "A game of Duel for 3 players" in result.output
    assert result.exit_code == 0, result.output


def test_strict_running_names_the_step():
    result = run("ruling", "--quiet", rel("strict.ruling"))
    path = rel("strict.ruling")
    out = result.output
    assert (f'{path}:10:5: E715 play step 1: "cast Giant" is not a legal choice for '
            "player 1 (take an action or pass)") in out
    assert "  expected: cast Squire, pass" in out
    assert (f"{path}:14:1: E716 unscripted decision after the last play step: player 1 "
            "must take an action or pass") in out
    assert f"{path}:40:5: E713 play step 2 was not used: the game ended before it" in out
    assert out.endswith("0 passed, 3 failed\n")


def test_a_ruling_must_expect_something():
    result = run("ruling", rel("no_expect.ruling"))
    assert "E708 ruling \"No expectations\" expects nothing" in result.output
    assert result.exit_code == 1


def test_passing_rulings_print_their_trace():
    result = run("ruling", str(HERE / "rulings" / "duel" / "cast.ruling"))
    assert result.exit_code == 0, result.output
    assert "ruling: A player at 0 Life loses" in result.output
    assert "== Player 1 wins: player 2 lost: Life -1." in result.output
    assert result.output.endswith("4 passed, 0 failed\n")


def test_a_quote_written_inside_a_section_is_shown_as_a_quote():
    # the Duel's effects.ruling writes section: "6.7: \\"Once per turn\\" on ..."
    result = run("ruling", str(HERE / "rulings" / "arcane-duel" / "effects.ruling"))
    assert result.exit_code == 0, result.output
    assert 'section: 6.7: "Once per turn" on an ABILITY counts for that permanent alone' \
        in result.output.splitlines()
    assert "\\\"" not in result.output
    # a section that ends with a quote keeps it (one quote off each end)
    assert 'section: 6.16: "under your control", "under your Rival\'s control"' \
        in result.output.splitlines()


def test_missing_ruling_file_exits_2():
    result = run("ruling", "no/such.ruling")
    assert result.exit_code == 2


# ---------------------------------------------------------------- the plugin


@pytest.fixture
def designer_repo(pytester, monkeypatch):
    """A designer's own repository: the Duel game and one ruling."""
    # The designer's pytest runs in this process: when this suite itself runs
    # under pytest-xdist, its worker variables must not make the designer's
    # run look like an xdist worker (syrupy then skips unused snapshots).
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT",
                 "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    root = pytester.path
    shutil.copytree(HERE / "fixtures" / "engine" / "rules", root / "rules")
    shutil.copytree(HERE / "fixtures" / "engine" / "cards", root / "cards")
    (root / "cards" / "duel" / "extra.cards").write_text(
        'card "Veteran"\n  kind: Creature\n  cost: 1\n  power: 3\n', encoding="utf-8")
    (root / "rulings").mkdir()
    (root / "rulings" / "veteran.ruling").write_text(
        'ruling "A Veteran hits for 3"\n'
        "  game: duel\n"
        "  position:\n"
        "    turn: 2\n"
        "    turn player: 1\n"
        "    phase: Main\n"
        "    player 1:\n"
        '      board: "Veteran"\n'
        "  play:\n"
        "    player 1: attack Veteran\n"
        "  stop: at the next decision\n"
        "  expect:\n"
        "    player 2 Life is 7\n", encoding="utf-8")
    return root


def test_plugin_collects_runs_and_snapshots_a_designers_ruling(designer_repo, pytester):
    first = pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update")
    first.assert_outcomes(passed=1)
    snapshot = designer_repo / "rulings" / "__snapshots__" / "veteran" / \
        "a_veteran_hits_for_3.trace"
    assert snapshot.exists()
    assert "Player 2: Life 10 -> 7." in snapshot.read_text()
    again = pytester.runpytest("-p", "no:cacheprovider")
    again.assert_outcomes(passed=1)


def test_plugin_reports_a_wrong_expectation_without_a_traceback(designer_repo, pytester):
    ruling = designer_repo / "rulings" / "veteran.ruling"
    ruling.write_text(ruling.read_text().replace("Life is 7", "Life is 6"))
    result = pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*veteran.ruling:13:5: E720 expected player 2's Life to be 6, but it is 7*"])
    assert "Traceback" not in result.stdout.str()


def test_plugin_fails_on_a_changed_trace_and_on_unused_snapshots(designer_repo, pytester):
    pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(passed=1)
    snapshot = designer_repo / "rulings" / "__snapshots__" / "veteran" / \
        "a_veteran_hits_for_3.trace"
    snapshot.write_text(snapshot.read_text().replace("10 -> 7", "10 -> 8"))
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(failed=1)
    pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(passed=1)
    (snapshot.parent / "a_ruling_that_is_gone.trace").write_text("old\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*1 snapshot unused*"])


def test_plugin_says_to_record_the_snapshot_of_a_new_ruling(designer_repo, pytester):
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    failure = out.split(" ruling a_veteran_hits_for_3 ")[1].split("\n")[1:3]
    assert failure[0] == (
        f'{designer_repo / "rulings" / "veteran.ruling"}:1:1: E728 ruling "A Veteran hits '
        'for 3" has no snapshot of its trace yet: run `pytest --snapshot-update` to record it')
    assert failure[1].startswith("---")     # the next section: one line said it all
    assert "Traceback" not in out and "AssertionError" not in out and "def run" not in out


def test_plugin_shows_the_lines_of_a_changed_trace(designer_repo, pytester):
    pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(passed=1)
    snapshot = designer_repo / "rulings" / "__snapshots__" / "veteran" / \
        "a_veteran_hits_for_3.trace"
    snapshot.write_text(snapshot.read_text().replace("10 -> 7", "10 -> 8"))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        f'*veteran.ruling:1:1: E729 the trace of ruling "A Veteran hits for 3" differs from '
        f"its snapshot {snapshot}",
        "  if the new trace is right, record it: `pytest --snapshot-update`",
        "--- the snapshot",
        "+++ this run",
        "-*Player 2: Life 10 -> 8.",
        "+*Player 2: Life 10 -> 7.",
    ])
    assert "AssertionError" not in result.stdout.str()


def test_plugin_snapshots_a_ruling_that_only_checks_decks(designer_repo, pytester):
    (designer_repo / "rulings" / "decks.ruling").write_text(
        'ruling "Eight cards are too few"\n'
        "  game: duel\n"
        "  decks:\n"
        '    deck "Eight"\n'
        '      "Deck":\n'
        '        4 "Squire"\n'
        '        4 "Veteran"\n'
        "  expect:\n"
        '    deck "Eight" is refused: E605 "needs at least 12"\n', encoding="utf-8")
    pytester.runpytest("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(passed=2)
    snapshot = designer_repo / "rulings" / "__snapshots__" / "decks" / \
        "eight_cards_are_too_few.trace"
    assert snapshot.read_text() == ('ruling: Eight cards are too few\n'
                                    'Deck "Eight" is refused:\n'
                                    '  E605 "Deck" has 8 cards; it needs at least 12\n')
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_a_broken_engine_invariant_fails_the_ruling_whatever_it_expects(tmp_path, monkeypatch):
    """A ruling checks the engine's invariants after every play step: an engine
    that ran the setup twice fails the ruling even though its expect line holds."""
    from interpreter.engine import operations

    duel = HERE / "fixtures" / "engine" / "rules" / "duel.rules"
    ruling = tmp_path / "setup.ruling"
    ruling.write_text(
        'ruling "The setup deals each player their opening hand"\n'
        f"  game: {duel}\n"
        "  seed: 1\n"
        "  stop: at the next decision\n"
        "  expect:\n"
        "    the game is not over\n")
    assert run("ruling", "--quiet", str(ruling)).exit_code == 0

    real_mark = operations.mark

    def mark_twice(state, what):
        real_mark(state, what)
        real_mark(state, what)
    monkeypatch.setattr(operations, "mark", mark_twice)
    result = run("ruling", "--quiet", str(ruling))
    assert result.exit_code == 1
    assert "E722 the engine broke one of its invariants at the start: " \
           "the setup ran 2 times in one game" in result.output
    assert "Traceback" not in result.output


def test_stats_keywords_and_choices_made_without_asking():
    # "CARD has N STAT" reads the stat as the engine sees it (Banner's +1 and
    # Tough's +1 on Wall); "has KEYWORD" / "does not have KEYWORD"; a play
    # step naming the one card a choice could take (made without asking) is
    # used up by that choice, not applied to a later decision
    result = run("ruling", "--quiet", rel("stats_and_keywords.ruling"))
    assert result.exit_code == 0, result.output
    assert result.output.endswith("2 passed, 0 failed\n")


def test_wrong_stat_and_unknown_keyword_are_reported_at_their_line(tmp_path):
    text = (BAD / "stats_and_keywords.ruling").read_text()
    text = text.replace('"Wall" has 2 power', '"Wall" has 3 power')
    text = text.replace('"Wall" has Guard', '"Wall" has Gaurd')
    text = text.replace("    player 1: Trainer\n", "    player 1: Banner\n")
    path = tmp_path / "wrong.ruling"
    path.write_text(text.replace("../engine/rules/duel.rules",
                                 str(HERE / "fixtures" / "engine" / "rules" / "duel.rules")))
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 1
    assert f'{path}:13:5: E720 expected "Wall" to have 3 power, but it has 2' in result.output
    assert f'{path}:15:5: E721 unknown keyword "Gaurd"' in result.output
    assert 'did you mean "Guard"?' in result.output
    assert f'{path}:30:5: E715 play step 2: "Banner" is not a legal choice' in result.output
    assert "Traceback" not in result.output


def test_an_expect_line_may_end_with_a_comment(tmp_path):
    # docs/language.md writes its example ruling's expect lines with comments;
    # a "#" inside quotes is part of a label or name, not a comment
    text = (BAD / "stats_and_keywords.ruling").read_text()
    text = text.replace('"Wall" has 2 power', '"Wall" has 2 power      # Banner and Tough')
    text = text.replace('"Wall" has Guard', '"Wall" has Guard  # printed')
    path = tmp_path / "commented.ruling"
    path.write_text(text.replace("../engine/rules/duel.rules",
                                 str(HERE / "fixtures" / "engine" / "rules" / "duel.rules")))
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.endswith("2 passed, 0 failed\n")
    wrong = path.read_text().replace('"Wall" has 2 power', '"Wall" has 3 power')
    path.write_text(wrong)
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 1
    assert 'E720 expected "Wall" to have 3 power, but it has 2' in result.output
    assert "E706" not in result.output


def test_the_trace_has_no_line_with_a_text(tmp_path):
    # "the trace has no": what must not happen (a card moving again, an
    # effect resolving twice) is asserted, not only left to the snapshot
    text = (BAD / "stats_and_keywords.ruling").read_text()
    text = text.replace('    player 1 Mana is 1\n', '    player 1 Mana is 1\n'
                        '    the trace has no "Trainer: power +3"\n')
    path = tmp_path / "lacks.ruling"
    path.write_text(text.replace("../engine/rules/duel.rules",
                                 str(HERE / "fixtures" / "engine" / "rules" / "duel.rules")))
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 0, result.output
    path.write_text(path.read_text().replace('has no "Trainer: power +3"',
                                             'has no "Trainer: power"'))
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 1
    assert ('E720 expected no line of the trace to have "Trainer: power", '
            'but "Trainer: power +2." has it') in result.output
    assert "Traceback" not in result.output


def test_a_zone_that_has_no_card_reads_both_ways(tmp_path):
    # "player 1 hand has no X" is "player 1 hand does not have X"
    text = (BAD / "stats_and_keywords.ruling").read_text().replace(
        "../engine/rules/duel.rules", str(HERE / "fixtures" / "engine" / "rules" / "duel.rules"))
    first_expect = text.index("  expect:\n") + len("  expect:\n")
    path = tmp_path / "absent.ruling"
    path.write_text(text[:first_expect] + '    player 2 hand has no "Dragon"\n'
                    + text[first_expect:])
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 0, result.output
    path.write_text(text[:first_expect] + '    player 1 board has no "Wall"\n'
                    + text[first_expect:])
    result = run("ruling", "--quiet", str(path))
    assert result.exit_code == 1
    assert 'E720 expected player 1\'s board not to have "Wall"' in result.output, result.output
