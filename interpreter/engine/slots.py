"""Slots: zones of places holding one card each; paired zones share their
places (a card next to the card in the same slot of the other zone is
paired with it, which may give both a status).
"""

from __future__ import annotations

from typing import Callable

from interpreter.engine import operations as op
from interpreter.engine.state import Frame


class Slots:
    """Zones of slots and paired zones."""

    __slots__ = ()

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
