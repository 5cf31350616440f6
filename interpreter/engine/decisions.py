"""Decisions: asking a player, and picking cards.

:meth:`Decisions.ask` puts a :class:`~interpreter.engine.state.Decision`
in the state (identical cards offered once, when the rules say so);
:meth:`Decisions.pick` picks the cards a selection describes, asking when
there is a choice. Choosing the first player is a decision of the setup.
"""

from __future__ import annotations

from interpreter.compiler.program import JUMPED, WAIT
from interpreter.compiler.selection import Selection
from interpreter.engine import operations as op
from interpreter.engine.state import AbilityUse, ActionUse, Decision, ExchangeUse, Frame, TriggerUse


class Decisions:
    """Asking players, offering identical cards once, picking cards."""

    __slots__ = ()

    def ask(self, frame: Frame, player: int, kind: str, prompt: str, options: tuple,
            store: str, labels: tuple = ()):
        if self.rules.identical_one_choice and len(options) > 1:
            options, labels = self.one_of_each(kind, tuple(options), tuple(labels))
            if len(options) == 1:
                # nothing left to choose: the asking instruction runs again
                # and reads the answer (every decision is asked that way)
                frame.locals[store] = options[0]
                self.unasked.append((player, labels[0] if labels else str(options[0])))
                return JUMPED
        self.state.decision = Decision(player, kind, prompt, tuple(options), store,
                                       tuple(labels))
        return WAIT

    # ---- identical cards: one choice

    # the cards an option of each kind of decision names
    CARD_AT = {"target": lambda o: (o,) if isinstance(o, int) and not isinstance(o, bool)
                else (),
                "order": lambda o: (o,) if isinstance(o, int) and not isinstance(o, bool)
                else (),
                "defend": lambda o: tuple(o),
                # a mode offered with cards: (mode, cards of each slot ...)
                "mode": lambda o: tuple(c for cards in o[1:] for c in cards),
                "action": lambda o: (o[1],) if len(o) > 1 and isinstance(o[1], int) else (),
                "respond": lambda o: (o[1],) if len(o) > 2 and o[0] == "use" else (
                    (o[0],) if len(o) == 2 and isinstance(o[0], int) else ())}

    def one_of_each(self, kind: str, options: tuple, labels: tuple) -> tuple[tuple, tuple]:
        """``identical cards: one choice``: of options that differ only in
        which of two identical cards they name, the first stands for all.
        Cards are identical when nothing in the state tells them apart: the
        same card, owner, controller, zone, face, statuses, counters and
        modifiers, no cards attached, attached to the same card (or to none),
        their place in an ordered zone or a paired slot the same, and no
        effect, limit or choice in progress refers to either."""
        cards_of = self.CARD_AT.get(kind)
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
        if card in referred:
            return ("card", card)
        decl = self.rules.zones.get(c.zone[0])
        paired = any(c.zone[0] in pair[:2] for pair in self.game.pairs)
        counters = tuple(x for x in c.counters if paired or x[0] != "slot")
        pile = state.zones.get(c.zone, ())
        position = pile.index(card) if decl is not None and decl.ordered and card in pile \
            else None
        modifiers = tuple((m.kind, m.name, m.amount, m.source, m.until)
                          for m in self.modifiers_on(card))
        hosts = any(state.cards[h].attached_to == card for h in pile) if self.game.attaching \
            else False
        # cards attached to one host are alike (two Energy on one creature);
        # to different hosts, not
        # a card in a relation is itself (a blocker of this attacker, not that one)
        return (c.name, c.owner, c.controller, c.zone, c.face_up, tuple(sorted(c.statuses)),
                counters, position, modifiers, hosts, c.attached_to,
                ("card", card) if c.relations else None)

    _CARD_LOCALS = ("it", "this", "chosen", "#chosen", "target", "_subject", "_trigger_it")

    def _referred_cards(self) -> set:
        """Cards something in progress refers to: stack entries, waiting
        effects, the cards a running program holds ("it", "this", cards
        picked so far), and the cards the limits of the current periods
        count (an action per card, a triggered ability's once per period, a
        place's exchanges). A number that is not a card only makes two cards
        look different: never the other way round."""
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
                # (and the cards a "Choose one" mode is being done to)
                if key in self._CARD_LOCALS or key.endswith("+") or (
                        key.startswith("_mode") and "." in key):
                    add(value)
        for key in state.limits:
            # a card a limit of this period counts ("a Recruit that has
            # attacked"): the limits name their card (players and actions
            # are numbers too, never cards)
            if isinstance(key, ExchangeUse):
                out.add(key.place)          # a place of the step's exchanges
                continue
            if key.count != state.period_counts.get(key.period, 0):
                continue
            if isinstance(key, ActionUse) and key.card is not None:
                out.add(key.card)
            elif isinstance(key, TriggerUse):
                out.add(key.source)
            elif isinstance(key, AbilityUse) and isinstance(key.card, int):
                out.add(key.card)       # "once per: each card"
        return out

    # ---- picking cards

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
                limit = selection.count(self, frame)
                # (before "it" becomes the chosen cards: "2 of them" picks
                # among the cards "it" still names)
                remaining = [c for c in selection.candidates(self, frame) if c not in chosen]
                if self.game.limits_choosing and not frame.program.startswith("action:"):
                    remaining = self.choosable(chooser, remaining)
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
        # (a pick of fewer cards than "exactly" asks is short: see below)
        locals_.pop("#short", None)
        candidates = selection.candidates(self, frame)
        how = selection.how
        if self.game.limits_choosing and (how == "one" or (
                isinstance(how, tuple) and how[0] != "random")) and not selection.given \
                and not frame.program.startswith("action:"):
            # "can't be chosen (by your opponents)": not among an effect's choices
            candidates = self.choosable(chooser, candidates)
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
                self.unasked.append((chooser, self.card_label(candidates[0])))
                return None
            return self.ask(frame, chooser, "target", prompt, tuple(candidates), store,
                            tuple(self.card_label(c) for c in candidates))
        kind, limit = how[0], selection.count(self, frame)
        if limit == 0:
            locals_["it"] = ()
            return None
        if kind == "exactly" and len(candidates) <= limit:
            locals_["it"] = tuple(candidates)
            if len(candidates) < limit:
                # "Discard 2 cards. If you do, ...": with one card, not done
                locals_["#short"] = True
            self.unasked.extend((chooser, self.card_label(c)) for c in candidates)
            return None
        done = ("done",) if kind == "up to" else ()
        return self.ask(frame, chooser, "target", prompt, tuple(candidates) + done, store,
                        tuple(self.card_label(c) for c in candidates) + tuple(
                            "done" for _ in done))

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

    # ---- decisions of the setup

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
        state.next_turn = first
        state.turn_player = first
        locals_["first"] = first
        locals_["you"] = first
        return None
