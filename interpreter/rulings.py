"""Rulings: "what happens when ..." scenarios kept as tests.

A ``.ruling`` file is an outline (like every cardrules file)::

    ruling "Casting Scholar draws a card"
      game: duel
      section: "Play: the action cast"
      seed: 1
      position:
        turn: 3
        turn player: 1
        phase: Main
        player 1:
          hand: "Scholar", "Knight"
          board: "Squire" exhausted
          Mana: 2
      play:
        player 1: cast Scholar
        player 1: pass
      stop: at the next decision
      expect:
        player 1 hand has 2 cards
        the trace has "Scholar moves" before "Player 1 passes"

Without ``position`` the game starts from its setup with the decks named
by ``decks:`` (the game's first deck by default). Decks written in the
ruling (a ``decks:`` block), expect lines about decks, and ``match: best of
N`` are interpreter/ruling_decks.py's; cards written in the ruling (a
``cards:`` block) are interpreter/ruling_cards.py's. Choices are the options'
labels as ``action_to_string`` reads them, without the card numbers. Running
is strict: a decision the play does not cover, a choice that is not legal,
or a choice left unused fails the ruling with the step named; ``stop: at the
next decision`` ends the play at the first decision after the scripted ones.
Expect lines are parsed by ``grammar/ruling.lark``.

:func:`run_ruling` gives the trace (the narration of the game) and the
failures; ``cardrules ruling`` prints them and the pytest plugin
(``interpreter.pytest_plugin``) snapshots the trace with syrupy.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
from lark import Lark
from lark.exceptions import UnexpectedInput

from interpreter.compiler.players import counter_on_card
from interpreter.engine import Machine, Match
from interpreter.engine.invariants import Watch, deep_checks
from interpreter.errors import CardrulesError, CouldNotRun, Problem, did_you_mean, listing
from interpreter.language.files import Unreadable, read_source
from interpreter.language.games import load_game
from interpreter.language.projects import Library
from interpreter.language.lark_build import lalr_parser
from interpreter.language.syntax import OutlineLine, parse_outline, problem_at
from interpreter.resources import read_grammar
from interpreter.ruling_cards import compile_ruling_game, read_cards_block, ruling_game
from interpreter.ruling_decks import (DECK_KINDS, MATCH_KINDS, check_deck_expectation,
                                      check_match_expectation, check_shape, deck_book,
                                      deck_trace, play_ruling_match, plays_no_game,
                                      read_decks_block, read_match, seat_decks)
from interpreter.source import SourceText, Span


@attrs.frozen
class Choice:
    player: int
    label: str
    span: Span


@attrs.frozen
class Expectation:
    tree: object
    text: str
    span: Span


@attrs.define
class Ruling:
    name: str
    game: str
    path: str
    span: Span
    section: str | None = None
    seed: int = 0
    players: int | None = None
    players_span: Span | None = None
    decks: list[str] = attrs.Factory(list)
    decks_span: Span | None = None
    deck_lines: list[OutlineLine] = attrs.Factory(list)   # the decks: block's decks
    card_lines: list[OutlineLine] = attrs.Factory(list)   # the cards: block's cards
    match_games: int | None = None
    match_span: Span | None = None
    field_spans: dict[str, Span] = attrs.Factory(dict)    # each field's line
    position: dict | None = None
    choices: list[Choice] = attrs.Factory(list)
    stop_at_next_decision: bool = False
    expectations: list[Expectation] = attrs.Factory(list)


@attrs.define
class RulingResult:
    ruling: Ruling
    trace: list[str]
    failures: list[Problem]

    @property
    def passed(self) -> bool:
        return not self.failures


# ---------------------------------------------------------------- reading

_EXPECT_WORDS = {"NUMBER": "a number", "INTEGER": "a number", "NAME": "a card name in quotes",
                 "TEXT": "a text in quotes", "WORD": "a zone, counter or status name",
                 "CARDS": '"cards"', "$END": "the end of the line"}

_FIELDS = ("game", "section", "seed", "players", "cards", "decks", "match", "position",
           "play", "stop", "expect")

_EXPECT_PARSER: Lark | None = None


def _expect_parser() -> Lark:
    global _EXPECT_PARSER
    if _EXPECT_PARSER is None:
        grammar = read_grammar("ruling.lark")
        _EXPECT_PARSER = lalr_parser(grammar, maybe_placeholders=False)
    return _EXPECT_PARSER


def expect_grammar_parser(strict: bool = True) -> Lark:
    return lalr_parser(read_grammar("ruling.lark"), strict=strict)


def load_rulings(source: SourceText) -> tuple[list[Ruling], list[Problem]]:
    lines, problems = parse_outline(source)
    rulings = []
    for line in lines:
        ruling = _read_ruling(source, line, problems)
        if ruling is not None:
            rulings.append(ruling)
    if not lines and not problems:
        problems.append(Problem("E701", "this ruling file has no ruling",
                                Span(source.path, 1, 1, 1, 2), source.line(1),
                                ('ruling "Name"',)))
    return rulings, problems


def _read_ruling(source: SourceText, line: OutlineLine, problems: list[Problem]):
    def problem(span, code, message, expected=(), suggestion=None):
        problems.append(problem_at(source, span, code, message, expected, suggestion))

    if line.words[0].lower() == "ruling" and len(line.head) > 2 and line.head[1].quoted:
        # ruling "The card "Ember Drake" ...": the name ended at the inner quote
        problem(line.head[2].span, "E701", "a ruling's name ends at its second quote",
                ('ruling "Name"',), 'a name holding quotes goes in curly quotes: '
                'ruling \u201cThe card "Ember Drake" ...\u201d')
        return None
    if line.words[0].lower() != "ruling" or len(line.head) != 2 or not line.head[1].quoted:
        problem(line.span, "E701", 'a ruling starts with ruling "Name"', ('ruling "Name"',),
                did_you_mean(line.words[0], ["ruling"]))
        return None
    ruling = Ruling(line.head[1].text, "", source.path, line.span)
    seen = set()
    for child in line.children:
        key = child.key.lower()
        if key not in _FIELDS:
            problem(child.head[0].span, "E702", f'unknown field "{child.key}"',
                    (listing(_FIELDS, 12),), did_you_mean(child.key, _FIELDS))
            continue
        seen.add(key)
        ruling.field_spans[key] = child.span
        value = (child.value or "").strip()
        span = child.value_span or child.span
        if key == "game":
            ruling.game = value
        elif key == "section":
            # quotes inside the quoted section are written \" (as in the
            # rulebook's own sentences), shown as "
            # (one quote off each end: a section may end with an escaped one)
            quoted = len(value) >= 2 and value[0] == value[-1] == '"'
            ruling.section = (value[1:-1] if quoted else value).replace('\\"', '"')
        elif key in ("seed", "players"):
            if not re.fullmatch(r"\d+", value):
                problem(span, "E703", f"{key} must be a whole number, not \"{value}\"",
                        ("a number such as 1",))
                continue
            setattr(ruling, key, int(value))
            if key == "players":
                ruling.players_span = span
        elif key == "decks":
            ruling.decks = [n.strip().strip('"') for n in value.split(",") if n.strip()]
            ruling.decks_span = span
            ruling.deck_lines = read_decks_block(child, problem)
        elif key == "cards":
            ruling.card_lines = read_cards_block(child, problem)
        elif key == "match":
            ruling.match_games, ruling.match_span = read_match(value, span, problem), span
        elif key == "position":
            ruling.position = _read_position(source, child, problem)
        elif key == "play":
            for step in child.children:
                if step.words[0].lower() != "player" or len(step.words) != 2 or \
                        not step.words[1].isdigit() or not step.value:
                    problem(step.span, "E704", "a play step is a player and a choice",
                            ("player 1: cast Scholar",))
                    continue
                ruling.choices.append(Choice(int(step.words[1]) - 1, step.value.strip(),
                                             step.span))
        elif key == "stop":
            if value.rstrip(".").lower() != "at the next decision":
                problem(span, "E705", f'unknown stop "{value}"', ("at the next decision",))
            ruling.stop_at_next_decision = True
        elif key == "expect":
            for expect in child.children:
                text = _without_comment(
                    source.line(expect.span.line)[expect.span.column - 1:]).rstrip()
                espan = Span(source.path, expect.span.line, expect.span.column,
                             expect.span.line, expect.span.column + len(text))
                try:
                    tree = _expect_parser().parse(text).children[0]
                except UnexpectedInput as err:
                    column = espan.column + (getattr(err, "column", 1) or 1) - 1
                    names = sorted(getattr(err, "expected", None) or
                                   getattr(err, "allowed", None) or ())
                    shown = [_EXPECT_WORDS.get(n, n.lower()) for n in names
                             if not n.startswith("__")]
                    problem(Span(source.path, espan.line, column, espan.line, column + 1),
                            "E706", "this expect line cannot be read",
                            tuple(sorted(set(shown))) or
                            ("an expectation such as: player 1 hand has 2 cards, "
                             "\"Card\" is exhausted, winner is player 1",),
                            None)
                    continue
                ruling.expectations.append(Expectation(tree, text, espan))
    if "game" not in seen:
        problem(line.span, "E707", f'ruling "{ruling.name}" names no game', ("game: GAME-ID",))
        return None
    if "expect" not in seen or not ruling.expectations and not any(
            p.span and p.span.path == source.path for p in problems):
        problem(line.span, "E708", f'ruling "{ruling.name}" expects nothing: a ruling '
                "must say what the rulebook says happens", ("expect:",))
    check_shape(ruling, problem)
    return ruling


_CARD_LIST = re.compile(r'\s*["\u201c]([^"\u201d]+)["\u201d]([^,"\u201c]*)(?:,|$)')


def _without_comment(text: str) -> str:
    """An expect line without its comment ("   # why"): a "#" after a space,
    outside quotes (a label such as "Knight #3" keeps its number)."""
    quoted = False
    for index, char in enumerate(text):
        if char in '"\u201c\u201d':
            quoted = not quoted
        elif char == "#" and not quoted and index and text[index - 1].isspace():
            return text[:index]
    return text


def _read_position(source, line: OutlineLine, problem) -> dict:
    position = {"turn": 1, "turn player": 0, "phase": None, "players": {},
                "player spans": []}
    for child in line.children:
        key = child.key.lower()
        value = (child.value or "").strip()
        span = child.value_span or child.span
        if key in ("turn", "round", "turn player", "first player"):
            if not re.fullmatch(r"\d+", value):
                problem(span, "E703", f"{key} must be a whole number", ("a number",))
                continue
            # a "round" is the repeating cycle of the turn block, as a turn is
            position["turn" if key == "round" else key] = int(value) - (
                1 if key in ("turn player", "first player") else 0)
            if key in ("turn player", "first player"):
                position["player spans"].append((int(value) - 1, span))
        elif key in ("phase", "step"):
            if key == "phase" and position.get("phase") and position.get("step given"):
                continue  # the step already says where play starts
            position["phase"] = value.strip('"')
            position["phase span"] = span
            if key == "step":
                position["step given"] = True
        elif len(child.words) == 2 and child.words[0].lower() == "player" and \
                child.words[1].isdigit():
            player = int(child.words[1]) - 1
            position["player spans"].append((player, child.span))
            entries = position["players"].setdefault(player, [])
            for item in child.children:
                entries.append((" ".join(item.words), (item.value or "").strip(),
                                item.value_span or item.span, item.head[0].span))
        else:
            fields = ["turn", "round", "turn player", "first player", "phase", "step"]
            problem(child.head[0].span, "E702", f'unknown field "{child.key}" in a position',
                    tuple(fields) + ("player N",), did_you_mean(child.key, fields))
    return position


# ---------------------------------------------------------------- running


def find_game(ruling: Ruling):
    """The game a ruling names: in the folder the ruling lives in (a
    rules/<game>.rules, or an expansion's cards/<game>/, above it), else as
    commands see it from the current folder."""
    here = Path(ruling.path).resolve()
    if ruling.game.endswith(".rules"):
        rules = (here.parent / ruling.game).resolve()
        if not rules.exists():
            raise CouldNotRun(Problem("E717", f"no rules file {ruling.game} beside the ruling",
                                      ruling.span))
        return load_game(rules.stem, rules.parent.parent)
    for parent in here.parents:
        library = Library.of(parent)
        if library.project is not None and library.locate(ruling.game, only_project=True):
            return load_game(ruling.game, parent)
    return load_game(ruling.game)


def run_ruling(ruling: Ruling, source: SourceText) -> RulingResult:
    game = find_game(ruling)
    if game.problems:
        raise CardrulesError(game.problems)
    failures: list[Problem] = []
    game = ruling_game(ruling, game, source, failures)   # with the ruling's own cards
    if game is None:
        return RulingResult(ruling, [], failures)
    book = deck_book(ruling, game, source, failures)
    trace = [f"ruling: {ruling.name}"]
    if ruling.section:
        trace.append(f"section: {ruling.section}")
    trace.extend(deck_trace(book))
    match = series = None       # the one game played, or the match's result
    lines: list[str] = []
    if failures or plays_no_game(ruling):
        pass                    # no game: the decks' verdicts are the whole trace
    elif (compiled := compile_ruling_game(ruling, game, source, failures)) is None:
        return RulingResult(ruling, [], failures)
    elif "match" in ruling.field_spans:
        decks = _seats(ruling, game, book, source, failures)
        if decks is not None:
            lines, series = play_ruling_match(ruling, game, compiled, decks, source, failures)
    else:
        match = _start(ruling, game, compiled, book, source, failures)
        if match is None:
            return RulingResult(ruling, [], failures)
        _play(ruling, match, source, failures)
        lines = match.narration()
    trace.extend(lines)
    if not failures:
        for expectation in ruling.expectations:
            kind = expectation.tree.data
            if kind in DECK_KINDS:
                problem = check_deck_expectation(expectation, book, source)
            elif kind in MATCH_KINDS:
                # without a match played, loading the ruling reported E725 (check_shape)
                problem = None if series is None else \
                    check_match_expectation(expectation, series, source)
            else:
                problem = _check(expectation, match, game, source, lines)
            if problem is not None:
                failures.append(problem)
    return RulingResult(ruling, trace, failures)


def _seats(ruling, game, book, source, failures):
    """The decks in the seats of a game played from its setup: one per
    player, and "decks: A, B, C" is a game of three."""
    players = ruling.players or max(game.rules.players_min, len(ruling.decks))
    if not _players_exist(ruling, game.rules, players, source, failures):
        return None
    return seat_decks(ruling, game, book, players, source, failures)


def _start(ruling, game, compiled, book, source, failures):
    rules = game.rules
    if ruling.position is None:
        decks = _seats(ruling, game, book, source, failures)
        return None if decks is None else Match.start(compiled, decks, ruling.seed)
    players = ruling.players or rules.players_min
    if not _players_exist(ruling, rules, players, source, failures):
        return None
    position = ruling.position
    zones: dict = {}
    counters: dict = {}
    bad = False
    for player, entries in position["players"].items():
        for name, value, span, key_span in entries:
            zone = _lookup(rules.zones, name)
            counter = _lookup(rules.counters, name)
            if zone is not None:
                cards = []
                for match in _CARD_LIST.finditer(value):
                    card, statuses = match.group(1), _card_extras(match.group(2))
                    if card not in game.cards:
                        failures.append(problem_at(source, span, "E710",
                                                   f'unknown card "{card}"', (),
                                                   did_you_mean(card, game.cards)))
                        bad = True
                    cards.append((card, statuses))
                zones[(zone.name, player)] = cards
            elif counter is not None and counter.scope == "card":
                failures.append(problem_at(
                    source, key_span, "E711",
                    f'{counter.name} is kept on cards, not by a player',
                    (f'a card followed by "with N {counter.name}"' + (
                        f' (a player\'s: "with N {counter.name} of player N")'
                        if counter.per_player else ""),)))
                bad = True
            elif counter is not None:
                if not re.fullmatch(r"[+-]?\d+", value):
                    failures.append(problem_at(source, span, "E703",
                                               f"{counter.name} must be a number", ("7",)))
                    bad = True
                    continue
                counters[(player, counter.name)] = int(value)
            else:
                known = list(rules.zones) + list(rules.counters)
                failures.append(problem_at(source, key_span, "E711",
                                           f'unknown zone or counter "{name}"',
                                           (listing(known),), did_you_mean(name, known)))
                bad = True
    phase = position.get("phase") or (rules.phases[0].name if rules.phases else None)
    if phase not in compiled.phase_starts:
        names = list(compiled.phase_starts)
        failures.append(problem_at(source, position.get("phase span", ruling.span), "E712",
                                   f'unknown phase or step "{phase}"', (listing(names),),
                                   did_you_mean(phase or "", names)))
        bad = True
    if bad:
        return None
    return Match.from_position(compiled, players, ruling.seed, zones, counters,
                               position["turn"], position["turn player"], phase,
                               position.get("first player"))


def _players_exist(ruling, rules, players: int, source, failures) -> bool:
    """Every player a ruling names (in its position, its play steps and its
    expect lines) is one of the game's players, and the game may be played
    by that many."""
    if not rules.players_min <= players <= rules.players_max:
        allowed = str(rules.players_min) if rules.players_min == rules.players_max else \
            f"{rules.players_min} to {rules.players_max}"
        failures.append(problem_at(source, ruling.players_span or ruling.span, "E718",
                                   f"this game is played by {allowed} players, not {players}",
                                   (f"players: {allowed}",)))
        return False
    if len(ruling.decks) > players:
        failures.append(problem_at(source, ruling.decks_span or ruling.span, "E718",
                                   f"{len(ruling.decks)} decks for a game of {players} players",
                                   (f"at most {players} decks, or players: "
                                    f"{len(ruling.decks)}",)))
        return False
    found = len(failures)
    named = list((ruling.position or {}).get("player spans", ()))
    named += [(choice.player, choice.span) for choice in ruling.choices]
    for expectation in ruling.expectations:
        named += [(int(node.children[0]) - 1, expectation.span)
                  for node in expectation.tree.iter_subtrees() if node.data == "player"]
    for player, span in named:
        if not 0 <= player < players:
            failures.append(problem_at(
                source, span, "E718", f"there is no player {player + 1}: this ruling plays "
                f"a game of {players} players", (f"player 1 to player {players}",)))
    return len(failures) == found


def _card_extras(text: str) -> list:
    """What follows a card's name in a position: statuses ("exhausted",
    "face down"), counters on it ("with 2 Progress Marker") and the slot it
    holds in a zone of slots ("in slot 2")."""
    extras: list = []
    text = text.strip()
    if m := re.search(r"\bin slot (\d+)\b", text):
        extras.append(("counter", "slot", int(m.group(1))))
        text = (text[:m.start()] + text[m.end():]).strip()
    counters = re.findall(r"with (\d+) ([^,]+?)(?=\s+with\s|$)", text)
    text = re.sub(r"with \d+ [^,]+?(?=\s+with\s|$)", "", text).strip()
    if "face down" in text:
        extras.append("face down")
        text = text.replace("face down", "")
    if "face up" in text:
        extras.append("face up")
        text = text.replace("face up", "")
    extras.extend(text.split())
    extras.extend(("counter", name.strip(), int(n)) for n, name in counters)
    return extras


def _lookup(table, name):
    for key, value in table.items():
        if key.lower() == name.lower():
            return value
    return None


def _strip_number(label: str) -> str:
    return re.sub(r"\s*#\d+", "", label)


def _play(ruling, match, source, failures) -> None:
    steps = list(ruling.choices)
    watch = Watch(match)
    if _invariant_holds(watch.check(), ruling, source, failures, "at the start"):
        _play_steps(ruling, match, source, failures, steps, watch)
    if not failures:
        _invariant_holds(deep_checks(match), ruling, source, failures, "at the end")


def _invariant_holds(violation, ruling, source, failures, when: str) -> bool:
    """Whether no engine invariant is violated; a violation fails the ruling,
    whatever its expect lines say."""
    if violation is None:
        return True
    failures.append(problem_at(
        source, ruling.span, "E722",
        f"the engine broke one of its invariants {when}: {violation}",
        ("every ruling to keep the engine's invariants (interpreter/engine/invariants.py);"
         " this is the engine's bug, not the ruling's",)))
    return False


def _made_without_asking(unasked: list, choice) -> bool:
    """Whether a play step that the decision now open does not offer names
    a choice the engine made without asking (it had one option) since the
    step before: the step is then used up, with every such choice before it.
    (The open decision comes first: older rulings leave such choices out.)"""
    wanted = choice.label.lower()
    for at, (player, label) in enumerate(unasked):
        if player == choice.player and wanted in (label.lower(), _strip_number(label).lower()):
            del unasked[:at + 1]
            return True
    return False


def _play_steps(ruling, match, source, failures, steps, watch) -> None:
    unasked = list(match.unasked)
    for index, choice in enumerate(steps, 1):
        if match.is_terminal():
            if _made_without_asking(unasked, choice):
                continue
            for left in steps[index - 1:]:
                failures.append(problem_at(
                    source, left.span, "E713",
                    f"play step {steps.index(left) + 1} was not used: the game ended before it"))
            return
        decision = match.state.decision
        if decision.player != choice.player:
            if _made_without_asking(unasked, choice):
                continue
            failures.append(problem_at(
                source, choice.span, "E714",
                f"play step {index}: player {choice.player + 1} has no decision to make; "
                f"player {decision.player + 1} must {decision.prompt}",
                tuple(_strip_number(l) for l in decision.labels)))
            return
        labels = [match.action_to_string(a) for a in match.legal_actions()]
        wanted = choice.label.lower()
        picks = [a for a, l in enumerate(labels) if l.lower() == wanted] or \
                [a for a, l in enumerate(labels) if _strip_number(l).lower() == wanted]
        if not picks and _made_without_asking(unasked, choice):
            continue
        if not picks:
            shown = sorted(set(_strip_number(l) for l in labels))
            failures.append(problem_at(
                source, choice.span, "E715",
                f'play step {index}: "{choice.label}" is not a legal choice for player '
                f"{choice.player + 1} ({decision.prompt})", tuple(shown),
                did_you_mean(choice.label, shown)))
            return
        match.apply_action(picks[0])
        unasked = list(match.unasked)
        if not _invariant_holds(watch.check(), ruling, source, failures,
                                f"after play step {index}"):
            return
    if not match.is_terminal() and not ruling.stop_at_next_decision:
        decision = match.state.decision
        failures.append(problem_at(
            source, ruling.span, "E716",
            f"unscripted decision after the last play step: player {decision.player + 1} "
            f"must {decision.prompt}",
            tuple(sorted(set(_strip_number(l) for l in decision.labels))) +
            ("or end the play with: stop: at the next decision",)))


# ---------------------------------------------------------------- expectations


def _check(expectation, match, game, source, trace) -> Problem | None:
    tree = expectation.tree
    kind = tree.data
    state = match.state if match is not None else None   # None: a match's trace only
    rules = game.rules

    def fail(expected: str, actual: str, code: str = "E720") -> Problem:
        return problem_at(source, expectation.span, code,
                          f"expected {expected}, but {actual}")

    def player_of(node) -> int:
        return int(node.children[0]) - 1

    def place_of(node) -> str:
        if hasattr(node, "children"):
            return " ".join(str(t) for t in node.children)
        return str(node).strip('"\u201c\u201d')

    def names_in(player, zone):
        key = (zone.name, -1 if zone.scope == "shared" else player)
        return [state.cards[c].name for c in state.zones.get(key, [])]

    def zone_or_problem(player, name):
        zone = _lookup(rules.zones, name)
        if zone is None:
            return None, problem_at(source, expectation.span, "E721",
                                    f'unknown zone "{name}"', (listing(rules.zones),),
                                    did_you_mean(name, rules.zones))
        return zone, None

    args = tree.children
    if kind in ("zone_count", "zone_contains", "zone_lacks"):
        player, name = player_of(args[0]), place_of(args[1])
        zone, problem = zone_or_problem(player, name)
        if problem:
            return problem
        cards = names_in(player, zone)
        if kind == "zone_count":
            n = int(args[2])
            if len(cards) != n:
                return fail(f"player {player + 1}'s {zone.name} to have {n} cards",
                            f"it has {len(cards)} ({', '.join(cards) or 'none'})")
            return None
        card = str(args[2]).strip('"\u201c\u201d')
        if (card in cards) != (kind == "zone_contains"):
            what = "to have" if kind == "zone_contains" else "not to have"
            return fail(f'player {player + 1}\'s {zone.name} {what} "{card}"',
                        f"it holds {', '.join(cards) or 'nothing'}")
        return None
    if kind == "counter_is":
        player, name, n = player_of(args[0]), place_of(args[1]), int(args[2])
        counter = _lookup(rules.counters, name)
        if counter is None:
            return problem_at(source, expectation.span, "E721", f'unknown counter "{name}"',
                              (listing(rules.counters),), did_you_mean(name, rules.counters))
        # (a counter kept "on cards, per player": theirs on the cards in play)
        actual = Machine(match.game, state).player_count(player, counter.name)
        if actual != n:
            return fail(f"player {player + 1}'s {counter.name} to be {n}", f"it is {actual}")
        return None
    if kind in ("card_status", "card_lacks_status"):
        card = str(args[0]).strip('"\u201c\u201d')
        status = place_of(args[1])
        ids = [i for i, c in enumerate(state.cards) if c.name == card]
        found = [state.cards[i] for i in ids]
        if not found:
            return fail(f'a card named "{card}"', "there is none in the game")
        # a status set on the card, or given by a modifier ("it is exhausted
        # until your next turn") or by its place, as the engine sees it
        views = Machine(match.game, state)
        has = any(views.has_status(i, status) or (status == "face up" and c.face_up) or
                  (status == "face down" and not c.face_up) for i, c in zip(ids, found))
        if has != (kind == "card_status"):
            statuses = sorted({s for c in found for s in c.statuses}) or ["no status"]
            want = status if kind == "card_status" else f"not {status}"
            return fail(f'"{card}" to be {want}', f"it has {', '.join(statuses)}")
        return None
    if kind == "card_in_zone":
        card = str(args[0]).strip('"\u201c\u201d')
        player, name = player_of(args[1]), place_of(args[2])
        zone, problem = zone_or_problem(player, name)
        if problem:
            return problem
        if card not in names_in(player, zone):
            where = sorted({f"{c.zone[0]}" + (f" of player {c.zone[1] + 1}" if c.zone[1] >= 0
                                               else "") for c in state.cards if c.name == card})
            return fail(f'"{card}" in player {player + 1}\'s {zone.name}',
                        f"it is in {', '.join(where) or 'no zone'}")
        return None
    if kind == "card_player_counter":
        # "Quest One" has 1 Mark of player 2 (on cards, per player)
        words = place_of(args[2])
        name = words[:-3] if words.lower().endswith(" of") else words
        counter = _lookup(rules.counters, name)
        if counter is None or not counter.per_player:
            return problem_at(source, expectation.span, "E721",
                              f'"{name}" is not a counter kept on cards per player',
                              tuple(c.name for c in rules.counters.values() if c.per_player))
        args = (args[0], args[1], counter_on_card(counter.name, player_of(args[3])))
        kind = "card_counter"
    if kind == "card_counter":
        card, n, name = str(args[0]).strip('"\u201c\u201d'), int(args[1]), place_of(args[2])
        found = [c for c in state.cards if c.name == card]
        if not found:
            return fail(f'a card named "{card}"', "there is none in the game")
        stat = rules.stat(name) if rules.counters.get(name) is None else None
        if stat is not None and stat.type == "number":
            # a stat as the engine sees it now, every modifier applied
            views = Machine(match.game, state)
            values = sorted({views.stat(i, stat.name) for i, c in enumerate(state.cards)
                             if c.name == card})
            if values != [n]:
                return fail(f'"{card}" to have {n} {stat.name}',
                            f"it has {' or '.join(map(str, values))}")
            return None
        actual = max(c.counter(name) for c in found)
        if actual != n:
            return fail(f'"{card}" to have {n} {name}', f"it has {actual}")
        return None
    if kind in ("card_keyword", "card_lacks_keyword"):
        card, name = str(args[0]).strip('"\u201c\u201d'), place_of(args[1])
        keywords = [k.pattern.text for k in rules.keywords]
        keyword = next((k for k in keywords if k.lower() == name.lower()), None)
        if keyword is None:
            return problem_at(source, expectation.span, "E721", f'unknown keyword "{name}"',
                              (listing(keywords),), did_you_mean(name, keywords))
        ids = [i for i, c in enumerate(state.cards) if c.name == card]
        if not ids:
            return fail(f'a card named "{card}"', "there is none in the game")
        # printed or given by an effect, and not lost, as the engine sees it
        views = Machine(match.game, state)
        has = any(views.has_keyword(i, keyword) for i in ids)
        if has != (kind == "card_keyword"):
            return fail(f'"{card}" {"to have" if kind == "card_keyword" else "not to have"} '
                        f"{keyword}", "it has it" if has else "it does not have it")
        return None
    if kind in ("can_choose", "cannot_choose"):
        # what the decision the play stopped at offers its player
        player, wanted = player_of(args[0]), str(args[1]).strip('"\u201c\u201d').lower()
        decision = state.decision
        labels = [] if decision is None or decision.player != player else [
            _strip_number(label).lower() for label in decision.labels]
        offered = wanted in labels
        if offered != (kind == "can_choose"):
            return fail(f'player {player + 1} {"" if kind == "can_choose" else "not "}'
                        f'to be able to choose "{wanted}"',
                        "it is offered" if offered else "it is not offered")
        return None
    if kind == "winner":
        player = player_of(args[0])
        result = state.result
        if result is None or result[0] != "win" or result[1] != player:
            actual = "the game is not over" if result is None else (
                f"player {result[1] + 1} won" if result[0] == "win" else "it is a draw")
            return fail(f"player {player + 1} to win", actual)
        return None
    if kind == "draw":
        if state.result is None or state.result[0] != "draw":
            return fail("a draw", "the game is not over" if state.result is None
                        else f"player {state.result[1] + 1} won")
        return None
    if kind == "not_over":
        if state.result is not None:
            return fail("the game not to be over", "it is over")
        return None
    if kind == "trace":
        wanted = [str(t).strip('"\u201c\u201d') for t in args]
        position = 0
        for text in wanted:
            index = next((i for i in range(position, len(trace)) if text in trace[i]), None)
            if index is None:
                earlier = any(text in line for line in trace)
                actual = "it comes too early" if earlier else "no line of the trace has it"
                return fail(f'the trace to have "{text}"' + (
                    " after the line before it" if position else ""), actual)
            position = index + 1
        return None
    if kind == "trace_lacks":
        text = str(args[0]).strip('"\u201c\u201d')
        found = next((line.strip() for line in trace if text in line), None)
        return None if found is None else fail(
            f'no line of the trace to have "{text}"', f'"{found}" has it')
    raise CardrulesError(Problem("E799", f"unknown expectation {kind}"))


def load_ruling_file(path: Path) -> tuple[SourceText, list[Ruling], list[Problem]]:
    source = read_source(path, str(path))
    if isinstance(source, Unreadable):
        return source, [], [source.problem]
    rulings, problems = load_rulings(source)
    return source, rulings, problems
