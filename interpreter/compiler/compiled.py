"""What compiling a game produces: :class:`CompiledGame` and its records.

The game's programs by name, the actions players may take
(:class:`ActionPlan`), and the abilities of every card: triggered
(:class:`Trigger`, indexed by the events they watch in
:class:`TriggerIndex`), activated (:class:`Activated`), continuous
(:class:`Static`), replacements (:class:`Replacement`) and those used in
response windows (:class:`Cued`). Built by ``interpreter.compiler.game``;
read by the engine.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.program import Program, unsupported
from interpreter.compiler.selection import Selection
from interpreter.language.game_rules import GameRules


AFTER_USE = "#after use"      # the program that finishes using a card up
# Where the game's own abilities (its "rule" lines) are held: one card per
# rule, outside play, whose abilities work like those of a card in play, but
# which no selector, count or view ever finds.
RULES_ZONE = "#rules"
# Where a token is before it is created and after it ceases to exist: outside
# the game, found by no selector, count or view.
OUTSIDE_ZONE = "#outside the game"
# The player event of damage dealt to a player ("Whenever you are dealt
# damage"); a card's is "dealt damage"
PLAYER_DEALT_DAMAGE = "player dealt damage"
# A card's event of battle damage it deals, the damage a rules file's turn
# or action deals ("Whenever this deals combat damage to a player")
COMBAT_DAMAGE = "deals combat damage to"
# The modifier on a player "Prevent all combat damage that would be dealt
# this turn" leaves: the battle damage to them and to their cards is not dealt
COMBAT_DAMAGE_REDUCED = "combat damage"
RULE_KIND = "#rule"


_SEATS = 64      # more than any game seats: the player's part of an occurrence


def next_in_turn_of(player: int, after: int = 0) -> int:
    """The occurrence number of "the next Upkeep in a turn of this player"
    in a moment (period, occurrence, edge) an effect waits for: such a
    moment comes at the first edge of that period in one of their turns
    whose occurrence is past ``after`` (the one under way when the effect
    was made), however many come before it (``operations.expire_modifiers``,
    ``Triggers.delayed_steps``); counted occurrences are positive."""
    return -(after * _SEATS + player + 1)


def is_next_in_turn_of(occurrence: int, turn_player: int, number: int) -> bool:
    """Whether an edge of a period, its ``number``-th, in ``turn_player``'s
    turn is the moment ``next_in_turn_of`` wrote."""
    if occurrence >= 0:
        return False
    whose = -occurrence - 1
    return whose % _SEATS == turn_player and number > whose // _SEATS


KEYWORD_KIND = "#keyword"     # the holder of a keyword's abilities, given by an effect


# the name the triggers used once are listed under in CompiledGame.triggers
# (no card has it: only their events are watched through it)
ONCE_TRIGGERS = "#next time"

@attrs.define
class Cued:
    """An ability used in a response window: its label, the program that
    pays its costs and puts its effect on the chain, and a cost check."""

    label: str
    program: str
    can_pay: Callable
    response: bool              # its timing lets it answer any chain link
    # its timing says "when you have priority": also usable in a priority
    # window by the player who has priority (interpreter.engine.windows)
    with_priority: bool = False
    # its effect answers the entry it responds to ("that effect"): never
    # used when no entry waits
    answers_entry: bool = False


@attrs.define
class ActionPlan:
    """One declared action, compiled: which cards it can be about, whether
    its cost can be paid, and the program that carries it out."""

    name: str
    phases: tuple[str, ...]
    choose: Selection | None
    can_pay: Callable
    program: str
    limit: tuple | None = None     # (period, for each card)
    # (stat adding uses, cap, name the uses are shared as[, uses per period])
    extra: tuple = ()
    target: Selection | None = None   # a second card the action needs (and asks for)
    any_time: bool = False         # usable at any time a player could respond


@attrs.define
class Trigger:
    """A triggered ability. It watches events of one kind: ``card`` events
    ("When this is played", "When a Creature is destroyed"), ``player``
    events ("When you draw a card") or ``period`` edges ("At the start of
    your turn")."""

    event: str                 # "played", "destroyed", ... or a period's name
    program: str
    test: Callable             # card events: (machine, frame, event card) -> fires?
    self_only: bool            # "When this ...": fires for its own card, anywhere
    kind: str = "card"         # "card", "player" or "period"
    whose: str = "any"         # player and period triggers: "you", "rival", "any"
    edge: str = "start"        # period triggers: "start" or "end"
    immediate: bool = False    # resolves at once, not on the stack
    once_per: str | None = None   # its label's "once per turn": once per card and period
    # "Whenever this deals damage to a character": a test of the event's
    # object (a card, or -1 - player)
    object_test: Callable | None = None


@attrs.define
class Activated:
    """An ability a player uses in an action window: its costs are paid
    first, then its effect resolves (on the stack when the game has one)."""

    label: str
    program: str
    can_pay: Callable
    once_per: str | None        # "turn", "Round", ... or None
    key: str                    # what the once-per limit counts (the card's name)
    zone: str | None = None     # used from this zone of its controller, not from play
    off_turn: bool = False      # "During your Rival's turn": used while another has priority
    index: str = ""             # the ability's number on its card (its once-per key)


@attrs.define
class Replacement:
    """ "If this would be destroyed, return it to your hand instead.": when
    the event is about to happen to a card the test accepts, the program
    runs in its place."""

    event: str                  # "destroyed", "discarded"
    test: Callable              # (machine, frame, card) -> whether it applies
    program: str
    together: bool = False      # once for all the cards one step does it to


@attrs.frozen
class PlayerReplacement:
    """ "If a player would be dealt damage, ... instead.": when the event is
    about to happen to a player the test accepts, the program runs in its
    place, with "they" that player and "that much" the event's amount."""

    event: str                  # "dealt damage"
    test: Callable              # (machine, frame, player) -> whether it applies
    program: str
    once_per: str | None = None  # "Once per Round, if you would ...": the period


@attrs.frozen
class StateRule:
    """A rule "If CONDITION, STEPS.": checked with the state rules; when the
    condition holds, its program runs (once for each player it holds for, when
    it says "a player", that player being "they")."""

    card: str                  # the rule's card (its name)
    test: Callable
    program: str
    per_player: bool
    places_only: bool = False   # its condition reads only where cards are (reads_only_places)


@attrs.define
class Static:
    """A continuous ability: while its card is in play, the cards it names
    get its changes."""

    test: Callable              # (machine, frame, card) -> whether it applies
    changes: list               # (kind, name, amount)
    condition: Callable | None
    # "for each Spell you control": (machine, frame) -> how many times over
    per: Callable | None = None
    # "for each Growth on it": the counter the changed card must have for
    # the change to be anything (looked at before the rest: the usual +1/+1
    # counter rule applies to every creature, and most have none)
    on_counter: str | None = None


@attrs.define
class TriggerIndex:
    """Which events any triggered ability watches, worked out once the cards
    are compiled, so that the many events no ability watches cost nothing."""

    card_events: frozenset = frozenset()     # event names of card triggers
    player_events: frozenset = frozenset()   # event names of player triggers
    period_edges: frozenset = frozenset()    # (period name, "start"/"end")
    watching: dict = attrs.Factory(dict)     # trigger kind -> card names with one
    # card events "enters ZONE" / "leaves ZONE" watched: moves are matched
    zone_moves: bool = False
    # player events "gains COUNTER" / "loses COUNTER" watched: counter
    # changes are matched
    counter_changes: bool = False

    @classmethod
    def of(cls, triggers: dict) -> "TriggerIndex":
        every = [(name, t) for name, ts in triggers.items() for t in ts]
        watching: dict[str, set] = {}
        for name, trigger in every:
            watching.setdefault(trigger.kind, set()).add(name)
        return cls(frozenset(t.event for _, t in every if t.kind == "card"),
                   frozenset(t.event for _, t in every if t.kind == "player"),
                   frozenset((t.event, t.edge) for _, t in every if t.kind == "period"),
                   {kind: frozenset(names) for kind, names in watching.items()},
                   any(t.kind == "card" and t.event.startswith(("enters ", "leaves "))
                       for _, t in every),
                   any(t.kind == "player" and t.event.startswith(("gains ", "loses "))
                       for _, t in every))


@attrs.define
class CompiledGame:
    rules: GameRules
    cards: dict                # name -> CardDefinition
    programs: dict[str, Program] = attrs.Factory(dict)
    actions: list[ActionPlan] = attrs.Factory(list)
    triggers: dict[str, list[Trigger]] = attrs.Factory(dict)
    responses: dict[str, list[str]] = attrs.Factory(dict)   # card name -> programs
    phase_starts: dict[str, int] = attrs.Factory(dict)      # phase or step -> pc in "game"
    step_phase: dict[str, str] = attrs.Factory(dict)        # step -> its phase
    play_program: str | None = None   # what "Play it" runs: the action that counts as played
    # an action "counts as: EVENT, before its effect": the card it places is
    # the card its triggers acted on (see Changes.move)
    places_played: bool = False
    activated: dict[str, list[Activated]] = attrs.Factory(dict)   # card name -> abilities
    statics: dict[str, list[Static]] = attrs.Factory(dict)        # card name -> abilities
    replacements: dict[str, list[Replacement]] = attrs.Factory(dict)
    player_replacements: dict[str, list[PlayerReplacement]] = attrs.Factory(dict)
    player_damage_counter: str | None = None   # the counter that "takes damage"
    player_damage_replaced: bool = False       # a rule or a card replaces that damage
    rule_cards: tuple[str, ...] = ()      # the names of the rules' cards, in order
    # keyword -> the name its abilities are compiled under, for a card an
    # effect gives the keyword to ("This has Flying"); keyword -> why
    # it cannot be given (its definition has abilities a grant cannot carry)
    granted_keywords: dict[str, str] = attrs.Factory(dict)
    keyword_givers: frozenset = frozenset()   # cards whose continuous abilities give one
    together_steps: bool = False    # a step is done to several players at once
    forbids_paying: bool = False    # some text says "can't pay COUNTER"
    ungrantable_keywords: dict[str, str] = attrs.Factory(dict)
    state_rules: tuple[StateRule, ...] = ()
    # a state rule's condition may read more than where cards are: every
    # change of state is looked at, not only the places' events
    state_rules_read_all: bool = False
    immediate: set = attrs.Factory(set)   # programs of triggers that do not wait
    trigger_index: TriggerIndex = attrs.Factory(TriggerIndex)   # set by compile_game
    # (kind, name) of a change -> card name -> its continuous abilities that
    # make that change (set by compile_game; what Machine.continuous asks)
    statics_by_change: dict = attrs.Factory(dict)
    # response windows (interpreter.engine.combat): the timing labels rules
    # procedures name, the abilities used in them, the zones cards are used from
    cued_labels: set = attrs.Factory(set)
    cued: dict = attrs.Factory(dict)          # card name -> [Cued]
    # trigger program -> test of its conditions and costs when it triggers
    # ("If this is rested, pay 2 ...": nothing triggers while they fail)
    trigger_gates: dict = attrs.Factory(dict)
    used_from_zones: tuple = ()
    after_triggers: set = attrs.Factory(set)   # programs of "After ..." triggers
    trigger_programs: dict = attrs.Factory(dict)   # program -> its Trigger
    # triggered abilities of cards outside play, in a zone their kind is used
    # from (interpreter.compiler.triggered.compile_intent): trigger program -> the program
    # that asks, pays and uses the card up; card name -> those triggers
    intents: dict = attrs.Factory(dict)
    intent_programs: set = attrs.Factory(set)
    # "before respond" / "before defend": events cards trigger on
    # ("Before your Rival defends"), given by the windows that open next
    before_events: set = attrs.Factory(set)
    # declared events nothing logs: name -> phrase (language.declared_events.unlogged_events)
    unlogged_events: dict = attrs.Factory(dict)
    # the game's word for a move ("dies") -> the event it names, as card
    # text reads it ("is put into a graveyard from the battlefield")
    event_aliases: dict = attrs.Factory(dict)
    # a replacement of a move from one zone into another ("If a Creature
    # would die"): a move asks for "enters ZONE from ZONE" too
    origins_replaced: bool = False
    intent_triggers: dict = attrs.Factory(dict)
    intent_kinds: set = attrs.Factory(set)      # the kinds of those triggers
    requirements: dict = attrs.Factory(dict)   # card name -> conditions to use it
    capabilities: dict = attrs.Factory(dict)  # "can't" text -> (verb, object test)
    forbidden_verbs: frozenset | None = None  # their verbs (Views.may_forbid, once compiled)
    forbiddable: dict = attrs.Factory(dict)   # verb -> whether one of them starts it
    # "can't be challenged by characters without Evasive": "can't" text -> a
    # test of the card doing it (the prohibition holds only against those)
    capability_actors: dict = attrs.Factory(dict)
    reduces_damage: bool = False      # some text reduces the damage dealt to cards
    # "The next time X would EVENT ..., ... instead": its text -> Replacement
    # (waiting on a player as a modifier "next time" once an effect makes it)
    once_replacements: dict = attrs.Factory(dict)
    # "This turn, if your Rival would draw a card, ... instead": its text ->
    # PlayerReplacement (a modifier of kind "replacement" on a player)
    lasting_replacements: dict = attrs.Factory(dict)
    # "Prevent the effect of the next Disrupt your Rival controls": its text
    # -> the test of the cards it may be (a modifier "next effect" on a player)
    prevented_effects: dict = attrs.Factory(dict)
    # "The next time X EVENTs ..., ...": its text -> Trigger (kind "next
    # trigger" on a player); also in ``triggers`` under ONCE_TRIGGERS
    once_triggers: dict = attrs.Factory(dict)
    limits_choosing: bool = False     # some text says a card "can't be chosen"
    musts: set = attrs.Factory(set)           # "must" texts ("must attack")
    draws_replaced: bool = False              # some text replaces drawing a card
    # the events about a player some text replaces ("verb Advance {n}", "add
    # Progress Marker"): known before anything is compiled, so that a step
    # doing one asks for its replacement only in a game that has one
    player_events_replaced: frozenset = frozenset()
    winning_counters: tuple = ()              # counters "a player at N or more wins"
    hand_capacity: int | None = None          # the hand's "at most N cards"
    # keywords some text takes away ("This loses Divine Shield"): the
    # abilities they bring a card work only while it has them
    losable_keywords: frozenset = frozenset()
    # "can" text -> (verb, times, period): "can attack twice each turn"
    allowances: dict = attrs.Factory(dict)
    # card name -> continuous prohibitions on players ("Your opponent can't
    # attack"): (players test, "can't" text, condition)
    player_statics: dict = attrs.Factory(dict)
    # some text makes a card a copy of another ("This becomes a copy of ..."):
    # a card's printed values are read under the name it copies (Views.printed_name)
    copying: bool = False
    # card name -> the programs of its effect: its plain text, which happens
    # on an event of the card ("text happens: when this is activated"), for
    # "Copy the effect of ..."
    effects: dict = attrs.Factory(dict)
    kind_answers: dict = attrs.Factory(dict)  # (card name, kind word) -> is it of that kind
    # (card name, value) -> printed on it; (card name, set, "values") -> those printed
    value_answers: dict = attrs.Factory(dict)
    # (card name, stat) -> its printed value, None when it prints none
    printed_stats: dict = attrs.Factory(dict)
    lethal_stats: tuple[str, ...] = ()   # the stats damage destroys a card at
    prints_low_lethal: dict = attrs.Factory(dict)   # card name -> prints one at 0 or less
    prohibitions_found: tuple | None = None   # see static_prohibitions()
    in_play: tuple[str, ...] = ()
    pairs: tuple = ()          # (zone, paired zone, status): slots that make one place
    paired_statuses: frozenset = frozenset()   # the statuses pairs give
    activated_zones: tuple = ()   # zones (not in play) abilities are used from
    entry_events: dict = attrs.Factory(dict)   # zone -> the event of cards entering it
    # (zone, "entering" / "leaving"): where a token ceases to exist
    tokens_cease: frozenset = frozenset()
    none_loses: tuple[str, ...] = ()          # zones a player loses without cards in
    # counters kept per place ("per place in ZONE"): counter -> zone; and the
    # position counter of each such zone (where a player's own effects are)
    place_counters: dict = attrs.Factory(dict)
    place_positions: dict = attrs.Factory(dict)
    # exchange program -> what must hold for its reward to be possible
    # (a place to put its card at: moving_steps.placement_checks)
    exchange_checks: dict = attrs.Factory(dict)
    # zone -> the position counters ("position in ZONE") into it, and back
    track_counters: dict = attrs.Factory(dict)
    position_zones: dict = attrs.Factory(dict)
    attaching: bool = False                   # whether any card was ever attached
    # actions or abilities usable "at any time": a response window follows
    # every action (Machine.after_action)
    any_time: bool = False
    any_time_abilities: bool = False          # activated abilities usable at any time
    # response abilities usable "when you have priority" (priority windows)
    priority_uses: bool = False
    # stat -> the stats of attached cards added to it ("added to the progress
    # value of the card it is attached to")
    host_stats: dict = attrs.Factory(dict)
    first_chosen: bool = False                # the setup has a player choose who goes first
    keeping: tuple = ()                       # zones whose cards never leave them
    reshuffled: tuple = ()                    # zones shuffled after an effect takes from them
    draw_pile: str = ""
    hand: str = ""
    discard_pile: str = ""
    not_adjectives: frozenset = frozenset()   # stats declared "never an adjective"
    staying_kinds: frozenset = frozenset()    # kinds declared "leaves play: never"
    # programs of effects whose text names their controller's Rival (negative
    # for that player: "effects on a player: beneficial first")
    negative: set = attrs.Factory(set)

    def any_time_ability(self, ability: "Activated") -> bool:
        timing = self.rules.timing(ability.label) if ability.label else None
        return timing is not None and timing.any_time

    def static_prohibitions(self) -> tuple[str, ...]:
        """The "can't"s that continuous abilities give (worked out once)."""
        if self.prohibitions_found is None:
            self.prohibitions_found = tuple(sorted(
                {name for abilities in self.statics.values() for static in abilities
                 for kind, name, _ in static.changes if kind == "cannot"}))
        return self.prohibitions_found

    def starting_place(self, part_name: str, index: int) -> tuple[str, bool] | None:
        """(zone, face up?) where a deck part's cards start a game; None for a
        part that stays outside it. Undeclared parts: the first goes to the
        draw pile face down, the others stay out."""
        part = self.rules.deck_part(part_name)
        if part is not None and part.starts_in is not None:
            zone, face_up = part.starts_in
            return next(z for z in self.rules.zones if z.lower() == zone.lower()), face_up
        return (self.draw_pile, False) if index == 0 else None

    def damage_counter(self, node) -> str:
        for counter in self.rules.counters.values():
            if counter.takes_damage:
                return counter.name
        raise unsupported(node, "damage to a player (no counter \"takes damage\")")

    def check_player_damage(self, node) -> None:
        """Damage dealt to a player must mean something: a counter that takes
        damage, or a rule or card that replaces it ("If a player would be dealt
        damage, ... instead")."""
        if self.player_damage_counter is None and not self.player_damage_replaced:
            raise unsupported(node, 'damage to a player: no counter "takes damage" and no '
                              'rule "If a player would be dealt damage, ... instead"')
