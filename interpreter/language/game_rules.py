"""What a game declares: the declaration classes and :class:`GameRules`.

A rules file (``rules/<game-id>.rules``) declares the game itself, counters,
zones, value sets, stats, card kinds, timing labels, keywords, verbs, events,
statuses, periods, naming conventions, deck parts and the procedures of
play. Each declaration is read (``interpreter.language.rules_file``) into
one of the plain records here; :class:`GameRules` holds them all, builds the
game's :class:`~interpreter.language.vocabulary.Vocabulary` and effect
parser, and :func:`parse_ability` reads one effect text with it.
"""

from __future__ import annotations

import re

import attrs
from lark.exceptions import UnexpectedInput

from interpreter.errors import CardrulesError, Problem
from interpreter.language.syntax import EffectParser
from interpreter.language.transformer import make_transformer
from interpreter.language.vocabulary import (
    Pattern, Vocabulary, base_of, effect_grammar, grammar_literals, own_action_names, plural,
    role_zone_words, status_verb_words)
from interpreter.source import SourceText, Span


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
    # "held in the Cache": card text names where the player keeps it ("Remove
    # 2 Jump from your Rival's Cache": the Rival loses 2 Jump)
    held_in: str | None = None
    # "value NAME": a number kept for the game's own reckoning, never narrated
    # when set; "secret": the other players do not see it until it is revealed
    value: bool = False
    secret: bool = False
    wins_at: int | None = None    # a player whose counter is this or more wins


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
    # "a card entering it takes the slot its player chooses": with more than
    # one free slot, the player whose zone it is picks one (a decision)
    slot_chosen: bool = False
    # "cards never leave it": a card put there stays for the rest of the
    # game (removed from the game: nothing can take it out)
    keeps_cards: bool = False
    # "shuffled after an effect takes cards from it": once a step of an
    # effect has moved cards out of it (not a draw), it is shuffled
    shuffled_after: bool = False
    # "a token entering it ceases to exist" / "a token leaving it ceases to
    # exist": a token put there (or taken from there) is gone from the game
    tokens_cease: tuple[str, ...] = ()     # "entering", "leaving"
    # "at most 7 cards": a card that would enter it while it holds that many
    # stays where it was
    capacity: int | None = None
    # "a card put into it when it is full goes to its owner's graveyard":
    # where a card goes instead of a full zone (else it stays where it was)
    overflow: str | None = None
    # "holds the cards at places": where a card put at a place with no zone
    # named goes ('Create a "Clone" token face up at this Room')
    holds_placed: bool = False


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
class NounDecl:
    """ "noun character: a Minion or a Hero": a word for the cards of any of
    these kinds (singular and plural), usable wherever a kind is; with
    qualifiers after the last kind, only the cards they describe."""
    name: str
    plural: str
    kinds: tuple[str, ...]
    span: Span
    # "noun Champion: a Character in Champion Row": what follows the
    # last kind, read as qualifiers with the card grammar (their AST once read)
    text: str = ""
    qualifiers: tuple = ()
    span_offset: int = 0       # where ``text`` starts in the declaration's value


@attrs.frozen(slots=True)
class AdjectiveDecl:
    """ "adjective enemy: that your opponent controls": a word that means
    its qualifiers ("an enemy Minion" = "a Minion that your opponent
    controls"). ``qualifiers`` is their AST, read with the game's grammar
    once the vocabulary is known (None until then, or if unreadable)."""
    name: str
    text: str
    span: Span
    qualifiers: tuple | None = None


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
    # the card goes to that zone of its owner; ", without triggering
    # abilities": the zone's entry event does not happen.
    after_use: str | None = None
    after_use_quietly: bool = False
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
    # "use counts as: cast": using one of its abilities where the kind is
    # used from (an Instant from the hand) is that event of the card, done
    # by its player ("Whenever you cast an Instant")
    use_event: str | None = None
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
    # "when you have priority": its abilities may also be used by a player
    # who has priority in a priority window, in either player's turn (a
    # response ability: when nothing waits to be answered, unless its
    # effect answers one -- "that effect")
    with_priority: bool = False


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
    # "after an entry resolves: the turn player first": priority as in the
    # classic stack games -- once an entry resolves, or triggered effects
    # become entries, the turn player may respond first, then the other
    # player; the top resolves once both pass in a row (without it, the
    # rest of the stack resolves once a player passes)
    turn_player_first: bool = False
    # "triggered effects join the stack: before a player receives priority":
    # effects that triggered while entries wait (a cost paid, a response
    # resolved) become entries above them at once, and resolve first;
    # without it they wait until the stack is empty
    join_at_priority: bool = False


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
    # a keyword's "also: ABILITY" lines: more abilities of the keyword, each
    # (text, span) ("Bodyguard": it may enter play exerted; and challengers
    # must choose it)
    more: tuple = ()

    def definitions(self) -> tuple:
        """Every ability of the definition, as (text, span): the one after
        the colon, then each "also:" line."""
        first = ((self.definition, self.definition_span),) if self.definition else ()
        return first + self.more


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
class RuleDecl:
    """``rule "NAME": ABILITY``: an ability of the game itself, always in
    force (a state rule, a replacement, a trigger, a continuous change)."""

    name: str
    text: Sentence
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
    # "skip: on the first turn of the game" (the first player's first draw)
    skip_first_turn: bool = False


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
    # lines written after the phase's steps (after its "for each" block):
    # what happens once its steps are done, before the phase ends
    closing: tuple[Sentence, ...] = ()


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
    exchange_card: str = "this"        # whose stat: "this" (the place), "it" (the chosen card)
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
    # "counts as: played, before its effect": the event is logged once the
    # cost is paid and what it triggers resolves, then the effect happens
    event_first: bool = False


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
    nouns: dict[str, NounDecl] = attrs.Factory(dict)
    adjectives: dict[str, AdjectiveDecl] = attrs.Factory(dict)
    timings: dict[str, TimingDecl] = attrs.Factory(dict)
    keywords: list[PatternDecl] = attrs.Factory(list)
    verbs: list[PatternDecl] = attrs.Factory(list)
    events: list[EventDecl] = attrs.Factory(list)
    statuses: list[str] = attrs.Factory(list)
    # "relations: blocking": a status a card holds toward another card
    # ("X is blocking Y"), ended when either leaves play (docs/core.md)
    relations: list[str] = attrs.Factory(list)
    # "status ready: the opposite of exhausted": ready -> ("exhausted",)
    opposites: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    # "stat toughness: number, written after power": ("power", "toughness"),
    # the stats "+1/+1" changes in card text
    stat_pair: tuple[str, str] | None = None
    # "event "is knocked out": another name for "is destroyed"": the game's
    # word for the event (lower case: "knocked out", "dies") -> the
    # language's participle ("destroyed")
    event_names: dict[str, str] = attrs.Factory(dict)
    # "event "dies": another name for "is put into a graveyard from the
    # battlefield"": the game's word -> (the phrase, where it is written);
    # the compiler reads the phrase as card text (CompiledGame.event_aliases)
    event_phrases: dict[str, tuple] = attrs.Factory(dict)
    # "status paralysed: given by "Paralyse {card}"": the status (lower
    # case) -> the verb's pattern; card text giving the status does the verb
    status_givers: dict[str, str] = attrs.Factory(dict)
    # statuses declared as nouns ("statuses: a guardian"): their article,
    # so that the log reads "X is a guardian." (not "X is guardian."); the
    # core's two roles are nouns in every game
    status_articles: dict[str, str] = attrs.Factory(
        lambda: {"attacker": "an", "defender": "a"})
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
    # "identical cards: one choice": a decision never offers two cards that
    # nothing tells apart (the first stands for both)
    identical_one_choice: bool = False
    # "card effects: as much as you can": in card text, a step after "then"
    # happens even when the step before could not ("If you do" still asks)
    as_much_as_you_can: bool = False
    # "once per: each card": an ability's "once per PERIOD" counts for each
    # card on its own; by default every card of a player's with its name
    # shares it ("all cards with the same name")
    once_per_each_card: bool = False
    # "rule" lines: the game's own abilities, in the order written
    game_rules: list[RuleDecl] = attrs.Factory(list)
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
    # the rules file's text: what decides how every text of the game is read
    # (parses kept between runs are keyed by it: language/parse_store.py)
    source_text: str = ""
    _parser: EffectParser | None = None
    _words: dict | None = None

    # ---- lookups (case-insensitive, as the card language is)

    def kind(self, name: str) -> KindDecl | None:
        return _lookup(self.kinds, name)

    def noun(self, name: str) -> NounDecl | None:
        """The noun declared with this name, singular or plural."""
        return _lookup(self.nouns, name) or next(
            (n for n in self.nouns.values() if n.plural.lower() == name.lower()), None)

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

    def _own_verbs(self) -> list[str]:
        """The words of the game's actions, verbs and events: where the verb of
        an event "is Summoned" is found ("Summon a Being")."""
        words: list[str] = []
        for text in (*(a.name for a in self.actions), *(v.pattern.text for v in self.verbs),
                     *(e.phrase for e in self.events)):
            words.extend(re.findall(r"[A-Za-z][A-Za-z'-]*", text))
        return words

    def vocabulary(self) -> Vocabulary:
        # Stat values double as adjectives ("a FIRE Being"), unless the word
        # already names a counter, zone, kind or status: one word, one role.
        taken = {w.lower() for w in (*self.counters, *self.zones, *self.statuses,
                                     *self.relations,
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
            counter_plurals=self.counter_plurals(),
            card_counters=tuple(c.name for c in self.counters.values()
                                if c.scope == "card" and not c.per_player
                                and c.name.lower() not in {n.lower() for n in self.stats}),
            zone_plurals=self.zone_plurals(),
            kinds=tuple(k.name for k in (*self.kinds.values(), *self.nouns.values())),
            kind_plurals=tuple(k.plural for k in (*self.kinds.values(), *self.nouns.values())),
            stats=tuple(s.name for s in self.stats.values() if s.type == "number"),
            list_stats=tuple(s.name for s in self.stats.values() if s.type == "list"),
            stat_values=tuple(dict.fromkeys(adjectives)),
            statuses=tuple(self.statuses),
            opposites=tuple(self.opposites),
            relations=tuple(self.relations),
            participles=tuple(e.phrase[3:] for e in self.events
                              if e.phrase.lower().startswith("is ")),
            presents=tuple((e.phrase[3:], base_of(e.phrase[3:], self._own_verbs()))
                           for e in self.events if e.phrase.lower().startswith("is ")),
            event_verbs=tuple(e.phrase for e in self.events
                              if not e.phrase.lower().startswith("is ")),
            periods=tuple(self.periods),
            verbs=tuple(v.pattern for v in self.verbs),
            actions=own_action_names(a.name for a in self.actions),
            adjectives=tuple(self.adjectives),
            value_kinds=tuple(self.value_sets),
            holders=tuple(dict.fromkeys(c.held_in for c in self.counters.values() if c.held_in)),
        )

    def _names_taken(self) -> set[str]:
        """The game's words a plural made from another must not be (lower
        case): its counters, zones, statuses, periods, stats and kinds."""
        return {w.lower() for w in (*self.counters, *self.zones, *self.statuses,
                                    *self.periods, *self.stats,
                                    *(k.name for k in self.kinds.values()),
                                    *(k.plural for k in self.kinds.values()))}

    def counter_plurals(self) -> tuple[str, ...]:
        """ "2 Charge Counters", "their Mana Gems": each counter's plural,
        where that word is not already another word of the game."""
        taken = self._names_taken()
        return tuple(plural(c) for c in self.counters if plural(c).lower() not in taken)

    def zone_plurals(self) -> tuple[str, ...]:
        """ "Return all Creatures to their owners' hands": each zone's plural,
        where that word is no other word of the game nor of the language
        (the plural of a zone "discard" is the verb "discards")."""
        taken = self._names_taken() | grammar_literals() | {w.lower() for w in (
            *self.counter_plurals(), *(v.pattern.leading_words for v in self.verbs),
            *(k.pattern.leading_words for k in self.keywords))}
        return tuple(plural(z) for z in self.zones if plural(z).lower() not in taken)

    def parser(self, strict: bool = False) -> EffectParser:
        if self._parser is None or strict:
            vocab = self.vocabulary()
            grammar = effect_grammar(vocab)
            parser = EffectParser(grammar, vocab.category_of(),
                                  strict=strict, spelling=vocab.spelling(),
                                  patterns=(*vocab.verbs, *vocab.keywords),
                                  transformer=make_transformer(grammar, self),
                                  zone_words=role_zone_words(self.zones.values()),
                                  game_words=status_verb_words(self.statuses),
                                  period_kinds=vocab.period_kinds())
            if strict:
                return parser
            self._parser = parser
            if self.source_text:
                parser.recall_file(self.path, self.source_text, self.source_text)
        return self._parser

    def recall_parses(self, path: str, text: str) -> None:
        """Before reading a card file: the parses of its texts an earlier run kept."""
        if self.source_text:
            try:
                parser = self.parser()
            except CardrulesError:
                return       # no card grammar: its problem is reported by the reader
            parser.recall_file(path, text, self.source_text)

    def keep_parses(self, path: str) -> None:
        """After reading a rules or card file: keep its parses for the next run."""
        if self._parser is not None and self.source_text:
            self._parser.keep_file(path, unplaced=path == self.path)


def parse_ability(rules: GameRules, text: str, path: str = "<text>",
                  at: Span | None = None, shift: int = 0, start: str = "start"):
    """One effect text in this game's language, as an AST Ability; ``at``
    is where the text is written (its nodes' spans point there), ``shift``
    the length of words put before it. ``start`` reads a part of a rules
    file instead: "selection" (an action's "choose:"), "condition_line" (a
    "requires:"), "when_line" (a timing's "when:").

    Raises CardrulesError (never a lark error) with a positioned problem.
    """
    # the text as it stands in its file (at its line and column), for the caret
    source = SourceText(path, text if at is None else
                        "\n" * (at.line - 1) + " " * max(0, at.column - shift - 1) + text)
    if "\n" in text or "\r" in text:
        line = text.replace("\r", "\n").split("\n")
        raise CardrulesError(Problem(
            "E202", "an effect text is one line", Span(path, 1, len(line[0]) + 1, 1,
                                                       len(line[0]) + 2),
            line[0], ("one line of text",)))
    parser = rules.parser()
    line, column = (at.line, max(1, at.column - shift)) if at is not None else (1, 1)
    try:
        return parser.parse(text, path, line, column, start=start)
    except UnexpectedInput as err:
        problem = parser.problem(err, source, text, line, column)
        if at is not None:
            problem = attrs.evolve(problem, source_line=None)   # the file's line, filled later
        raise CardrulesError(problem) from None


def _lookup(table: dict, name: str):
    if name in table:
        return table[name]
    lowered = name.lower()
    for key, value in table.items():
        if key.lower() == lowered:
            return value
    return None


def takers(rules: GameRules):
    """The "taken by" players of phases and steps (Sentences the card
    grammar reads with its "player_line" start)."""
    for phase in rules.phases:
        if phase.taken_by is not None:
            yield phase.taken_by
        for step in phase.steps:
            if step.taken_by is not None:
                yield step.taken_by


def _procedure_sentences(rules: GameRules):
    yield from rules.setup
    for phase in rules.phases:
        yield from phase.sentences
        for step in phase.steps:
            yield from step.sentences
        yield from phase.closing
    for action in rules.actions:
        for sentence in (action.choose, action.cost, action.effect):
            if sentence is not None and action.choose is not sentence:
                yield sentence
    for kind in rules.kinds.values():
        if kind.when_used is not None:
            yield kind.when_used
