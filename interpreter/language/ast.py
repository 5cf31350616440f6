"""The abstract syntax tree of card text.

Frozen, slotted attrs classes, one per construct of the effect language
(``grammar/effect.lark``). Each node has a ``form`` naming which alternative
of its construct it is (the grammar's alias, e.g. a Step of form ``draw``),
its arguments, and its source ``span``. Spans never take part in equality, so
two texts that mean the same thing compare equal wherever they were written
(the renderer's round trip relies on this).

Arguments are plain values or nodes: ``int`` for numbers, ``"X"`` for X,
strings for vocabulary words (in the spelling the rules file declares) and
card names, and nodes for nested constructs.
"""

from __future__ import annotations

from typing import Iterator, Union

import attrs

from interpreter.source import Span

_span = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen(slots=True)
class Node:
    """Base of every AST node: a form, its arguments, where it was written."""

    form: str
    args: tuple = ()
    span: Span | None = _span

    def walk(self) -> Iterator["Node"]:
        yield self
        for arg in self.args:
            yield from _walk(arg)


def walk_all(value) -> Iterator[Node]:
    """Every node in a node or a tuple of them, outermost first."""
    return _walk(value)


def _walk(value) -> Iterator[Node]:
    if isinstance(value, Node):
        yield from value.walk()
    elif isinstance(value, tuple):
        for v in value:
            yield from _walk(v)


@attrs.frozen(slots=True)
class Selector(Node):
    """Which cards: ``this``, ``"Name"``, ``a FIRE Being your Rival controls``,
    ``the top 3 cards of your deck`` ...

    Forms ``some`` and ``owned`` carry (quantity or owner, adjectives, noun,
    qualifiers)."""


@attrs.frozen(slots=True)
class Quantity(Node):
    """How many: ``one``, ``count`` n, ``up_to`` n, ``at_least`` n, ``each`` ..."""


@attrs.frozen(slots=True)
class Adjective(Node):
    """A selector's adjective: a stat value, a status, face-up, other ..."""


@attrs.frozen(slots=True)
class Noun(Node):
    """``card(s)`` (form any_card) or a card kind (form kind, arg: the kind
    as written). ``plural``: the kind was written in the plural ("your
    Creatures": all of them where a condition asks about them); the word
    itself already tells the two apart, so it takes no part in equality."""

    plural: bool = attrs.field(default=False, eq=False, repr=False)


@attrs.frozen(slots=True)
class Qualifier(Node):
    """What follows a selector's noun: ``in your hand``, ``you control`` ..."""


@attrs.frozen(slots=True)
class Player(Node):
    """Who: you, rival, each_player, turn_player, that_player, owner ..."""


@attrs.frozen(slots=True)
class Possessive(Node):
    """Whose: your, rivals, their, owners, the ..."""


@attrs.frozen(slots=True)
class ZoneRef(Node):
    """A zone of a player: (Possessive, zone name)."""


@attrs.frozen(slots=True)
class PeriodRef(Node):
    """A period: forms this, the, your, rivals, next, your_next, rivals_next,
    controllers_next; arg: the period name."""


# the relations that name one occurrence to come ("this turn", "your next
# Upkeep"), never each one ("your turn"): a moment an effect leaves steps
# for, never a trigger's
ONCE_PERIODS = frozenset(("this", "next", "your_next", "rivals_next", "controllers_next"))


@attrs.frozen(slots=True)
class Duration(Node):
    """How long: until_end, until, during_period, rest_of (PeriodRef)."""


@attrs.frozen(slots=True)
class Destination(Node):
    """Where to: to_zone, to_top, to_bottom (ZoneRef, face), to_card,
    to_zone_next_to (ZoneRef, Selector: a free slot paired with one of them)."""


@attrs.frozen(slots=True)
class Comparison(Node):
    """exactly / at_least / at_most n, or none."""


@attrs.frozen(slots=True)
class Measure(Node):
    """A number read from the game: its_stat (stat), number_of (Selector)."""


@attrs.frozen(slots=True)
class StatChange(Node):
    """``+20 AP``: (signed amount, stat name)."""


@attrs.frozen(slots=True)
class Capability(Node):
    """What a card can or can't do: (verb, object, times, directly)."""


@attrs.frozen(slots=True)
class Times(Node):
    """``2 times each turn``, ``once per Round``: (count, period or PeriodRef)."""


@attrs.frozen(slots=True)
class State(Node):
    """What a card is: status, face_state, in_zone, combat_state, is_period."""


@attrs.frozen(slots=True)
class Event(Node):
    """What happened: card_event, player_event, bare_event; with an action."""


@attrs.frozen(slots=True)
class EventAction(Node):
    """The verb of an event: participle, deals_damage, acts, leaves_zone ..."""


@attrs.frozen(slots=True)
class Condition(Node):
    """A condition item: when, if_, once_per, at_start, for_each ...; or an
    ``if`` condition's body: controls, has_cards, counter_is, you_do ..."""


@attrs.frozen(slots=True)
class Step(Node):
    """One thing to do. Forms: act (subject, optional, Action, suffixes),
    state_change (Selector, Statement, suffixes), verb_step (optional,
    VerbUse, suffixes)."""


@attrs.frozen(slots=True)
class Action(Node):
    """A primitive action: draw, discard, move, put, deal, destroy ..."""


@attrs.frozen(slots=True)
class Statement(Node):
    """What a step says of a card: gets, has_keyword, can, cannot, must, becomes."""


@attrs.frozen(slots=True)
class Suffix(Node):
    """A step's trailing modifier: lasting (Duration), for_each, instead."""


@attrs.frozen(slots=True)
class Modifier(Node):
    """A modifier item after a comma: paying_all_costs, without_paying, more_stat,
    more_keyword."""


@attrs.frozen(slots=True)
class VerbUse(Node):
    """A game verb used in text: form is the pattern text, args its slot values."""


@attrs.frozen(slots=True)
class KeywordUse(Node):
    """A keyword: form is the pattern text, args its slot values."""


@attrs.frozen(slots=True)
class Link(Node):
    """An item of a sentence with how it joins the one before: form is
    ``first``, ``and`` or ``then``; args: (item,)."""


@attrs.frozen(slots=True)
class Sentence(Node):
    """Items joined by links; form ``then`` if it opens with "Then"."""


@attrs.frozen(slots=True)
class Ability(Node):
    """One line of card text.

    Form ``effect``: args are (label, conditions, costs, resolution) where
    conditions and costs are the clauses before the last colon, classified,
    and resolution is a tuple of Sentences. Form ``keyword``: args (KeywordUse,).
    """

    @property
    def label(self) -> str | None:
        return self.args[0] if self.form == "effect" else None

    @property
    def conditions(self) -> tuple:
        return self.args[1] if self.form == "effect" else ()

    @property
    def costs(self) -> tuple:
        return self.args[2] if self.form == "effect" else ()

    @property
    def resolution(self) -> tuple:
        return self.args[3] if self.form == "effect" else ()


AnyNode = Union[Node]


@attrs.frozen(slots=True)
class CardName:
    """A quoted card name in text (kept apart from words so checks find it)."""

    name: str
    span: Span | None = _span


# Subjects that name several players ("each player with the most Bid"): a
# step after theirs in the sentence is done by the same players.
PLAYER_SETS = ("each_most_counter", "each_not_most_counter", "those_players",
               "each_with_counter", "each_with_cards")


def with_subject(step: Step, subject):
    """A step after another in the same sentence does what that one's player
    does when it names no player of its own ("Your Rival discards a card,
    then draws 2 cards": the Rival draws). Returns the step as it is meant
    and the subject that carries on (the compiler runs the first; the
    renderer conjugates by the second, explain shows the first)."""
    if step.form in ("act", "player_verb_step") and step.args[0] is not None:
        return step, step.args[0]
    if subject is None:
        return step, None
    if subject.form in PLAYER_SETS:
        # "Each player with the most Bid chooses ..., then reveals it": the
        # same players, not those with the most once they have chosen
        subject = Player("those_players", (), subject.span)
    if step.form == "act" and step.args[0] is None:
        return attrs.evolve(step, args=(subject,) + tuple(step.args[1:])), subject
    if step.form == "verb_step":
        optional, use, suffixes = step.args
        return Step("player_verb_step", (subject, optional, use, suffixes), step.span), \
            subject
    return step, subject


def carried_subjects(items: tuple) -> tuple:
    """Steps one after another in one sentence (an ability's costs: "Your
    Rival discards a card, may draw a card:"), each that names no player
    given the one before it's, as ``with_subject`` reads them."""
    subject, out = None, []
    for item in items:
        if isinstance(item, Step):
            item, subject = with_subject(item, subject)
        out.append(item)
    return tuple(out)


def card_references(node) -> Iterator[tuple[str, Span | None]]:
    """Every quoted card name in a node, with where it was written."""
    stack = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, CardName):
            yield value.name, value.span
        elif isinstance(value, Node):
            stack.extend(value.args)
        elif isinstance(value, tuple):
            stack.extend(value)
