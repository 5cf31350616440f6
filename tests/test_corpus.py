"""The corpus of printed card text (tests/fixtures/corpus, issue "Card text
as printed"): for each shipped game, 50 texts written the way its cards
print them — listed first in ``<game>.md``, before any was tried — each with
a ruling of its printed meaning in ``<game>.ruling``. docs/language.md
reports how many are read, run and mean what they say; these tests keep
that report true, so that a text that stops working (or starts) is seen,
and every text that runs with a meaning other than its printed one is named
there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.corpus import outcomes, row

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "corpus"
GAMES = ("ryft", "saturday-wars", "silver-wing-rivals", "rival-rush")
REPORT = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")


def _texts(game: str) -> dict[str, str]:
    """C<n> -> the text as the list writes it (before "— meaning:")."""
    found = {}
    for line in (CORPUS / f"{game}.md").read_text(encoding="utf-8").splitlines():
        match = re.match(r"(C\d+)\. (?:\([A-Z]\) )?(.*?)(?: — meaning:.*)?$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_text_listed_first_is_the_one_its_ruling_plays(game):
    texts = _texts(game)
    assert sorted(texts, key=lambda n: int(n[1:])) == [f"C{n}" for n in range(1, 51)]
    rulings = (CORPUS / f"{game}.ruling").read_text(encoding="utf-8")
    # (" | " in the list: the card's text lines)
    missing = [n for n, text in texts.items()
               if not all(line in rulings for line in text.split(" | "))]
    assert missing == [], missing
    names = re.findall(r'^ruling "(C\d+):', rulings, flags=re.M)
    assert names == [f"C{n}" for n in range(1, 51)]


@pytest.mark.parametrize("game", GAMES)
def test_the_report_in_docs_is_what_the_corpus_does(game):
    found = outcomes(CORPUS / f"{game}.ruling")
    assert row(game, found) in REPORT, (row(game, found), game)
    # a text that runs with another meaning is named in the report
    wrong = [o.name.split(":")[0] for o in found if o.verdict == "wrong"]
    unnamed = [n for n in wrong if f"{game} {n}" not in REPORT]
    assert unnamed == [], unnamed
    # one that does not run is refused by check at its line (a problem of
    # the card language, never an exception)
    for outcome in found:
        if outcome.verdict in ("not read", "not run"):
            assert re.match(r"E[2348]\d\d ", outcome.problem), outcome
