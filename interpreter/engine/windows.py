"""Windows: when players take actions.

An action window (a player takes actions until they pass), priority (the
turn player first; the others may use what is usable in a rival's turn),
players alternating actions, answers in kind, and the response windows
after each action for what is usable at any time. Also which actions and
activated abilities a player may take now, and their limits ("once per
turn", "at most 3").
"""

from __future__ import annotations

from interpreter.compiler.compiled import ActionPlan, Activated
from interpreter.compiler.program import JUMPED
from interpreter.engine import operations as op
from interpreter.engine.events import ActionTaken, Passed
from interpreter.engine.limits import MAX_ACTIONS_PER_WINDOW
from interpreter.engine.state import DECLARING, AbilityUse, ActionUse, Frame


class Windows:
    """Action, priority, alternating, answer and any-time windows; legal actions."""

    __slots__ = ()

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
                self.end_declaring(locals_, count_key)
                state.log.append(Passed(player))
                return None
            locals_[count_key] = locals_.get(count_key, 0) + 1
            # the player declares without priority: effects that trigger
            # meanwhile wait until they pass (Resolution.maybe_resolve)
            locals_[DECLARING] = True
            self.start_action(player, choice)
            return JUMPED
        if locals_.get(count_key, 0) >= MAX_ACTIONS_PER_WINDOW:
            self.end_declaring(locals_, count_key)
            state.log.append(Passed(player))
            return None
        options, labels = self.legal_actions_for(frame, player)
        if not options:
            self.end_declaring(locals_, count_key)
            self.unasked.append((player, "pass"))
            return None
        return self.ask_or_pass(frame, player, options, labels, store)

    @staticmethod
    def end_declaring(locals_: dict, count_key: str) -> None:
        locals_.pop(count_key, None)
        locals_.pop(DECLARING, None)

    def priority_window(self, frame: Frame, player: int, store: str):
        """The player (the turn player) has priority: they take actions until
        they pass; then each other player in turn order may use the
        abilities usable in a rival's turn and the response abilities usable
        "when you have priority" (asked only when they have one);
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
                state.log.append(Passed(current))
                locals_[passes] += 1
                locals_[whose] = after(current)
            else:
                locals_[passes] = 0
                locals_[count] += 1
                locals_[whose] = player      # "The Turn Player always has priority"
                if choice[0] == "use":
                    # a response ability used "when you have priority"
                    self.use_response(current, choice[1], choice[2], None, None)
                else:
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
            if self.game.priority_uses:
                more, names = self.priority_uses(current)
                options, labels = options + more, labels + names
            if not options:
                locals_[passes] += 1         # nothing to use: no question
                self.unasked.append((current, "pass"))
                locals_[whose] = after(current)
                continue
            return self.ask_or_pass(frame, current, options, labels, store)

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
                state.log.append(Passed(player))
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
            if each is None and self.may_pass(options):
                options, labels = options + [("pass",)], labels + ["pass"]
            if not options:
                advance(player)
                locals_[store + "p"] += 1
                continue
            return self.ask(frame, player, "action", "take an action" + (
                " or pass" if each is None else ""), tuple(options), store, tuple(labels))

    def ask_or_pass(self, frame: Frame, player: int, options, labels, store: str):
        """Ask the player for one of their actions, or to pass where no
        requirement in force keeps them from it."""
        if self.may_pass(options):
            return self.ask(frame, player, "action", "take an action or pass",
                            tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))
        return self.ask(frame, player, "action", "take an action",
                        tuple(options), store, tuple(labels))

    def may_pass(self, options) -> bool:
        """Whether a player with these actions open may pass: not while one
        of them is an action a card of theirs must take ("This must attack":
        a requirement holds while it can be met, "if able")."""
        musts = self.game.musts
        if not musts:
            return True
        capabilities = self.game.capabilities
        for option in options:
            if option[0] == "ability" or option[1] is None:
                continue
            name = self.game.actions[option[0]].name.lower()
            for must in musts:
                if name.startswith(capabilities[must][0]) and \
                        self.has(option[1], "must", must):
                    return False
        return True

    def uses_action(self, choice: tuple) -> bool:
        """Whether a chosen action or ability is one of the player's actions
        (not "uses an action: no", not usable at any time)."""
        if choice[0] == "ability":
            card = choice[1]
            ability = self.game.activated[self.printed_name(card)][choice[2]]
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
            ability = self.game.activated[self.printed_name(card)][number]
            if ability.once_per:
                state.limits[self.usage_key(ability, player, card)] = 1
            self.ability_used(player, ability.label, card)
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
            state.limits[key] = state.limits.get(key, 0) + 1
        state.log.append(ActionTaken(player, plan.name, card))
        # an action about no card is about the place being resolved, if any
        this = card if card is not None or not state.frames else \
            state.frames[-1].locals.get("this")
        state.frames.append(Frame(plan.program, 0, {"you": player, "it": card,
                                                    "this": this, "#card": card}))

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
                self.state.log.append(Passed(player))
            else:
                self.start_action(player, choice)
                return JUMPED
        label = locals_["label"]
        while locals_["answerers"]:
            player = locals_["answerers"][0]
            options, labels = self.legal_actions_for(frame, player)
            kept = [(o, l) for o, l in zip(options, labels)
                    if o[0] == "ability" and self.game.activated[
                        self.printed_name(o[1])][o[2]].label == label]
            if kept and not self.state.out[player]:
                return self.ask(frame, player, "respond", f"answer with your {label} or pass",
                                tuple(o for o, _ in kept) + (("pass",),), "_answer",
                                tuple(l for _, l in kept) + ("pass",))
            locals_["answerers"] = locals_["answerers"][1:]
        return None

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
                state.log.append(Passed(player))
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

    # ---- the actions a player may take now, and their limits

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
        busy = None
        for index, plan in enumerate(() if off_turn else self.game.actions):
            if any_time_only and not plan.any_time:
                continue
            if plan.phases and phase not in plan.phases and step not in plan.phases:
                continue
            cards = plan.choose.candidates(self, probe) if plan.choose else [None]
            if plan.choose and cards and self.state.frames:
                # a card being played is not played again while it resolves
                busy = self.cards_in_use() if busy is None else busy
                cards = [c for c in cards if c not in busy]
            # (an action no "can't" names is never forbidden: not asked card by card)
            forbids = self.game.capabilities and self.may_forbid(plan.name.lower())
            for card in cards:
                if plan.limit is not None and self.action_key(index, plan, card, player) \
                        in self.state.limits and self.uses_left(index, plan, card, player) <= 0:
                    continue
                if forbids and self.forbidden(player, plan.name, card):
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
        activated = self.game.activated
        if not activated:
            return options, labels
        # only the cards whose name has an activated ability are looked at
        printed_name = self.printed_name
        places = [(c, None) for c in self.in_play_with("activated")]
        for zone in self.game.activated_zones:
            places.extend((c, zone) for c in state.zones.get((zone, player), ())
                          if printed_name(c) in activated)
        if self.game.used_from_zones:
            # "used from: hand, ZONE" (interpreter.engine.combat)
            places.extend((c, None) for c in self.used_from_cards(player, activated))
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
            for number, ability in enumerate(activated[printed_name(card)]):
                if ability.zone != zone or (off_turn and not ability.off_turn):
                    continue
                if any_time_only and not self.game.any_time_ability(ability):
                    continue
                if ability.once_per and self.usage_key(ability, player, card) in state.limits:
                    continue
                timing = self.rules.timing(ability.label) if ability.label else None
                if timing is not None and timing.during and timing.during.lower() not in (
                        (phase or "").lower(), (step or "").lower()):
                    continue   # "during PERIOD": only in that phase or step
                probe.locals["this"] = card
                probe.locals["it"] = card
                if ability.can_pay(self, probe):
                    options.append(("ability", card, number))
                    labels.append(f"use {ability.label} of {self.card_label(card)}"
                                  if ability.label else f"use {self.card_label(card)}")
        return options, labels

    def action_key(self, index: int, plan: ActionPlan, card, player: int) -> ActionUse:
        """What an action's limit counts: its player (and card) in this period;
        actions "shared as" one name count together."""
        period, per_card = plan.limit
        shared = plan.extra[2] if plan.extra and plan.extra[2] else index
        return ActionUse(shared, player, card if per_card else None, period,
                         self.state.period_counts.get(period, 0))

    def uses_left(self, index: int, plan: ActionPlan, card, player: int) -> int:
        """How many more times an action with extra uses ("plus its strikes,
        at most 3") may be taken now."""
        stat, cap, _shared = plan.extra[:3] if plan.extra else (None, None, None)
        times = plan.extra[3] if len(plan.extra) > 3 else 1     # "3 times per PERIOD"
        allowed = times + (self.stat(card, stat) if stat and card is not None else 0)
        if cap is not None:
            allowed = min(allowed, cap)
        if card is not None and self.game.allowances:
            # "This can attack twice each turn"
            name = plan.name.lower()
            for text, (verb, count, period) in self.game.allowances.items():
                if count > allowed and period == plan.limit[0] and \
                        name.startswith(verb) and self.has(card, "can", text):
                    allowed = count
        return allowed - self.state.limits.get(self.action_key(index, plan, card, player), 0)

    def used(self, key: tuple) -> bool:
        """Whether a per-period limit's key has been counted."""
        return key in self.state.limits

    def count_use(self, key: tuple) -> None:
        """Count one use against a per-period limit."""
        self.state.limits[key] = self.state.limits.get(key, 0) + 1

    def usage_key(self, ability: Activated, player: int, card: int) -> AbilityUse:
        """What a once-per limit counts: the ability's card name, for the
        player using it, in this period (so every card of theirs with the
        same name shares it; the Rival's copies have their own), or the card
        itself ("once per: each card")."""
        return self.ability_use(ability.key, card,
                                ability.index or ability.program.rsplit(":", 1)[1],
                                player, ability.once_per)

    def ability_use(self, name: str, card: int, ability: str, player: int,
                    period: str) -> AbilityUse:
        """The key of an ability's once-per limit in the current ``period``:
        of the card ``card`` whose name is ``name``."""
        return AbilityUse(card if self.rules.once_per_each_card else name, ability, player,
                          period, self.state.period_counts.get(period, 0))

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
