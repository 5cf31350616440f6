"""Places and exchanges (docs/core.md "Places").

A zone can be an ordered row of places (a position counter says where a
player stands in it): counters kept per place wait at their place for the
loop over the places to reach it, and stay there when it leaves; a card's
exchange stats (a place's, or a card an action chose) trade counters for a
reward (wildcards paying with any of their counters); cards are placed at
a place and used. (What a row means — a race, a line fought over — is
written in the rules file, on the game's numbers.)
"""

from __future__ import annotations

from interpreter.compiler.program import JUMPED
from interpreter.engine import operations as op
from interpreter.engine.events import Attached, GainWaits, PlaceReached
from interpreter.engine.state import ExchangeUse, Frame


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


class Places:
    """Positions in a row of places, counters per place, exchanges."""

    __slots__ = ()

    def track_index(self, card: int, counter: str) -> int | None:
        """Where a card is in the ordered zone a position counter points into."""
        zone = self.game.position_zones.get(counter)
        if zone is None:
            return None
        state_card = self.state.cards[card]
        if state_card.zone[0] != zone:
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
            if place is None or place != self.state.resolving:
                if place is not None:
                    self.state.waiting = self.state.waiting + ((player, name, place, amount),)
                self.state.log.append(GainWaits(player, name, place, amount))
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
        resolving = self.state.resolving
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
        state = self.state
        state.log.append(PlaceReached(place))
        state.resolving = place
        here = tuple(w for w in state.waiting if w[2] == place)
        if not here:
            return
        state.waiting = tuple(w for w in state.waiting if w[2] != place)
        for player, name, _place, amount in here:
            self.set_counter(player, name, self.state.counter(player, name) + amount)

    def leave_place(self) -> None:
        """The loop over places is at none (its place's last step has run its
        procedure, or the loop is over): an effect happens at the place at
        its player's position again. What the players still have of the
        counters kept per place stays at the place it belongs to, for the
        next time the loop reaches it (a place no longer in its row keeps
        nothing)."""
        state = self.state
        place = state.resolving
        if place is None:
            return
        state.resolving = None
        row = state.cards[place].zone[0]
        # a place no longer in its row keeps nothing
        kept = place if place in state.zones.get(state.cards[place].zone, ()) else None
        for name, zone in self.game.place_counters.items():
            if zone != row:
                continue
            for player in range(state.players):
                amount = state.player_counters[player].get(name, 0)
                if not amount:
                    continue
                # the amount moves to the place: not a change a player sees
                state.player_counters[player][name] = 0
                if kept is not None:
                    state.waiting = state.waiting + ((player, name, place, amount),)
                state.log.append(GainWaits(player, name, kept, amount))

    # ---- exchanges

    def _exchange_use(self, player: int, place: int, stat: str) -> ExchangeUse:
        """The key of an exchange made (or to be made) in the current step."""
        step = self.state.period.get("step")
        return ExchangeUse(player, place, stat, step, self.state.period_counts.get(step, 0))

    def _exchange_parts(self, frame: Frame, stat: str, card: str = "this"):
        """(card, exchange, face) of the exchange stat of the card the action
        names: ``this`` (the place being resolved) or ``it`` (its chosen card)."""
        place = frame.locals.get(card)
        if place is None:
            return None
        value = self.stat_value(place, stat)
        if value is None or not hasattr(value, "cost"):
            return None
        return place, value, self.face_of(place)

    def _exchange_payment(self, frame: Frame, stat: str, card: str = "this"):
        """How an exchange's cost is paid from the player's counters, or None
        when it cannot be: (the counters the specific items take, the
        wildcard items left as (name, counters it may take)). A cost item
        naming a counter pays 1 of it (an item with alternatives, the one the
        player has most of); a wildcard pays 1 of any of its counters (the
        player chooses which, see ``exchange``); an item naming another
        exchange stat of the same card needs that exchange made by this
        player this period."""
        parts = self._exchange_parts(frame, stat, card)
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
                done = self._exchange_use(player, place, other)
                if done not in self.state.limits:
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

    def exchanges_left(self, frame: Frame, stat: str, card: str = "this") -> bool:
        """Whether the place has another exchange stat this player has not
        made this period: then what a wildcard leaves may still be spent, and
        which counter pays it matters."""
        parts = self._exchange_parts(frame, stat, card)
        if parts is None:
            return False
        place, _exchange, face = parts
        player = frame.locals["you"]
        definition = self.definition(place)
        stats = definition.stats if face is None else dict(definition.faces).get(face, ())
        for other in stats:
            name = other.name.lower()
            if name != stat.lower() and hasattr(other.value, "cost") and \
                    self._exchange_use(player, place, name) not in self.state.limits:
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

    def can_exchange(self, frame: Frame, stat: str, card: str = "this") -> bool:
        """Whether the player can pay the exchange, and its reward can happen
        (a place is there to put its card at)."""
        if self._exchange_payment(frame, stat, card) is None:
            return False
        if not self.game.exchange_checks:
            return True         # no reward in the game places a card
        place, _exchange, face = self._exchange_parts(frame, stat, card)
        checks = self.game.exchange_checks.get(
            f"exchange:{self.state.cards[place].name}:{face or ''}:{stat.lower()}", ())
        if not checks:
            return True
        probe = Frame("probe", 0, {"you": frame.locals["you"], "this": place, "it": place})
        return all(check(self, probe) for check in checks)

    def exchange(self, frame: Frame, stat: str, card: str = "this"):
        """Pay an exchange's cost from the player's counters, then run its
        reward. The player chooses the counter each wildcard item pays with
        when more than one can ("pay Any with": Jump or Punch)."""
        plan = self._exchange_payment(frame, stat, card)
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
                    matters = self.exchanges_left(frame, stat, card)
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
        place, _exchange, face = self._exchange_parts(frame, stat, card)
        self.state.limits[self._exchange_use(player, place, stat.lower())] = 1
        frame.locals["did"] = True
        frame.pc += 1
        self.state.frames.append(Frame(
            f"exchange:{self.state.cards[place].name}:{face or ''}:{stat.lower()}", 0,
            {"you": player, "this": place, "it": place}))
        return JUMPED

    # ---- cards placed at a place, and used

    def place_at(self, card: int, zone: tuple, host: int, face_up: bool) -> None:
        """Put a card into a zone, attached to a place (a card elsewhere)."""
        state = self.state
        op.move(state, card, zone, face_up=face_up)
        state.cards[card].attached_to = host
        state.log.append(Attached(card, host, face_up))

    def use_card(self, card: int) -> None:
        """Use a card: if its requirements hold, it is activated (the event
        "activated") and its kind's "when used" effect runs; otherwise (or
        when its effect is prevented) it has no effect."""
        state = self.state
        if self.game.prevented_effects and self.effect_prevented(card):
            # "Prevent the effect of the next Disrupt ...": used, to no effect
            op.note(state, f"{state.cards[card].name}'s effect is prevented: it has no effect.")
            return
        controller = state.cards[card].controller
        probe = Frame("probe", 0, {"you": controller, "this": card, "it": card})
        for requirement in self.game.requirements.get(self.printed_name(card), ()):
            if not requirement(self, probe):
                op.note(state, f"{state.cards[card].name} does not meet its requirements: "
                               "it has no effect.")
                return
        kind = self.rules.kind(self.definition(card).kind)
        if kind is not None and kind.when_used is not None:
            state.frames.append(Frame(f"used:{kind.name}", 0,
                                      {"you": controller, "this": card, "it": card}))
        self.event("activated", card, controller)
