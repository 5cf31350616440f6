"""The engine: runs a compiled game and exposes the step API.

A game is compiled once (``interpreter.compile_game``: :func:`compile_game`,
re-exported here). :class:`Match` is one game being played. Its whole state
is a :class:`~interpreter.state.GameState`; the :class:`Machine` runs the
frames of that state until a player must decide something (a pending
:class:`~interpreter.state.Decision`) or the game ends. The step API is
OpenSpiel's: ``current_player()``, ``legal_actions()``, ``apply_action(a)``,
``is_terminal()``, ``returns()``, ``clone()``, ``action_to_string(a)`` and
``observation(player)``.

After every instruction the machine checks the state rules (a counter at
which a player loses) and the triggers (events matched against the
triggered abilities of cards); hard caps on events, nesting and turns end a
game that would not end as a draw with the reason.
"""

from __future__ import annotations

import hashlib
from typing import Callable

from interpreter import operations as op
from interpreter.combat import CombatWindows
from interpreter.compiler.compiled import AFTER_USE, ActionPlan, Activated, CompiledGame, Trigger
from interpreter.compiler.game import compile_game
from interpreter.compiler.players import counter_on_card
from interpreter.compiler.program import JUMPED, WAIT
from interpreter.compiler.selectors import Selection
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.language.game_rules import GameRules
from interpreter.narration import narrate, two_faced
from interpreter.state import CardState, Decision, Frame, GameState, Modifier

__all__ = ["CompiledGame", "Machine", "Match", "compile_game"]

# Loop guard: a game that goes past these ends as a draw, with the reason.
MAX_EVENTS = 200_000
MAX_DEPTH = 64
MAX_TURNS = 500
MAX_STEPS = 200_000          # steps between two decisions
MAX_ACTIONS_PER_WINDOW = 200


# ---------------------------------------------------------------- running


def _wildcards_payable(have: dict, wild: list) -> bool:
    """Whether each wildcard item (a list of the counters it may take) can
    take 1 of a different unit of ``have``: a small matching, tried in turn."""
    if not wild:
        return True
    first, rest = wild[0], wild[1:]
    for name in first:
        if have.get(name, 0) > 0:
            have[name] -= 1
            try:
                if _wildcards_payable(have, rest):
                    return True
            finally:
                have[name] += 1
    return False


class GameOver(Exception):
    """Raised inside the machine when the game has just ended."""


class Machine(CombatWindows):
    """Runs a state's frames; every helper an instruction calls is here."""

    __slots__ = ("game", "state", "steps", "_asking", "_in_play", "quiet", "_continuous_seen",
                 "touched")

    def __init__(self, game: CompiledGame, state: GameState):
        self.game = game
        self.state = state
        self.steps = 0
        self._asking: set = set()
        self._in_play = None
        # What continuous abilities give, per (card, wanted), valid while the
        # log has this many events (every change of state is an event).
        self._continuous_seen: tuple[int, dict] = (-1, {})
        self.quiet = False    # moves "without triggering abilities" (one instruction)
        self.touched: set = set()   # zones an effect took cards from, to shuffle after it

    @property
    def rules(self) -> GameRules:
        return self.game.rules

    # ---- the loop

    def run(self) -> None:
        state = self.state
        programs = self.game.programs
        frames = state.frames
        log = state.log
        while state.result is None and state.decision is None:
            if not frames:
                self.draw_game("the game's program ended")
                return
            frame = frames[-1]
            if frame.program == "resolve":
                self.steps += 1
                if self.steps > MAX_STEPS:
                    self.draw_game("too many steps without a decision")
                    return
                outcome = self.resolve_step(frame)
                if outcome is None:
                    frames.pop()
                elif outcome is WAIT:
                    return
                self.after_step()
                continue
            instructions = programs[frame.program].instructions
            pc = frame.pc
            if pc >= len(instructions):
                frames.pop()
                self.maybe_resolve()
                continue
            self.steps += 1
            if self.steps > MAX_STEPS:
                self.draw_game("too many steps without a decision")
                return
            try:
                outcome = instructions[pc](self, frame)
            except GameOver:
                return
            if outcome is None:
                frame.pc += 1
            elif outcome is WAIT:
                return
            # most instructions change nothing that triggers or state rules see
            if state.cursor < len(log) or state.pending_replacements:
                self.after_step()
            if state.pending or state.stack:
                self.maybe_resolve()

    def after_step(self) -> None:
        state = self.state
        if state.pending_replacements:
            for program, source, controller, card in reversed(state.pending_replacements):
                state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                       "it": card}))
            state.pending_replacements = ()
        if len(state.log) > MAX_EVENTS:
            self.draw_game(f"more than {MAX_EVENTS} events")
            return
        if state.cursor < len(state.log):
            # state rules look at counters: only a counter event can change them
            if any(e[0] == "counter" for e in state.log[state.cursor:]) or (
                    (self.game.none_loses or self.game.zone_wins) and state.turn > 0 and
                    any(e[0] == "move" for e in state.log[state.cursor:])):
                self.state_rules()
            if state.result is None:
                self.collect_triggers()

    # ---- state rules and triggers

    def state_rules(self) -> None:
        state = self.state
        for zone, count in self.game.zone_wins:
            # "a player with 3 cards in it wins"
            for player in range(state.players):
                if not state.out[player] and len(state.zones.get((zone, player), ())) >= count:
                    op.end_game(state, ("win", player, f"{count} cards in their {zone}"))
                    return
        for zone in self.game.none_loses:
            # "a player with no cards in it loses", once the game is set up
            for player in range(state.players):
                if not state.out[player] and state.turn > 0 and \
                        not state.zones.get((zone, player)):
                    self.eliminate(player, f"no cards in their {zone}")
                    if state.result is not None:
                        return
        for counter in self.rules.counters.values():
            if counter.loses_at is None or counter.scope != "player":
                continue
            for player in range(state.players):
                if not state.out[player] and state.counter(player, counter.name) <= counter.loses_at:
                    self.eliminate(player, f"{counter.name} {state.counter(player, counter.name)}")

    def eliminate(self, player: int, reason: str) -> None:
        """The player is out of the game; the last one left wins. What the
        player was doing (the effects running as them, on top of the
        frames) stops with them: the others play on."""
        state = self.state
        state.out[player] = True
        state.log.append(("out", player, reason))
        alive = [p for p in range(state.players) if not state.out[p]]
        if len(alive) == 1:
            op.end_game(state, ("win", alive[0], f"player {player + 1} lost: {reason}"))
        elif not alive:
            op.end_game(state, ("draw", "every player lost at once"))
        else:
            frames = state.frames
            while len(frames) > 1 and frames[-1].program != "game" and \
                    frames[-1].locals.get("you") == player:
                frames.pop()

    def collect_triggers(self) -> None:
        """Match new events against triggered abilities: of the card the
        event is about ("When this is played"), and of every card in play."""
        state = self.state
        log = state.log
        if not self.game.triggers:
            state.cursor = len(log)
            return
        fired = []
        watchers = None
        watched = self.game.trigger_index
        for index in range(state.cursor, len(log)):
            event = log[index]
            if event[0] == "period":
                if (event[2], event[4]) in watched.period_edges:
                    fired.extend(self.period_triggers(event))
                continue
            if event[0] != "event":
                continue
            _kind, name, card, actor = event
            if name in watched.player_events:
                fired.extend(self.player_triggers(name, card, actor))
            if name not in watched.card_events:
                continue
            cards = card if isinstance(card, tuple) else (card,)
            for c in cards:
                if c is None:
                    continue
                if watchers is None:
                    names = watched.watching.get("card", ())
                    watchers = [w for w in self.in_play()
                                if state.cards[w].name in names and self.working(w)]
                sources = set(watchers)
                sources.add(c)
                for source in sorted(sources):
                    for trigger in self.game.triggers.get(state.cards[source].name, ()):
                        if trigger.event != name or trigger.kind != "card":
                            continue
                        if trigger.self_only:
                            if source != c:
                                continue
                        elif source == c and source not in watchers:
                            continue
                        probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                                   "this": source})
                        if trigger.test(self, probe, c):
                            if trigger.once_per:
                                key = f"{source}|{trigger.program}|{trigger.once_per}|" \
                                      f"{state.period_counts.get(trigger.once_per, 0)}"
                                if key in state.usage:
                                    continue
                                state.usage[key] = 1
                            fired.append((trigger.program, source,
                                          state.cards[source].controller, c))
        state.cursor = len(log)
        if fired and self.game.trigger_gates:
            gates = self.game.trigger_gates
            fired = [f for f in fired if f[0] not in gates or gates[f[0]](
                self, Frame("probe", 0, {"you": f[2], "this": f[1], "it": f[3]}))]
        if not fired:
            return
        if "#hold" in state.usage:
            state.usage["#hold"] = state.usage["#hold"] + tuple(fired)
            return
        if self.rules.resolution is None:
            # no resolution rules: each triggered ability resolves at once
            if self.rules.trigger_order is not None and len(fired) > 1:
                # "simultaneous triggers: in turn order from the first player"
                first = state.usage.get("#first player", state.turn_player) \
                    if self.rules.trigger_order == "first" else state.turn_player
                fired.sort(key=lambda f: (f[2] - first) % state.players)
            if len(state.frames) + len(fired) > MAX_DEPTH:
                self.draw_game(f"effects nested more than {MAX_DEPTH} deep (a loop?)")
                return
            for program, source, controller, card in reversed(fired):
                state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                       "it": card}))
            return
        immediate = [f for f in fired if f[0] in self.game.immediate]
        if immediate:
            fired = [f for f in fired if f[0] not in self.game.immediate]
            for program, source, controller, card in reversed(immediate):
                state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                       "it": card}))
        state.pending = state.pending + fired
        if len(state.pending) + len(state.stack) > MAX_DEPTH:
            self.draw_game(f"more than {MAX_DEPTH} effects waiting (a loop?)")

    def working(self, card: int) -> bool:
        """Whether a card in play has its abilities: not nullified, and face up
        (a face-down card is only a card, until it is flipped) unless its kind
        works face down; not while it has its kind's "waits while" status."""
        c = self.state.cards[card]
        if self.has_status(card, "nullified"):
            return False
        kind = self.rules.kind(self.definition(card).kind)
        if not c.face_up and not (kind is not None and kind.works_face_down):
            return False
        if kind is not None and kind.waits_while and self.has_status(card, kind.waits_while):
            return False
        return True

    def _watchers(self, kind: str):
        state = self.state
        names = self.game.trigger_index.watching.get(kind, ())
        for source in self.in_play():
            if state.cards[source].name not in names or not self.working(source):
                continue
            for trigger in self.game.triggers.get(state.cards[source].name, ()):
                if trigger.kind == kind:
                    yield source, trigger
        intents = self.game.intent_triggers
        if intents and kind in self.game.intent_kinds:
            # cards outside play, where their kind is used from (a card in the hand)
            for player in range(state.players):
                if not any(state.cards[c].name in intents for zone in self.game.used_from_zones
                           for c in state.zones.get((self.game.hand, player) if zone == "hand"
                                                    else (zone, player), ())):
                    continue
                for source in self.used_from_cards(player):
                    for trigger in intents.get(state.cards[source].name, ()):
                        if trigger.kind == kind:
                            yield source, trigger

    def _whose(self, trigger: Trigger, controller: int, player: int) -> bool:
        if trigger.whose == "you":
            return player == controller
        if trigger.whose == "rival":
            return player != controller
        return True

    def period_triggers(self, event) -> list:
        """ "At the start of your turn": a period began or ended."""
        _kind, _what, name, _number, edge = event
        fired = []
        for source, trigger in self._watchers("period"):
            if trigger.event != name or trigger.edge != edge:
                continue
            controller = self.state.cards[source].controller
            if self._whose(trigger, controller, self.state.turn_player):
                fired.append((trigger.program, source, controller, source))
        return fired

    def player_triggers(self, name: str, card, actor: int) -> list:
        """ "When you draw a card": a player did something."""
        fired = []
        for source, trigger in self._watchers("player"):
            if trigger.event != name:
                continue
            controller = self.state.cards[source].controller
            if self._whose(trigger, controller, actor):
                fired.append((trigger.program, source, controller, card))
        return fired

    # ---- resolution: the stack of entries (chain links, stack links)

    def maybe_resolve(self) -> None:
        """Start resolving waiting effects when nothing else is running."""
        state = self.state
        if (state.pending or state.stack) and state.frames and \
                state.frames[-1].program == "game" and self.rules.resolution is not None:
            locals_ = {}
            if state.stack and not state.pending and self.rules.resolution.responses:
                # an activated ability's entry: the other player may respond to it
                locals_["responder"] = self.rival_of(state.stack[-1][3])
            state.frames.append(Frame("resolve", 0, locals_))

    def resolve_step(self, frame: Frame):
        """One step of resolving: add waiting effects as entries (the rival's
        or the turn player's first), let the other player respond, then
        resolve the top entry. Runs again until nothing is left."""
        state = self.state
        settings = self.rules.resolution
        locals_ = frame.locals
        if not state.pending:
            locals_.pop("_pushing", None)
        if settings.own_order and state.pending and (
                not state.stack or locals_.get("_pushing")) and \
                not settings.responses and not settings.one_at_a_time:
            # entries one by one: the first player's effects (in the order its
            # controller chooses), then the other's; the last resolves first
            pending = state.pending
            turn = state.turn_player
            group = [i for i, p in enumerate(pending)
                     if (p[2] != turn) == settings.rival_first] or list(range(len(pending)))
            if "_link" in locals_:
                index = locals_.pop("_link")
            elif len(group) > 1:
                return self.ask(frame, pending[group[0]][2], "order", "choose the next link",
                                tuple(group), "_link",
                                tuple(f"{self.card_label(pending[i][1])}'s effect"
                                      for i in group))
            else:
                index = group[0]
            program, source, controller, card = pending[index]
            state.pending = pending[:index] + pending[index + 1:]
            locals_["_pushing"] = bool(state.pending)   # the rest of this link next
            self.push_entry(program, source, controller,
                            (("it", card), ("this", source), ("you", controller)))
            return JUMPED
        if state.pending and not state.stack:
            pending = state.pending
            state.pending = []
            turn = state.turn_player
            first = [p for p in pending if (p[2] != turn) == settings.rival_first]
            second = [p for p in pending if (p[2] != turn) != settings.rival_first]
            last_controller = None
            ordered = first + second
            if settings.beneficial_first:
                # SIMULTANEOUS RESOLUTION: beneficial effects before negative ones
                negative = self.game.negative
                ordered = [p for p in ordered if p[0] not in negative] + \
                    [p for p in ordered if p[0] in negative]
            uses = self.game.intent_programs
            if settings.one_at_a_time or (uses and any(p[0] in uses for p in ordered)):
                # one effect at a time, each with its own response step
                ordered, state.pending = ordered[:1], ordered[1:]
            for program, source, controller, card in ordered:
                last_controller = controller
                if program in uses:
                    # a card outside play: its controller may use it (costs,
                    # used up), which makes the entry (interpreter.combat)
                    state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                           "it": card}))
                    continue
                self.push_entry(program, source, controller,
                                (("it", card), ("this", source), ("you", controller)))
            if settings.responses:
                locals_["responder"] = self.rival_of(last_controller)
            return JUMPED
        if not state.stack:
            return None
        if settings.responses and "responder" in locals_:
            responder = locals_["responder"]
            if "_respond" in locals_:
                answer = locals_.pop("_respond")
                if answer == ("pass",):
                    del locals_["responder"]
                    state.log.append(("pass", responder))
                    return JUMPED
                if answer[0] == "use":
                    # an ability with costs (interpreter.combat)
                    top = state.stack[-1]
                    self.use_response(responder, answer[1], answer[2], top[2], top[0])
                    locals_["responder"] = self.rival_of(responder)
                    return JUMPED
                card, program = answer
                top = state.stack[-1][0]
                self.discard(card)
                self.push_entry(program, card, responder,
                                (("this", card), ("you", responder),
                                 ("responding_to", top)), responding_to=top)
                locals_["responder"] = self.rival_of(responder)
                return JUMPED
            options = [(c, program) for c in self.hand_of(responder)
                       for program in self.game.responses.get(state.cards[c].name, ())]
            labels = [f"respond with {self.card_label(c)}" for c, _ in options]
            if self.game.cued:
                more, names = self.response_options(responder, None, state.stack[-1][2],
                                                    state.stack[-1][0])
                options, labels = options + more, labels + names
            if options:
                return self.ask(frame, responder, "respond", "respond or pass",
                                tuple(options) + (("pass",),), "_respond",
                                tuple(labels) + ("pass",))
            del locals_["responder"]
        entry = state.stack.pop()
        entry_id, program, source, controller, zone, entry_locals, nullified, _ = entry
        # a card used up "after it resolves" (interpreter.combat.use_up)
        after = next((value for key, value in entry_locals if key == "_after_use"), None)
        if nullified or (settings.drop_if_source_left and state.cards[source].zone != zone):
            state.log.append(("fizzle", entry_id, source, "nullified" if nullified
                              else "its source left its zone"))
            if after:
                self.used_up_steps(source, after)
            return JUMPED
        state.log.append(("resolve", entry_id, source))
        if after:
            state.frames.append(Frame(AFTER_USE, 0, {"this": source, "_after_use": after}))
        if program:    # "": a played card responded to, carried on by its procedure
            state.frames.append(Frame(program, 0, dict(entry_locals)))
        return JUMPED

    def push_entry(self, program: str, source: int, controller: int, entry_locals: tuple,
                   responding_to=None) -> None:
        state = self.state
        entry_id = state.usage.get("#entries", 0) + 1
        state.usage["#entries"] = entry_id
        state.stack.append((entry_id, program, source, controller, state.cards[source].zone,
                            entry_locals, False, responding_to))
        state.log.append(("entry", entry_id, source, controller, len(state.stack)))

    def nullify_entry(self, entry_id) -> bool:
        state = self.state
        for index, entry in enumerate(state.stack):
            if entry[0] == entry_id and not entry[6]:
                state.stack[index] = entry[:6] + (True,) + entry[7:]
                state.log.append(("nullify", entry_id, entry[2]))
                return True
        return False

    # ---- game-level steps

    def begin_turn(self, frame: Frame) -> None:
        state = self.state
        if state.turn >= MAX_TURNS:
            self.draw_game(f"no winner after {MAX_TURNS} turns")
            raise GameOver
        chosen = state.usage.pop("#next turn", None)   # a player "takes the next turn"
        if chosen is not None and not state.out[chosen]:
            player = chosen
        elif state.turn == 0:
            player = frame.locals.get("first", 0)
        elif self.rules.same_turn_player:
            # "turn player: the same every turn": the first player begins each
            player = frame.locals.get("first", 0)
            if state.out[player]:
                player = self.next_player(player)
        else:
            player = self.next_player(state.turn_player)
        op.begin_turn(state, player)
        if state.turn == 1:
            state.usage["#first player"] = player    # "the first player" of the game
        op.period(state, "turn", "turn", "start")
        if self.rules.turn_name:     # "called: Round": the turn is that period too
            op.period(state, "round", self.rules.turn_name, "start")
        frame.locals["you"] = player

    def end_turn(self, frame: Frame) -> None:
        if self.rules.turn_name:
            self.end_period("round", self.rules.turn_name)
        self.end_period("turn", "turn")
        self.state.passes = [0] * self.state.players

    def end_period(self, kind: str, name: str) -> None:
        state = self.state
        op.period(state, kind, name, "end")
        op.expire_modifiers(state, name, state.period_counts.get(name, 0), "end")
        self.lethal_check()

    def lethal_check(self) -> None:
        """A card whose damage is at its lethal stat now (a boost to the stat
        has ended) is destroyed."""
        lethal = [s.name for s in self.rules.stats.values() if s.lethal_damage]
        if not lethal:
            return
        state = self.state
        for card in list(self.in_play()):
            damage = state.cards[card].counter("damage")
            if damage and state.cards[card].zone[0] in self.game.in_play and any(
                    damage >= self.stat(card, stat) for stat in lethal):
                self.destroy(card)

    def add_modifier(self, card: int, kind: str, name: str, amount: int, source,
                     until: tuple) -> None:
        op.add_modifier(self.state, Modifier(card, kind, name, amount, source, until))

    def next_player(self, player: int) -> int:
        n = self.state.players
        for step in range(1, n + 1):
            candidate = (player + step) % n
            if not self.state.out[candidate]:
                return candidate
        return player

    def rival_of(self, player: int) -> int:
        return self.next_player(player)

    # ---- "your opponent" when there are several

    def opponents(self, player: int) -> list[int]:
        """The players still in the game other than ``player``, in seat order
        after them."""
        n = self.state.players
        return [(player + i) % n for i in range(1, n) if not self.state.out[(player + i) % n]]

    def chosen_opponent(self, frame: Frame) -> int | None:
        """The opponent this effect chose for its acting player, if any."""
        bound = frame.locals.get("#opponent")
        if bound is not None and bound[0] == frame.locals.get("you") and \
                not self.state.out[bound[1]]:
            return bound[1]
        return None

    def opponent(self, frame: Frame) -> int:
        """Who "your opponent" is: the one chosen for this effect, else the
        next player (the only opponent in a game of two)."""
        chosen = self.chosen_opponent(frame)
        return chosen if chosen is not None else self.rival_of(frame.locals["you"])

    def is_opponent(self, frame: Frame, player: int) -> bool:
        """Whether ``player`` is "your opponent" for this effect: the chosen
        one, or (none chosen) any player still in the game but you."""
        chosen = self.chosen_opponent(frame)
        if chosen is not None:
            return player == chosen
        return player != frame.locals.get("you") and not self.state.out[player]

    def seat_order(self) -> list[int]:
        """The players still in the game, the turn player first."""
        state = self.state
        players, first = state.players, state.turn_player
        order = [(first + i) % players for i in range(players)]
        if True in state.out:
            order = [p for p in order if not state.out[p]]
        return order

    # ---- places, exchanges and races

    def face_of(self, card: int) -> str | None:
        """The face a double-sided card shows: its kind's first face when face
        up, its second when face down (None for one-sided cards)."""
        definition = self.definition(card)
        if not definition.faces:
            return None
        kind = self.rules.kind(definition.kind)
        faces = kind.faces if kind is not None and kind.faces else tuple(
            f for f, _ in definition.faces)
        up = self.state.cards[card].face_up
        return faces[0] if up or len(faces) < 2 else faces[1]

    def stat_value(self, card: int, name: str):
        """A stat as printed on the face the card shows (or on the card)."""
        definition = self.definition(card)
        face = self.face_of(card)
        if face is not None:
            value = definition.stat(name, face)
            if value is not None:
                return value
        return definition.stat(name)

    def track_index(self, card: int, counter: str) -> int | None:
        """Where a card is in the ordered zone a position counter points into."""
        decl = self.rules.counters.get(counter)
        if decl is None or decl.track is None:
            return None
        zone = next((z for z in self.rules.zones.values()
                     if z.name.lower() == decl.track.lower()), None)
        if zone is None:
            return None
        state_card = self.state.cards[card]
        if state_card.zone[0] != zone.name:
            return None
        return self.state.zones[state_card.zone].index(card)

    # ---- counters kept per place: a cache per place of a row

    def gain_counter(self, frame: Frame, player: int, name: str, amount: int) -> None:
        """Add to a player's counter. A counter kept per place ("per place in
        ZONE") gains for the place of the effect: the place its card is at;
        for a card at no place (a Character), the place being resolved by
        the loop over the zone's places, or, when none is (before the loop,
        or once the last step of a place has run its procedure), the place
        at the player's position. The counter holds the amount of the place
        being resolved; an amount for another place waits there until the
        loop reaches it (with no place at all, past the end, it is lost)."""
        zone = self.game.place_counters.get(name)
        if zone is not None:
            place = self.place_of_effect(frame, player, zone)
            if place is None or place != self.state.usage.get("#resolving"):
                if place is not None:
                    self.state.usage["#waiting"] = self.state.usage.get("#waiting", ()) + (
                        (player, name, place, amount),)
                self.state.log.append(("waits", player, name, place, amount))
                return
        self.set_counter(player, name, self.state.counter(player, name) + amount)

    def place_of_effect(self, frame: Frame, player: int, zone: str) -> int | None:
        """The place of ``zone`` an effect happens at: its card's own place
        (a card of the zone, or a card attached to one), else the place being
        resolved, else the place at the player's position in the zone."""
        cards = self.state.cards
        this = frame.locals.get("this")
        if this is not None:
            card = cards[this]
            if card.zone[0] == zone:
                return this
            host = card.attached_to
            if host is not None and cards[host].zone[0] == zone:
                return host
        resolving = self.state.usage.get("#resolving")
        if resolving is not None:
            return resolving
        counter = self.game.place_positions.get(zone)
        if counter is None:
            return None
        decl = self.rules.zones[zone]
        row = self.state.zones.get((zone, -1 if decl.scope == "shared" else player), ())
        index = self.state.counter(player, counter)
        return row[index] if 0 <= index < len(row) else None

    def arrive_at_place(self, place: int) -> None:
        """A loop over places reaches ``place``: the amounts waiting for it
        join their counters."""
        usage = self.state.usage
        usage["#resolving"] = place
        waiting = usage.get("#waiting")
        if not waiting:
            return
        here = tuple(w for w in waiting if w[2] == place)
        if not here:
            return
        left = tuple(w for w in waiting if w[2] != place)
        if left:
            usage["#waiting"] = left
        else:
            del usage["#waiting"]
        for player, name, _place, amount in here:
            self.set_counter(player, name, self.state.counter(player, name) + amount)

    def _exchange_parts(self, frame: Frame, stat: str):
        """(place, exchange, face) of the exchange stat on the place being resolved."""
        place = frame.locals.get("this")
        if place is None:
            return None
        value = self.stat_value(place, stat)
        if value is None or not hasattr(value, "cost"):
            return None
        return place, value, self.face_of(place)

    def _exchange_payment(self, frame: Frame, stat: str):
        """How an exchange's cost is paid from the player's counters, or None
        when it cannot be: (the counters the specific items take, the
        wildcard items left as (name, counters it may take)). A cost item
        naming a counter pays 1 of it (an item with alternatives, the one the
        player has most of); a wildcard pays 1 of any of its counters (the
        player chooses which, see ``exchange``); an item naming another
        exchange stat of the same card needs that exchange made by this
        player this period."""
        parts = self._exchange_parts(frame, stat)
        if parts is None:
            return None
        place, exchange, _face = parts
        player = frame.locals["you"]
        have = dict(self.state.player_counters[player])
        wildcards = self.rules.wildcards
        specific, wild = [], []
        for item in exchange.cost:
            names = item if isinstance(item, tuple) else (item,)
            name = names[0]
            if len(names) == 1 and name in wildcards:
                wild.append((name, wildcards[name]))
            elif len(names) == 1 and self.rules.stat(name) is not None:
                other = self.rules.stat(name).name.lower()
                done = f"#exchanged|{player}|{place}|{other}|" \
                       f"{self.state.period_counts.get(self.state.period.get('step'), 0)}"
                if done not in self.state.usage:
                    return None
            else:
                specific.append(names)
        paid = []
        for names in specific:
            name = max(names, key=lambda n: have.get(n, 0))
            if have.get(name, 0) <= 0:
                return None
            have[name] -= 1
            paid.append(name)
        if not _wildcards_payable(have, [counters for _, counters in wild]):
            return None
        return paid, wild

    def exchanges_left(self, frame: Frame, stat: str) -> bool:
        """Whether the place has another exchange stat this player has not
        made this period: then what a wildcard leaves may still be spent, and
        which counter pays it matters."""
        parts = self._exchange_parts(frame, stat)
        if parts is None:
            return False
        place, _exchange, face = parts
        player = frame.locals["you"]
        definition = self.definition(place)
        stats = definition.stats if face is None else dict(definition.faces).get(face, ())
        count = self.state.period_counts.get(self.state.period.get("step"), 0)
        for other in stats:
            name = other.name.lower()
            if name != stat.lower() and hasattr(other.value, "cost") and \
                    f"#exchanged|{player}|{place}|{name}|{count}" not in self.state.usage:
                return True
        return False

    def wildcard_options(self, player: int, paid: list, wild: list, chosen: tuple) -> list:
        """The counters that may pay the next wildcard item, once the
        specific items and the wildcards already chosen are paid, so that the
        wildcards after it can still be paid."""
        have = dict(self.state.player_counters[player])
        for name in list(paid) + list(chosen):
            have[name] = have.get(name, 0) - 1
        _, counters = wild[len(chosen)]
        rest = [c for _, c in wild[len(chosen) + 1:]]
        options = []
        for name in counters:
            if have.get(name, 0) > 0:
                have[name] -= 1
                if _wildcards_payable(have, rest):
                    options.append(name)
                have[name] += 1
        return options

    def place_at(self, card: int, zone: tuple, host: int, face_up: bool) -> None:
        """Put a card into a zone, attached to a place (a card elsewhere)."""
        state = self.state
        op.move(state, card, zone, face_up=face_up)
        state.cards[card].attached_to = host
        state.log.append(("attach", card, host, face_up))

    def use_card(self, card: int) -> None:
        """Use a card: if its requirements hold, it is activated (the event
        "activated") and its kind's "when used" effect runs; otherwise it has
        no effect."""
        state = self.state
        controller = state.cards[card].controller
        probe = Frame("probe", 0, {"you": controller, "this": card, "it": card})
        for requirement in self.game.requirements.get(state.cards[card].name, ()):
            if not requirement(self, probe):
                op.note(state, f"{state.cards[card].name} does not meet its requirements: "
                               "it has no effect.")
                return
        kind = self.rules.kind(self.definition(card).kind)
        if kind is not None and kind.when_used is not None:
            state.frames.append(Frame(f"used:{kind.name}", 0,
                                      {"you": controller, "this": card, "it": card}))
        self.event("activated", card, controller)

    def can_exchange(self, frame: Frame, stat: str) -> bool:
        return self._exchange_payment(frame, stat) is not None

    def exchange(self, frame: Frame, stat: str):
        """Pay an exchange's cost from the player's counters, then run its
        reward. The player chooses the counter each wildcard item pays with
        when more than one can ("pay Any with": Jump or Punch)."""
        plan = self._exchange_payment(frame, stat)
        locals_ = frame.locals
        if plan is None:
            locals_.pop("_wild+", None)
            locals_["did"] = False
            return None
        paid, wild = plan
        player = locals_["you"]
        chosen = locals_.pop("_wild+", ())
        if "_wild" in locals_:
            chosen = chosen + (locals_.pop("_wild"),)
        matters = None
        while len(chosen) < len(wild):
            options = self.wildcard_options(player, paid, wild, chosen)
            if len(options) > 1:
                if matters is None:
                    matters = self.exchanges_left(frame, stat)
                if matters:
                    locals_["_wild+"] = chosen
                    return self.ask(frame, player, "choose",
                                    f"pay {wild[len(chosen)][0]} with", tuple(options), "_wild",
                                    tuple(options))
                # nothing else here could use what is left: the most plentiful
                have = self.state.player_counters[player]
                options = [max(options, key=lambda n: have.get(n, 0) - list(
                    paid + list(chosen)).count(n))]
            chosen = chosen + (options[0],)
        paid = paid + list(chosen)
        for name in paid:
            self.set_counter(player, name, self.state.counter(player, name) - 1)
        place, _exchange, face = self._exchange_parts(frame, stat)
        self.state.usage[f"#exchanged|{player}|{place}|{stat.lower()}|"
                         f"{self.state.period_counts.get(self.state.period.get('step'), 0)}"] = 1
        frame.locals["did"] = True
        frame.pc += 1
        self.state.frames.append(Frame(
            f"exchange:{self.state.cards[place].name}:{face or ''}:{stat.lower()}", 0,
            {"you": player, "this": place}))
        return JUMPED

    def hold_triggers(self) -> None:
        """Abilities that trigger from now on wait (see release_triggers)."""
        self.collect_triggers()
        self.state.usage["#hold"] = ()

    def release_triggers(self, frame: Frame):
        """Run the abilities that waited, one at a time. Those a player's own
        event triggered ("When you advance", and the Rival's "Whenever your
        Rival advances") are that player's to use, the turn player's first,
        in the order that player chooses when they have several; abilities
        that trigger "after" an event come last, each player ordering their
        own."""
        locals_ = frame.locals
        if "_held" not in locals_:
            self.collect_triggers()
            held = self.state.usage.pop("#hold", ())
            if not held:
                return None
            if self.rules.resolution is not None:
                # they wait to resolve as any simultaneous effects do (stack links)
                self.state.pending = self.state.pending + list(held)
                return None
            locals_["_held"] = tuple(held)
        held = locals_["_held"]
        if not held:
            del locals_["_held"]
            return None
        if "_held_next" in locals_:
            index = locals_.pop("_held_next")
        else:
            state = self.state
            keys = [(entry[0] in self.game.after_triggers,
                     (self.user_of_held(entry) - state.turn_player) % state.players)
                    for entry in held]
            first = min(keys)
            group = [i for i, key in enumerate(keys) if key == first]
            if len(group) > 1:
                user = (first[1] + state.turn_player) % state.players
                return self.ask(frame, user, "order", "use which effect next", tuple(group),
                                "_held_next", tuple(f"{self.card_label(held[i][1])}'s effect"
                                                    for i in group))
            index = group[0]
        program, source, controller, card = held[index]
        locals_["_held"] = held[:index] + held[index + 1:]
        self.state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                    "it": card}))
        return JUMPED

    def user_of_held(self, entry: tuple) -> int:
        """Who orders a held ability: for one a player's event triggered (a
        player trigger), that player ("Whenever your Rival advances": the
        Rival); for an "after" trigger or any other, its controller."""
        program, _source, controller, _card = entry
        trigger = self.game.trigger_programs.get(program)
        if trigger is None or trigger.kind != "player" or program in self.game.after_triggers:
            return controller
        if trigger.whose == "rival":
            return self.rival_of(controller)
        return controller

    def race_check(self, frame: Frame):
        """The player farthest past the end of the race's zone wins; a tie runs
        the race's tie procedure, at most its number of times."""
        race = self.rules.race
        state = self.state
        decl = next(z for z in self.rules.zones.values()
                    if z.name.lower() == race.zone.lower())
        size = len(state.zones.get((decl.name, -1), ()))
        past = {p: state.counter(p, race.counter) - size + 1 for p in range(state.players)
                if not state.out[p]}
        best = max(past.values(), default=0)
        if best <= 0:
            return None
        leaders = [p for p, v in past.items() if v == best]
        if len(leaders) == 1:
            self.win(leaders[0], f"{best} past the end of the {decl.name}")
        ties = state.usage.get("#race ties", 0) + 1
        state.usage["#race ties"] = ties
        if ties > race.ties:
            self.draw_game(f"still tied {best} past the end of the {decl.name} "
                           f"after {race.ties} tie-breaks")
            raise GameOver
        op.note(state, f"Tied {best} past the end of the {decl.name}: tie-break {ties}.")
        frame.pc += 1
        state.frames.append(Frame("race:tie", 0, {"you": state.turn_player}))
        return JUMPED

    # ---- reading cards

    def in_play(self) -> list[int]:
        """The cards in the zones declared "in play" (kept until the next
        event: every change of zone is an event)."""
        events = len(self.state.log)
        if self._in_play is not None and self._in_play[0] == events:
            return self._in_play[1]
        in_play = self.game.in_play
        out = []
        for (name, _owner), cards in self.state.zones.items():
            if cards and name in in_play:
                out.extend(cards)
        self._in_play = (events, out)
        return out

    def definition(self, card: int):
        return self.game.cards[self.state.cards[card].name]

    def is_kind(self, card: int, kind: str) -> bool:
        name = self.state.cards[card].name
        known = self.game.kind_answers.get((name, kind))
        if known is None:
            known = self.game.kind_answers[(name, kind)] = self._is_kind(card, kind)
        return known

    def _is_kind(self, card: int, kind: str) -> bool:
        decl = self.rules.kind(kind)
        if decl is None:  # a plural
            for k in self.rules.kinds.values():
                if k.plural.lower() == kind.lower():
                    decl = k
        return decl is not None and self.definition(card).kind == decl.name

    def stat(self, card: int, name: str) -> int:
        """A card's stat now: printed, plus the modifiers in force, plus the
        continuous abilities of the cards in play, plus the stats of the
        cards attached to it that are "added to" this one."""
        value = self.definition(card).stat(name)
        total = value if isinstance(value, int) else 0
        for modifier in self.state.modifiers:
            if modifier.target == card and modifier.kind == "stat" and modifier.name == name:
                total += modifier.amount
        for kind, amount in self.continuous(card, ("stat", name)):
            total += amount
        added = self.game.host_stats.get(name) if self.game.attaching else None
        if added:
            state = self.state
            # attached cards sit in their host's zone
            for other in state.zones.get(state.cards[card].zone, ()):
                if state.cards[other].attached_to == card:
                    for stat in added:
                        total += self.stat(other, stat)
        return total

    def continuous(self, card: int, wanted: tuple | None = None):
        """(kind, amount) of every continuous ability in play applying to
        ``card``; only those that can change ``wanted`` (kind, name) if given.

        A continuous ability whose own test asks the same question (a
        keyword granted to the cards that have it) is not counted while that
        question is being answered: no loop."""
        statics = self.game.statics
        if not statics:
            return ()
        asking = (card, wanted)
        if asking in self._asking:
            return ()
        events = len(self.state.log)
        seen_at, seen = self._continuous_seen
        if seen_at != events:
            seen = {}
            self._continuous_seen = (events, seen)
        elif asking in seen:
            return seen[asking]
        # Only a complete answer is kept: one computed while another question
        # is open may have left out the abilities that asked it.
        top_level = not self._asking
        found = list(self._continuous(card, wanted, asking))
        if top_level:
            seen[asking] = found
        return found

    def _continuous(self, card: int, wanted, asking):
        statics = self.game.statics
        state = self.state
        self._asking.add(asking)
        try:
            if wanted is not None:
                # only the cards with an ability that makes this change
                statics = self.game.statics_by_change.get(wanted)
                if not statics:
                    return
            for source in self.in_play():
                abilities = statics.get(state.cards[source].name)
                if not abilities or self.is_nullified(source):
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                for static in abilities:
                    if wanted is not None and not any((k, n) == wanted
                                                      for k, n, _ in static.changes):
                        continue
                    if static.condition is not None and not static.condition(self, probe):
                        continue
                    if static.test(self, probe, card):
                        for kind, name, amount in static.changes:
                            if wanted is None or (kind, name) == wanted:
                                yield (kind, name), amount
        finally:
            self._asking.discard(asking)

    def is_nullified(self, card: int) -> bool:
        """Nullified (a status, or a status modifier "until ..."): the card's
        abilities do not work."""
        if "nullified" in self.state.cards[card].statuses:
            return True
        return any(m.target == card and m.kind == "status" and m.name == "nullified"
                   for m in self.state.modifiers)

    def has_keyword(self, card: int, name: str) -> bool:
        for ability in self.definition(card).abilities:
            node = ability.ability
            if node.form == "keyword" and node.args[0].form == name:
                return True
        return self.has(card, "keyword", name)

    def has(self, card: int, kind: str, name: str) -> bool:
        """Whether a card has a keyword (or a can't / can) now."""
        for modifier in self.state.modifiers:
            if modifier.target == card and modifier.kind == kind and modifier.name == name:
                return True
        return any(True for _ in self.continuous(card, (kind, name)))

    def forbidden(self, player: int, verb: str, card: int | None) -> bool:
        """Whether a "can't" in force stops ``player`` doing ``verb`` (an
        action's name, or "be destroyed" ...) with ``card``. "Can't" beats
        "can": nothing a card is allowed to do lifts a prohibition."""
        capabilities = self.game.capabilities
        if not capabilities:
            return False
        verb = verb.lower()
        you = -1 - player
        probe = None
        for modifier in self.state.modifiers:
            if modifier.kind != "cannot" or modifier.target not in (card, you):
                continue
            forbids, test = capabilities[modifier.name]
            if not verb.startswith(forbids):
                continue
            if modifier.target == card or test is None:
                return True
            if card is not None:
                probe = probe or Frame("probe", 0, {"you": player})
                if test(self, probe, card):
                    return True
        if card is not None and self.game.statics:
            for name in self.game.static_prohibitions():
                if verb.startswith(capabilities[name][0]) and \
                        self.continuous(card, ("cannot", name)):
                    return True
        if self.game.player_statics:
            # continuous prohibitions on players ("Your opponent can't attack")
            state = self.state
            for source in self.in_play():
                found = self.game.player_statics.get(state.cards[source].name)
                if not found or "nullified" in state.cards[source].statuses:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                for test, name, condition in found:
                    if verb.startswith(capabilities[name][0]) and (
                            condition is None or condition(self, probe)) and \
                            test(self, probe, player):
                        return True
        return False

    def has_value(self, card: int, value: str) -> bool:
        """Whether a printed stat of the card has this value ("a Red Ally");
        stats declared "never an adjective" do not count."""
        name = self.state.cards[card].name
        known = self.game.value_answers.get((name, value))
        if known is None:
            quiet = self.game.not_adjectives
            known = self.game.value_answers[(name, value)] = any(
                v == value or (isinstance(v, tuple) and any(
                    value in (alt if isinstance(alt, tuple) else (alt,)) for alt in v))
                for v in (stat.value for stat in self.definition(card).stats
                          if stat.name not in quiet))
        return known

    def hand_of(self, player: int) -> list[int]:
        return self.state.zones.get((self.game.hand, player), [])

    def card_label(self, card: int) -> str:
        return f"{self.state.cards[card].name} #{card}"

    # ---- decisions

    def ask(self, frame: Frame, player: int, kind: str, prompt: str, options: tuple,
            store: str, labels: tuple = ()):
        if self.rules.identical_one_choice and len(options) > 1:
            options, labels = self.one_of_each(kind, tuple(options), tuple(labels))
            if len(options) == 1:
                # nothing left to choose: the asking instruction runs again
                # and reads the answer (every decision is asked that way)
                frame.locals[store] = options[0]
                return JUMPED
        self.state.decision = Decision(player, kind, prompt, tuple(options), store,
                                       tuple(labels))
        return WAIT

    # ---- identical cards: one choice

    _CARD_AT = {"target": lambda o: (o,) if isinstance(o, int) and not isinstance(o, bool)
                else (),
                "defend": lambda o: tuple(o),
                "action": lambda o: (o[1],) if len(o) > 1 and isinstance(o[1], int) else (),
                "respond": lambda o: (o[1],) if len(o) > 2 and o[0] == "use" else (
                    (o[0],) if len(o) == 2 and isinstance(o[0], int) else ())}

    def one_of_each(self, kind: str, options: tuple, labels: tuple) -> tuple[tuple, tuple]:
        """``identical cards: one choice``: of options that differ only in
        which of two identical cards they name, the first stands for all.
        Cards are identical when nothing in the state tells them apart: the
        same card, owner, controller, zone, face, statuses, counters and
        modifiers, no cards attached, their place in an ordered zone or a
        paired slot the same, and no effect, limit or choice in progress
        refers to either."""
        cards_of = self._CARD_AT.get(kind)
        if cards_of is None:
            return options, labels
        state = self.state
        named = [state.cards[c].name for o in options for c in cards_of(o)]
        if len(named) == len(set(named)):
            return options, labels          # no two cards of one name: nothing to do
        referred = self._referred_cards()
        seen: set = set()
        kept, kept_labels = [], []
        for index, option in enumerate(options):
            cards = cards_of(option)
            if cards:
                key = (tuple(sorted(self._identity(c, referred) for c in cards)),
                       option[0] if kind == "action" else None,
                       option[-1] if kind in ("action", "respond") and len(option) > 2
                       else None)
                if key in seen:
                    continue
                seen.add(key)
            kept.append(option)
            if labels:
                kept_labels.append(labels[index])
        return tuple(kept), tuple(kept_labels)

    def _identity(self, card: int, referred: set):
        state = self.state
        c = state.cards[card]
        if card in referred or c.attached_to is not None:
            return ("card", card)
        decl = self.rules.zones.get(c.zone[0])
        paired = any(c.zone[0] in pair[:2] for pair in self.game.pairs)
        counters = tuple(x for x in c.counters if paired or x[0] != "slot")
        pile = state.zones.get(c.zone, ())
        position = pile.index(card) if decl is not None and decl.ordered and card in pile \
            else None
        modifiers = tuple((m.kind, m.name, m.amount, m.source, m.until)
                          for m in state.modifiers if m.target == card)
        hosts = any(state.cards[h].attached_to == card for h in pile) if self.game.attaching \
            else False
        return (c.name, c.owner, c.controller, c.zone, c.face_up, tuple(sorted(c.statuses)),
                counters, position, modifiers, hosts)

    _CARD_LOCALS = ("it", "this", "chosen", "target", "_subject", "_trigger_it", "_defense")

    def _referred_cards(self) -> set:
        """Cards something in progress refers to: stack entries, waiting
        effects, the cards a running program holds ("it", "this", cards
        picked so far), and per-card limits (a number in a usage key other
        than its last, the period's count). A number that is not a card
        only makes two cards look different: never the other way round."""
        state = self.state
        out: set = set()

        def add(value):
            if isinstance(value, bool):
                return
            if isinstance(value, int):
                out.add(value)
            elif isinstance(value, tuple):
                for v in value:
                    add(v)
        for entry in state.stack:
            add(entry[2])
            for key, value in entry[5]:
                if key in self._CARD_LOCALS:
                    add(value)
        for waiting in state.pending:
            add(waiting[1])
            add(waiting[3])
        for frame in state.frames:
            for key, value in frame.locals.items():
                if key in self._CARD_LOCALS or key.endswith("+"):
                    add(value)
        for key in state.usage:
            for part in key.split("|")[:-1]:
                if part.isdigit():
                    out.add(int(part))
        return out

    def pick(self, frame: Frame, selection: Selection, chooser: int, prompt: str,
             store: str):
        """Put the selected cards in ``it``; ask ``chooser`` when there is a choice."""
        locals_ = frame.locals
        if store in locals_:
            picked = locals_.pop(store)
            chosen = locals_.pop(store + "+", ())
            if picked == "done":
                locals_["it"] = chosen
                return None
            chosen = chosen + (picked,)
            how = selection.how
            if isinstance(how, tuple):
                limit = how[1]
                # (before "it" becomes the chosen cards: "2 of them" picks
                # among the cards "it" still names)
                remaining = [c for c in selection.candidates(self, frame) if c not in chosen]
                if selection.budget is not None:
                    remaining = self.within_budget(selection, frame, chosen, remaining)
                if len(chosen) < limit and remaining:
                    locals_[store + "+"] = chosen
                    done = ("done",) if how[0] == "up to" and selection.budget is None else ()
                    return self.ask(frame, chooser, "target", prompt,
                                    tuple(remaining) + done, store,
                                    tuple(self.card_label(c) for c in remaining) + tuple(
                                        "done" for _ in done))
            locals_["it"] = chosen if len(chosen) != 1 else chosen[0]
            return None
        candidates = selection.candidates(self, frame)
        how = selection.how
        if isinstance(how, tuple) and how[0] == "random":
            # "a random card": the engine picks, not a player
            pool = list(candidates)
            chosen = []
            for _ in range(min(how[1], len(pool))):
                chosen.append(pool.pop(self.state.rng.below(len(pool))))
            locals_["it"] = chosen[0] if len(chosen) == 1 else tuple(chosen)
            return None
        if selection.budget is not None:
            candidates = self.within_budget(selection, frame, (), candidates)
            if candidates and isinstance(how, tuple):
                return self.ask(frame, chooser, "target", prompt, tuple(candidates), store,
                                tuple(self.card_label(c) for c in candidates))
        if selection.given or how == "all":
            locals_["it"] = tuple(candidates) if (len(candidates) != 1 or selection.plural) \
                else candidates[0]
            return None
        if not candidates:
            locals_["it"] = ()
            return None
        if how == "one":
            if len(candidates) == 1:
                locals_["it"] = candidates[0]
                return None
            return self.ask(frame, chooser, "target", prompt, tuple(candidates), store,
                            tuple(self.card_label(c) for c in candidates))
        kind, limit = how
        if limit == 0:
            locals_["it"] = ()
            return None
        if kind == "exactly" and len(candidates) <= limit:
            locals_["it"] = tuple(candidates)
            return None
        done = ("done",) if kind == "up to" else ()
        return self.ask(frame, chooser, "target", prompt, tuple(candidates) + done, store,
                        tuple(self.card_label(c) for c in candidates) + tuple(
                            "done" for _ in done))

    def bid_for_turn(self, frame: Frame, store: str, limit: int, zone: str, stat: str):
        """Secret bids for the next turn: each player in seat order bids 0 to
        ``limit`` (the bids are shown once all are in); the highest bidder
        pays the bid from the top of their ``zone`` to their discard pile
        without triggering abilities and takes the next turn. On a tie the
        tied players pay and bid again; on a second tie they pay, then the
        top cards of their piles are compared by ``stat``, card after card
        (revealed, left in place). ``they`` is the winner."""
        state = self.state
        locals_ = frame.locals
        if store + "b" not in locals_:
            locals_[store + "p"] = tuple(self.seat_order())    # who bids
            locals_[store + "b"] = ()                          # their bids so far
            locals_[store + "r"] = 0                           # a rebid?
        if store in locals_:
            locals_[store + "b"] = locals_[store + "b"] + (locals_.pop(store),)
        bidders, bids = locals_[store + "p"], locals_[store + "b"]
        if len(bids) < len(bidders):
            player = bidders[len(bids)]
            return self.ask(frame, player, "bid", "bid in secret", tuple(range(limit + 1)),
                            store, tuple(f"bid {n}" for n in range(limit + 1)))
        state.log.append(("bids", bidders, bids))
        best = max(bids)
        leaders = [p for p, b in zip(bidders, bids) if b == best]

        def pay(player: int, amount: int) -> None:
            pile = state.zones.get((zone, player), [])
            self.quiet = True
            try:
                for _ in range(amount):
                    if not pile:
                        self.needed_card_from((zone, player))
                        return
                    self.move(pile[-1], (self.game.discard_pile, player), face_up=True)
            finally:
                self.quiet = False
        for player in leaders if len(leaders) > 1 else leaders[:1]:
            pay(player, best)
        if state.result is not None:
            return None
        leaders = [p for p in leaders if not state.out[p]]
        if len(leaders) > 1 and locals_[store + "r"] == 0:
            locals_[store + "p"], locals_[store + "b"], locals_[store + "r"] = \
                tuple(leaders), (), 1
            return self.bid_for_turn(frame, store, limit, zone, stat)
        depth = 0
        while len(leaders) > 1:
            shown = {}
            for player in leaders:
                pile = state.zones.get((zone, player), [])
                if depth < len(pile):
                    card = pile[-1 - depth]
                    op.reveal(state, card)
                    shown[player] = self.stat(card, stat)
            if not shown:
                break
            top = max(shown.values())
            leaders = [p for p in leaders if shown.get(p) == top]
            depth += 1
        winner = leaders[0]
        for key in ("p", "b", "r"):
            locals_.pop(store + key, None)
        state.usage["#next turn"] = winner
        frame.locals["they"] = winner
        frame.locals["did"] = True
        state.log.append(("note", f"player {winner + 1} goes first"))
        return None

    def choose_first_player(self, frame: Frame, store: str):
        """The player picked at random when the game started (a coin flip's
        winner) chooses who takes the first turn; the rest of the setup
        goes in the seat order from that player."""
        state = self.state
        locals_ = frame.locals
        chooser = locals_.get("first", 0)
        if store not in locals_:
            op.note(state, f"Player {chooser + 1} is picked at random to choose the "
                           "first player.")
            alive = tuple(p for p in range(state.players) if not state.out[p])
            return self.ask(frame, chooser, "first player", "choose the first player", alive,
                            store, tuple(f"Player {p + 1} goes first" for p in alive))
        first = locals_.pop(store)
        state.usage["#next turn"] = first
        state.turn_player = first
        locals_["first"] = first
        locals_["you"] = first
        return None

    def within_budget(self, selection: Selection, frame: Frame, chosen: tuple,
                      candidates: list) -> list:
        """The candidates that keep the chosen cards' total of a stat within
        the selection's budget, without a second card of one unique title."""
        stat, amount = selection.budget
        left = amount(self, frame) - sum(self.stat(c, stat) for c in chosen)
        rules = self.rules
        titles = {rules.title_of(self.state.cards[c].name) for c in chosen
                  if rules.is_unique(self.state.cards[c].name)}
        return [c for c in candidates if self.stat(c, stat) <= left and not (
            rules.is_unique(self.state.cards[c].name) and
            rules.title_of(self.state.cards[c].name) in titles)]

    def action_window(self, frame: Frame, player: int, store: str):
        """The player takes actions until they pass."""
        state = self.state
        locals_ = frame.locals
        if state.out[player]:
            return None
        count_key = store + "#"
        if store in locals_:
            choice = locals_.pop(store)
            if choice == ("pass",):
                locals_.pop(count_key, None)
                state.log.append(("pass", player))
                return None
            locals_[count_key] = locals_.get(count_key, 0) + 1
            self.start_action(player, choice)
            return JUMPED
        if locals_.get(count_key, 0) >= MAX_ACTIONS_PER_WINDOW:
            locals_.pop(count_key, None)
            state.log.append(("pass", player))
            return None
        options, labels = self.legal_actions_for(frame, player)
        if not options:
            locals_.pop(count_key, None)
            return None
        return self.ask(frame, player, "action", "take an action or pass",
                        tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))

    def priority_window(self, frame: Frame, player: int, store: str):
        """The player (the turn player) has priority: they take actions until
        they pass; then each other player in turn order may use the
        abilities usable in a rival's turn (asked only when they have one);
        after anyone's action the priority is the first player's again. The
        window ends when every player has passed in a row."""
        state = self.state
        locals_ = frame.locals
        if state.out[player]:
            return None
        whose, passes, count = store + "w", store + "p", store + "#"
        if whose not in locals_:
            locals_[whose], locals_[passes], locals_[count] = player, 0, 0
        order = [p for p in self.seat_order()]
        order = order[order.index(player):] + order[:order.index(player)] \
            if player in order else order

        def after(current: int) -> int:
            return order[(order.index(current) + 1) % len(order)] if current in order \
                else player
        if store in locals_:
            choice = locals_.pop(store)
            current = locals_[whose]
            if choice == ("pass",):
                state.log.append(("pass", current))
                locals_[passes] += 1
                locals_[whose] = after(current)
            else:
                locals_[passes] = 0
                locals_[count] += 1
                locals_[whose] = player      # "The Turn Player always has priority"
                self.start_action(current, choice)
                return JUMPED
        while True:
            if locals_[passes] >= len(order) or \
                    locals_[count] >= MAX_ACTIONS_PER_WINDOW * state.players:
                for key in (whose, passes, count):
                    locals_.pop(key, None)
                return None
            current = locals_[whose]
            options, labels = self.legal_actions_for(frame, current,
                                                     off_turn=current != player)
            if not options:
                locals_[passes] += 1         # nothing to use: no question
                locals_[whose] = after(current)
                continue
            return self.ask(frame, current, "action", "take an action or pass",
                            tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))

    def alternate(self, frame: Frame, store: str, each: int | None):
        """Players take one action at a time in seat order, the turn player
        first: until every player has passed in a row (``each`` None), or
        until each has taken ``each`` actions. A player who is out of the
        game mid-window is skipped; the next one in seat order goes on."""
        state = self.state
        locals_ = frame.locals
        seats = self.seat_order()
        if store + "@" not in locals_:
            locals_[store + "@"] = 0                      # goes so far (a cap)
            locals_[store + "w"] = seats[0]               # whose go it is
            locals_[store + "p"] = 0                      # passes in a row
            locals_[store + "n"] = tuple(0 for _ in range(state.players))

        def current() -> int:
            player = locals_[store + "w"]
            return self.next_player(player) if state.out[player] else player

        def advance(player: int) -> None:
            locals_[store + "@"] += 1
            locals_[store + "w"] = self.next_player(player)
        if store in locals_:
            choice = locals_.pop(store)
            player = current()
            if choice != ("pass",) and not self.uses_action(choice):
                # "uses an action: no" (or usable at any time): the same
                # player goes on afterwards
                self.start_action(player, choice)
                return JUMPED
            taken = list(locals_[store + "n"])
            advance(player)
            if choice == ("pass",):
                locals_[store + "p"] += 1
                state.log.append(("pass", player))
                return JUMPED
            locals_[store + "p"] = 0
            taken[player] += 1
            locals_[store + "n"] = tuple(taken)
            self.start_action(player, choice)
            return JUMPED
        while True:
            taken = locals_[store + "n"]
            done = (locals_[store + "p"] >= len(seats)) if each is None else all(
                taken[p] >= each for p in seats)
            if done or locals_[store + "@"] > MAX_ACTIONS_PER_WINDOW * state.players:
                for key in ("@", "w", "p", "n"):
                    locals_.pop(store + key, None)
                return None
            player = current()
            if each is not None and taken[player] >= each:
                advance(player)
                continue
            options, labels = self.legal_actions_for(frame, player)
            if each is None:
                options, labels = options + [("pass",)], labels + ["pass"]
            if not options:
                advance(player)
                locals_[store + "p"] += 1
                continue
            return self.ask(frame, player, "action", "take an action" + (
                " or pass" if each is None else ""), tuple(options), store, tuple(labels))

    def uses_action(self, choice: tuple) -> bool:
        """Whether a chosen action or ability is one of the player's actions
        (not "uses an action: no", not usable at any time)."""
        if choice[0] == "ability":
            card = choice[1]
            ability = self.game.activated[self.state.cards[card].name][choice[2]]
            return not self.game.any_time_ability(ability)
        decl = self.rules.actions[choice[0]]
        return not (decl.free or decl.any_time)

    def start_action(self, player: int, choice: tuple, respond: bool = True) -> None:
        """Push the program of a chosen action or activated ability. Once it
        is over, ``after_action`` runs (see there) when anything waits for
        it: modifiers lasting "until after" this player's next action, or a
        response window (``respond``: not for a play made inside one)."""
        state = self.state
        if self.uses_action(choice):
            key = f"#action:{player}"
            state.period_counts[key] = state.period_counts.get(key, 0) + 1
            ends = (key, state.period_counts[key], "end")
            expiring = any(m.until == ends for m in state.modifiers)
        else:
            expiring = False
        if expiring or (respond and self.game.any_time):
            state.frames.append(Frame("#after action", 0, {
                "you": player, "expire": expiring, "respond": respond and self.game.any_time}))
        if choice[0] == "ability":
            _, card, number = choice
            ability = self.game.activated[state.cards[card].name][number]
            if ability.once_per:
                state.usage[self.usage_key(ability, player)] = 1
            state.log.append(("activate", player, ability.label, card))
            timing = self.rules.timing(ability.label) if ability.label else None
            if timing is not None and timing.answered:
                # once it has resolved, the other players may answer in kind
                state.frames.append(Frame("answer", 0, {
                    "you": player, "label": ability.label,
                    "answerers": tuple(p for p in self.seat_order_from(player)
                                       if p != player)}))
            state.frames.append(Frame(ability.program, 0, {"you": player, "this": card,
                                                           "it": card}))
            return
        index, card = choice
        plan = self.game.actions[index]
        if plan.limit is not None:
            key = self.action_key(index, plan, card, player)
            state.usage[key] = state.usage.get(key, 0) + 1
        state.log.append(("action", player, plan.name, card))
        # an action about no card is about the place being resolved, if any
        this = card if card is not None or not state.frames else \
            state.frames[-1].locals.get("this")
        state.frames.append(Frame(plan.program, 0, {"you": player, "it": card,
                                                    "this": this}))

    def answer_window(self, frame: Frame):
        """ "answered in kind": each other player in turn may use one of their
        abilities with the label of the one just used (its limits apply), or
        pass; an answer is used (and may be answered) before the next
        player's turn to answer."""
        locals_ = frame.locals
        if "_answer" in locals_:
            choice = locals_.pop("_answer")
            player = locals_["answerers"][0]
            locals_["answerers"] = locals_["answerers"][1:]
            if choice == ("pass",):
                self.state.log.append(("pass", player))
            else:
                self.start_action(player, choice)
                return JUMPED
        label = locals_["label"]
        while locals_["answerers"]:
            player = locals_["answerers"][0]
            options, labels = self.legal_actions_for(frame, player)
            kept = [(o, l) for o, l in zip(options, labels)
                    if o[0] == "ability" and self.game.activated[
                        self.state.cards[o[1]].name][o[2]].label == label]
            if kept and not self.state.out[player]:
                return self.ask(frame, player, "respond", f"answer with your {label} or pass",
                                tuple(o for o, _ in kept) + (("pass",),), "_answer",
                                tuple(l for _, l in kept) + ("pass",))
            locals_["answerers"] = locals_["answerers"][1:]
        return None

    def seat_order_from(self, player: int) -> list[int]:
        """The players still in the game in seat order, from ``player``."""
        state = self.state
        return [(player + i) % state.players for i in range(state.players)
                if not state.out[(player + i) % state.players]]

    # ---- actions usable at any time, and the windows they are used in

    def next_action_end(self, player: int) -> tuple:
        """When a modifier lasting "until after PLAYER's next action" ends:
        the end of the next action that player starts (one that uses an
        action)."""
        key = f"#action:{player}"
        return (key, self.state.period_counts.get(key, 0) + 1, "end")

    def after_action(self, frame: Frame):
        """Once an action is over: the modifiers lasting until after this
        player's action end; then the other players, in seat order, may
        respond with actions usable at any time (if one does, the actor may
        too), until all pass in a row."""
        state = self.state
        locals_ = frame.locals
        player = locals_["you"]
        if locals_.pop("expire", False):
            key = f"#action:{player}"
            op.expire_modifiers(state, key, state.period_counts.get(key, 0), "end")
        if not locals_.get("respond") or state.result is not None:
            return None
        n = state.players
        seats = tuple((player + i) % n for i in range(1, n + 1))
        return self.any_time_window(frame, "_after", seats)

    def any_time_window(self, frame: Frame, store: str, seats: tuple | None):
        """A response window: each player of ``seats`` in turn (None: every
        player, from the turn player) may take an action usable at any time
        or pass, until all pass in a row. After an action its last seat (the
        player who acted, for the window after an action) is asked only once
        another has responded. A play in the window opens no window of its own."""
        state = self.state
        locals_ = frame.locals
        if store + "s" not in locals_:
            locals_[store + "s"] = seats if seats is not None else tuple(self.seat_order())
            locals_[store + "i"] = 0          # whose turn to respond, by seat index
            locals_[store + "p"] = 0          # passes in a row
            locals_[store + "x"] = seats is None   # everyone counts from the start
        seats = locals_[store + "s"]
        if store in locals_:
            choice = locals_.pop(store)
            player = seats[locals_[store + "i"] % len(seats)]
            locals_[store + "i"] += 1
            if choice == ("pass",):
                locals_[store + "p"] += 1
                state.log.append(("pass", player))
            else:
                locals_[store + "p"] = 0
                locals_[store + "x"] = True
                self.start_action(player, choice, respond=False)
                return JUMPED
        while True:
            quorum = len(seats) if locals_[store + "x"] else len(seats) - 1
            if locals_[store + "p"] >= quorum or \
                    locals_[store + "i"] > MAX_ACTIONS_PER_WINDOW * len(seats):
                for key in ("s", "i", "p", "x"):
                    locals_.pop(store + key, None)
                return None
            player = seats[locals_[store + "i"] % len(seats)]
            options, labels = ([], []) if state.out[player] else \
                self.legal_actions_for(frame, player, any_time_only=True)
            if not options:
                locals_[store + "i"] += 1
                locals_[store + "p"] += 1
                continue
            return self.ask(frame, player, "respond", "respond or pass",
                            tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))

    def legal_actions_for(self, frame: Frame, player: int, any_time_only: bool = False,
                          off_turn: bool = False):
        """The actions and activated abilities ``player`` may take now:
        ``any_time_only`` (a response window), only those usable at any time;
        ``off_turn`` (another player has priority), only the abilities usable
        in a rival's turn."""
        phase = self.state.period.get("phase")
        step = self.state.period.get("step")
        options, labels = [], []
        probe = Frame("probe", 0, {"you": player})
        for index, plan in enumerate(() if off_turn else self.game.actions):
            if any_time_only and not plan.any_time:
                continue
            if plan.phases and phase not in plan.phases and step not in plan.phases:
                continue
            cards = plan.choose.candidates(self, probe) if plan.choose else [None]
            for card in cards:
                if plan.limit is not None and self.action_key(index, plan, card, player) \
                        in self.state.usage and (not plan.extra or self.uses_left(
                            index, plan, card, player) <= 0):
                    continue
                if self.forbidden(player, plan.name, card):
                    continue
                probe.locals["it"] = card
                probe.locals["this"] = card if card is not None else frame.locals.get("this")
                if plan.can_pay(self, probe):
                    options.append((index, card))
                    labels.append(plan.name if card is None else
                                  f"{plan.name} {self.card_label(card)}")
        state = self.state
        if any_time_only and not self.game.any_time_abilities:
            return options, labels
        places = [(c, None) for c in self.in_play()]
        for zone in self.game.activated_zones:
            places.extend((c, zone) for c in state.zones.get((zone, player), ()))
        if self.game.used_from_zones:
            # "used from: hand, ZONE" (interpreter.combat)
            places.extend((c, None) for c in self.used_from_cards(player))
        for card, zone in places:
            if state.cards[card].controller != player or self.has_status(card, "nullified"):
                continue
            if not state.cards[card].face_up and self.game.used_from_zones:
                kind = self.rules.kind(self.definition(card).kind)
                if kind is not None and kind.used_up and \
                        state.cards[card].zone[0] not in kind.used_from and not (
                            "hand" in kind.used_from and state.cards[card].zone[0] ==
                            self.game.hand):
                    continue   # used up: face down where it is not used from
            for number, ability in enumerate(self.game.activated.get(state.cards[card].name, ())):
                if ability.zone != zone or (off_turn and not ability.off_turn):
                    continue
                if any_time_only and not self.game.any_time_ability(ability):
                    continue
                if ability.once_per and self.usage_key(ability, player) in state.usage:
                    continue
                timing = self.rules.timing(ability.label) if ability.label else None
                if timing is not None and timing.during and timing.during.lower() not in (
                        (phase or "").lower(), (step or "").lower()):
                    continue   # "during PERIOD": only in that phase or step
                probe.locals["this"] = card
                probe.locals["it"] = card
                if ability.can_pay(self, probe):
                    options.append(("ability", card, number))
                    labels.append(f"use {ability.label} of {self.card_label(card)}")
        return options, labels

    def action_key(self, index: int, plan: ActionPlan, card, player: int) -> str:
        """What an action's limit counts: its player (and card) in this period;
        actions "shared as" one name count together."""
        period, per_card = plan.limit
        shared = plan.extra[2] if plan.extra and plan.extra[2] else index
        return f"action|{shared}|{player}|{card if per_card else ''}|{period}|" \
               f"{self.state.period_counts.get(period, 0)}"

    def uses_left(self, index: int, plan: ActionPlan, card, player: int) -> int:
        """How many more times an action with extra uses ("plus its strikes,
        at most 3") may be taken now."""
        stat, cap, _shared = plan.extra[:3]
        times = plan.extra[3] if len(plan.extra) > 3 else 1     # "3 times per PERIOD"
        allowed = times + (self.stat(card, stat) if stat and card is not None else 0)
        if cap is not None:
            allowed = min(allowed, cap)
        return allowed - self.state.usage.get(self.action_key(index, plan, card, player), 0)

    def usage_key(self, ability: Activated, player: int) -> str:
        """What a once-per limit counts: the ability's card name, for the
        player using it, in this period (so every card of theirs with the
        same name shares it; the Rival's copies have their own)."""
        period = ability.once_per
        return f"{ability.key}|{ability.index or ability.program.rsplit(':', 1)[1]}|{player}|{period}|" \
               f"{self.state.period_counts.get(period, 0)}"

    # ---- changing the state (through interpreter.operations)

    def move(self, card: int, zone: tuple, top: bool = True, face_up=None,
             slot: int | None = None) -> bool | None:
        """Move a card; into a zone of slots it takes ``slot`` if that is free
        (a slot its player chose), else the first free one. False: a card of
        a kind that never leaves play stays in play, and nothing happened."""
        state = self.state
        source = state.cards[card].zone
        if source != zone and source[0] in self.game.keeping:
            state.log.append(("kept", card, source))   # "cards never leave it"
            return
        if self.game.staying_kinds and source[0] in self.game.in_play and \
                zone[0] not in self.game.in_play and \
                self.definition(card).kind in self.game.staying_kinds:
            state.log.append(("prevented", "leave play", card))   # "leaves play: never"
            return False
        if source != zone and source[0] in self.game.reshuffled:
            self.touched.add(source)
        decl = self.rules.zones.get(zone[0])
        if decl is not None and decl.slots is not None and source == zone:
            return      # already in its slot of the zone: it stays there
        if decl is not None and decl.slots is not None and source != zone and \
                len(state.zones.get(zone, ())) >= decl.slots:
            state.log.append(("full", card, zone))   # every slot taken: it stays
            return
        followed = self.game.track_counters.get(source[0]) if source != zone else None
        below = state.zones[source].index(card) if followed else None
        op.move(state, card, zone, top=top, face_up=face_up)
        if followed:
            # a position stays at its place: a place below it leaving the
            # zone brings it down by one
            for player in range(state.players):
                for counter in followed:
                    value = state.counter(player, counter)
                    if value > below:
                        self.set_counter(player, counter, value - 1)
        if decl is not None and decl.slots is not None and source != zone:
            self.take_slot(card, zone, decl.slots, slot)
        if "#waiting" in state.usage and source != zone:
            # a place leaving its zone: what waited for it is lost
            kept = tuple(w for w in state.usage["#waiting"] if w[2] != card)
            if kept:
                state.usage["#waiting"] = kept
            else:
                del state.usage["#waiting"]
        self.after_move(card, source, zone)

    # ---- slots: places of one card each; paired zones share their places

    def slot_of(self, card: int) -> int:
        """The slot a card holds in its zone (a card put there by a position
        holds the slot of its place in the list)."""
        c = self.state.cards[card]
        stored = c.counter("slot")
        if stored:
            return stored - 1
        pile = self.state.zones.get(c.zone, ())
        return pile.index(card) if card in pile else -1

    def take_slot(self, card: int, zone: tuple, slots: int, wanted: int | None = None) -> None:
        """The slot wanted (chosen by its player) if it is free, else the
        lowest free slot; a card entering a paired zone next to a card in the
        same slot of the other is paired with it (an event for both)."""
        state = self.state
        taken = {self.slot_of(c) for c in state.zones.get(zone, ()) if c != card}
        free = [n for n in range(slots + 1) if n not in taken]
        if wanted is not None and wanted in free:
            slot = wanted
        else:
            # in a paired zone, a free slot next to a card of the other zone
            # first (so that the card entering is paired, as putting it there means)
            partners = self.partner_slots(zone)
            slot = next((n for n in free if n in partners), free[0])
        op.set_card_counter(state, card, "slot", slot + 1)
        self.refresh_pairs()
        for first, second, status in self.game.pairs:
            if zone[0] not in (first, second):
                continue
            other = (second if zone[0] == first else first, zone[1])
            for partner in state.zones.get(other, ()):
                if self.slot_of(partner) == slot and status:
                    self.event(status, card, zone[1])
                    self.event(status, partner, zone[1])

    def shuffle_touched(self) -> None:
        """Shuffle the zones "shuffled after an effect takes cards from it"
        that the step just done took cards from."""
        if self.touched:
            for zone in sorted(self.touched):
                op.shuffle(self.state, zone)
            self.touched.clear()

    def partner_slots(self, zone: tuple) -> dict:
        """slot -> the card in that slot of the zones paired with ``zone``."""
        found = {}
        for first, second, _status in self.game.pairs:
            if zone[0] in (first, second):
                other = (second if zone[0] == first else first, zone[1])
                for c in self.state.zones.get(other, ()):
                    found[self.slot_of(c)] = c
        return found

    def free_slots(self, zone: tuple, slots: int, also_taken=()) -> list[int]:
        taken = {self.slot_of(c) for c in self.state.zones.get(zone, ())}
        taken.update(also_taken)
        return [n for n in range(slots) if n not in taken]

    def wanted_slot(self, frame: Frame, card: int) -> int | None:
        """The slot chosen for ``card`` by the step moving it (see choose_slots)."""
        for chosen, slot in frame.locals.get("#slots", ()):
            if chosen == card:
                return slot
        return None

    def choose_slots(self, frame: Frame, store: str, zone_of: Callable, near, asks: bool):
        """Before cards (``it``) enter a zone of slots: the slot each takes.
        With more than one free slot the zone's player chooses (when the zone
        says so), the options naming each slot and the card paired with it;
        with one, it is taken without a question. ``near`` (a destination
        "next to" cards) leaves only the free slots paired with one of them;
        a card with none stays where it is (it is taken out of ``it``).
        The slots go to ``#slots`` for the move."""
        locals_ = frame.locals
        state = self.state
        it = locals_.get("it")
        cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
        placed = locals_.pop(store + "s", ())
        if store in locals_:
            placed = placed + ((cards[len(placed)], locals_.pop(store)),)
        while len(placed) < len(cards):
            card = cards[len(placed)]
            zone = zone_of(self, frame, card)
            decl = self.rules.zones[zone[0]]
            if state.cards[card].zone == zone or state.cards[card].zone[0] in self.game.keeping:
                # already there (it keeps its slot), or where cards never leave
                placed = placed + ((card, None),)
                continue
            free = self.free_slots(zone, decl.slots, [
                s for c, s in placed if s is not None and s >= 0 and
                zone_of(self, frame, c) == zone])
            partners = self.partner_slots(zone)
            if near is not None:
                wanted = set(near.candidates(self, frame))
                free = [n for n in free if partners.get(n) in wanted]
                if not free:
                    placed = placed + ((card, -1),)    # nowhere next to them: it stays
                    continue
            if len(free) == 1 or (free and not asks):
                placed = placed + ((card, free[0]),)
                continue
            if not free:
                placed = placed + ((card, None),)      # every slot taken: the move says so
                continue
            locals_[store + "s"] = placed
            chooser = zone[1] if zone[1] >= 0 else locals_["you"]
            labels = tuple(f"{zone[0]} {n + 1}" + (
                f", next to {self.card_label(partners[n])}" if n in partners else "")
                for n in free)
            return self.ask(frame, chooser, "slot",
                            f"choose a slot for {state.cards[card].name}",
                            tuple(free), store, labels)
        stays = [c for c, s in placed if s == -1]
        if stays:
            kept = tuple(c for c in cards if c not in stays)
            locals_["it"] = kept if isinstance(it, tuple) else (kept[0] if kept else ())
        locals_["#slots"] = tuple((c, s) for c, s in placed if s is not None and s >= 0)
        return None

    def refresh_pairs(self) -> None:
        """Cards sharing a place of paired zones have the pair's status; the
        others lose it."""
        state = self.state
        for first, second, status in self.game.pairs:
            if not status:
                continue
            for player in range(state.players):
                a = state.zones.get((first, player), ())
                b = state.zones.get((second, player), ())
                slots_a = {self.slot_of(c) for c in a}
                slots_b = {self.slot_of(c) for c in b}
                for cards, others in ((a, slots_b), (b, slots_a)):
                    for card in list(cards):
                        op.set_status(state, card, status, self.slot_of(card) in others)

    def same_place(self, card: int, other: int) -> bool:
        """Whether two cards hold the same slot of one zone or of two paired
        zones of the same player (a card is in its own place)."""
        if card == other:
            return True
        state = self.state
        # a card attached to another is at its host's place
        host_a, host_b = state.cards[card].attached_to, state.cards[other].attached_to
        if card == host_b or other == host_a or (host_a is not None and host_a == host_b):
            return True
        a, b = state.cards[card].zone, state.cards[other].zone
        if a[1] != b[1]:
            return False
        if a[0] != b[0] and not any({a[0], b[0]} == {p[0], p[1]} for p in self.game.pairs):
            return False
        if a[0] == b[0]:
            return False
        return self.slot_of(card) == self.slot_of(other)

    def has_status(self, card: int, status: str) -> bool:
        """A status the card has: set on it, given by a modifier ("it is fresh
        until your next turn"), or the status of paired cards."""
        c = self.state.cards[card]
        if status in c.statuses:
            return True
        for first, second, paired in self.game.pairs:
            if paired == status and c.zone[0] in (first, second):
                other = (second if c.zone[0] == first else first, c.zone[1])
                slot = self.slot_of(card)
                if any(self.slot_of(p) == slot for p in self.state.zones.get(other, ())):
                    return True
        for modifier in self.state.modifiers:
            if modifier.target == card and modifier.kind == "status" and modifier.name == status:
                return True
        return False

    # ---- combat declarations

    def sacrifice_cards(self, frame: Frame, stat: str):
        """The cards in play of the acting player named by the chosen card's
        card-names stat (one for each name listed), or None if any is missing."""
        state = self.state
        card = frame.locals.get("it")
        if card is None:
            return None
        names = self.definition(card).stat(stat)
        if not names or not isinstance(names, tuple):
            return None
        you = frame.locals["you"]
        mine = [c for c in self.in_play() if state.cards[c].controller == you and c != card]
        picked = []
        for name in names:
            found = next((c for c in mine if state.cards[c].name == name and c not in picked),
                         None)
            if found is None:
                return None
            picked.append(found)
        return picked

    def sacrifice(self, frame: Frame, stat: str) -> None:
        for card in self.sacrifice_cards(frame, stat) or ():
            owner = self.state.cards[card].owner
            self.move(card, (self.game.discard_pile, owner), face_up=True)
            self.event("sacrificed", card, owner)

    def resolve_now(self, frame: Frame):
        """Resolve what the last events triggered before going on."""
        self.collect_triggers()
        state = self.state
        if self.rules.resolution is None or not (state.pending or state.stack):
            return None
        frame.pc += 1
        state.frames.append(Frame("resolve", 0, {}))
        return JUMPED

    def end_roles(self, frame: Frame, role, target_role) -> None:
        """The attack is over: its cards lose their roles."""
        for key, status in (("chosen", role), ("target", target_role)):
            card = frame.locals.get(key)
            if status and isinstance(card, int) and status in self.state.cards[card].statuses:
                self.set_status(card, status, False)

    def used_up(self, card: int, zone: str) -> None:
        """A card whose kind is used up after use goes to its owner's zone."""
        c = self.state.cards[card]
        if c.zone[0] in self.game.in_play:
            self.move(card, (zone, c.owner), face_up=True)

    # ---- counters that may be overspent

    def cost_of(self, card, counter: str, amount: int) -> int:
        """What paying ``amount`` of ``counter`` for ``card`` costs once the
        card's cost changes apply ("costs 1 less Mana": modifiers and
        continuous abilities); never below 0 (then the card is free)."""
        if not isinstance(card, int):
            return max(0, amount)
        change = 0
        for modifier in self.state.modifiers:
            if modifier.target == card and modifier.kind == "cost" and modifier.name == counter:
                change += modifier.amount
        for _kind, value in self.continuous(card, ("cost", counter)):
            change += value
        return max(0, amount + change)

    def overspend_key(self, player: int, counter: str) -> str:
        return f"overspent|{player}|{counter}|{self.state.period_counts.get('turn', 0)}"

    def can_pay(self, player: int, counter: str, amount: int) -> bool:
        decl = self.rules.counters.get(counter)
        if decl is not None and decl.overspend_to:
            return amount <= 0 or self.overspend_key(player, counter) not in self.state.usage
        return self.state.counter(player, counter) >= amount

    def overspend(self, player: int, counter: str, amount: int, to: str) -> bool:
        """Pay ``amount``; what the player does not have is given to the
        rival's ``to`` counter, and the counter is locked for the turn."""
        if amount <= 0:
            return True
        state = self.state
        key = self.overspend_key(player, counter)
        if key in state.usage:
            return False
        have = state.counter(player, counter)
        if amount <= have:
            self.set_counter(player, counter, have - amount)
            return True
        self.set_counter(player, counter, 0)
        rival = self.rival_of(player)
        self.set_counter(rival, to, state.counter(rival, to) + amount - have)
        state.usage[key] = 1
        state.log.append(("overspent", player, counter, amount - have))
        return True

    def after_move(self, card: int, source: tuple, zone: tuple) -> None:
        """What a move brings with it: a card leaving play takes the cards
        attached to it along (to their owners' discard piles); a zone that
        names an event for the cards entering it fires it (unless the move is
        made "without triggering abilities")."""
        state = self.state
        moved = state.cards[card]
        if moved.attached_to is not None and source != zone:
            moved.attached_to = None
            moved.controller = moved.owner
        if source[0] in self.game.in_play and source != zone and self.game.attaching:
            for other in state.cards:
                if other.attached_to == card and other.zone == source:
                    self.move(other.id, (self.game.discard_pile, other.owner), face_up=True)
        if self.game.pairs and source != zone and any(
                source[0] in p[:2] for p in self.game.pairs):
            self.refresh_pairs()           # a card left a place: its partner is alone
        event = self.game.entry_events.get(zone[0])
        if event is not None and not self.quiet:
            self.event(event, card, moved.owner)

    def attach(self, card: int, host: int) -> None:
        """Put ``card`` with ``host``: in its zone, under its controller."""
        state = self.state
        target = state.cards[host]
        source = state.cards[card].zone
        if source != target.zone:
            op.move(state, card, target.zone, face_up=True)
            self.after_move(card, source, target.zone)
        state.cards[card].attached_to = host
        state.cards[card].controller = target.controller
        self.game.attaching = True
        state.log.append(("attach", card, host))

    def play_program_for(self, card: int, player: int, paying: bool) -> str | None:
        """Which action that counts as "played" plays this card (the first
        whose choice accepts it, wherever it is): its program, with its
        cost when "paying all costs", else without."""
        probe = Frame("probe", 0, {"you": player, "this": card, "it": card})
        for plan, decl in zip(self.game.actions, self.rules.actions):
            if decl.event != "played" or plan.choose is None or plan.choose.test is None:
                continue
            if plan.choose.test(self, probe, card):
                return plan.program if paying else plan.program + ":free"
        return None

    def needed_card_from(self, zone: tuple) -> None:
        """A player needed a card from an empty pile: if the zone says so,
        they lose."""
        decl = self.rules.zones.get(zone[0])
        if decl is not None and decl.empty_loses and zone[1] >= 0 and \
                not self.state.out[zone[1]]:
            self.lose(zone[1], f"needed a card from an empty {zone[0]}")

    def player_with_most(self, counter: str):
        """The one player with more of ``counter`` than any other; None on a tie."""
        state = self.state
        alive = [p for p in range(state.players) if not state.out[p]]
        best = max((state.counter(p, counter) for p in alive), default=None)
        leaders = [p for p in alive if state.counter(p, counter) == best]
        return leaders[0] if len(leaders) == 1 else None

    def unique_title_in_play(self, card: int, player: int) -> bool:
        """Whether ``player`` controls in play a unique card with the title
        of ``card`` (only unique cards have such a limit)."""
        rules = self.rules
        state = self.state
        name = state.cards[card].name
        if not rules.is_unique(name):
            return False
        title = rules.title_of(name)
        return any(state.cards[c].controller == player and c != card and
                   rules.title_of(state.cards[c].name) == title for c in self.in_play())

    def player_count(self, player: int, name: str) -> int:
        """A player's counter; for a counter kept "on cards, per player", the
        number of theirs on the cards in play."""
        decl = self.rules.counters.get(name)
        if decl is not None and decl.per_player:
            key = counter_on_card(decl.name, player)
            return sum(self.state.cards[c].counter(key) for c in self.in_play())
        return self.state.counter(player, name)

    def add_card_counter(self, card: int, name: str, amount: int) -> None:
        op.set_card_counter(self.state, card, name, self.state.cards[card].counter(name) + amount)

    def draw(self, player: int, count: int) -> int:
        pile = self.state.zones.get((self.game.draw_pile, player), [])
        drawn = 0
        for _ in range(count):
            if not pile:
                self.needed_card_from((self.game.draw_pile, player))
                break
            card = pile[-1]
            op.move(self.state, card, (self.game.hand, player), face_up=False)
            self.event("drawn", card, player)
            drawn += 1
        return drawn

    def discard(self, card: int) -> None:
        if self.prevented("be discarded", card) or self.replaced("discarded", card):
            return
        owner = self.state.cards[card].owner
        if self.move(card, (self.game.discard_pile, owner), face_up=True) is False:
            return
        self.event("discarded", card, owner)

    def destroy(self, card: int) -> None:
        if self.prevented("be destroyed", card) or self.replaced("destroyed", card):
            return
        owner = self.state.cards[card].owner
        if self.move(card, (self.game.discard_pile, owner), face_up=True) is False:
            return
        self.event("destroyed", card, owner)

    def prevented(self, what: str, card: int) -> bool:
        """Whether the card "can't" undergo this ("be destroyed"): then the
        operation does not happen, and the log says why."""
        if self.forbidden(self.state.cards[card].controller, what, card):
            self.state.log.append(("prevented", what, card))
            return True
        return False

    def discard_cards(self, cards) -> None:
        """Discard the cards one step discards: a replacement whose subject
        is plural ("If your face-up cards ... would be discarded") takes the
        place of discarding all those it applies to at once; the others are
        discarded one by one."""
        if self.game.replacements:
            cards = self.replaced_together("discarded", cards)
        for card in cards:
            self.discard(card)

    def replaced_together(self, event: str, cards) -> tuple:
        """Queue the replacements for ``event`` that apply to several of the
        cards together (each with "it" all the cards it takes); returns the
        cards left to the event."""
        state = self.state
        left = tuple(cards)
        sources = set(self.in_play()) | set(left)
        for source in sorted(sources):
            for replacement in self.game.replacements.get(state.cards[source].name, ()):
                if replacement.event != event or not replacement.together:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                taken = tuple(c for c in left if replacement.test(self, probe, c)
                              and not self.forbidden(state.cards[c].controller,
                                                     "be " + event, c))
                if not taken:
                    continue
                for card in taken:
                    state.log.append(("replace", event, card, source))
                state.pending_replacements = state.pending_replacements + (
                    (replacement.program, source, state.cards[source].controller, taken),)
                left = tuple(c for c in left if c not in taken)
        return left

    def replaced(self, event: str, card: int) -> bool:
        """Whether a replacement ability takes the place of this event: its
        program is queued to run next, and the event does not happen."""
        state = self.state
        if not self.game.replacements:
            return False
        sources = set(self.in_play())
        sources.add(card)
        for source in sorted(sources):
            for replacement in self.game.replacements.get(state.cards[source].name, ()):
                if replacement.event != event:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                if replacement.test(self, probe, card):   # alone: a group of one
                    state.log.append(("replace", event, card, source))
                    state.pending_replacements = state.pending_replacements + (
                        (replacement.program, source, state.cards[source].controller, card),)
                    return True
        return False

    def damage_card(self, card: int, amount: int, battle: bool = False) -> int:
        """Damage on a card; effect damage (not battle damage) stops at a
        card that "can't be damaged by effects". A card whose damage reaches
        a stat "a card with damage at least its X is destroyed" is destroyed;
        returns the damage past that stat (the excess)."""
        state = self.state
        if not battle and self.forbidden(state.cards[card].controller,
                                         "be damaged by effects", card):
            state.log.append(("prevented", "be damaged by effects", card))
            return 0
        before = state.cards[card].counter("damage")
        op.set_card_counter(state, card, "damage", before + amount)
        for stat in self.rules.stats.values():
            if stat.lethal_damage:
                limit = self.stat(card, stat.name)
                if before + amount >= limit:
                    excess = before + amount - max(limit, before)
                    self.destroy(card)
                    return max(0, min(amount, excess))
        return 0

    def set_counter(self, player: int, name: str, value: int) -> None:
        decl = self.rules.counters.get(name)
        if decl is not None:
            if decl.minimum is not None:
                value = max(value, decl.minimum)
            if decl.maximum is not None:
                value = min(value, decl.maximum)
        op.set_counter(self.state, player, name, value)

    def set_status(self, card: int, status: str, on: bool) -> None:
        if on and status in self.rules.again_destroys and \
                status in self.state.cards[card].statuses:
            self.state.log.append(("again", status, card))
            self.destroy(card)     # "status S: again destroys"
            return
        op.set_status(self.state, card, status, on)

    def flip(self, card: int, up: bool) -> None:
        """Turn a card; a card turned over is the event "flipped face up" (or
        down) that triggers see ("Whenever a Trap you control is flipped face up")."""
        was = self.state.cards[card].face_up
        op.flip(self.state, card, up)
        if was != up:
            self.event("flipped_face_up" if up else "flipped_face_down", card,
                       self.state.cards[card].controller)

    def reveal(self, card: int, to_player: int = -1) -> None:
        """Show a card to every player (or to ``to_player`` only)."""
        op.reveal(self.state, card, to_player)

    def shuffle(self, zone: tuple) -> None:
        op.shuffle(self.state, zone)

    def start_period(self, kind: str, name: str) -> None:
        """A phase or step begins (its end: ``end_period``)."""
        op.period(self.state, kind, name, "start")

    def event(self, name: str, card, player: int) -> None:
        self.state.log.append(("event", name, card, player))

    def win(self, player: int, reason: str) -> None:
        op.end_game(self.state, ("win", player, reason))
        raise GameOver

    def lose(self, player: int, reason: str) -> None:
        self.eliminate(player, reason)
        if self.state.result is not None:
            raise GameOver

    def draw_game(self, reason: str) -> None:
        op.end_game(self.state, ("draw", reason))


# ---------------------------------------------------------------- the step API


class Match:
    """One game being played, driven one decision at a time."""

    def __init__(self, game: CompiledGame, state: GameState):
        self.game = game
        self.state = state

    @classmethod
    def start(cls, game: CompiledGame, decks: list, seed: int = 0) -> "Match":
        """A new game: one deck per player (a Deck), shuffled by the rules'
        setup, with the seeded generator."""
        rules = game.rules
        players = len(decks)
        if not rules.players_min <= players <= rules.players_max:
            raise CouldNotRun(Problem(
                "E804", f"{rules.title} is for {rules.players_min} to {rules.players_max} "
                f"players, not {players}"))
        state = GameState(players, seed)
        for player, deck in enumerate(decks):
            for index, (part_name, entries) in enumerate(deck.parts):
                place = game.starting_place(part_name, index)
                if place is None:
                    continue  # a part kept outside the game, such as a side deck
                zone_name, face_up = place
                key = (zone_name, -1 if rules.zones[zone_name].scope == "shared" else player)
                pile = state.zones.setdefault(key, [])
                for entry in entries:
                    for _ in range(entry.count):
                        card = CardState(len(state.cards), entry.name, player, key)
                        if face_up:
                            card.face_up = True
                        state.cards.append(card)
                        pile.append(card.id)
            for counter in rules.counters.values():
                if counter.scope == "player" and counter.start is not None:
                    state.player_counters[player][counter.name] = counter.start
        first = state.rng.below(players)
        state.turn_player = first
        # when the setup has the player picked at random choose the first
        # player, who goes first is not known yet
        state.log.append(("start", players, seed, None if game.first_chosen else first))
        state.frames.append(Frame("game", 0, {"you": first, "first": first}))
        match = cls(game, state)
        match._advance()
        return match

    @classmethod
    def from_position(cls, game: CompiledGame, players: int, seed: int, zones: dict,
                      counters: dict, turn: int, turn_player: int, phase: str,
                      first_player: int | None = None) -> "Match":
        """A game set up at a given moment instead of from the start.

        ``zones`` maps (zone, player) to card names listed from the top, each
        with the statuses it has; ``counters`` maps (player, counter) to a
        value; play starts at the beginning of ``phase`` of turn ``turn``;
        ``first_player`` took the game's first turn (the turn player if not
        given).
        """
        rules = game.rules
        state = GameState(players, seed)
        for (zone, player), cards in zones.items():
            key = (zone, -1 if rules.zones[zone].scope == "shared" else player)
            pile = state.zones.setdefault(key, [])
            for name, extras in reversed(cards):   # listed top first
                card = CardState(len(state.cards), name, max(player, 0), key,
                                 face_up=rules.zones[zone].visibility == "public")
                statuses = []
                for extra in extras:
                    if extra == "face down":
                        card.face_up = False
                    elif extra == "face up":
                        card.face_up = True
                    elif isinstance(extra, tuple):
                        card.counters = card.counters + ((extra[1], extra[2]),)
                    else:
                        statuses.append(extra)
                card.statuses = tuple(statuses)
                state.cards.append(card)
                pile.append(card.id)
        for player in range(players):
            for counter in rules.counters.values():
                if counter.scope == "player" and counter.start is not None:
                    state.player_counters[player][counter.name] = counter.start
        for (player, name), value in counters.items():
            state.player_counters[player][name] = value
        state.turn = turn
        state.turn_player = turn_player
        state.usage["#first player"] = turn_player if first_player is None else first_player
        state.period_counts["turn"] = turn
        state.period["turn"] = "turn"
        if phase in game.step_phase:      # starting at a step: inside its phase
            state.period["phase"] = game.step_phase[phase]
            state.period_counts[game.step_phase[phase]] = 1
        state.log.append(("position", players, seed, turn, turn_player, phase))
        if game.pairs:
            Machine(game, state).refresh_pairs()
        state.frames.append(Frame("game", game.phase_starts[phase],
                                  {"you": turn_player, "first": turn_player}))
        match = cls(game, state)
        match._advance()
        return match

    def _advance(self) -> None:
        Machine(self.game, self.state).run()

    # ---- OpenSpiel-shaped API

    def current_player(self) -> int:
        """The player to decide, or -4 (OpenSpiel's terminal) when over."""
        if self.state.result is not None or self.state.decision is None:
            return -4
        return self.state.decision.player

    def is_terminal(self) -> bool:
        return self.state.result is not None

    def legal_actions(self) -> list[int]:
        decision = self.state.decision
        if decision is None or self.state.result is not None:
            return []
        return list(range(len(decision.options)))

    def apply_action(self, action: int) -> None:
        decision = self.state.decision
        if decision is None:
            raise CardrulesError(Problem("E805", "the game is over: no decision to answer"))
        if not 0 <= action < len(decision.options):
            raise CardrulesError(Problem(
                "E806", f"illegal action {action}: the legal actions are 0 to "
                f"{len(decision.options) - 1}"))
        label = decision.labels[action] if decision.labels else str(decision.options[action])
        self.state.log.append(("choice", decision.player, decision.kind, decision.prompt,
                               label))
        frame = self.state.frames[-1]
        frame.locals[decision.store] = decision.options[action]
        self.state.decision = None
        self._advance()

    def action_to_string(self, action: int) -> str:
        decision = self.state.decision
        if decision is None:
            return str(action)
        if decision.labels:
            return decision.labels[action]
        return str(decision.options[action])

    def returns(self) -> list[float]:
        result = self.state.result
        n = self.state.players
        if result is None or result[0] == "draw":
            return [0.0] * n
        return [1.0 if p == result[1] else -1.0 for p in range(n)]

    def clone(self) -> "Match":
        return Match(self.game, self.state.clone())

    def observation(self, player: int) -> dict:
        """What ``player`` may see: public zones, their own private zones, the
        sizes of hidden ones, counters, and the decision if it is theirs. A
        face-down card in a public zone is "a face-down card" (at its place)
        to the players who do not control it, unless it has two faces."""
        state = self.state
        rules = self.game.rules
        zones = {}
        for (name, owner), cards in state.zones.items():
            decl = rules.zones.get(name)
            visible = decl is None or decl.visibility == "public" or (
                decl.visibility == "private" and owner == player)
            key = f"{name}/{owner}" if owner >= 0 else name
            if not visible:
                zones[key] = len(cards)
                continue
            shown = []
            for c in cards:
                card = state.cards[c]
                if card.face_up or card.controller == player or \
                        two_faced(card.name, rules, self.game.cards):
                    shown.append(card.name)
                else:
                    # a face-down card: that it is there (and where) is public
                    host = card.attached_to
                    shown.append("a face-down card" + (
                        f" at {state.cards[host].name}" if host is not None else ""))
            zones[key] = shown
        decision = state.decision
        return {
            "player": player,
            "turn": state.turn,
            "turn_player": state.turn_player,
            "counters": [dict(c) for c in state.player_counters],
            "zones": zones,
            "decision": None if decision is None or decision.player != player else {
                "prompt": decision.prompt, "options": list(decision.labels)},
            "result": state.result,
        }

    def game_over_by_cap(self, reason: str) -> None:
        op.end_game(self.state, ("draw", reason))

    def narration(self, viewer: int | None = None) -> list[str]:
        return list(narrate(self.state, self.game.rules, viewer, cards=self.game.cards))

    def log_digest(self) -> str:
        return hashlib.sha256(repr(self.state.log).encode()).hexdigest()
