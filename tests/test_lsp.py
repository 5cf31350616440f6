"""The language server (``cardrules lsp``) through pygls' own client: one
server process for the module, one editor session on the Duel fixture game,
each test asserting what the editor is told."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.editor import features
from interpreter.editor import server as lsp_server
from interpreter.language import games

pytest.importorskip("pygls")
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "tests/fixtures/engine/cards/duel/core.cards"
DECK = ROOT / "tests/fixtures/engine/cards/duel/decks/knights.deck"
RULES = ROOT / "tests/fixtures/engine/rules/duel.rules"
# a ruling that is not on disk: the editor's buffer is all there is of it
RULING = ROOT / "tests/rulings/duel/unsaved-in-editor.ruling"
LOOSE = ROOT / "docs/loose.cards"

RIGHT = CARDS.read_text(encoding="utf-8")
WRONG = RIGHT.replace("kind: Creature", "kind: Creatur", 1)
# a character outside the Basic Multilingual Plane: two UTF-16 units
WIDE = RIGHT.replace("kind: Creature", "kind: \U0001F6E1Creatur", 1)
RULING_TEXT = (ROOT / "tests/rulings/duel/cast.ruling").read_text(encoding="utf-8") \
    .replace('hand: "Scholar", "Knight"', 'hand: "Scholar", "Knigth"', 1)
LINES = RIGHT.split("\n")
DRAW_LINE = next(i for i, line in enumerate(LINES) if line.strip() ==
                 "When this is played: Draw a card.")
MUSTER_LINE = next(i for i, line in enumerate(LINES) if "Muster 2." in line)


def _at(line: int, character: int):
    return types.Position(line=line, character=character)


def _doc(path: Path):
    return types.TextDocumentIdentifier(uri=path.as_uri())


async def _session() -> dict:
    """One editor session; what the server answered, by step."""
    client = LanguageClient("cardrules-test", "1")
    published: list[types.PublishDiagnosticsParams] = []
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.append(params)
        arrived.set()

    async def diagnostics_of(path: Path, after: int):
        """The first list published for ``path`` after ``after`` messages."""
        while True:
            for params in published[after:]:
                if params.uri == path.as_uri():
                    return params.diagnostics
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 60)

    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp", cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(
        process_id=None, root_uri=ROOT.as_uri(), capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    out: dict = {}

    def open_(path: Path, text: str, language: str = "cardrules"):
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id=language,
                                                 version=1, text=text)))

    mark = len(published)
    open_(CARDS, WRONG)
    out["wrong"] = await diagnostics_of(CARDS, mark)
    out["wrong deck"] = await diagnostics_of(DECK, mark)
    mark = len(published)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=CARDS.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=RIGHT)]))
    out["fixed"] = await diagnostics_of(CARDS, mark)
    out["fixed deck"] = await diagnostics_of(DECK, mark)
    # typing on: a mistake at once corrected is never checked on its own
    mark = len(published)
    for version, text in ((3, WRONG), (4, RIGHT)):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=CARDS.as_uri(),
                                                                version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    out["typed on"] = await diagnostics_of(CARDS, mark)
    typed_on = mark

    def complete(path: Path, position):
        return client.text_document_completion_async(
            types.CompletionParams(text_document=_doc(path), position=position))

    draw = LINES[DRAW_LINE].index("Draw")
    out["after Dr"] = await complete(CARDS, _at(DRAW_LINE, draw + 2))
    out["line start"] = await complete(CARDS, _at(DRAW_LINE, draw - len("When this is played: ")))
    kind_line = next(i for i, line in enumerate(LINES) if "kind: Creature" in line)
    out["kind"] = await complete(CARDS, _at(kind_line, len("  kind: ")))
    mark = len(published)
    out["checks while typing"] = sum(p.uri == CARDS.as_uri() for p in published[typed_on:mark])
    open_(DECK, DECK.read_text(encoding="utf-8"))
    await diagnostics_of(DECK, mark)
    squire = next(i for i, line in enumerate(DECK.read_text().split("\n")) if '"Squire"' in line)
    out["card name"] = await complete(DECK, _at(squire, DECK.read_text().split("\n")[squire]
                                                .index('"') + 1))
    column = DECK.read_text().split("\n")[squire].index("Squire") + 2
    out["hover card"] = await client.text_document_hover_async(
        types.HoverParams(text_document=_doc(DECK), position=_at(squire, column)))
    out["hover effect"] = await client.text_document_hover_async(
        types.HoverParams(text_document=_doc(CARDS), position=_at(DRAW_LINE, draw + 1)))
    out["define card"] = await client.text_document_definition_async(
        types.DefinitionParams(text_document=_doc(DECK), position=_at(squire, column)))
    muster = LINES[MUSTER_LINE].index("Muster") + 1
    out["define verb"] = await client.text_document_definition_async(
        types.DefinitionParams(text_document=_doc(CARDS), position=_at(MUSTER_LINE, muster)))
    mark = len(published)
    open_(RULING, RULING_TEXT)
    out["ruling"] = await diagnostics_of(RULING, mark)
    mark = len(published)
    open_(LOOSE, RIGHT)
    out["loose"] = await diagnostics_of(LOOSE, mark)
    mark = len(published)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=CARDS.as_uri(), version=5),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=WIDE)]))
    out["wide"] = await diagnostics_of(CARDS, mark)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


@pytest.fixture(scope="module")
def session():
    return asyncio.run(_session())


def _labels(result) -> list[str]:
    items = result.items if isinstance(result, types.CompletionList) else result
    return [item.label for item in items]


def test_a_mistake_is_published_with_its_code_range_and_message(session):
    [wrong] = session["wrong"]
    assert wrong.code == "E302"
    assert (wrong.range.start.line, wrong.range.start.character) == (3, 8)
    assert (wrong.range.end.line, wrong.range.end.character) == (3, 15)
    assert wrong.message.split("\n") == [
        'unknown card kind "Creatur"', "expected: Creature, Spell", 'did you mean "Creature"?']
    assert wrong.severity == types.DiagnosticSeverity.Error
    # the card left out has its one problem; the deck naming it is not told
    # the card is unknown as well
    assert list(session["wrong deck"]) == []


def test_ranges_count_the_editors_utf16_units(session):
    # "kind: \U0001F6E1Creatur": the kind starts at character 8 and is 8
    # characters long, 9 UTF-16 units (the protocol's default)
    [wide] = session["wide"]
    assert wide.code == "E302"
    assert (wide.range.start.line, wide.range.start.character) == (3, 8)
    assert (wide.range.end.line, wide.range.end.character) == (3, 17)


def test_fixing_the_text_publishes_empty_lists(session):
    assert list(session["fixed"]) == []
    assert list(session["fixed deck"]) == []


def test_quick_changes_are_checked_once_typing_pauses(session):
    assert list(session["typed on"]) == []
    assert session["checks while typing"] == 1


def test_completion_offers_what_the_grammar_accepts_next(session):
    assert set(_labels(session["after Dr"])) == {"Draw", "Draws"}
    at_start = _labels(session["line start"])
    # timing labels, the game's verbs and card kinds may start an ability
    assert {"DRILL:", "ALWAYS:", "Muster", "Dig", "Creature"} <= set(at_start)
    assert set(_labels(session["kind"])) == {"Creature", "Spell"}
    names = _labels(session["card name"])
    assert {"Squire", "Knight", "Scholar"} <= set(names) and "Muster" not in names


def test_hover_shows_a_card_and_what_explain_says(session):
    card = session["hover card"].contents.value
    assert 'card "Squire"\n  kind: Creature\n  cost: 0\n  power: 1' in card
    effect = session["hover effect"].contents.value
    assert "canonical: When this is played: Draw a card." in effect
    assert "1. step: draw a card" in effect


def test_definitions_of_a_card_and_a_verb(session):
    card = session["define card"]
    assert card.uri == CARDS.as_uri()
    assert card.range.start.line == LINES.index('card "Squire"')
    verb = session["define verb"]
    assert verb.uri == RULES.as_uri()
    assert RULES.read_text().split("\n")[verb.range.start.line].startswith('verb "Muster {n}"')


def test_a_ruling_naming_an_unknown_card_is_published_at_it(session):
    codes = {(d.code, d.range.start.line) for d in session["ruling"]}
    line = RULING_TEXT.split("\n").index('      hand: "Scholar", "Knigth"')
    assert any(line == at for _, at in codes), session["ruling"]
    assert any('"Knigth"' in d.message for d in session["ruling"])


def test_a_file_of_no_game_gets_one_diagnostic_at_line_1(session):
    [loose] = session["loose"]
    assert loose.code == "E903"
    assert loose.range.start.line == 0
    assert "cannot tell which game" in loose.message


def test_without_pygls_the_command_names_the_extra(monkeypatch):
    monkeypatch.setattr(lsp_server, "AVAILABLE", False)
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 2
    assert "E920" in result.output and "cardrules[lsp]" in result.output


def test_after_a_stat_with_named_values_its_values_are_offered():
    # a shipped game with such a stat: ryft's "domain" (BLAZE, TIDE, ...)
    cards = ROOT / "cards/ryft/core.cards"
    text = cards.read_text(encoding="utf-8")
    line = text.split("\n").index("  domain: BLAZE") + 1
    offered = features.complete(cards, {cards: text}, line, len("  domain: B") + 1)
    assert offered == [("BLAZE", "domain value")]
    rules = (ROOT / "rules/ryft.rules").read_text(encoding="utf-8")
    everything = features.complete(cards, {cards: text}, line, len("  domain: ") + 1)
    assert [w for w, _ in everything] == re.search(r"values domain: ([^\n]*)", rules) \
        .group(1).replace(" ", "").split(",")


def test_ctrl_c_stops_the_server_with_exit_130_and_no_traceback():
    started = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "lsp"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    started.stdin.write(f"Content-Length: {len(body)}\r\n\r\n{body}".encode())
    started.stdin.flush()
    assert started.stdout.readline().startswith(b"Content-Length")   # it answers: serving
    started.send_signal(signal.SIGINT)
    _, err = started.communicate(timeout=30)
    assert started.returncode == 130
    assert b"Traceback" not in err


def test_an_edited_game_is_kept_once_however_many_edits():
    for extra in range(4):
        features.check_file(CARDS, {CARDS: RIGHT + "\n" * extra})
    # (other tests in this process load copies of the Duel from their own
    # folders: only the loads of this card file count)
    loads = [key for key in games._CACHE if key[0] == "duel"
             and any(Path(stamp[0]).resolve() == Path(CARDS).resolve() for stamp in key[1])]
    assert len(loads) == 1
