"""Agent settings: the choices the ``hinted`` agent prefers in one game.

Not part of a game's definition: a rules file says how a game is played,
never how an agent chooses. A game may ship, beside ``rules/GAME.rules``, an
agent settings file ``rules/GAME.hints`` read by the agent ``hinted`` only
(a random player that takes the choices it names when offered, so that its
games end the way people's do, where uniformly random play would wander
until the game's cap). One tier per line, tried in order::

    # the choices whose text starts with one of these, when this holds
    prefer: "clear the", "place a card", if you have 5 or more cards in your hand
    prefer: pass

A tier's condition is card-language text, read with the game's own grammar
("if" then a condition, as in an action's ``requires:``); ``pass`` (bare)
names passing; a number ("3") is a whole option's text.
"""

from __future__ import annotations

import re
from pathlib import Path

from interpreter.compiler.conditions import compile_condition
from interpreter.engine.rng import Random
from interpreter.engine.state import Frame
from interpreter.errors import CardrulesError, Problem
from interpreter.language.files import Unreadable, read_source
from interpreter.language.game_rules import parse_ability
from interpreter.source import Span

# a bare text: a word or a number (pass, 3)
_BARE = re.compile(r"[A-Za-z0-9]+")

# the tiers read for a game: (hints path, text) -> (compiled game, tiers)
_READ: dict = {}


def hints_path(game) -> Path:
    """Where a game's agent settings are: ``GAME.hints`` beside its rules
    file (a file the game's definition never reads)."""
    return Path(game.rules.path).with_suffix(".hints")


def read_hints(game) -> tuple:
    """The tiers of a game's agent settings file: ((label prefixes, test of
    the condition or None), ...); none without the file. Raises
    CardrulesError with a problem at each line it cannot read."""
    path = hints_path(game)
    if not path.exists():
        return ()
    source = read_source(path)      # the one reader: no device or pipe hangs it
    if isinstance(source, Unreadable):
        raise CardrulesError(source.problem)
    text = source.text
    known = _READ.get((str(path), text))
    if known is not None and known[0] is game:
        return known[1]
    tiers, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        tier = _read_tier(game, str(path), number, line, problems)
        if tier is not None:
            tiers.append(tier)
    if problems:
        raise CardrulesError(problems)
    _READ[(str(path), text)] = (game, tuple(tiers))
    return tuple(tiers)


def _read_tier(game, path: str, number: int, line: str, problems: list):
    """One line: (texts, test) or None with a problem."""
    indent = len(line) - len(line.lstrip())
    parsed = _split_tier(line.strip())
    if parsed is None:
        problems.append(Problem(
            "E819", 'an agent settings line reads: prefer: "TEXT", ...[, if CONDITION]',
            Span(path, number, indent + 1, number, len(line) + 1), line.strip(),
            ('prefer: "clear the", pass, if you have 2 or more cards in your hand',)))
        return None
    labels, condition, offset = parsed
    test = None
    if condition is not None:
        column = indent + 1 + offset
        try:
            test = compile_condition(parse_ability(
                game.rules, condition, path, Span(path, number, column, number,
                                                  column + len(condition)),
                start="condition_line"))
        except CardrulesError as err:       # (Unsupported is one)
            problems.extend(err.problems)
            return None
    return labels, test


def _split_tier(text: str):
    """'prefer: "a", pass, if COND' -> (("a", "pass"), "COND", where COND
    starts), or None when the line does not read so."""
    head, colon, body = text.partition(":")
    if head.strip().lower() != "prefer" or not colon:
        return None
    labels, pos, start = [], 0, len(head) + 1
    while True:
        while pos < len(body) and body[pos] == " ":
            pos += 1
        if body.startswith('"', pos):
            end = body.find('"', pos + 1)
            if end < 0:
                return None
            labels.append(body[pos + 1:end])
            pos = end + 1
        else:
            word = _BARE.match(body, pos)
            if word is None:
                return None
            if word.group().lower() == "if" and labels:
                condition = body[word.end():].strip()
                if not condition:
                    return None
                return tuple(labels), condition, start + body.index(condition, word.end())
            labels.append(word.group().lower() if word.group().lower() == "pass"
                          else word.group())
            pos = word.end()
        while pos < len(body) and body[pos] == " ":
            pos += 1
        if pos == len(body):
            return (tuple(labels), None, 0) if labels else None
        if body[pos] != ",":
            return None
        pos += 1


def preferred_actions(match, tiers: tuple | None = None) -> list[int]:
    """The legal actions the ``hinted`` agent prefers: those whose text
    starts with a text of the first tier whose condition holds for the
    deciding player and that matches any; all of them when none does.
    ``tiers``: the game's, read already (else read now)."""
    legal = match.legal_actions()
    if tiers is None:
        tiers = read_hints(match.game)
    if not tiers:
        return legal
    labels = [match.action_to_string(a) for a in legal]
    probe = None
    for prefixes, test in tiers:
        if test is not None:
            if probe is None:
                probe = (match.views(),
                         Frame("probe", 0, {"you": match.state.decision.player}))
            if not test(*probe):
                continue
        chosen = [a for a, label in zip(legal, labels) if _matches(label, prefixes)]
        if chosen:
            return chosen
    return legal


def _matches(label: str, prefixes: tuple[str, ...]) -> bool:
    """A label starts with one of the prefixes; a number ("3") is a whole
    label (a number chosen), not the start of "30"."""
    return any(label == p if p.isdigit() else label.startswith(p) for p in prefixes)


class HintedAgent:
    """A random player that takes the choices its game's agent settings
    file prefers (:func:`preferred_actions`); uniform without the file."""

    def __init__(self, seed: int = 0):
        self.rng = Random(seed)
        self.read: tuple = (None, ())      # (the game, its tiers): read once, not per decision

    def act(self, match) -> int:
        if self.read[0] is not match.game:
            self.read = (match.game, read_hints(match.game))
        return self.rng.choice(preferred_actions(match, self.read[1]))
