"""The machine: runs a state's frames until a player must decide something
(a pending decision) or the game ends.

After every instruction it checks the state rules (a counter at which a
player loses, a zone without cards, cards that win) and the triggers;
hard caps on events, nesting and turns (``limits``) end a game that would
not end as a draw with the reason. It also begins and ends turns and
periods, and knows the players' seats.

Every helper a compiled instruction calls is a method of the
:class:`Machine`, by concern in the classes it is made of: ``triggers``,
``resolution``, ``windows``, ``combat``, ``decisions``, ``places``,
``slots``, ``views`` and ``changes``.
"""

from __future__ import annotations

from interpreter.compiler.compiled import CompiledGame
from interpreter.compiler.program import WAIT
from interpreter.engine import operations as op
from interpreter.engine.changes import Changes
from interpreter.engine.combat import CombatWindows
from interpreter.engine.decisions import Decisions
from interpreter.engine.events import PLACE_EVENTS, CounterChanged, Moved, PlayerOut
from interpreter.engine.limits import MAX_EVENTS, MAX_STEPS, MAX_TURNS, GameOver
from interpreter.engine.places import Places
from interpreter.engine.resolution import Resolution
from interpreter.engine.slots import Slots
from interpreter.engine.state import Frame, GameState
from interpreter.engine.triggers import Triggers
from interpreter.engine.views import Views
from interpreter.engine.windows import Windows
from interpreter.language.game_rules import GameRules

# (players, turn player) -> every seat in turn order: asked at every step of
# "each player ..." (a fixed, small set of answers)
_SEAT_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}


class Machine(Triggers, Resolution, Windows, CombatWindows, Decisions, Places, Slots,
              Views, Changes):
    """Runs a state's frames; every helper an instruction calls is here (by
    concern, in the classes it is made of)."""

    __slots__ = ("game", "state", "steps", "_asking", "_in_play", "quiet", "_continuous_seen",
                 "touched", "_granting", "_in_force", "unasked", "_modifier_index",
                 "_sources_kept", "running_depth")

    def __init__(self, game: CompiledGame, state: GameState):
        self.game = game
        self.state = state
        self.steps = 0
        self._asking: set = set()
        # how many frames were there as the instruction now running began:
        # frames above them were pushed by it and have not started (a
        # replacement queued by a draw; Changes._replacing_now)
        self.running_depth = 1 << 30
        self._granting = False    # finding the keywords effects give (Views.abilities_in_force)
        # its answer, at this many events, and what it was worked out from
        # (Views.abilities_in_force)
        self._in_force: tuple[int, list, tuple] = (-1, [], ())
        # the sources of each kind of continuous change, for one answer of it
        self._sources_kept: tuple[list | None, dict] = (None, {})
        self._in_play = None
        self._modifier_index: tuple = (None, {}, {}, {}, [])   # Views._index_modifiers
        # What continuous abilities give, per (card, wanted), valid while the
        # log has this many events (every change of state is an event).
        self._continuous_seen: tuple[int, dict] = (-1, {})
        self.quiet = False    # moves "without triggering abilities" (one instruction)
        self.touched: set = set()   # zones an effect took cards from, to shuffle after it
        # Choices made without asking (one option only), as (player, label):
        # read by the ruling runner, so that a script may name them; never
        # part of the state (a game plays the same whether anyone reads it).
        self.unasked: list = []

    def start_over(self) -> None:
        """Ready to run again after a decision: what one run keeps is
        forgotten; what is derived from the state (kept until what it is
        derived from changes) stays."""
        self.steps = 0
        self._asking = set()
        self._granting = False
        self.quiet = False
        self.touched = set()
        self.unasked = []

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
                self.running_depth = len(frames)
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
            self.running_depth = len(frames)
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
            for program, source, controller, card, *amount in reversed(
                    state.pending_replacements):
                frame = Frame(program, 0, {"you": controller, "this": source, "it": card})
                if amount:
                    frame.locals["amount"] = amount[0]
                state.frames.append(frame)
            state.pending_replacements = ()
        if len(state.log) > MAX_EVENTS:
            self.draw_game(f"more than {MAX_EVENTS} events")
            return
        if state.cursor < len(state.log):
            # state rules look at counters: only a counter event can change them
            if self.game.together_steps and any("#together" in f.locals
                                                for f in state.frames):
                # a step done to several players at once ("Deal 2 damage to
                # each player"): state rules and triggers look once it is done
                return
            if self._state_may_have_changed():
                self.state_rules()
            if state.result is None:
                self.collect_triggers()

    # ---- state rules

    def _state_may_have_changed(self) -> bool:
        """Whether the events since the cursor may change what the state rules
        see: a counter changed (a player at 0 Life), a card moved (a zone a
        player loses without), a card's place, controller, kind or status
        changed when the game has rules of its own that read only those ("If
        a player controls no creatures, ..."), any change of state when it
        has rules that may read more."""
        state = self.state
        game = self.game
        log = state.log
        started = state.turn > 0
        any_change = game.state_rules_read_all and started
        places = bool(game.state_rules) and started
        moves = bool(game.none_loses) and started
        for index in range(state.cursor, len(log)):
            kind = log[index].kind
            if kind == CounterChanged.KIND or (any_change and log[index].CHANGES_STATE) or (
                    places and kind in PLACE_EVENTS) or (moves and kind == Moved.KIND):
                return True
        return False

    def state_rules(self) -> None:
        state = self.state
        losers = {}
        for zone in self.game.none_loses:
            # "a player with no cards in it loses", once the game is set up
            for player in range(state.players):
                if not state.out[player] and player not in losers and state.turn > 0 and \
                        not state.zones.get((zone, player)):
                    losers[player] = f"no cards in their {zone}"
        if self.game.state_rules and state.turn > 0 and not losers:
            self.rules_in_force()
            if state.result is not None:
                return
        for counter in self.rules.counters.values():
            if counter.loses_at is None or counter.scope != "player":
                continue
            for player in range(state.players):
                if not state.out[player] and player not in losers and \
                        state.counter(player, counter.name) <= counter.loses_at:
                    losers[player] = f"{counter.name} {state.counter(player, counter.name)}"
        if losers:
            # players who lose together lose at once: when no one is left,
            # the game is a draw
            self.eliminate_together(losers)
            if state.result is not None:
                return
        for counter in self.game.winning_counters:
            # "a player at 20 or more wins": the one with the most of it; a
            # tie for the most is a draw
            reached = [p for p in range(state.players) if not state.out[p] and
                       state.counter(p, counter.name) >= counter.wins_at]
            if reached:
                best = max(state.counter(p, counter.name) for p in reached)
                leaders = [p for p in reached if state.counter(p, counter.name) == best]
                op.end_game(state, ("win", leaders[0], f"{counter.name} {best}")
                            if len(leaders) == 1 else
                            ("draw", f"players reached {best} {counter.name} together"))
                return

    def rules_in_force(self) -> None:
        """The game's state rules ("If a player has no cards in their X, they
        lose the game."), checked from the first turn on: each whose condition
        holds runs its steps, once for each player it holds for when it says
        "a player" (unless those steps are already running for them)."""
        state = self.state
        running = None         # the rules' steps running now, looked up once one holds
        sources = dict(self.rule_cards())
        for rule in self.game.state_rules:
            source = sources[rule.card]
            players = [p for p in range(state.players) if not state.out[p]] \
                if rule.per_player else [state.turn_player]
            for player in players:
                frame = Frame(rule.program, 0, {"you": player, "they": player,
                                                "this": source})
                if not rule.test(self, frame):
                    continue
                if running is None:
                    running = {(f.program, f.locals.get("they")) for f in state.frames}
                if (rule.program, player) in running:
                    continue
                state.frames.append(frame)
                running.add((rule.program, player))

    def eliminate(self, player: int, reason: str) -> None:
        """The player is out of the game; the last one left wins. What the
        player was doing (the effects running as them, on top of the
        frames) stops with them: the others play on."""
        self.eliminate_together({player: reason})

    def eliminate_together(self, losers: dict[int, str]) -> None:
        """Players who lose at the same time (``losers``: player -> reason)
        are out together: with one player left, that player wins; with
        none, the game is a draw."""
        state = self.state
        for player, reason in losers.items():
            state.out[player] = True
            state.log.append(PlayerOut(player, reason))
        alive = [p for p in range(state.players) if not state.out[p]]
        if len(alive) == 1:
            player, reason = next(iter(losers.items()))
            op.end_game(state, ("win", alive[0], f"player {player + 1} lost: {reason}"))
        elif not alive:
            op.end_game(state, ("draw", "every player lost at once"))
        else:
            frames = state.frames
            while len(frames) > 1 and frames[-1].program != "game" and \
                    frames[-1].locals.get("you") in losers:
                frames.pop()

    # ---- game-level steps

    def take_next_turn(self, player: int) -> None:
        """``player`` takes the next turn, whatever the seat order says."""
        self.state.next_turn = player

    def begin_turn(self, frame: Frame) -> None:
        state = self.state
        if state.turn >= MAX_TURNS:
            self.draw_game(f"no winner after {MAX_TURNS} turns")
            raise GameOver
        chosen, state.next_turn = state.next_turn, None   # a player "takes the next turn"
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
            state.first_player = player    # "the first player" of the game
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
        has ended, or the stat was lowered) is destroyed -- with no damage, a
        card whose printed stat is lowered to 0 or less ("a card with damage
        at least its toughness": 0 is at least 0)."""
        lethal = self.game.lethal_stats
        if not lethal:
            return
        state = self.state
        game = self.game
        in_play = game.in_play
        # this runs for every card in play at every phase and step: an
        # undamaged card is passed over at once unless a modifier lowers one
        # of its lethal stats or it prints one at 0 or less
        lowered = {m.target for m in state.modifiers if m.kind == "stat"
                   and m.amount < 0 and m.name in lethal} if state.modifiers else ()
        printed_low = game.prints_low_lethal    # card name -> prints a lethal stat <= 0
        copies = self._derived()[2] if game.copying else None   # (``printed_name``, once)
        for card in list(self.in_play()):
            record = state.cards[card]
            if record.zone[0] not in in_play:
                continue
            damage = record.counter("damage")
            if not damage and card not in lowered:
                name = copies.get(card) or record.name if copies else record.name
                low = printed_low.get(name)
                if low is None:
                    low = printed_low[name] = any(
                        value is not None and value <= 0
                        for value in (self.printed_stat(card, stat) for stat in lethal))
                if not low:
                    continue
            for stat in lethal:
                if not damage:
                    # undamaged: only a stat printed at 0 or less, or lowered
                    # by a modifier, can be lethal
                    printed = self.printed_stat(card, stat)
                    if printed is None:
                        continue
                    if printed > 0 and not any(
                            m.kind == "stat" and m.name == stat and m.amount < 0
                            for m in self.modifiers_on(card)):
                        continue
                if damage >= self.stat(card, stat):
                    self.destroy(card)
                    break

    # ---- players: seats, rivals, "your opponent" when there are several

    def next_player(self, player: int) -> int:
        n = self.state.players
        for step in range(1, n + 1):
            candidate = (player + step) % n
            if not self.state.out[candidate]:
                return candidate
        return player

    def rival_of(self, player: int) -> int:
        return self.next_player(player)

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

    def seat_order(self) -> tuple[int, ...]:
        """The players still in the game, the turn player first."""
        state = self.state
        players, first = state.players, state.turn_player
        try:
            order = _SEAT_ORDERS[(players, first)]
        except KeyError:
            order = _SEAT_ORDERS[(players, first)] = tuple(
                (first + i) % players for i in range(players))
        if True in state.out:
            order = tuple(p for p in order if not state.out[p])
        return order

    def seat_order_from(self, player: int) -> list[int]:
        """The players still in the game in seat order, from ``player``."""
        state = self.state
        return [(player + i) % state.players for i in range(state.players)
                if not state.out[(player + i) % state.players]]
