"""Rules files: what a game declares, read into :class:`GameRules`.

A rules file (``rules/<game-id>.rules``) is an outline (see
``interpreter.syntax``) of declarations: the game itself, counters, zones,
value sets, stats, card kinds, timing labels, keywords, verbs, events,
statuses, periods, naming conventions and deck parts. This module reads each
declaration, reports every mistake with its position, and builds the game's
:class:`~interpreter.vocabulary.Vocabulary` and effect parser.

Keyword and verb definitions are themselves effect text; they are parsed
with the game's own grammar once the vocabulary is known.
"""

from __future__ import annotations

import re
from typing import Iterable

import attrs

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.source import SourceText, Span
from interpreter.syntax import EffectParser, OutlineLine, parse_outline, problem_at
from interpreter.vocabulary import Pattern, Vocabulary, effect_grammar, plural

# ---------------------------------------------------------------- declarations


@attrs.frozen(slots=True)
class CounterDecl:
    name: str
    scope: str                 # "player", "card" or "game"
    start: int | None
    minimum: int | None
    maximum: int | None
    span: Span
    loses_at: int | None = None   # a player whose counter is this or less loses
    takes_damage: bool = False    # damage dealt to a player is lost from it
    # "overspending gives the excess to the rival's C and locks it for the
    # turn": paying more than the player has empties it, adds the excess to
    # the rival's counter C, and nothing more of it can be paid that turn.
    overspend_to: str | None = None
    # "position in ZONE": the counter is where the player stands in an ordered
    # zone of places (0 the bottom card); at or past the zone's size, past the end.
    track: str | None = None
    # "on cards, per player": kept on cards, each player's apart (a player's
    # markers on a Quest card); "their COUNTER" counts theirs on cards in play
    per_player: bool = False
    # "per place in ZONE": one amount per place of the zone (a cache per
    # place). The counter holds the amount of the place being resolved by a
    # "for each" loop over the zone; an amount gained for another place waits
    # there until the loop reaches it (see Machine.gain_counter).
    per_place: str | None = None
    per_place_span: Span | None = None


# What the base language's verbs mean for zones: "draw" moves from the draw
# pile to the hand, "discard" and "destroy" move to the discard pile, cards
# "in play" are the ones continuous and triggered abilities work from.
ZONE_ROLES = ("draw pile", "hand", "discard pile", "in play")


@attrs.frozen(slots=True)
class ZoneDecl:
    name: str
    scope: str                 # "player" or "shared"
    visibility: str            # "hidden", "private" or "public"
    ordered: bool
    slots: int | None
    span: Span
    roles: tuple[str, ...] = ()
    # "paired with Z, paired cards are S": slot n of this zone and slot n of
    # zone Z (same player) make one place; cards sharing it have status S.
    paired_with: str | None = None
    paired_status: str | None = None
    entry_event: str | None = None     # "a card entering it is EVENT"
    empty_loses: bool = False          # "a player who needs a card from it when it is empty loses"
    none_loses: bool = False           # "a player with no cards in it loses"
    wins_at: int | None = None         # "a player with 3 cards in it wins"
    # "a card entering it takes the slot its player chooses": with more than
    # one free slot, the player whose zone it is picks one (a decision)
    slot_chosen: bool = False
    # "cards never leave it": a card put there stays for the rest of the
    # game (removed from the game: nothing can take it out)
    keeps_cards: bool = False
    # "shuffled after an effect takes cards from it": once a step of an
    # effect has moved cards out of it (not a draw), it is shuffled
    shuffled_after: bool = False


@attrs.frozen(slots=True)
class StatDecl:
    """A stat a card of some kind has, and the type of its value."""

    name: str
    type: str                  # number | one | list | names | exchange | text | effect
    values: tuple[str, ...]    # allowed values for one/list/exchange
    span: Span
    # "number, a card with damage at least its HP is destroyed": damage on a
    # card is measured against this stat (a state rule).
    lethal_damage: bool = False
    # "number, added to the STAT of the card it is attached to": an attached
    # card's value of this stat counts in its host's STAT (an Upgrade's +3)
    adds_to_host: str | None = None
    # "one of color, never an adjective": its value does not describe the
    # card ("a yellow Ally" is not an Ally whose secondary color is yellow)
    adjective: bool = True


@attrs.frozen(slots=True)
class KindDecl:
    name: str
    plural: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    timings: tuple[str, ...]   # empty: any declared timing
    boxes: tuple[str, ...]     # text boxes: "text" plus the declared ones
    faces: tuple[str, ...]
    span: Span
    # "boxes: connection while connected": a box whose abilities work only
    # while the card has that status; (box, status) pairs.
    box_status: tuple[tuple[str, str], ...] = ()
    # "text happens: when this is activated": unlabelled text without a
    # condition is the card's effect, run on that event of the card.
    text_event: str | None = None
    # "after use: void": once a triggered ability of the card has resolved,
    # the card goes to that zone of its owner.
    after_use: str | None = None
    # "face down: works": its abilities work while it is face down
    works_face_down: bool = False
    # "waits while: S": its triggered abilities do not fire while it has S
    waits_while: str | None = None
    # "used from: hand, ZONE": its activated, response and triggered
    # abilities are used from these places too (not only from play);
    # ", unless VALUE": not the cards with that stat value
    used_from: tuple[str, ...] = ()
    used_from_unless: tuple[str, ...] = ()
    # "once used: revealed, then discarded" / "once used: face down": what
    # using one of its abilities does to the card, in order; steps written
    # "... after it resolves" wait until the ability's effect has resolved
    # (or was nullified). ``once_used_from``: (zone, now, after) for a card
    # used from that zone ("once used from ZONE: turned face up, then
    # discarded after it resolves").
    once_used: tuple[str, ...] = ()
    once_used_after: tuple[str, ...] = ()
    once_used_from: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    # "when used: EFFECT": what using a card of this kind does (the "use"
    # step), after its requirements are met and before its text
    when_used: Sentence | None = None
    # "leaves play: never": once in play, no effect moves it out of play
    never_leaves_play: bool = False

    @property
    def used_up(self) -> bool:
        """Whether using one of its abilities uses the card up."""
        return bool(self.once_used or self.once_used_after or self.once_used_from)

    def once_used_in(self, zone: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(steps at once, steps after the effect) for a card used from ``zone``."""
        for where, now, after in self.once_used_from:
            if where.lower() == zone.lower():
                return now, after
        return self.once_used, self.once_used_after


@attrs.frozen(slots=True)
class TimingDecl:
    label: str
    use: str                   # activated | triggered | continuous
    optional: bool
    meaning: str | None
    span: Span
    response: bool = False     # usable when a player may respond (resolution)
    immediate: bool = False    # resolves at once, even when others wait on a stack
    once_per: str | None = None    # "once per turn": every ability with the label
    from_zone: str | None = None   # "from void": used from that zone, not from play
    when: Sentence | None = None   # the event of abilities with the label and no "When"
    unless: Sentence | None = None # a condition under which they do not trigger
    during: str | None = None      # "during PERIOD": usable only in that phase or step
    # "at any time": usable at any time a player could respond (see ActionDecl)
    any_time: bool = False
    # "optional" written out: a triggered ability with no cost asks its
    # controller whether to use it (unsaid, a trigger just happens)
    asks: bool = False
    # "answered in kind": once a player has used an ability with this label,
    # each other player may use one of theirs in response
    answered: bool = False
    # "used as: LABEL if CONDITION": its abilities may also be used as
    # abilities of that timing while the condition holds
    used_as: tuple | None = None   # (label, Sentence "If ...")


@attrs.frozen(slots=True)
class ResolutionDecl:
    """How triggered and responding effects are ordered and resolved: a
    last-in-first-out stack of entries, with these settings."""

    responses: bool            # the other player may respond to each entry
    rival_first: bool          # simultaneous triggers: the rival's go in first
    drop_if_source_left: bool  # an entry whose source left its zone is removed
    span: Span
    # "triggered effects: one at a time": of the effects waiting, only the
    # first (in the order above) becomes an entry; the next waits until the
    # stack is empty again (each has its own response step)
    one_at_a_time: bool = False
    # "each player's effects: ordered by their controller": among a player's
    # simultaneous effects, that player chooses which becomes the next entry
    own_order: bool = False
    # "effects on a player: beneficial first": of simultaneous effects, those
    # whose text names their controller's Rival (negative for that player)
    # come after the others (beneficial), each group in the order above
    beneficial_first: bool = False


@attrs.frozen(slots=True)
class DefenseDecl:
    """How a player defends against an attacking card (a ``defense`` block):
    cards of a kind from a zone of theirs go into a zone with a status; a
    defender matches the attacker when they share a value of a list stat."""

    kind: str                  # the defenders' card kind
    source: str                # the zone they come from ("hand")
    into: str                  # the zone they go to
    status: str | None         # the status they get there ("rested")
    matching: str              # the list stat compared ("colors")
    single_keyword: str | None # a lone defender with this keyword matches anything
    double: bool               # 2 defenders that both match or both do not match
    double_only: str | None    # an attacker with this keyword needs 2 defenders
    span: Span


@attrs.frozen(slots=True)
class PatternDecl:
    """A keyword or verb: its pattern and its definition (effect text or a
    quoted description)."""

    pattern: Pattern
    definition: str | None
    description: str | None
    span: Span
    definition_span: Span | None
    # a verb's "counts as: EVENT" line: the event of each card it acted on
    event: str | None = None


@attrs.frozen(slots=True)
class EventDecl:
    phrase: str                # "is Summoned" or "advances"
    description: str | None
    span: Span


@attrs.frozen(slots=True)
class DeckPartDecl:
    """One part of a deck (main deck, side deck, ...) and its construction rules."""

    name: str
    size_min: int | None
    size_max: int | None
    kinds: tuple[str, ...]
    copies: tuple["CopyLimit", ...]
    counts: tuple["CountRule", ...]
    totals: tuple["TotalRule", ...]
    banned: tuple[str, ...]
    limited: tuple[tuple[str, int], ...]
    optional: bool
    span: Span
    # Where the part's cards are when a game starts: (zone, face up?) or None
    # for a part that stays outside the game (a side deck). The first part
    # defaults to the draw pile, face down.
    starts_in: tuple[str, bool] | None = None
    starts_in_span: Span | None = None
    # Between the games of a match, this part's cards may be swapped with
    # cards of these parts (a side deck).
    swaps_with: tuple[str, ...] = ()
    # "matching: PART part, by name or STAT": its cards of that part's kinds
    # share a name or the STAT with a card of that part (PART, STAT)
    matching: tuple[str, str] | None = None
    # "counted with: PART": its cards count with that part's cards against
    # that part's copy limits, banned and limited cards (not its count rules)
    counted_with: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class CopyLimit:
    """At most ``limit`` cards sharing the same values of ``keys``
    (name, title or stats), among cards of ``kind`` (or all)."""

    limit: int
    keys: tuple[str, ...]
    kind: str | None
    span: Span


@attrs.frozen(slots=True)
class CountRule:
    """exactly / at least / at most N cards of a kind or with a keyword."""

    relation: str              # "exactly" | "at least" | "at most"
    number: int
    kind: str | None
    keyword: str | None
    span: Span


@attrs.frozen(slots=True)
class TotalRule:
    stat: str
    relation: str
    number: int
    span: Span


@attrs.frozen(slots=True)
class Sentence:
    """One line of a procedure: card-language text and where it was written."""

    text: str
    span: Span


@attrs.frozen(slots=True)
class StepDecl:
    """A step of a phase: a period of its own, with its own sentences."""

    name: str
    sentences: tuple[Sentence, ...]
    span: Span
    # "triggered abilities: wait until the end of the step": abilities that
    # trigger during the step resolve once its sentences are done
    hold_triggers: bool = False
    # "taken by: each player in turn, starting with PLAYER": the step is
    # taken by each player in turn (see PhaseDecl.taken_by)
    taken_by: Sentence | None = None


@attrs.frozen(slots=True)
class PhaseDecl:
    name: str
    sentences: tuple[Sentence, ...]   # what happens at the phase's start, before its steps
    skip_first_turn: bool
    span: Span
    steps: tuple[StepDecl, ...] = ()
    # "for each KIND in ZONE:": the steps run once for each card of that
    # ordered zone, bottom card first, with "this KIND" meaning that card
    for_each: tuple[str, str] | None = None
    # "taken by: each player in turn, starting with PLAYER": the phase is
    # taken by each player still in the game in turn, from that player (the
    # turn player when it names nobody): each has a phase of their own,
    # meanwhile "you" and the turn player ("At the end of your Prologue")
    taken_by: Sentence | None = None
    # "triggered abilities: wait until the end of the phase": abilities that
    # trigger from its start (the turn's start too, for the first phase)
    # resolve once its sentences are done
    hold_triggers: bool = False


@attrs.frozen(slots=True)
class RaceDecl:
    """ "race: COUNTER past the end of ZONE, at the end of PERIOD": when that
    period ends, the player whose position counter is farthest past the end of
    the zone wins; a tie runs ``tie`` (at most ``ties`` times, then a draw)."""

    counter: str
    zone: str
    period: str
    tie: tuple[Sentence, ...]
    ties: int
    span: Span


@attrs.frozen(slots=True)
class ActionDecl:
    """Something a player may do in an action window (``takes actions``)."""

    name: str
    during: tuple[str, ...]     # phase names; empty: any window
    choose: Sentence | None     # which card the action is about ("a card in your hand")
    cost: Sentence | None
    effect: Sentence | None
    event: str | None           # the event it counts as ("played")
    span: Span
    limit: tuple | None = None  # ("turn", per card?): "once per turn for each card"
    # ", plus its STAT, at most N, shared as NAME": more uses from a stat, a
    # cap, and a name several actions count their uses under
    # (stat or None, cap or None, shared name or None[, times per period])
    limit_extra: tuple = ()
    requires: Sentence | None = None   # a condition for the action to be offered
    role: str | None = None            # a status the chosen card has while it runs
    target: Sentence | None = None     # a second card, chosen after the first
    target_role: str | None = None     # a status the target has while it runs
    exchange: str | None = None        # "exchange: STAT of this KIND": pay its cost, get its reward
    announces: str | None = None       # an event of the chosen card, once chosen
    target_announces: str | None = None   # an event of the target, once chosen
    # "sacrifices: the cards its STAT names": a cost of the cards the chosen
    # card's card-names stat lists, taken from the player's cards in play
    # (each "sacrificed"); the action is offered only while they are there
    sacrifices: str | None = None
    # "uses an action: no": in an alternating window it is not one of the
    # player's actions (they go on; it does not count toward "each has taken N")
    free: bool = False
    # "at any time: yes": usable at any time a player could respond (the
    # response windows after each action, and "Players may respond"), as
    # well as in the action windows of its phases; it never uses an action
    any_time: bool = False


@attrs.define
class GameRules:
    """Everything a rules file declares (the part the language needs)."""

    game_id: str
    title: str = ""
    players_min: int = 2
    players_max: int = 2
    rulebook: str | None = None
    match_games: int | None = None   # "match: best of 3": a match is up to 3 games
    counters: dict[str, CounterDecl] = attrs.Factory(dict)
    zones: dict[str, ZoneDecl] = attrs.Factory(dict)
    value_sets: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    stats: dict[str, StatDecl] = attrs.Factory(dict)
    kinds: dict[str, KindDecl] = attrs.Factory(dict)
    timings: dict[str, TimingDecl] = attrs.Factory(dict)
    keywords: list[PatternDecl] = attrs.Factory(list)
    verbs: list[PatternDecl] = attrs.Factory(list)
    events: list[EventDecl] = attrs.Factory(list)
    statuses: list[str] = attrs.Factory(list)
    # "status exhausted: again destroys": a card given the status while it
    # already has it is destroyed
    again_destroys: list[str] = attrs.Factory(list)
    periods: list[str] = attrs.Factory(list)
    unique_mark: str | None = None
    title_separator: str | None = None
    deck_parts: dict[str, DeckPartDecl] = attrs.Factory(dict)
    setup: tuple[Sentence, ...] = ()
    phases: tuple[PhaseDecl, ...] = ()
    actions: tuple[ActionDecl, ...] = ()
    resolution: ResolutionDecl | None = None
    # "wildcard Any: A, B": a cost item any one of these counters pays
    wildcards: dict = attrs.Factory(dict)
    # "simulation prefers: "label", ...[, if CONDITION]": choices random
    # players take first when offered (not a rule: it keeps simulated games
    # sensible). One tier per line, tried in order: (label prefixes, the
    # condition as an "If ..." Sentence or None)
    prefer: tuple = ()
    # "identical cards: one choice": a decision never offers two cards that
    # nothing tells apart (the first stands for both)
    identical_one_choice: bool = False
    # "card effects: as much as you can": in card text, a step after "then"
    # happens even when the step before could not ("If you do" still asks)
    as_much_as_you_can: bool = False
    race: RaceDecl | None = None
    defense: DefenseDecl | None = None
    # "player damage: SENTENCES": what 1 damage dealt to a player does (run
    # with "you" the damaged player), instead of a counter that takes damage
    player_damage: Sentence | None = None
    # turn block "called: NAME": the turn is also that period ("once per
    # Round"); "turn player: the same every turn": the first player begins
    # every turn
    turn_name: str | None = None
    same_turn_player: bool = False
    # turn block "simultaneous triggers: in turn order from the first player"
    # (or "from the turn player"): without a resolution block, abilities that
    # trigger together resolve one at a time in seat order from that player
    trigger_order: str | None = None
    path: str = ""
    _parser: EffectParser | None = None
    _words: dict | None = None

    # ---- lookups (case-insensitive, as the card language is)

    def kind(self, name: str) -> KindDecl | None:
        return _lookup(self.kinds, name)

    def stat(self, name: str) -> StatDecl | None:
        return _lookup(self.stats, name)

    def timing(self, label: str) -> TimingDecl | None:
        return self.timings.get(label)

    def deck_part(self, name: str) -> DeckPartDecl | None:
        return _lookup(self.deck_parts, name)

    def zone_with_role(self, role: str) -> ZoneDecl | None:
        for zone in self.zones.values():
            if role in zone.roles:
                return zone
        return None

    def title_of(self, name: str) -> str:
        """A card's title: its name without unique mark and subtitle."""
        title = name
        if self.unique_mark and title.startswith(self.unique_mark):
            title = title[len(self.unique_mark):].strip()
        if self.title_separator and self.title_separator in title:
            title = title.split(self.title_separator, 1)[0].strip()
        return title

    def is_unique(self, name: str) -> bool:
        return bool(self.unique_mark) and name.startswith(self.unique_mark)

    # ---- the language

    def vocabulary(self) -> Vocabulary:
        # Stat values double as adjectives ("a FIRE Being"), unless the word
        # already names a counter, zone, kind or status: one word, one role.
        taken = {w.lower() for w in (*self.counters, *self.zones, *self.statuses,
                                     *(k.name for k in self.kinds.values()),
                                     *(k.plural for k in self.kinds.values()))}
        adjectives: list[str] = []
        for stat in self.stats.values():
            if stat.type in ("one", "list"):
                adjectives.extend(v for v in stat.values if v.lower() not in taken)
        return Vocabulary(
            timing_labels=tuple(self.timings),
            keywords=tuple(k.pattern for k in self.keywords),
            zones=tuple(self.zones),
            counters=tuple(self.counters),
            kinds=tuple(k.name for k in self.kinds.values()),
            kind_plurals=tuple(k.plural for k in self.kinds.values()),
            stats=tuple(s.name for s in self.stats.values() if s.type == "number"),
            list_stats=tuple(s.name for s in self.stats.values() if s.type == "list"),
            stat_values=tuple(dict.fromkeys(adjectives)),
            statuses=tuple(self.statuses),
            participles=tuple(e.phrase[3:] for e in self.events
                              if e.phrase.lower().startswith("is ")),
            event_verbs=tuple(e.phrase for e in self.events
                              if not e.phrase.lower().startswith("is ")),
            periods=tuple(self.periods),
            verbs=tuple(v.pattern for v in self.verbs),
        )

    def parser(self, strict: bool = False) -> EffectParser:
        if self._parser is None or strict:
            from interpreter.transformer import make_transformer

            vocab = self.vocabulary()
            grammar = effect_grammar(vocab)
            parser = EffectParser(grammar, vocab.category_of(),
                                  strict=strict, spelling=vocab.spelling(),
                                  patterns=(*vocab.verbs, *vocab.keywords),
                                  transformer=make_transformer(grammar, self))
            if strict:
                return parser
            self._parser = parser
        return self._parser


def parse_ability(rules: GameRules, text: str, path: str = "<text>"):
    """One effect text in this game's language, as an AST Ability.

    Raises CardrulesError (never a lark error) with a positioned problem.
    """
    from lark.exceptions import UnexpectedInput

    from interpreter.errors import CardrulesError

    source = SourceText(path, text)
    if "\n" in text or "\r" in text:
        line = text.replace("\r", "\n").split("\n")
        raise CardrulesError(Problem(
            "E202", "an effect text is one line", Span(path, 1, len(line[0]) + 1, 1,
                                                       len(line[0]) + 2),
            line[0], ("one line of text",)))
    parser = rules.parser()
    try:
        return parser.parse(text, path)
    except UnexpectedInput as err:
        raise CardrulesError(parser.problem(err, source, text, 1, 1)) from None


def _lookup(table: dict, name: str):
    if name in table:
        return table[name]
    lowered = name.lower()
    for key, value in table.items():
        if key.lower() == lowered:
            return value
    return None


# ---------------------------------------------------------------- reading

_DECLARATIONS = (
    "game", "counter", "zone", "values", "stat", "kind", "timing", "keyword",
    "verb", "event", "statuses", "status", "periods", "unique mark", "title separator",
    "deck part", "setup", "turn", "action", "resolution", "wildcard", "race", "simulation prefers",
    "defense", "player damage", "identical cards", "card effects",
)


def load_rules(source: SourceText, game_id: str) -> tuple[GameRules, list[Problem]]:
    """Read a rules file; returns the rules and every problem found."""
    lines, problems = parse_outline(source)
    rules = GameRules(game_id=game_id, path=source.path)
    reader = _RulesReader(source, rules, problems)
    for line in lines:
        reader.declaration(line)
    reader.finish()
    return rules, problems


_INT = re.compile(r"^[+-]?\d+$")


class _RulesReader:
    def __init__(self, source: SourceText, rules: GameRules, problems: list[Problem]):
        self.source = source
        self.rules = rules
        self.problems = problems
        self.saw_game = False

    # ---- helpers

    def problem(self, span: Span, code: str, message: str,
                expected: Iterable[str] = (), suggestion: str | None = None) -> None:
        self.problems.append(problem_at(self.source, span, code, message,
                                        expected, suggestion))

    def name_after(self, line: OutlineLine, words: int) -> str | None:
        """The declared name: what follows the first ``words`` head words."""
        rest = line.head[words:]
        if not rest:
            self.problem(line.span, "E501", f'"{line.key}" needs a name',
                         (f'{line.key} NAME',))
            return None
        return " ".join(item.text for item in rest)

    def properties(self, line: OutlineLine, sentence: bool = True) -> list[tuple[str, Span]]:
        """The comma-separated properties of a one-line declaration."""
        if not line.value:
            return []
        out = []
        column = line.value_span.column
        for piece in line.value.split(","):
            stripped = piece.strip()
            offset = len(piece) - len(piece.lstrip())
            if stripped:
                span = Span(self.source.path, line.span.line, column + offset,
                            line.span.line, column + offset + len(stripped))
                # A one-line declaration may end like a sentence; a list of
                # names keeps its dots ("ADV." is a rank).
                out.append((stripped.rstrip(".") if sentence else stripped, span))
            column += len(piece) + 1
        return out

    def span_of_text(self, line: OutlineLine, text: str) -> Span:
        """Where ``text`` is written on ``line`` (the whole line if not found)."""
        source_line = self.source.line(line.span.line)
        index = source_line.find(text, line.span.column - 1)
        if index < 0:
            return line.span
        return Span(self.source.path, line.span.line, index + 1, line.span.line,
                    index + 1 + len(text))

    def names_list(self, line: OutlineLine) -> list[tuple[str, Span]]:
        return [(_unquote(text), span) for text, span in self.properties(line, False)]

    # ---- declarations

    def declaration(self, line: OutlineLine) -> None:
        words = [w.lower() for w in line.words]
        for decl in sorted(_DECLARATIONS, key=lambda d: -len(d.split())):
            n = len(decl.split())
            if [w for w in words[:n]] == decl.split() and not any(
                    h.quoted for h in line.head[:n]):
                getattr(self, "decl_" + decl.replace(" ", "_"))(line, n)
                return
        first = line.head[0]
        self.problem(first.span, "E502", f'unknown declaration "{first.text}"',
                     ("a declaration: " + listing(_DECLARATIONS, 20),),
                     did_you_mean(first.text, _DECLARATIONS))

    def decl_game(self, line: OutlineLine, n: int) -> None:
        self.saw_game = True
        self.rules.title = self.name_after(line, n) or ""
        for child in line.children:
            key = child.key.lower()
            if key == "players":
                m = re.fullmatch(r"(\d+)(?:\s*to\s*(\d+))?", child.value or "")
                if not m:
                    self.problem(child.value_span or child.span, "E503",
                                 "players must be a number or a range",
                                 ('"2"', '"2 to 4"'))
                    continue
                self.rules.players_min = int(m.group(1))
                self.rules.players_max = int(m.group(2) or m.group(1))
            elif key == "rulebook":
                self.rules.rulebook = child.value
            elif key == "match":
                m = re.fullmatch(r"best of (\d+)", (child.value or "").strip().rstrip("."), re.I)
                if not m or int(m.group(1)) % 2 == 0:
                    self.problem(child.value_span or child.span, "E503",
                                 "a match must be the best of an odd number of games",
                                 ('"best of 3"',))
                    continue
                self.rules.match_games = int(m.group(1))
            else:
                self.unknown_field(child, ("players", "rulebook", "match"))

    def unknown_field(self, line: OutlineLine, fields: Iterable[str]) -> None:
        fields = list(fields)
        self.problem(line.head[0].span, "E504", f'unknown field "{line.key}"',
                     (listing(fields, 12),), did_you_mean(line.key, fields))

    def decl_counter(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, start, minimum, maximum, loses_at = "player", None, None, None, None
        takes_damage = False
        overspend_to = track = per_place = per_place_span = None
        on_cards = per_player = False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p == "per player":
                per_player = True
                scope = "card" if on_cards else "player"
            elif p in ("on cards", "per card"):
                on_cards = True
                scope = "card"
            elif p in ("shared", "per game"):
                scope = "game"
            elif m := re.fullmatch(r"starts at ([+-]?\d+)", p):
                start = int(m.group(1))
            elif m := re.fullmatch(r"(?:at least|minimum) ([+-]?\d+)", p):
                minimum = int(m.group(1))
            elif m := re.fullmatch(r"(?:at most|maximum) ([+-]?\d+)", p):
                maximum = int(m.group(1))
            elif m := re.fullmatch(r"a player at ([+-]?\d+) or less loses", p):
                loses_at = int(m.group(1))
            elif p == "takes damage":
                takes_damage = True
            elif m := re.fullmatch(r"overspending gives the excess to the rival's (.+) "
                                   r"and locks it for the turn", prop, re.I):
                overspend_to = _unquote(m.group(1))
            elif m := re.fullmatch(r"position in (?:the )?(.+)", prop, re.I):
                track = _unquote(m.group(1))
            elif m := re.fullmatch(r"per place in (?:the )?(.+)", prop, re.I):
                per_place, per_place_span = _unquote(m.group(1)), span
            else:
                self.bad_property(span, prop, ("per player", "on cards", "shared",
                                               "starts at N", "at least N", "at most N",
                                               "a player at N or less loses",
                                               "takes damage",
                                               "position in ZONE",
                                               "per place in ZONE"))
        self.add(self.rules.counters, name,
                 CounterDecl(name, scope, start, minimum, maximum, line.span, loses_at,
                             takes_damage, overspend_to, track,
                             per_player=on_cards and per_player, per_place=per_place,
                             per_place_span=per_place_span), line)

    def bad_property(self, span: Span, prop: str, allowed: tuple[str, ...]) -> None:
        self.problem(span, "E505", f'unknown property "{prop}"', allowed,
                     did_you_mean(prop, allowed))

    def add(self, table: dict, name: str, decl, line: OutlineLine) -> None:
        if _lookup(table, name) is not None:
            self.problem(line.span, "E506", f'"{name}" is declared twice')
            return
        table[name] = decl

    def decl_zone(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, visibility, ordered, slots = "player", "public", False, None
        roles: list[str] = []
        paired_with = paired_status = None
        entry_event, empty_loses, none_loses, wins_at = None, False, False, None
        slot_chosen = keeps_cards = shuffled_after = False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p == "a card entering it takes the slot its player chooses":
                slot_chosen = span
            elif p == "cards never leave it":
                keeps_cards = True
            elif p == "shuffled after an effect takes cards from it":
                shuffled_after = True
            elif m := re.fullmatch(r"a card entering it (?:is |are )?(.+)", prop, re.I):
                entry_event = _unquote(m.group(1).strip()).lower()
            elif p == "a player who needs a card from it when it is empty loses":
                empty_loses = True
            elif p == "a player with no cards in it loses":
                none_loses = True
            elif m := re.fullmatch(r"a player with (\d+) cards? in it wins", p):
                wins_at = int(m.group(1))
            elif p == "per player":
                scope = "player"
            elif p == "shared":
                scope = "shared"
            elif p in ("hidden", "private", "public"):
                visibility = p
            elif p == "ordered":
                ordered = True
            elif p == "unordered":
                ordered = False
            elif m := re.fullmatch(r"(\d+) slots?", p):
                slots = int(m.group(1))
            elif p in ("face down", "face up"):
                pass  # how cards enter the zone; recorded by the engine issue
            elif p in ZONE_ROLES:
                roles.append(p)
            elif m := re.fullmatch(r"paired with (.+)", prop, re.I):
                paired_with = _unquote(m.group(1))
            elif m := re.fullmatch(r"paired cards are (.+)", prop, re.I):
                paired_status = _unquote(m.group(1))
            else:
                self.bad_property(span, prop, ("per player", "shared", "hidden",
                                               "private", "public", "ordered",
                                               "N slots", "face down", *ZONE_ROLES,
                                               "a card entering it is EVENT",
                                               "a card entering it takes the slot its "
                                               "player chooses", "cards never leave it",
                                               "shuffled after an effect takes cards from it",
                                               "a player who needs a card from it when "
                                               "it is empty loses",
                                               "a player with no cards in it loses",
                                               "a player with N cards in it wins"))
        if slot_chosen and slots is None:
            self.problem(slot_chosen, "E541", f'zone "{name}" has no slots to choose from',
                         ("N slots, a card entering it takes the slot its player chooses",))
        self.add(self.rules.zones, name,
                 ZoneDecl(name, scope, visibility, ordered, slots, line.span,
                          tuple(roles), paired_with, paired_status, entry_event,
                          empty_loses, none_loses, wins_at, bool(slot_chosen),
                          keeps_cards, shuffled_after), line)

    def decl_values(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        values = tuple(v for v, _ in self.names_list(line))
        if not values:
            self.problem(line.span, "E507", f'value set "{name}" lists no values',
                         ("values NAME: A, B, C",))
            return
        self.add(self.rules.value_sets, name, values, line)

    def decl_stat(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        text = (line.value or "").strip().rstrip(".")
        span = line.value_span or line.span
        lethal = False
        adjective = True
        if m := re.fullmatch(r"(.+?),\s*never an adjective", text, re.I):
            text, adjective = m.group(1), False
        adds_to_host = None
        if m := re.fullmatch(r"(.+?),\s*a card with damage at least its (.+) is destroyed",
                             text, re.I):
            text, lethal = m.group(1), True
        elif m := re.fullmatch(r"(.+?),\s*added to the (.+) of the card it is attached to",
                               text, re.I):
            text, adds_to_host = m.group(1), _unquote(m.group(2))
        low = text.lower()
        values: tuple[str, ...] = ()
        if low in ("number", "text", "effect", "card names"):
            kind = {"card names": "names"}.get(low, low)
        elif m := re.fullmatch(r"(one of|list of|exchange of)\s+(.+)", text, re.I):
            kind = m.group(1).lower().split()[0]
            values = self.values_of(m.group(2), span)
        else:
            self.problem(span, "E508", f'unknown type of stat "{text}"',
                         ("number", "one of VALUES", "list of VALUES",
                          "exchange of VALUES", "card names", "text", "effect"),
                         did_you_mean(text, ("number", "text", "effect", "card names")))
            return
        if adds_to_host is not None and kind != "number":
            self.problem(span, "E508", "only a number is added to the stat of another card",
                         ("number, added to the STAT of the card it is attached to",))
            adds_to_host = None
        self.add(self.rules.stats, name, StatDecl(name, kind, values, line.span, lethal,
                                                  adds_to_host, adjective), line)

    def values_of(self, text: str, span: Span) -> tuple[str, ...]:
        if "," not in text and _lookup(self.rules.value_sets, _unquote(text)) is not None:
            return _lookup(self.rules.value_sets, _unquote(text))
        values = tuple(_unquote(v.strip()) for v in text.split(",") if v.strip())
        if len(values) == 1 and values[0] not in ("",):
            self.problem(span, "E509", f'unknown value set "{values[0]}"',
                         ("a value set declared with values, or A, B, C",),
                         did_you_mean(values[0], self.rules.value_sets))
        return values

    def decl_kind(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        fields = {"stats": [], "optional": [], "timings": [], "boxes": [],
                  "faces": [], "plural": []}
        text_event = after_use = waits_while = when_used = None
        works_face_down = False
        used_from: tuple[str, ...] = ()
        used_from_unless: tuple[str, ...] = ()
        never_leaves_play = False
        once_used: tuple[str, ...] = ()
        once_used_after: tuple[str, ...] = ()
        once_used_from: list = []
        for child in line.children:
            key = child.key.lower()
            if key == "used from":
                places = [_unquote(v) for v, _ in self.names_list(child)]
                # "used from: hand, ZONE, unless VALUE": the last names after
                # "unless" are stat values whose cards are not used from there
                for index, place in enumerate(places):
                    m = re.fullmatch(r"unless (.+)", place, re.I)
                    if m:
                        used_from_unless = (_unquote(m.group(1)),) + tuple(places[index + 1:])
                        places = places[:index]
                        break
                used_from = tuple(places)
                continue
            if key == "once used":
                once_used, once_used_after = self.once_used_steps(child)
                continue
            if m := re.fullmatch(r"once used from (.+)", child.key, re.I):
                zone = _unquote(m.group(1).strip())
                self._kind_zones = getattr(self, "_kind_zones", [])
                self._kind_zones.append((zone, child.head[-1].span, name))
                once_used_from.append((zone,) + self.once_used_steps(child))
                continue
            if key == "when used" and child.value:
                when_used = Sentence(child.value, child.value_span)
                continue
            if key == "leaves play":
                value = (child.value or "").strip().rstrip(".").lower()
                if value != "never":
                    self.problem(child.value_span or child.span, "E521",
                                 f'unknown setting "{value}" for leaves play', ("never",))
                never_leaves_play = value == "never"
                continue
            if key == "text happens":
                m = re.fullmatch(r"when this is (.+?)\.?", (child.value or "").strip(), re.I)
                if not m:
                    self.problem(child.value_span or child.span, "E524",
                                 "unreadable text happens", ("when this is EVENT",))
                else:
                    text_event = m.group(1).lower()
                continue
            if key == "after use":
                after_use = _unquote((child.value or "").strip().rstrip("."))
                continue
            if key == "waits while":
                waits_while = _unquote((child.value or "").strip().rstrip("."))
                continue
            if key == "face down":
                works_face_down = (child.value or "").strip().rstrip(".").lower() == "works"
                continue
            if key not in fields:
                self.unknown_field(child, (*fields, "text happens", "after use",
                                           "waits while", "face down", "when used",
                                           "used from", "once used", "once used from ZONE",
                                           "leaves play"))
                continue
            fields[key] = self.names_list(child)
        box_status = []
        for index, (box, span) in enumerate(fields["boxes"]):
            if m := re.fullmatch(r"(.+?) while (.+)", box, re.I):
                box_status.append((_unquote(m.group(1)), _unquote(m.group(2))))
                fields["boxes"][index] = (_unquote(m.group(1)), span)
        for stat, span in fields["stats"] + fields["optional"]:
            if self.rules.stat(stat) is None:
                self.problem(span, "E510", f'unknown stat "{stat}"',
                             ("a stat declared with stat NAME: TYPE",),
                             did_you_mean(stat, self.rules.stats))
        plural_name = fields["plural"][0][0] if fields["plural"] else plural(name)
        kind = KindDecl(
            name, plural_name,
            tuple(s for s, _ in fields["stats"]),
            tuple(s for s, _ in fields["optional"]),
            tuple(t for t, _ in fields["timings"]),
            ("text",) + tuple(b for b, _ in fields["boxes"]),
            tuple(f for f, _ in fields["faces"]),
            line.span,
            box_status=tuple(box_status), text_event=text_event, after_use=after_use,
            works_face_down=works_face_down, waits_while=waits_while,
        )
        if when_used is not None:
            kind = attrs.evolve(kind, when_used=when_used)
        if never_leaves_play:
            kind = attrs.evolve(kind, never_leaves_play=True)
        if used_from or once_used or once_used_after or once_used_from:
            kind = attrs.evolve(kind, used_from=used_from, used_from_unless=used_from_unless,
                                once_used=once_used, once_used_after=once_used_after,
                                once_used_from=tuple(once_used_from))
        self.add(self.rules.kinds, name, kind, line)
        self._kind_timing_spans = getattr(self, "_kind_timing_spans", [])
        self._kind_timing_spans.extend(fields["timings"])

    ONCE_USED_STEPS = ("revealed", "turned face up", "discarded", "face down")

    def once_used_steps(self, child: OutlineLine) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """ "revealed, then discarded" / "turned face up, then discarded after
        it resolves": (steps at once, steps after the effect has resolved)."""
        value = (child.value or "").strip().rstrip(".")
        now: list[str] = []
        after: list[str] = []
        for item in re.split(r",\s*then\s+|\s+then\s+|,\s*", value):
            step = item.strip().lower()
            later = step.endswith(" after it resolves")
            if later:
                step = step[:-len(" after it resolves")].strip()
            if step == "turned face down":
                step = "face down"
            if step not in self.ONCE_USED_STEPS:
                self.problem(self.span_of_text(child, item.strip()), "E521",
                             f'unknown setting "{item.strip()}" for once used',
                             self.ONCE_USED_STEPS + ("STEP after it resolves",),
                             did_you_mean(step, self.ONCE_USED_STEPS))
                continue
            (after if later or after else now).append(step)
        return tuple(now), tuple(after)

    def decl_timing(self, line: OutlineLine, n: int) -> None:
        label = self.name_after(line, n)
        if not label:
            return
        use, optional, response, immediate, answered = None, True, False, False, False
        once_per = from_zone = during = None
        any_time = False
        asks = False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p in ("activated", "triggered", "continuous", "requirement"):
                use = p
            elif p == "at any time":
                any_time = True
            elif p == "response":
                response = True
            elif p == "immediate":
                immediate = True
            elif p == "answered in kind":
                answered = True
            elif p == "optional":
                optional = asks = True
            elif p == "mandatory":
                optional = False
            elif m := re.fullmatch(r"once per (.+)", prop, re.I):
                once_per = _unquote(m.group(1))
            elif m := re.fullmatch(r"from (.+)", prop, re.I):
                from_zone = _unquote(m.group(1))
            elif m := re.fullmatch(r"during (.+)", prop, re.I):
                during = _unquote(m.group(1))
            else:
                self.bad_property(span, prop, ("activated", "triggered",
                                               "continuous", "optional", "mandatory",
                                               "response", "immediate",
                                               "during PERIOD", "requirement",
                                               "at any time", "answered in kind"))
        if use is None:
            self.problem(line.span, "E511", f'timing {label} needs a use',
                         ("activated", "triggered", "continuous"))
            use = "activated"
        meaning = None
        when = unless = used_as = None
        for child in line.children:
            if child.key.lower() == "meaning":
                meaning = child.value
            elif child.key.lower() == "when" and child.value:
                when = Sentence(child.value, child.value_span)
            elif child.key.lower() == "unless" and child.value:
                unless = Sentence(child.value, child.value_span)
            elif child.key.lower() == "used as":
                m = re.fullmatch(r"(.+?),?\s+if\s+(.+?)\.?", (child.value or "").strip(), re.I)
                if not m:
                    self.problem(child.value_span or child.span, "E514",
                                 f'unreadable used as "{(child.value or "").strip()}"',
                                 ('"LABEL" if CONDITION',))
                    continue
                as_label = _unquote(m.group(1).strip())
                self._used_as = getattr(self, "_used_as", [])
                self._used_as.append((as_label, self.span_of_text(child, m.group(1).strip())))
                used_as = (as_label, Sentence("If " + m.group(2) + ".",
                                              self.span_of_text(child, m.group(2))))
            else:
                self.unknown_field(child, ("meaning", "when", "unless", "used as"))
        self.add(self.rules.timings, label,
                 TimingDecl(label, use, optional, meaning, line.span, response, immediate,
                            once_per, from_zone, when, unless, during, any_time, asks,
                            answered=answered, used_as=used_as),
                 line)

    def pattern_decl(self, line: OutlineLine, n: int) -> PatternDecl | None:
        text = self.name_after(line, n)
        if not text:
            return None
        pattern = Pattern(text)
        for slot in pattern.bad_slots():
            self.problem(line.span, "E512", f'unknown slot "{{{slot}}}" in "{text}"',
                         ("{n}", "{card}", "{cards}", "{player}", "{zone}"))
        definition = description = None
        value = (line.value or "").strip()
        if value.startswith(('"', "\u201c")):
            description = _unquote(value)
        elif value:
            definition = value
        return PatternDecl(pattern, definition, description, line.span,
                           line.value_span if definition else None)

    def decl_keyword(self, line: OutlineLine, n: int) -> None:
        decl = self.pattern_decl(line, n)
        if decl:
            self.rules.keywords.append(decl)

    def decl_verb(self, line: OutlineLine, n: int) -> None:
        decl = self.pattern_decl(line, n)
        if decl is None:
            return
        if decl.definition is None:
            self.problem(line.span, "E513", f'verb "{decl.pattern.text}" needs a '
                         "definition in the card language",
                         ("verb \"Mill {n}\": Move the top {n} cards of your deck "
                          "to your graveyard.",))
        for child in line.children:
            if child.key.lower() == "counts as" and child.value:
                decl = attrs.evolve(decl, event=child.value.strip().rstrip(".").lower())
            else:
                self.unknown_field(child, ("counts as",))
        self.rules.verbs.append(decl)

    def decl_event(self, line: OutlineLine, n: int) -> None:
        phrase = self.name_after(line, n)
        if phrase:
            value = (line.value or "").strip()
            self.rules.events.append(EventDecl(phrase, _unquote(value) or None,
                                               line.span))

    def decl_statuses(self, line: OutlineLine, n: int) -> None:
        self.rules.statuses.extend(v for v, _ in self.names_list(line))

    def decl_status(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        value = (line.value or "").strip().lower().rstrip(".")
        if name and value == "again destroys":
            self.rules.again_destroys.append(name)
        elif name:
            self.problem(line.span, "E502", f'unknown rule "{value}" for status {name}',
                         ("status NAME: again destroys",))

    def decl_periods(self, line: OutlineLine, n: int) -> None:
        self.rules.periods.extend(v for v, _ in self.names_list(line))

    def decl_unique_mark(self, line: OutlineLine, n: int) -> None:
        self.rules.unique_mark = _unquote((line.value or "").strip()) or None

    def decl_title_separator(self, line: OutlineLine, n: int) -> None:
        self.rules.title_separator = _unquote((line.value or "").strip()) or None

    def decl_deck_part(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        size_min = size_max = None
        kinds: list[str] = []
        copies: list[CopyLimit] = []
        counts: list[CountRule] = []
        totals: list[TotalRule] = []
        banned: list[str] = []
        limited: list[tuple[str, int]] = []
        optional = False
        starts_in: tuple[str, bool] | None = None
        starts_span: Span | None = None
        swaps_with: list[str] = []
        fields = ("size", "kinds", "copies", "count", "total STAT", "banned",
                  "limited", "optional", "starts in", "swaps with", "matching",
                  "counted with")
        matching = None
        counted_with: list[str] = []
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".")
            span = child.value_span or child.span
            if key == "size":
                rng = _parse_range(value)
                if rng is None:
                    self.problem(span, "E514", f'unreadable size "{value}"',
                                 ("N", "N to M", "at most N", "at least N"))
                else:
                    size_min, size_max = rng
            elif key == "kinds":
                for kind, kspan in self.names_list(child):
                    if self.rules.kind(kind) is None:
                        self.unknown_kind(kind, kspan)
                    kinds.append(kind)
            elif key == "copies":
                m = re.fullmatch(r"at most (\d+) per (.+?)(?: of (.+))?", value, re.I)
                if not m:
                    self.problem(span, "E514", f'unreadable copy limit "{value}"',
                                 ("at most N per name", "at most N per title",
                                  "at most N per name, colors and tag of KIND"))
                    continue
                keys = tuple(k.strip() for k in re.split(r",|\band\b", m.group(2))
                             if k.strip())
                for k in keys:
                    if k.lower() not in ("name", "title") and self.rules.stat(k) is None:
                        self.problem(span, "E510", f'unknown stat "{k}" in copy limit',
                                     ("name", "title", "a stat"),
                                     did_you_mean(k, list(self.rules.stats) + ["name", "title"]))
                kind = _unquote(m.group(3)) if m.group(3) else None
                if kind and self.rules.kind(kind) is None:
                    self.unknown_kind(kind, span)
                copies.append(CopyLimit(int(m.group(1)), keys, kind, child.span))
            elif key == "count":
                m = re.fullmatch(r"(exactly|at least|at most) (\d+) (?:with (.+)|(.+))",
                                 value, re.I)
                if not m:
                    self.problem(span, "E514", f'unreadable count rule "{value}"',
                                 ("exactly N KIND", "at most N with KEYWORD"))
                    continue
                kind = _unquote(m.group(4)) if m.group(4) else None
                if kind and self.rules.kind(kind) is None:
                    self.unknown_kind(kind, self.span_of_text(child, m.group(4).strip()))
                counts.append(CountRule(m.group(1).lower(), int(m.group(2)), kind,
                                        _unquote(m.group(3)) if m.group(3) else None,
                                        child.span))
            elif key.startswith("total "):
                stat = _unquote(child.key[6:].strip())
                m = re.fullmatch(r"(exactly|at least|at most) (\d+)", value, re.I)
                if self.rules.stat(stat) is None:
                    self.problem(self.span_of_text(child, child.key[6:].strip()), "E510",
                                 f'unknown stat "{stat}"',
                                 ("a number stat",), did_you_mean(stat, self.rules.stats))
                if not m:
                    self.problem(span, "E514", f'unreadable total "{value}"',
                                 ("at most N",))
                    continue
                totals.append(TotalRule(stat, m.group(1).lower(), int(m.group(2)),
                                        child.span))
            elif key == "banned":
                banned.extend(v for v, _ in self.names_list(child))
            elif key == "limited":
                m = re.fullmatch(r"(.+?)\s+(\d+)", value)
                if not m:
                    self.problem(span, "E514", f'unreadable limit "{value}"',
                                 ('"Card Name" N',))
                    continue
                limited.append((_unquote(m.group(1)), int(m.group(2))))
            elif key == "optional":
                optional = value.lower() in ("yes", "true")
            elif key == "starts in":
                m = re.fullmatch(r"(?:the |their |your )?(.+?)(?:,? (face up|face down))?", value,
                                 re.I)
                starts_in = (m.group(1).strip(), (m.group(2) or "").lower() == "face up")
                starts_span = span
            elif key == "swaps with":
                swaps_with.extend(v for v, _ in self.names_list(child))
            elif key == "counted with":
                for other, ospan in self.names_list(child):
                    counted_with.append(other)
                    self._counted_with = getattr(self, "_counted_with", [])
                    self._counted_with.append((name, other, ospan))
            elif key == "matching":
                m = re.fullmatch(r"(.+?) part, by name or (.+)", value, re.I)
                if not m:
                    self.problem(span, "E514", f'unreadable matching "{value}"',
                                 ("PART part, by name or STAT",))
                else:
                    matching = (_unquote(m.group(1)), _unquote(m.group(2)))
            else:
                self.unknown_field(child, fields)
        self.add(self.rules.deck_parts, name, DeckPartDecl(
            name, size_min, size_max, tuple(kinds), tuple(copies), tuple(counts),
            tuple(totals), tuple(banned), tuple(limited), optional, line.span,
            starts_in, starts_span, tuple(swaps_with), matching, tuple(counted_with)), line)

    # ---- procedures: setup, the turn, actions

    def sentences(self, lines) -> tuple[Sentence, ...]:
        out = []
        for line in lines:
            text = self.source.line(line.span.line)[line.span.column - 1:].rstrip()
            span = Span(self.source.path, line.span.line, line.span.column,
                        line.span.line, line.span.column + len(text))
            out.append(Sentence(text, span))
        return tuple(out)

    def decl_setup(self, line: OutlineLine, n: int) -> None:
        self.rules.setup = self.rules.setup + self.sentences(line.children)

    def decl_turn(self, line: OutlineLine, n: int) -> None:
        phases = list(self.rules.phases)
        for child in line.children:
            if child.key.lower() == "called" and child.value:
                self.rules.turn_name = _unquote(child.value.strip().rstrip("."))
                continue
            if child.key.lower() == "turn player":
                value = (child.value or "").strip().rstrip(".").lower()
                if value not in ("the same every turn", "the next player"):
                    self.problem(child.value_span or child.span, "E521",
                                 f'unknown setting "{value}" for turn player',
                                 ("the same every turn", "the next player"))
                self.rules.same_turn_player = value == "the same every turn"
                continue
            if child.key.lower() == "simultaneous triggers":
                value = (child.value or "").strip().rstrip(".").lower()
                settings = ("in turn order from the first player",
                            "in turn order from the turn player")
                if value not in settings:
                    self.problem(child.value_span or child.span, "E521",
                                 f'unknown setting "{value}" for simultaneous triggers',
                                 settings, did_you_mean(value, settings))
                    continue
                self.rules.trigger_order = value.rsplit(" ", 2)[-2]
                continue
            if child.words[0].lower() != "phase" or len(child.head) != 2:
                self.problem(child.span, "E518", "a turn is made of phases",
                             ('phase "Name"',), did_you_mean(child.words[0], ["phase"]))
                continue
            skip = hold_phase = False
            body = []
            steps = []
            for_each = None
            grandchildren = list(child.children)
            loop = next((g for g in grandchildren if g.has_colon and not g.value and re.fullmatch(
                r"for each .+ in .+", g.key, re.I)), None)
            if loop is not None:
                m = re.fullmatch(r"for each (.+?) in (?:the )?(.+)", loop.key, re.I)
                for_each = (_unquote(m.group(1)), _unquote(m.group(2)))
                index = grandchildren.index(loop)
                grandchildren[index:index + 1] = loop.children
            taken_by = None
            for grandchild in grandchildren:
                if grandchild.words[0].lower() == "step" and len(grandchild.head) == 2 \
                        and not grandchild.has_colon:
                    lines = [g for g in grandchild.children
                             if g.key.lower() not in ("triggered abilities", "taken by")]
                    hold = any(g.key.lower() == "triggered abilities"
                               for g in grandchild.children)
                    step_taker = next((self.taken_by(g) for g in grandchild.children
                                       if g.key.lower() == "taken by"), None)
                    steps.append(StepDecl(grandchild.head[1].text,
                                          self.sentences(lines), grandchild.span, hold,
                                          step_taker))
                elif grandchild.key.lower() == "taken by" and grandchild.has_colon:
                    taken_by = self.taken_by(grandchild)
                elif grandchild.key.lower() == "skip":
                    value = (grandchild.value or "").strip().rstrip(".").lower()
                    if value != "on the first turn of the game":
                        self.problem(grandchild.value_span or grandchild.span, "E519",
                                     f'unknown skip condition "{value}"',
                                     ("on the first turn of the game",))
                    skip = True
                elif grandchild.key.lower() == "triggered abilities":
                    value = (grandchild.value or "").strip().rstrip(".").lower()
                    if value != "wait until the end of the phase":
                        self.problem(grandchild.value_span or grandchild.span, "E521",
                                     f'unknown setting "{value}" for triggered abilities',
                                     ("wait until the end of the phase",))
                    hold_phase = True
                else:
                    body.append(grandchild)
            phases.append(PhaseDecl(child.head[1].text, self.sentences(body), skip,
                                    child.span, tuple(steps), for_each, taken_by,
                                    hold_phase))
        self.rules.phases = tuple(phases)

    def taken_by(self, line: OutlineLine) -> Sentence | None:
        """ "taken by: each player in turn, starting with PLAYER": the player
        (card-language words, checked with the procedures)."""
        value = (line.value or "").strip().rstrip(".")
        m = re.fullmatch(r"each player in turn, starting with (.+)", value, re.I)
        if not m:
            self.problem(line.value_span or line.span, "E519",
                         f'unreadable taken by "{value}"',
                         ("each player in turn, starting with PLAYER",))
            return None
        span = self.span_of_text(line, m.group(1))
        return Sentence(m.group(1), span)

    def decl_resolution(self, line: OutlineLine, n: int) -> None:
        settings = {
            "responses": ("the other player", "none"),
            "simultaneous": ("rival first", "turn player first"),
            "an entry whose source left its zone": ("is removed", "still resolves"),
            "triggered effects": ("all together", "one at a time"),
            "each player's effects": ("in the order they happened",
                                      "ordered by their controller"),
            "effects on a player": ("in the order above", "beneficial first"),
        }
        chosen = {"responses": "none", "simultaneous": "turn player first",
                  "an entry whose source left its zone": "still resolves",
                  "triggered effects": "all together",
                  "each player's effects": "in the order they happened",
                  "effects on a player": "in the order above"}
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".").lower()
            if key not in settings:
                self.unknown_field(child, settings)
                continue
            if value not in settings[key]:
                self.problem(child.value_span or child.span, "E521",
                             f'unknown setting "{value}" for {key}', settings[key],
                             did_you_mean(value, settings[key]))
                continue
            chosen[key] = value
        self.rules.resolution = ResolutionDecl(
            chosen["responses"] == "the other player",
            chosen["simultaneous"] == "rival first",
            chosen["an entry whose source left its zone"] == "is removed",
            line.span, chosen["triggered effects"] == "one at a time",
            chosen["each player's effects"] == "ordered by their controller",
            chosen["effects on a player"] == "beneficial first")

    def decl_player_damage(self, line: OutlineLine, n: int) -> None:
        if not line.value:
            self.problem(line.span, "E501", '"player damage" needs sentences',
                         ("player damage: SENTENCES",))
            return
        self.rules.player_damage = Sentence(line.value, line.value_span)

    def decl_defense(self, line: OutlineLine, n: int) -> None:
        forms = {
            "defenders": r"(.+?) in the defending player's (.+)",
            "into": r"(.+?)(?:, (.+))?",
            "matching": r"(.+)",
            "single": r"1 matching card(?:, or 1 card with (.+))?",
            "double": r"2 cards that both match or both do not match",
            "double only": r"against a card with (.+)",
        }
        found: dict[str, tuple] = {}
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".")
            if key not in forms:
                self.unknown_field(child, forms)
                continue
            m = re.fullmatch(forms[key], value, re.I)
            if not m:
                self.problem(child.value_span or child.span, "E536",
                             f'unreadable defense {key} "{value}"', (forms[key],))
                continue
            found[key] = tuple(_unquote(g) if g else g for g in m.groups())
        missing = [k for k in ("defenders", "into", "matching", "single") if k not in found]
        if missing:
            self.problem(line.span, "E537", "a defense block needs " + ", ".join(missing),
                         tuple(f"{k}: ..." for k in missing))
            return
        kind = self.rules.kind(found["defenders"][0]) or next(
            (k for k in self.rules.kinds.values()
             if k.plural.lower() == found["defenders"][0].lower()), None)
        if kind is None:
            self.unknown_kind(found["defenders"][0], line.span)
            return
        self.rules.defense = DefenseDecl(
            kind.name, found["defenders"][1], found["into"][0], found["into"][1],
            found["matching"][0], found["single"][0], "double" in found,
            found.get("double only", (None,))[0], line.span)

    def decl_action(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        fields = {"during": None, "choose": None, "cost": None, "effect": None,
                  "counts as": None, "limit": None, "requires": None, "as": None,
                  "target": None, "target as": None, "exchange": None,
                  "announces": None, "target announces": None, "sacrifices": None,
                  "uses an action": None, "at any time": None}
        for child in line.children:
            key = child.key.lower()
            if key not in fields:
                self.unknown_field(child, fields)
                continue
            fields[key] = child
        during = tuple(v for v, _ in self.names_list(fields["during"])) if fields[
            "during"] else ()

        def sentence(field):
            line_ = fields[field]
            if line_ is None or not line_.value:
                return None
            return Sentence(line_.value, line_.value_span)

        event = fields["counts as"].value.strip() if fields["counts as"] else None
        limit = None
        limit_extra = ()
        if fields["limit"] is not None:
            value = (fields["limit"].value or "").strip().rstrip(".")
            extra = re.fullmatch(r"(.+?)(?:, plus its (.+?))?(?:, at most (\d+))?"
                                 r"(?:, shared as (.+))?", value, re.I)
            if extra and any(extra.groups()[1:]):
                value = extra.group(1)
                limit_extra = (extra.group(2) and _unquote(extra.group(2)),
                               extra.group(3) and int(extra.group(3)),
                               extra.group(4) and _unquote(extra.group(4)))
            # "once per PERIOD", "twice per PERIOD", "3 times per PERIOD"
            m = re.fullmatch(r"(once|twice|(\d+) times) per (.+?)( for each card)?", value, re.I)
            periods = [p.lower() for p in self.rules.periods]
            if not m or _unquote(m.group(3)).lower() not in periods:
                self.problem(fields["limit"].value_span or fields["limit"].span, "E522",
                             f'unreadable limit "{value}"',
                             ("once per PERIOD", "once per PERIOD for each card",
                              "N times per PERIOD"),
                             did_you_mean(_unquote(m.group(3)), self.rules.periods)
                             if m else None)
            else:
                period = next(p for p in self.rules.periods
                              if p.lower() == _unquote(m.group(3)).lower())
                limit = (period, bool(m.group(4)))
                times = {"once": 1, "twice": 2}.get(m.group(1).lower()) or int(m.group(2))
                if times != 1:
                    limit_extra = (tuple(limit_extra) or (None, None, None)) + (times,)
        def word(field):
            return _unquote(fields[field].value.strip()) if fields[field] and \
                fields[field].value else None
        exchange = None
        if fields["exchange"] is not None:
            m = re.fullmatch(r"(.+?) of this .+", (fields["exchange"].value or "").strip().rstrip("."),
                             re.I)
            stat = self.rules.stat(_unquote(m.group(1))) if m else None
            if stat is None or stat.type != "exchange":
                self.problem(fields["exchange"].value_span or fields["exchange"].span, "E525",
                             "unreadable exchange", ("STAT of this KIND, STAT an exchange stat",))
            else:
                exchange = stat.name
        self.rules.actions = self.rules.actions + (ActionDecl(
            name, during, sentence("choose"), sentence("cost"), sentence("effect"),
            event, line.span, limit, limit_extra, sentence("requires"), word("as"),
            sentence("target"), word("target as"),
            announces=word("announces"), target_announces=word("target announces"),
            sacrifices=_sacrificed_stat(word("sacrifices")),
            exchange=exchange,
            free=(word("uses an action") or "yes").lower() == "no",
            any_time=self.yes_or_no(fields["at any time"])),)

    def yes_or_no(self, line: OutlineLine | None) -> bool:
        """A yes/no field: absent is no; anything but yes or no is an error."""
        if line is None:
            return False
        value = (line.value or "").strip().rstrip(".").lower()
        if value not in ("yes", "no"):
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for {line.key}', ("yes", "no"),
                         did_you_mean(value, ("yes", "no")))
        return value == "yes"

    def procedure_sentences(self):
        return _procedure_sentences(self.rules)

    def decl_card_effects(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".").lower()
        if value != "as much as you can":
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for card effects', ("as much as you can",))
            return
        self.rules.as_much_as_you_can = True

    def decl_identical_cards(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".").lower()
        if value != "one choice":
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for identical cards', ("one choice",))
            return
        self.rules.identical_one_choice = True

    def decl_simulation_prefers(self, line: OutlineLine, n: int) -> None:
        labels, condition = [], None
        for text, span in self.names_list(line):
            if condition is not None:
                continue
            if text.lower().startswith("if "):
                # the condition is the rest of the line, commas included
                rest = line.value[span.column - line.value_span.column:].strip().rstrip(".")
                condition = Sentence(rest[0].upper() + rest[1:] + ".", span)
            else:
                labels.append(text)
        self.rules.prefer = self.rules.prefer + ((tuple(labels), condition),)

    def decl_wildcard(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if name:
            self.rules.wildcards[name] = tuple(v for v, _ in self.names_list(line))

    def decl_race(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".")
        m = re.fullmatch(r"(.+?) past the end of (?:the )?(.+?), at the end of (?:the )?(.+)",
                         value, re.I)
        if not m:
            self.problem(line.value_span or line.span, "E527", f'unreadable race "{value}"',
                         ("COUNTER past the end of ZONE, at the end of PERIOD",))
            return
        tie, ties = (), 0
        for child in line.children:
            t = re.fullmatch(r"on a tie, at most (\d+) times?", child.key, re.I)
            if not t:
                self.unknown_field(child, ("on a tie, at most N times",))
                continue
            tie, ties = self.sentences(child.children), int(t.group(1))
        self.rules.race = RaceDecl(_unquote(m.group(1)), _unquote(m.group(2)),
                                   _unquote(m.group(3)), tie, ties, line.span)

    def unknown_kind(self, kind: str, span: Span) -> None:
        self.problem(span, "E515", f'unknown card kind "{kind}"',
                     (listing(self.rules.kinds),), did_you_mean(kind, self.rules.kinds))

    # ---- after every declaration

    def finish(self) -> None:
        rules = self.rules
        if not self.saw_game:
            self.problems.insert(0, Problem(
                "E516", 'a rules file must start with game "Title"',
                Span(self.source.path, 1, 1, 1, 2), self.source.line(1),
                ('game "Title"',)))
        for label, span in getattr(self, "_kind_timing_spans", []):
            if label not in rules.timings:
                self.problem(span, "E301", f'unknown timing label "{label}"',
                             (listing(rules.timings),), did_you_mean(label, rules.timings))
        for label, span in getattr(self, "_used_as", ()):
            if label not in rules.timings:
                self.problem(span, "E301", f'unknown timing label "{label}"',
                             (listing(rules.timings),), did_you_mean(label, rules.timings))
        for zone, span, kind in getattr(self, "_kind_zones", ()):
            # "once used from ZONE" (zones may be declared after the kind)
            if zone.lower() != "hand" and _lookup(rules.zones, zone) is None:
                self.problem(span, "E523", f'unknown zone "{zone}" for kind "{kind}"',
                             (listing(rules.zones),), did_you_mean(zone, rules.zones))
        if self.problems:
            return
        # Keyword and verb definitions are card text in the game's language.
        try:
            parser = rules.parser()
        except Exception as err:  # the vocabulary makes the grammar ambiguous
            self.problem(Span(self.source.path, 1, 1, 1, 2), "E517",
                         f"the declared words clash in the card grammar: {err}".split("\n")[0])
            return
        from lark.exceptions import UnexpectedInput
        for sentence in self.procedure_sentences():
            try:
                parser.parse(sentence.text)
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, sentence.text, sentence.span.line,
                    sentence.span.column))
        for part in rules.deck_parts.values():
            for other in part.swaps_with:
                if rules.deck_part(other) is None:
                    self.problem(part.span, "E540",
                                 f'deck part "{part.name}" swaps with an unknown part "{other}"',
                                 (listing(rules.deck_parts),),
                                 did_you_mean(other, rules.deck_parts))
            for part_name, other, span in getattr(self, "_counted_with", ()):
                if part_name == part.name and rules.deck_part(other) is None:
                    self.problem(span, "E540",
                                 f'deck part "{part.name}" is counted with an unknown part '
                                 f'"{other}"', (listing(rules.deck_parts),),
                                 did_you_mean(other, rules.deck_parts))
            if part.starts_in and _lookup(rules.zones, part.starts_in[0]) is None:
                self.problem(part.starts_in_span, "E523",
                             f'unknown zone "{part.starts_in[0]}" for deck part "{part.name}"',
                             (listing(rules.zones),), did_you_mean(part.starts_in[0], rules.zones))
        for stat in rules.stats.values():
            if stat.adds_to_host and rules.stat(stat.adds_to_host) is None:
                self.problem(stat.span, "E510", f'unknown stat "{stat.adds_to_host}"',
                             ("a number stat",), did_you_mean(stat.adds_to_host, rules.stats))
        for counter in rules.counters.values():
            # "per place in ZONE": an ordered zone of places, where a
            # position counter says which place a player's own effects are at
            if counter.per_place is None:
                continue
            zone = _lookup(rules.zones, counter.per_place)
            if zone is None or not zone.ordered:
                self.problem(counter.per_place_span or counter.span, "E545",
                             f'counter "{counter.name}" is kept per place in '
                             + (f'an unknown zone "{counter.per_place}"' if zone is None
                                else f'"{zone.name}", which is not ordered'),
                             ("an ordered zone of places",),
                             did_you_mean(counter.per_place, rules.zones) if zone is None
                             else None)
            elif not any(c.track and c.track.lower() == zone.name.lower()
                         for c in rules.counters.values()):
                self.problem(counter.per_place_span or counter.span, "E545",
                             f'counter "{counter.name}" is kept per place in "{zone.name}", '
                             "but no counter is a position in it",
                             (f'a counter NAME: per player, position in "{zone.name}"',))
        periods = [p.name for p in rules.phases] + [s.name for p in rules.phases
                                                     for s in p.steps]
        for action in rules.actions:
            for phase in action.during:
                if phase.lower() not in {p.lower() for p in periods}:
                    self.problem(action.span, "E520", f'unknown phase or step "{phase}"',
                                 (listing(periods),), did_you_mean(phase, periods))
        for decl in (*rules.keywords, *rules.verbs):
            if decl.definition is None or decl.definition_span is None:
                continue
            try:
                parser.parse(decl.definition)
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, decl.definition, decl.definition_span.line,
                    decl.definition_span.column))


def taker_sentence(taken_by: Sentence) -> Sentence:
    """The player of a "taken by" line as a sentence the card grammar reads."""
    return Sentence(f"{taken_by.text} takes the next turn.", taken_by.span)


def _procedure_sentences(rules: GameRules):
    yield from rules.setup
    for phase in rules.phases:
        yield from phase.sentences
        if phase.taken_by is not None:
            yield taker_sentence(phase.taken_by)
        for step in phase.steps:
            yield from step.sentences
            if step.taken_by is not None:
                yield taker_sentence(step.taken_by)
    for action in rules.actions:
        for sentence in (action.choose, action.cost, action.effect):
            if sentence is not None and action.choose is not sentence:
                yield sentence
    if rules.race is not None:
        yield from rules.race.tie
    for _labels, condition in rules.prefer:
        if condition is not None:
            yield condition
    for kind in rules.kinds.values():
        if kind.when_used is not None:
            yield kind.when_used


def _sacrificed_stat(text: str | None) -> str | None:
    """ "the cards its "alt. summon" names" -> "alt. summon"."""
    if text is None:
        return None
    m = re.fullmatch(r"the cards its (.+) names\.?", text.strip(), re.I)
    return _unquote(m.group(1)) if m else _unquote(text)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in '"\u201c' and text[-1] in '"\u201d':
        return text[1:-1]
    return text


def _parse_range(text: str) -> tuple[int | None, int | None] | None:
    text = text.lower().strip()
    if m := re.fullmatch(r"(?:exactly )?(\d+)", text):
        return int(m.group(1)), int(m.group(1))
    if m := re.fullmatch(r"(\d+) to (\d+)", text):
        return int(m.group(1)), int(m.group(2))
    if m := re.fullmatch(r"at most (\d+)", text):
        return None, int(m.group(1))
    if m := re.fullmatch(r"at least (\d+)", text):
        return int(m.group(1)), None
    return None
