"""Property tests of the card-text front end, per shipped game.

* texts generated from each game's own effect grammar
  (``hypothesis.extra.lark.from_lark``) must parse, and
  ``parse_ability(render_ability(a)) == a`` must hold for them;
* raw grammar-generated texts (no spacing help) and mutated shipped card texts
  (characters and words deleted, inserted, duplicated, swapped; quotes, colons,
  unicode confusables; truncation) must either parse or raise
  ``CardrulesError`` whose every problem points inside the input;
* huge inputs (an outline nested 10,000 deep, 10,000 nested parentheses,
  100,000 characters) give a clean problem, never ``RecursionError``;
* every shipped ability survives render -> parse unchanged;
* every grammar builds with lark ``strict=True``.

Budget: each property test runs ``CARDRULES_FUZZ_EXAMPLES`` examples per game
(default 100, which keeps this file to about half a minute). The full fuzz run,
at least 10,000 generated or mutated texts per game and kind, is::

    CARDRULES_FUZZ_EXAMPLES=10000 pytest tests/test_properties.py

Crashes these properties found are kept as regression tests with their
minimal input (``REGRESSIONS`` below).
"""

from __future__ import annotations

import functools
import os
import re

import lark
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark.lexer import PatternStr

from interpreter.errors import CardrulesError
from interpreter.language.game_rules import parse_ability
from interpreter.language.games import load_game, shipped_games
from interpreter.language.render import render_ability
from interpreter.language.syntax import outline_grammar_parser, parse_outline
from interpreter.language.vocabulary import terminal_word
from interpreter.source import SourceText

EXAMPLES = int(os.environ.get("CARDRULES_FUZZ_EXAMPLES", "100"))
GAMES = shipped_games()


def fuzz_settings(shrink: bool = True):
    phases = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    if shrink:
        phases.append(Phase.shrink)
    return settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=phases,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                               HealthCheck.data_too_large, HealthCheck.large_base_example],
    )


# ------------------------------------------------------------------ helpers


def _game(game_id):
    return load_game(game_id)


def assert_clean_failure(text: str, err: CardrulesError) -> None:
    """Every problem of a failed parse lies inside the one-line input."""
    assert err.problems, f"CardrulesError without problems for {text!r}"
    for problem in err.problems:
        span = problem.span
        assert span is not None, f"problem without position for {text!r}: {problem}"
        assert span.line == 1, f"line {span.line} for one-line text {text!r}"
        assert 1 <= span.column <= len(text) + 1, (
            f"column {span.column} outside text of length {len(text)}: {text!r}\n"
            f"{problem.render()}")


def parse_or_clean_error(rules, text: str):
    """parse_ability must return an Ability or raise a positioned CardrulesError
    (any other exception propagates and fails the test)."""
    try:
        return parse_ability(rules, text)
    except CardrulesError as err:
        assert_clean_failure(text, err)
        return None


def assert_round_trip(rules, text: str, ability) -> None:
    rendered = render_ability(ability)
    try:
        again = parse_ability(rules, rendered)
    except CardrulesError as err:
        raise AssertionError(
            f"rendered text does not parse\n  text:     {text!r}\n"
            f"  rendered: {rendered!r}\n{err}") from None
    assert again == ability, (
        f"round trip changed the AST\n  text:     {text!r}\n  rendered: {rendered!r}")


def _case_variants(word: str):
    return st.sampled_from(sorted({word, word.lower(), word.upper(),
                                   word[:1].upper() + word[1:]}))


def _word_of(pattern: str) -> str:
    """The word a whole-word terminal stands for; a word with a bracket or a
    dot ("[basic]", "adv.") is a literal whose text is the pattern itself."""
    return terminal_word(pattern) or pattern


@functools.cache
def _generation_lark(game_id: str) -> lark.Lark:
    """A Lark object for generation (the shipped one is loaded from lark's
    cache and lacks the ``grammar`` that from_lark reads). from_lark reads
    only the grammar and its terminals, which are the same whatever the
    parser: Earley's is built in a fifth of the time of the LALR tables
    (0.5 s against 2.5 s a game), and once per process for both kinds of
    generated texts."""
    grammar = _game(game_id).rules.parser().grammar
    return lark.Lark(grammar, parser="earley", lexer="dynamic", start="start")


# printable ASCII, and the dashes of "Choose one — A; or B"
_SAFE = st.characters(min_codepoint=0x20, max_codepoint=0x7E, include_characters="\u2014\u2013")
_STRATEGIES: dict = {}


def spaced_texts(game_id: str):
    """Texts of the game's effect grammar, one token at a time with a space
    before each (so that words do not run together), card names taken from
    the game's cards, words in random case."""
    key = ("spaced", game_id)
    if key in _STRATEGIES:
        return _STRATEGIES[key]
    game = _game(game_id)
    parser = _generation_lark(game_id)
    names = sorted(game.cards) or ["Card"]
    explicit = {}
    for term in parser.terminals:
        pattern = term.pattern
        if term.name.startswith("__IGNORE"):
            explicit[term.name] = st.just(" ")
        elif term.name == "CARD_NAME":
            explicit[term.name] = st.sampled_from(names).map(lambda n: f' "{n}"')
        elif term.name == "REMINDER":
            explicit[term.name] = st.just(" (reminder text)")
        elif isinstance(pattern, PatternStr):
            words = _case_variants(pattern.value) if "i" in pattern.flags else st.just(
                pattern.value)
            explicit[term.name] = words.map(lambda w: " " + w)
        elif re.fullmatch(r"W\d+", term.name):
            word = _word_of(pattern.value)
            words = _case_variants(word) if pattern.value.startswith("(?i:") else st.just(word)
            explicit[term.name] = words.map(lambda w: " " + w)
        else:
            explicit[term.name] = st.from_regex(
                pattern.to_regexp(), fullmatch=True, alphabet=_SAFE).map(lambda s: " " + s)
    for name in set(re.findall(r"%declare (_NO_\w+)", parser.source_grammar)):
        explicit[name] = st.nothing()  # a word category this game leaves empty
    strategy = from_lark(parser, explicit=explicit).map(str.strip)
    _STRATEGIES[key] = strategy
    return strategy


def raw_texts(game_id: str):
    """from_lark as it comes: tokens glued together unless the grammar's
    %ignore happens to be drawn, any unicode in names and reminders. Only the
    whole-word vocabulary terminals (regexes with a lookahead, W<n>) and the
    empty categories need explicit strategies."""
    key = ("raw", game_id)
    if key in _STRATEGIES:
        return _STRATEGIES[key]
    parser = _generation_lark(game_id)
    explicit = {}
    for term in parser.terminals:
        if re.fullmatch(r"W\d+", term.name):
            explicit[term.name] = _case_variants(_word_of(term.pattern.value))
    for name in set(re.findall(r"%declare (_NO_\w+)", parser.source_grammar)):
        explicit[name] = st.nothing()
    strategy = from_lark(parser, explicit=explicit,
                         alphabet=st.characters(codec="utf-8",
                                                exclude_characters="\r\n"))
    _STRATEGIES[key] = strategy
    return strategy


# ------------------------------------------------------------------ regressions

# Minimal inputs of crashes these properties found, now fixed: name -> (game,
# text, whether it is valid card text that must parse and round-trip).
REGRESSIONS = {
    # the anonymous "X" terminal was dropped from the tree (IndexError)
    "X amount": ("ryft", "Draw X cards.", True),
    # an error at the first token crashed the did-you-mean for verbs
    "error at first token": ("ryft", ":", False),
    "label in lower case": ("rival-rush", "instinct:", False),
    # a rule wrapping one aliased alternative was left as a wrapper node
    "comparison quantity": ("ryft", "Destroy 2 or more cards.", True),
    "the only ... controls": ("ryft", "If this is the only Being you control: Draw a card.",
                              True),
    # "HP {x} or less" and "{x} or less HP" must give one AST
    "stat comparison with slot": ("ryft", "Destroy a Being with HP {x} or less.", True),
    # "You ... may" is "You may"
    "you ... may": ("rival-rush", "You you may win the game.", True),
    # the lexer took "for each" where only "for" fits ("search ... for each
    # player's card"): the phrase is retried as its leading words
    "phrase split": ("saturday-wars",
                     "If you do. Search {zone} for each player's card other than this", True),
    "you can't as a subject": ("ryft", "You can't activate abilities", True),
    "third person of attach": ("ryft", "Your Rival attach this to this", True),
    "signed zero": ("ryft", "This gets -0 Synergy for each card with Synergy 0 or more", True),
    # "that can be" was one word, so "that can" + "be damaged by effects" did not lex
    "that can be damaged": ("ryft", "Discard a [DELAYED] card that can be damaged by effects",
                            True),
    "that can be challenged": ("saturday-wars", "Exhaust a Character that can be challenged",
                               True),
    # an amount that is a measure was rendered as its Python repr
    "alternate count measure": ("rival-rush",
                                "Players alternate actions until each has taken its challenge "
                                "actions", True),
    # the lexer tried ACT_VERB's "defend" first and took the start of "defended"
    "a status word that starts with a verb": ("silver-wing-rivals",
                                              "IF THERE IS A NULLIFIED DEFENDED CARD", True),
    "a verb still a whole word": ("silver-wing-rivals", "This can't defended.", False),
}


@pytest.mark.parametrize("bug", sorted(REGRESSIONS))
def test_regression_minimal_input(bug):
    game_id, text, valid = REGRESSIONS[bug]
    rules = _game(game_id).rules
    ability = parse_or_clean_error(rules, text)
    if valid:
        assert ability is not None, f"{text!r} should parse"
        assert_round_trip(rules, text, ability)
    else:
        assert ability is None


# ------------------------------------------------------------------ grammar-generated texts


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_texts_parse_and_round_trip(game_id):
    """Every text of the game's grammar parses, and rendering then parsing
    gives the same AST."""
    rules = _game(game_id).rules

    clashes = _period_verb_clashes(rules)

    @fuzz_settings()
    @given(spaced_texts(game_id))
    def check(text):
        assume(not clashes or not clashes.search(text.replace(" (reminder text)", "")))
        try:
            ability = parse_ability(rules, text)
        except CardrulesError as err:
            assert_clean_failure(text, err)
            raise AssertionError(f"a text of the grammar does not parse: {text!r}\n{err}")
        assert_round_trip(rules, text, ability)

    check()


def _period_verb_clashes(rules):
    """A known limit of one-token look-ahead: "this" or "the" before a game
    verb or a zone that starts with a period's name ("This Draw for the
    turn": Pocket League's period Draw and verb "Draw for the turn"; "The
    Combat Area" at the start of a sentence: Silver Wing Rivals' period
    combat) lexes as the period ("this Draw", "the combat"). A card as the
    subject of a verb's base form is no sentence a designer writes, nor is a
    zone alone as a sentence; such generated texts are left out. None when
    the game has no such clash."""
    vocab = rules.vocabulary()
    periods = {p.lower() for p in vocab.periods}
    phrases = [w for w in (*(v.leading_words for v in vocab.verbs), *vocab.zones)
               if " " in w and w.split(" ", 1)[0].lower() in periods]
    if not phrases:
        return None
    return re.compile("|".join(rf"\b(?:this|the)\s+{re.escape(w.split(' ', 1)[0])}\s+"
                               rf"{re.escape(w.split(' ', 1)[1].split(' ')[0])}\b"
                               for w in phrases), re.I)


@pytest.mark.parametrize("game_id", GAMES)
def test_raw_generated_texts_parse_or_fail_cleanly(game_id):
    rules = _game(game_id).rules

    @fuzz_settings()
    @given(raw_texts(game_id))
    def check(text):
        parse_or_clean_error(rules, text)

    check()


# ------------------------------------------------------------------ mutated card texts

_CONFUSABLES = ["\u201c", "\u201d", "\u2019", "\u2018", "\u2212", "\u2013", "\u00a0",
                "\u200b", "\u0410", "\u0435", "\u043e", "\uff1a", "\u037e", "\u2024",
                "\ufeff", "\u0301", "\U0001f525", "\t", "\n", "\r", "\x00"]
_PUNCT = ['"', ":", ":", ",", ".", "(", ")", "[", "]", "{", "}", "{n}", "{card}",
          "-", "+", "'", "\\", "#", " "]


def _card_texts(game_id: str) -> list[str]:
    return sorted({a.text for card in _game(game_id).cards.values()
                   for a in card.abilities})


@st.composite
def mutated_texts(draw, game_id: str):
    texts = _card_texts(game_id)
    text = draw(st.sampled_from(texts))
    words = sorted({w for t in texts for w in t.split()})
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(
            ["del_char", "ins_char", "dup_char", "swap_char", "del_word",
             "dup_word", "swap_words", "ins_word", "ins_punct", "ins_confusable",
             "truncate", "splice", "case"]))
        n = len(text)
        i = draw(st.integers(0, n))
        if op == "del_char" and n:
            i = min(i, n - 1)
            text = text[:i] + text[i + 1:]
        elif op == "ins_char":
            text = text[:i] + draw(st.characters(codec="utf-8")) + text[i:]
        elif op == "dup_char" and n:
            i = min(i, n - 1)
            text = text[:i] + text[i] + text[i:]
        elif op == "swap_char" and n > 1:
            i = min(i, n - 2)
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif op in ("del_word", "dup_word", "swap_words", "ins_word"):
            ws = text.split(" ")
            j = draw(st.integers(0, max(0, len(ws) - 1)))
            if op == "del_word" and ws:
                del ws[j]
            elif op == "dup_word" and ws:
                ws.insert(j, ws[j])
            elif op == "swap_words" and len(ws) > 1:
                k = draw(st.integers(0, len(ws) - 1))
                ws[j], ws[k] = ws[k], ws[j]
            elif op == "ins_word":
                ws.insert(j, draw(st.sampled_from(words)))
            text = " ".join(ws)
        elif op == "ins_punct":
            text = text[:i] + draw(st.sampled_from(_PUNCT)) + text[i:]
        elif op == "ins_confusable":
            text = text[:i] + draw(st.sampled_from(_CONFUSABLES)) + text[i:]
        elif op == "truncate":
            text = text[:i]
        elif op == "splice":
            other = draw(st.sampled_from(texts))
            text = text[:i] + other[draw(st.integers(0, len(other))):]
        elif op == "case":
            text = draw(st.sampled_from([text.lower(), text.upper(), text.swapcase()]))
    return text


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_card_texts_parse_or_fail_cleanly(game_id):
    rules = _game(game_id).rules

    @fuzz_settings()
    @given(mutated_texts(game_id))
    def check(text):
        ability = parse_or_clean_error(rules, text)
        if ability is not None:
            # Whatever parses must render and parse back to the same AST.
            assert_round_trip(rules, text, ability)

    check()


# ------------------------------------------------------------------ huge inputs


def test_outline_nested_10000_deep_is_a_problem_not_a_crash():
    text = "".join(" " * depth + f"line{depth}:\n" for depth in range(10_000))
    lines, problems = parse_outline(SourceText("deep.cards", text))
    assert problems, "10,000 levels of nesting should be reported"
    for problem in problems:
        assert problem.code.startswith("E1"), problem.render()
        assert 1 <= problem.span.line <= 10_000


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("text", [
    pytest.param("(" * 10_000 + ")" * 10_000, id="10000-nested-parens"),
    pytest.param("Draw a card " + "(" * 10_000 + "x" + ")" * 10_000 + ".",
                 id="10000-nested-reminder"),
    pytest.param("(" * 100_000, id="100000-open-parens"),
    pytest.param("Draw a card, " * 7_700 + "then draw a card.", id="100000-chars-valid-shape"),
    pytest.param("Draw a card" + " and" * 25_000 + ".", id="100000-chars-ands"),
    pytest.param('"' + "a" * 100_000, id="100000-unclosed-quote"),
])
def test_huge_effect_texts_fail_cleanly(game_id, text):
    rules = _game(game_id).rules
    try:
        parse_or_clean_error(rules, text)
    except RecursionError:  # pragma: no cover - the failure this test is for
        pytest.fail("RecursionError instead of a CardrulesError")


# ------------------------------------------------------------------ shipped round trip


@pytest.mark.parametrize("game_id", GAMES)
def test_shipped_abilities_round_trip(game_id):
    game = _game(game_id)
    total, failures = 0, []
    for card in game.cards.values():
        for ab in card.abilities:
            total += 1
            try:
                assert_round_trip(game.rules, ab.text, ab.ability)
            except Exception as err:  # collect them all, report below
                failures.append(f"{card.name}: {err}")
    print(f"{game_id}: {total - len(failures)}/{total} shipped abilities round-trip")
    assert total > 0
    assert not failures, f"{len(failures)}/{total} fail:\n" + "\n".join(failures)


# ------------------------------------------------------------------ strict grammars


@pytest.mark.parametrize("game_id", GAMES)
def test_effect_grammar_builds_strict(game_id):
    _game(game_id).rules.parser(strict=True)


def test_outline_grammar_builds_strict():
    outline_grammar_parser(strict=True)


def test_a_word_run_into_the_next_is_a_clean_error():
    # found by the raw-text property: "until afteryournext action" made the
    # lexer's recovery hand the parser a token with no end position
    rules = _game("saturday-wars").rules
    for text in ("This gets +1 progress value until afteryournext action",
                 "+{n}PROGRESS MODIFIER()until afteryournext action"):
        assert parse_or_clean_error(rules, text) is None


def test_an_alias_in_several_rules_builds_one_kind_of_node():
    # the transformer gives an alias the AST class of the rule where it first
    # appears (transformer.grammar_origins): an alias repeated in another
    # rule must come after a rule of the same class, or "it" in "Destroy it"
    # would stop being a card selector
    from pathlib import Path

    from interpreter.language.transformer import _CLASS_OF_RULE, grammar_origins
    text = (Path(__file__).resolve().parent.parent / "grammar" / "effect.lark").read_text()
    origins = grammar_origins(text)
    rules_of: dict[str, set[str]] = {}
    rule = None
    for line in text.splitlines():
        head = re.match(r"^\??([a-z_][a-z_0-9]*)\s*:", line)
        if head:
            rule = head.group(1)
        if rule:
            for alias in re.findall(r"->\s*([a-z_][a-z_0-9]*)", line):
                rules_of.setdefault(alias, set()).add(rule)
    wrong = {}
    for alias, rules in rules_of.items():
        classes = {_CLASS_OF_RULE.get(r) for r in rules} - {None}
        if len(rules) > 1 and classes and (
                len(classes) > 1 or _CLASS_OF_RULE.get(origins[alias]) not in classes):
            wrong[alias] = sorted(rules)
    assert wrong == {}
