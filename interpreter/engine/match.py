"""The step API: :class:`Match`, one game being played, driven one decision
at a time.

A match starts from decks (``Match.start``) or from a given position
(``Match.from_position``); its whole state is a
:class:`~interpreter.engine.state.GameState`, run by the
:class:`~interpreter.engine.machine.Machine` until a player must decide.
The API is OpenSpiel's: ``current_player()``, ``legal_actions()``,
``apply_action(a)``, ``is_terminal()``, ``returns()``, ``clone()``,
``action_to_string(a)`` and ``observation(player)``; ``narration()`` reads
the log.
"""

from __future__ import annotations

import hashlib

from interpreter.compiler.compiled import RULES_ZONE, CompiledGame
from interpreter.engine import operations as op
from interpreter.engine.determinize import determinize, unrevealed
from interpreter.engine.events import Chose, SetUp, Started
from interpreter.engine.machine import Machine
from interpreter.engine.narration import narrate, two_faced
from interpreter.engine.state import CardState, Frame, GameState
from interpreter.errors import CardrulesError, CouldNotRun, Problem


class Match:
    """One game being played, driven one decision at a time."""

    def __init__(self, game: CompiledGame, state: GameState):
        self.game = game
        self.state = state
        # the choices the engine made without asking since the last answer
        # (one option only), as (player, label): what a ruling may script
        self.unasked: list = []
        self._machine: Machine | None = None

    @classmethod
    def start(cls, game: CompiledGame, decks: list, seed: int = 0) -> "Match":
        """A new game: one deck per player (a Deck), shuffled by the rules'
        setup, with the seeded generator."""
        rules = game.rules
        players = len(decks)
        if not rules.players_min <= players <= rules.players_max:
            count = (str(rules.players_min) if rules.players_min == rules.players_max
                     else f"{rules.players_min} to {rules.players_max}")
            raise CouldNotRun(Problem(
                "E804", f"{rules.title} is for {count} players, not {players}"))
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
        _hold_rules(game, state)
        first = state.rng.below(players)
        state.turn_player = first
        # when the setup has the player picked at random choose the first
        # player, who goes first is not known yet
        state.log.append(Started(players, seed, None if game.first_chosen else first))
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
        _hold_rules(game, state)
        for player in range(players):
            for counter in rules.counters.values():
                if counter.scope == "player" and counter.start is not None:
                    state.player_counters[player][counter.name] = counter.start
        for (player, name), value in counters.items():
            state.player_counters[player][name] = value
        state.turn = turn
        state.turn_player = turn_player
        state.first_player = turn_player if first_player is None else first_player
        state.period_counts["turn"] = turn
        state.period["turn"] = "turn"
        if phase in game.step_phase:      # starting at a step: inside its phase
            state.period["phase"] = game.step_phase[phase]
            state.period_counts[game.step_phase[phase]] = 1
        state.log.append(SetUp(players, seed, turn, turn_player, phase))
        if game.pairs:
            Machine(game, state).refresh_pairs()
        state.frames.append(Frame("game", game.phase_starts[phase],
                                  {"you": turn_player, "first": turn_player}))
        match = cls(game, state)
        match._advance()
        return match

    def views(self) -> Machine:
        """The match's machine, to read the state through (a card's stats
        and kinds now, ``engine.views``): the one kept from one decision to
        the next, with what it has derived from the state, rather than a new
        one that derives it all again (the search agent reads every position
        it plays out)."""
        machine = self._machine
        if machine is None or machine.state is not self.state:
            machine = self._machine = Machine(self.game, self.state)
        return machine

    def _advance(self) -> None:
        # one machine for the match: what it derives from the state (the
        # cards in play of a kind, the modifiers by card) outlives a decision
        machine = self.views()
        machine.start_over()      # (a new machine starts as this leaves it)
        machine.run()
        self.unasked = machine.unasked

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
        self.state.log.append(Chose(decision.player, decision.kind, decision.prompt, label))
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

    def determinized(self, viewer: int, rng) -> "Match":
        """A copy in which what ``viewer`` cannot see is dealt again with the
        generator ``rng`` (``engine.determinize``): one world the viewer's
        observation could come from."""
        return Match(self.game, determinize(self.game, self.state, viewer, rng))

    def _counters_seen(self, viewer: int, player: int) -> dict:
        """A player's counters as ``viewer`` sees them: another player's
        secret value is None from the moment they set it until they reveal it."""
        state = self.state
        seen = dict(state.player_counters[player])
        if viewer == player:
            return seen
        for name, decl in self.game.rules.counters.items():
            if decl.secret and name in seen and unrevealed(state, player, name):
                seen[name] = None
        return seen

    def observation(self, player: int) -> dict:
        """What ``player`` may see: public zones, their own private zones, the
        sizes of hidden ones, counters, the phase and step, the stack, and
        the decision if it is theirs. A face-down card in a public zone is "a
        face-down card" (at its place) to the players who do not control it,
        unless it has two faces. ``zones`` holds the cards' names, ``cards``
        the same cards as records (docs/api.md)."""
        state = self.state
        rules = self.game.rules
        machine = self.views()
        zones, cards_seen = {}, {}
        for (name, owner), cards in state.zones.items():
            if name == RULES_ZONE:
                continue
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
            cards_seen[key] = [self._card_seen(machine, c, player) for c in cards]
        decision = state.decision
        return {
            "player": player,
            "turn": state.turn,
            "turn_player": state.turn_player,
            "period": dict(state.period),
            "counters": [self._counters_seen(player, p) for p in range(state.players)],
            "zones": zones,
            "cards": cards_seen,
            "stack": [{"source": state.cards[entry[2]].name, "controller": entry[3],
                       "nullified": bool(entry[6])} for entry in state.stack],
            "decision": None if decision is None or decision.player != player else {
                "prompt": decision.prompt, "kind": decision.kind,
                "options": list(decision.labels),
                "records": [self._option_seen(machine, decision, i)
                            for i in range(len(decision.options))]},
            "result": state.result,
        }

    def _card_seen(self, machine: Machine, c: int, viewer: int) -> dict:
        """A card of a zone the viewer sees, as a record: its name, its
        stats as modified now, statuses, counters, face and slot; a face-down
        card the viewer may not look at shows only that it is there."""
        card = self.state.cards[c]
        if not (card.face_up or card.controller == viewer or
                two_faced(card.name, self.game.rules, self.game.cards)):
            return {"face_up": False, "attached_to": card.attached_to}
        definition = self.game.cards.get(card.name)
        stats = {s.name: machine.stat(c, s.name) if isinstance(s.value, int) else s.text
                 for s in (definition.stats if definition is not None else ())}
        counters = dict(card.counters)
        return {"id": c, "name": card.name, "face_up": card.face_up, "stats": stats,
                "statuses": list(card.statuses),
                "counters": {k: v for k, v in counters.items() if k != "slot"},
                "slot": counters.get("slot"), "attached_to": card.attached_to,
                # "blocking": [the ids of the cards it is blocking]
                "relations": {name: [o for n, o, holds in card.relations if n == name and holds]
                              for name in dict.fromkeys(n for n, _o, h in card.relations if h)}}

    def _option_seen(self, machine: Machine, decision, index: int) -> dict:
        """An option of the open decision as a record: its text and the cards it names."""
        cards_of = machine.CARD_AT.get(decision.kind)
        option = decision.options[index]
        return {"label": decision.labels[index] if decision.labels else str(option),
                "kind": decision.kind,
                "cards": [c for c in (cards_of(option) if cards_of else ())
                          if isinstance(c, int) and not isinstance(c, bool)]}

    def game_over_by_cap(self, reason: str) -> None:
        op.end_game(self.state, ("draw", reason))

    def narration(self, viewer: int | None = None, events=None) -> list[str]:
        """The log (or the ``events`` of it given) as lines a player reads."""
        return list(narrate(self.state, self.game.rules, viewer, events, cards=self.game.cards))

    def log_digest(self) -> str:
        return hashlib.sha256(repr(self.state.log).encode()).hexdigest()


def _hold_rules(game: CompiledGame, state: GameState) -> None:
    """One card for each of the game's rules, outside play (``RULES_ZONE``):
    its ability is the rule."""
    if not game.rule_cards:
        return
    pile = state.zones.setdefault((RULES_ZONE, -1), [])
    for name in game.rule_cards:
        card = CardState(len(state.cards), name, 0, (RULES_ZONE, -1), face_up=True)
        state.cards.append(card)
        pile.append(card.id)
