"""A designer's own folders (issue 22): `cardrules new` makes a project folder
that every command run inside uses; `check --game ID` reads loose files with
an installed game's cards in scope; an expansion folder adds cards and decks
to an installed game."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main
from interpreter.language.games import shipped_games


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_new_project_round_trip(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = run("new", "moon-duel")
    assert made.exit_code == 0, made.output
    for path in ("rules/moon-duel.rules", "cards/moon-duel/core.cards",
                 "cards/moon-duel/decks/starter.deck",
                 "tests/rulings/moon-duel/basics.ruling", "README.md"):
        assert f"created {Path('moon-duel') / path}" in made.stdout
    rules = (tmp_path / "moon-duel/rules/moon-duel.rules").read_text(encoding="utf-8")
    assert 'game "Moon Duel"' in rules and "__" not in rules

    monkeypatch.chdir(tmp_path / "moon-duel")
    checked = run("check")
    assert checked.exit_code == 0, checked.output
    # inside the folder, check reads the folder's game only
    assert checked.stderr == "0 problems in 3 files (8 cards, 1 game)\n"
    played = run("play", "moon-duel", "--seed", "1")
    assert played.exit_code == 0 and "Player 1 plays Starter." in played.stdout
    assert "wins" in played.stdout.splitlines()[-1]
    ruled = run("ruling", "tests/rulings/moon-duel/basics.ruling")
    assert ruled.exit_code == 0 and ruled.stdout.splitlines()[-1] == "5 passed, 0 failed"
    listed = run("games")
    assert f"8 cards   1 decks  project {tmp_path / 'moon-duel'}" in listed.stdout
    assert "installed" in listed.stdout         # the installed games stay in reach

    # an edit in the folder is what the next command sees
    cards = tmp_path / "moon-duel/cards/moon-duel/core.cards"
    cards.write_text(cards.read_text(encoding="utf-8").replace("power: 4", "power: four"),
                     encoding="utf-8")
    broken = run("check")
    assert broken.exit_code == 1
    assert "cards/moon-duel/core.cards:" in broken.stdout


def test_new_never_writes_over_anything(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine", encoding="utf-8")
    refused = run("new", "moon-duel", "taken")
    assert refused.exit_code == 2
    assert refused.stderr.startswith(
        "E908 taken already exists and is not an empty folder; nothing was written\n")
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]

    bad_id = run("new", "Moon Duel")
    assert bad_id.exit_code == 2
    assert bad_id.stderr == ('E906 "Moon Duel" cannot be a game id\n'
                             "  expected: lower-case letters and digits, words joined by "
                             "hyphens, starting with a letter\n"
                             "  cardrules new moon-duel\n")
    installed = run("new", shipped_games()[0])
    assert installed.exit_code == 2 and installed.stderr.startswith("E907 ")
    assert "expansion folder" in installed.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "taken"]


LOOSE_CARD = '''card "Emberling Drake"
  kind: Being
  rank: ADV.
  synergy: 3
  domain: BLAZE
  type: Dragon
  AP: 70
  HP: 60
  alt. summon: "Cinderpup", "Cinderpup"
  text:
    Double Strike
'''


def test_loose_card_file_checked_against_an_installed_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    loose = tmp_path / "mine" / "drakes.cards"
    loose.write_text(LOOSE_CARD, encoding="utf-8")
    unknown = run("check", str(loose))
    assert unknown.exit_code == 2 and "--game ID" in unknown.stderr

    checked = run("check", "--game", "ryft", str(loose))
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == "0 problems in 1 file (57 cards, 1 game)\n"

    # a mistake in the loose file is reported at its line, the game's own
    # files stay quiet; a shipped card name misspelt is found with its hint
    loose.write_text(LOOSE_CARD.replace('"Cinderpup", "Cinderpup"', '"Cinderpup", "Cinderpap"'),
                     encoding="utf-8")
    wrong = run("check", "--game", "ryft", str(loose))
    assert wrong.exit_code == 1
    assert wrong.stdout.count("E305") == 1
    assert wrong.stdout.startswith('mine/drakes.cards:9:29: E305 unknown card "Cinderpap"')
    assert 'did you mean "Cinderpup"?' in wrong.stdout

    no_files = run("check", "--game", "ryft")
    assert no_files.exit_code == 2 and no_files.stderr.startswith("E910 ")
    unknown_game = run("check", "--game", "ryfft", str(loose))
    assert unknown_game.exit_code == 2 and 'did you mean "ryft"?' in unknown_game.stderr


def test_an_expansion_folder_adds_cards_and_decks_to_an_installed_game(tmp_path, monkeypatch):
    folder = tmp_path / "expansion" / "cards" / "ryft"
    (folder / "decks").mkdir(parents=True)
    (folder / "drakes.cards").write_text(LOOSE_CARD, encoding="utf-8")
    starter = Path(__file__).resolve().parent.parent / "cards/ryft/decks/starter.deck"
    deck = starter.read_text(encoding="utf-8").replace(
        "Ryft Starter: Storm of Embers", "Drakes").replace(
        '2 "Blazefang Wyvern"', '2 "Emberling Drake"')
    (folder / "decks" / "drakes.deck").write_text(deck, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "expansion")

    checked = run("check")
    assert checked.exit_code == 0, checked.output
    # the expansion's game only, with the installed cards and decks beside its own
    assert checked.stderr.endswith("(57 cards, 1 game)\n")
    listed = run("games")
    assert f"installed, with cards from {tmp_path / 'expansion'}" in listed.stdout
    played = run("play", "ryft", "--deck", "drakes", "--seed", "1")
    assert played.exit_code == 0, played.output
    assert "Player 1 plays Drakes." in played.stdout
