"""Resolution: the stack of entries (chain links, stack links).

Waiting effects become entries (the rival's or the turn player's first,
in the order the rules' resolution block says), the other player may
respond to the top entry, then it resolves (or fizzles: nullified, or its
source left its zone). Runs as the "resolve" frame, a step at a time.
"""

from __future__ import annotations

from interpreter.compiler.compiled import AFTER_USE
from interpreter.compiler.program import JUMPED
from interpreter.engine.events import (
    EffectCopied, EntryFizzled, EntryNullified, EntryResolved, EntryWaits, Passed)
from interpreter.engine.state import DECLARING, Frame
from interpreter.engine.triggers import fired_locals


class Resolution:
    """Entries on the stack: adding, responding, resolving, nullifying."""

    __slots__ = ()

    def maybe_resolve(self) -> None:
        """Start resolving waiting effects when nothing else is running."""
        state = self.state
        if (state.pending or state.stack) and state.frames and \
                state.frames[-1].program == "game" and self.rules.resolution is not None:
            if self.declaring():
                return
            locals_ = {}
            if state.stack and not state.pending and self.rules.resolution.responses:
                # an activated ability's entry: the other player may respond to it
                locals_["responder"] = self.rival_of(state.stack[-1][3])
            state.frames.append(Frame("resolve", 0, locals_))

    def declaring(self) -> bool:
        """Whether waiting effects wait for a player who declares without
        priority (attackers, blockers) to pass: "triggered effects join the
        stack: before a player receives priority", and nothing is on it."""
        state = self.state
        return self.rules.resolution.join_at_priority and not state.stack and \
            any(DECLARING in frame.locals for frame in state.frames)

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
                not state.stack or settings.join_at_priority or locals_.get("_pushing")):
            # entries one by one: the first player's effects (in the order its
            # controller chooses), then the other's; the last resolves first
            # (with responses: the last one's rival may respond first)
            pending = state.pending
            turn = state.turn_player
            group = [i for i, p in enumerate(pending)
                     if (p[2] != turn) == settings.rival_first] or list(range(len(pending)))
            # one ability of one card triggered twice is one option (the
            # first to happen): the two would read the same
            seen, distinct = set(), []
            for i in group:
                if pending[i][:2] not in seen:
                    seen.add(pending[i][:2])
                    distinct.append(i)
            group = distinct
            if "_link" in locals_:
                index = locals_.pop("_link")
            elif len(group) > 1:
                return self.ask(frame, pending[group[0]][2], "order", "choose the next link",
                                tuple(group), "_link",
                                tuple(f"{self.card_label(pending[i][1])}'s effect"
                                      for i in group))
            else:
                index = group[0]
            entry = pending[index]
            state.pending = pending[:index] + pending[index + 1:]
            locals_["_pushing"] = bool(state.pending)   # the rest of this link next
            self.push_entry(entry[0], entry[1], entry[2],
                            tuple(sorted(fired_locals(entry).items())))
            if settings.responses and not state.pending:
                self.first_responder(locals_, self.rival_of(entry[2]))
            return JUMPED
        if state.pending and (not state.stack or settings.join_at_priority):
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
            for entry in ordered:
                last_controller = entry[2]
                if entry[0] in uses:
                    # a card outside play: its controller may use it (costs,
                    # used up), which makes the entry (interpreter.compiler.triggered)
                    state.frames.append(Frame(entry[0], 0, fired_locals(entry)))
                    continue
                self.push_entry(entry[0], entry[1], entry[2],
                                tuple(sorted(fired_locals(entry).items())))
            if settings.responses:
                self.first_responder(locals_, self.rival_of(last_controller))
            return JUMPED
        if not state.stack:
            return None
        if locals_.pop("_again", False) and "responder" not in locals_:
            # "after an entry resolves: the turn player first": the new top
            # entry may be responded to, as the first was
            self.first_responder(locals_, self.rival_of(state.stack[-1][3]))
        if settings.responses and "responder" in locals_:
            responder = locals_["responder"]
            if "_respond" in locals_:
                answer = locals_.pop("_respond")
                if answer == ("pass",):
                    self.next_responder(locals_)
                    state.log.append(Passed(responder))
                    return JUMPED
                locals_.pop("_then", None)     # a response: its rival answers it
                if answer[0] == "use":
                    # an ability with costs (interpreter.engine.combat)
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
            if self.next_responder(locals_):
                return JUMPED
        entry = state.stack.pop()
        entry_id, program, source, controller, zone, entry_locals, nullified, _ = entry
        if settings.responses and settings.turn_player_first:
            locals_["_again"] = True
        # a card used up "after it resolves" (interpreter.engine.combat: use_up)
        after = next((value for key, value in entry_locals if key == "_after_use"), None)
        prevented = not nullified and bool(self.game.prevented_effects) and \
            self.effect_prevented(source)
        if nullified or prevented or (settings.drop_if_source_left and
                                      state.cards[source].zone != zone):
            state.log.append(EntryFizzled(entry_id, source, "nullified" if nullified else
                                           "its effect is prevented" if prevented
                                           else "its source left its zone"))
            if after:
                self.used_up_steps(source, after)
            return JUMPED
        state.log.append(EntryResolved(entry_id, source))
        if after:
            state.frames.append(Frame(AFTER_USE, 0, {"this": source, "_after_use": after}))
        if program:    # "": a played card responded to, carried on by its procedure
            state.frames.append(Frame(program, 0, dict(entry_locals)))
        return JUMPED

    def first_responder(self, locals_: dict, rival: int) -> None:
        """Who may respond first to the entry now on top: the rival of its
        controller; with "after an entry resolves: the turn player first",
        the turn player and then the other player (priority both ways)."""
        if self.rules.resolution.turn_player_first:
            turn = self.state.turn_player
            locals_["responder"], locals_["_then"] = turn, self.rival_of(turn)
        else:
            locals_["responder"] = rival

    def next_responder(self, locals_: dict) -> bool:
        """The responder passed (or had nothing to respond with): the player
        still due to answer, if any (True); else the top entry resolves."""
        if "_then" in locals_:
            locals_["responder"] = locals_.pop("_then")
            return True
        del locals_["responder"]
        return False

    def push_entry(self, program: str, source: int, controller: int, entry_locals: tuple,
                   responding_to=None) -> None:
        state = self.state
        state.entries += 1
        entry_id = state.entries
        state.stack.append((entry_id, program, source, controller, state.cards[source].zone,
                            entry_locals, False, responding_to))
        state.log.append(EntryWaits(entry_id, source, controller, len(state.stack)))

    def nullify_entry(self, entry_id) -> bool:
        state = self.state
        for index, entry in enumerate(state.stack):
            if entry[0] == entry_id and not entry[6]:
                state.stack[index] = entry[:6] + (True,) + entry[7:]
                state.log.append(EntryNullified(entry_id, entry[2]))
                return True
        return False

    def copy_effect(self, frame: Frame, programs: tuple, source: int, player: int,
                    entry_locals=()):
        """Resolve an effect again, ``player`` its controller ("Copy that
        effect", "Copy the effect of a Skill ..."): its programs run now, one
        after another in frames of their own before the step after this
        one, "you" the copier and "this" the card whose effect it is; every
        choice in it is made anew. Steps due after the original effect (its
        card used up) are not copied."""
        locals_ = {key: value for key, value in entry_locals if not key.startswith("_")}
        locals_["you"], locals_["this"] = player, source
        locals_.setdefault("it", source)
        self.state.log.append(EffectCopied(source, player))
        frame.pc += 1
        for program in reversed(programs):
            self.state.frames.append(Frame(program, 0, dict(locals_)))
        return JUMPED

    def entry_of(self, entry_id):
        """The entry waiting on the stack with this id (None once it left)."""
        return next((entry for entry in self.state.stack if entry[0] == entry_id), None)

    def resolve_now(self, frame: Frame):
        """Resolve what the last events triggered before going on."""
        self.collect_triggers()
        state = self.state
        if self.rules.resolution is None or not (state.pending or state.stack) or \
                self.declaring():
            return None
        frame.pc += 1
        state.frames.append(Frame("resolve", 0, {}))
        return JUMPED
