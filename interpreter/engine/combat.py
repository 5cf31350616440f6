"""Moves, response windows and using cards up: what the machine does for the
procedures a rules file writes as sentences (compiled by
``interpreter.compiler.combat_steps``).

- Players alternate moves: each player in seat order makes a *move* (a
  period "Move" of its own, during which that player is the turn player, so
  "your Move" and priority follow the mover): actions until they pass. A
  move without an action is a pass; the window ends when every player still
  moving passed their last move; a player who passed N moves in a row makes
  no more.
- A response window: the player may use one ability with one of the
  window's timing texts, from a card in their hand or in a zone their card
  kind is used from, paying its costs. The card or attack responded to
  becomes the first link of a chain, the response the next; the other
  player may respond to it (abilities whose timing is a ``response``), and
  the chain resolves from the highest link.
- Using cards up: a card's kind says what using one of its abilities does
  to it (``once used``), now or once its effect has resolved.
- Combat declarations: the cards an action sacrifices, the roles an attack
  gives its cards until it is over, a card used up after use.
"""

from __future__ import annotations

from interpreter.compiler.compiled import AFTER_USE
from interpreter.compiler.program import JUMPED
from interpreter.engine import operations as op
from interpreter.engine.events import Passed
from interpreter.engine.state import Frame

MAX_MOVES = 400                 # moves in one window before it is cut short


class CombatWindows:
    """The machine's moves, response windows, using cards up and combat
    declarations."""

    __slots__ = ()

    # ---- moves

    def alternate_moves(self, f, store: str, lockout):
        state = self.state
        L = f.locals
        n = state.players
        if store + "@" not in L:
            L[store + "@"] = 0                        # whose move is next (seat index)
            L[store + "c"] = (0,) * n                 # passes in a row, per player
            L[store + "in"] = -1                      # the player moving, or -1
            L[store + "acted"] = False
            L[store + "tp"] = state.turn_player       # the turn player before the moves
            L[store + "#"] = 0
        first = L[store + "tp"]
        seats = [(first + i) % n for i in range(n) if not state.out[(first + i) % n]]
        mover = L[store + "in"]
        if mover >= 0:
            if store in L:
                choice = L.pop(store)
                if choice == ("pass",):
                    state.log.append(Passed(mover))
                    passes = list(L[store + "c"])
                    passes[mover] = 0 if L[store + "acted"] else passes[mover] + 1
                    L[store + "c"] = tuple(passes)
                    if lockout is not None and passes[mover] >= lockout:
                        # "has no moves left" (a condition) until the window ends
                        state.no_moves = tuple(sorted(set(state.no_moves) | {mover}))
                    L[store + "in"] = -1
                    L[store + "@"] += 1
                    self.end_period("move", "Move")
                    return JUMPED
                L[store + "acted"] = True
                self.start_action(mover, choice)
                return JUMPED
            options, labels = self.legal_actions_for(f, mover)
            return self.ask(f, mover, "action", "take an action or end the move",
                            tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))
        passes = L[store + "c"]
        active = [p for p in seats if lockout is None or passes[p] < lockout]
        if not active or all(passes[p] >= 1 for p in active) or L[store + "#"] >= MAX_MOVES:
            state.turn_player = first
            for key in ("@", "c", "in", "acted", "tp", "#"):
                L.pop(store + key, None)
            state.no_moves = ()
            return None
        while seats[L[store + "@"] % len(seats)] not in active:
            L[store + "@"] += 1
        mover = seats[L[store + "@"] % len(seats)]
        L[store + "in"] = mover
        L[store + "acted"] = False
        L[store + "#"] += 1
        state.turn_player = mover          # "your Move", and the mover's priority
        op.period(state, "move", "Move", "start")
        return JUMPED

    # ---- responses

    def used_from_cards(self, player: int, having: dict | None = None) -> list[int]:
        """The player's cards outside play whose kind says they are used from
        where they are (``used from: hand, ZONE``, not those with an ``unless``
        value), except a card being used: its effect has not resolved yet.
        With ``having`` (abilities by card name), only the cards whose name
        has some: the others are not looked at."""
        state = self.state
        out = []
        zones = self.game.used_from_zones
        if not zones:
            return out
        busy = None
        for zone in zones:
            key = (self.game.hand, player) if zone == "hand" else (zone, player)
            for card in state.zones.get(key, ()):
                if having is not None and self.printed_name(card) not in having:
                    continue
                kind = self.rules.kind(self.definition(card).kind)
                if kind is None or zone not in kind.used_from:
                    continue
                if kind.used_from_unless and any(self.has_value(card, v)
                                                 for v in kind.used_from_unless):
                    continue
                if busy is None:
                    busy = self.cards_in_use()
                if card not in busy:
                    out.append(card)
        return out

    def cards_in_use(self) -> set:
        """Cards whose use waits for their effect to resolve (``once used: ...
        after it resolves``): on the stack, or resolving now; and the cards
        of actions under way and of triggered abilities whose card goes to
        its after-use zone once they are done (a Plot Twist played from the
        hand stays there meanwhile)."""
        state = self.state
        busy = {entry[2] for entry in state.stack
                if any(key == "_after_use" for key, _ in entry[5])}
        for f in state.frames:
            if f.program == AFTER_USE:
                busy.add(f.locals["this"])
            elif f.locals.get("#card") is not None:
                busy.add(f.locals["#card"])
            elif "_used_in" in f.locals:
                busy.add(f.locals["this"])
        return busy

    # ---- using cards up

    def use_up(self, f) -> None:
        """What using one of its abilities does to the card ``this`` (its kind's
        ``once used`` steps for the zone it is used from): the steps due at once
        happen now; those due "after it resolves" go with the effect's entry
        (``_after_use``) and happen once it has resolved or was nullified."""
        card = f.locals["this"]
        kind = self.rules.kind(self.definition(card).kind)
        if kind is None or not kind.used_up:
            return
        zone = self.state.cards[card].zone[0]
        if kind.use_event:
            # "use counts as: cast": an Instant used from the hand is cast
            self.event(kind.use_event, card, f.locals["you"])
        now, after = kind.once_used_in("hand" if zone == self.game.hand else zone)
        self.used_up_steps(card, now)
        if after:
            f.locals["_after_use"] = after

    def used_up_steps(self, card: int, steps) -> None:
        for step in steps:
            if step == "revealed":
                op.reveal(self.state, card)
            elif step == "turned face up":
                self.flip(card, True)
            elif step == "face down":
                self.flip(card, False)
            elif step == "discarded":
                self.discard(card)

    # ---- response windows

    def response_options(self, player: int, labels, subject, top,
                         with_priority: bool = False) -> tuple[list, list]:
        """Abilities ``player`` may respond with: of the given labels (or, with
        ``labels`` None, of timings that answer any chain link; with
        ``with_priority``, of timings usable when a player has priority, whose
        effect answers no entry, labelled "use" as a play of its own)."""
        state = self.state
        options, names = [], []
        cued = self.game.cued
        # the hand, the cards used from elsewhere, the cards in play: each card
        # once, and only those with a response ability (the others offer none)
        hand = self.hand_of(player)
        cards = [c for c in hand if self.printed_name(c) in cued]
        cards += [c for c in self.used_from_cards(player, cued) if c not in hand]
        seen = set(cards)
        cards += [c for c in self.in_play_with("cued") if c not in seen and
                  state.cards[c].controller == player]
        probe = Frame("probe", 0, {"you": player, "it": subject, "responding_to": top})
        for card in cards:
            abilities = cued[self.printed_name(card)]
            probe.locals["this"] = card
            for number, ability in enumerate(abilities):
                if with_priority:
                    if not ability.with_priority or ability.answers_entry:
                        continue
                elif labels is None:
                    if not ability.response:
                        continue
                elif ability.label not in labels:
                    continue
                if ability.can_pay(self, probe):
                    options.append(("use", card, number))
                    names.append(f"{'use' if with_priority else 'respond with'} "
                                 f"{ability.label} of {self.card_label(card)}")
        return options, names

    def priority_uses(self, player: int) -> tuple[list, list]:
        """The response abilities whose timing says "when you have priority"
        that ``player`` may use now that they have priority and nothing waits
        to be answered (not those whose effect answers an entry)."""
        return self.response_options(player, None, None, None, with_priority=True)

    def use_response(self, player: int, card: int, number: int, subject, top) -> None:
        ability = self.game.cued[self.printed_name(card)][number]
        self.ability_used(player, ability.label, card)
        self.state.frames.append(Frame(ability.program, 0, {
            "you": player, "this": card, "it": subject, "_subject": subject,
            "responding_to": top}))

    def before_window(self, f, store: str, word: str, cards, actor: int):
        """Before a window opens or a game verb is done ("before respond",
        "before defend"): each card it is about has the event (its "Before
        your Rival responds" abilities trigger), then what triggered
        resolves. JUMPED while that happens (the
        window runs again), None once done; ``store + "!"`` keeps the stage
        until the window ends."""
        if word not in self.game.before_events:
            return None
        L = f.locals
        key = store + "!"
        stage = L.get(key, 0)
        if stage == 0:
            L[key] = 1
            triggers = self.game.triggers
            for card in cards:
                # only a card with such an ability has the event (nothing else sees it)
                if any(t.event == word for t in triggers.get(self.printed_name(card), ())):
                    self.event(word, card, actor)
            return JUMPED
        if stage == 1:
            L[key] = 2
            if self.state.pending and self.rules.resolution is not None:
                self.state.frames.append(Frame("resolve", 0, {}))
                return JUMPED
        return None

    def respond_window(self, f, responder: int, selection, labels, store: str):
        state = self.state
        L = f.locals
        subject = selection.candidates(self, f)
        it = subject[0] if len(subject) == 1 else tuple(subject)
        if store not in L and subject:
            waiting = self.before_window(f, store, "before respond", subject, responder)
            if waiting is not None:
                return waiting
            subject = selection.candidates(self, f)      # what resolved may have changed them
            it = subject[0] if len(subject) == 1 else tuple(subject)
        if store in L:
            L.pop(store + "!", None)
            answer = L.pop(store)
            if answer == ("pass",):
                state.log.append(Passed(responder))
                return None
            _, card, number = answer
            if not state.stack:
                # the played card (or attack) responded to: the chain's first link
                self.push_entry("", subject[0] if subject else card, self.rival_of(responder),
                                (("it", it),))
            top = state.stack[-1][0]
            f.pc += 1
            state.frames.append(Frame("resolve", 0, {"responder": self.rival_of(responder)}))
            self.use_response(responder, card, number, it, top)
            return JUMPED
        if not subject:
            L.pop(store + "!", None)
            return None
        top = state.stack[-1][0] if state.stack else None
        options, names = self.response_options(responder, labels, it, top)
        if not options:
            L.pop(store + "!", None)
            return None
        return self.ask(f, responder, "respond", "respond or pass",
                        tuple(options) + (("pass",),), store, tuple(names) + ("pass",))

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

    def end_roles(self, frame: Frame, role, target_role) -> None:
        """The attack is over: its cards lose their roles."""
        for key, status in (("chosen", role), ("target", target_role)):
            card = frame.locals.get(key)
            if status and isinstance(card, int) and status in self.state.cards[card].statuses:
                self.set_status(card, status, False)

    def used_up(self, card: int, zone: str, used_in: tuple | None,
                quietly: bool = False) -> None:
        """A card whose kind is used up after use ("after use: ZONE") goes to
        its owner's zone, from where its text started (``used_in``: in play,
        or the hand a spell is cast from); a card its own text moved stays,
        and so does a card already there (its text started in that zone).
        ``quietly``: "without triggering abilities"."""
        c = self.state.cards[card]
        if c.zone == used_in and c.zone[0] != zone:
            self.quiet = quietly
            try:
                self.move(card, (zone, c.owner), face_up=True)
            finally:
                self.quiet = False
