"""Steps about turns and windows: repeat, bid for the next turn, choose
the first player, take the next turn, players alternate actions, players
may respond, a player takes actions (with or without priority).
"""

from __future__ import annotations

from interpreter.compiler.program import JUMPED, unsupported
from interpreter.compiler.selectors import compile_amount


class WindowSteps:
    """The StepCompiler's steps that open windows and pass turns."""

    def do_repeat(self, action, who):
        """ "Repeat this": the text it is written in runs again from its
        start — the ability, or the game verb whose definition says it (the
        engine's step guard ends a game that would repeat for ever). In a
        procedure of the rules file itself it would restart the game."""
        start = getattr(self, "_repeat_from", None)
        if start is not None:
            self.e.jump(start)
            return
        if not self.e.program.name.startswith(("card:", "used:")):
            raise unsupported(action, '"Repeat this" outside a card\'s ability or a verb '
                              '(it would start the whole procedure again)')

        def again(m, f):
            f.pc = 0
            return JUMPED
        self.e.emit(again)

    def do_choose_first_player(self, action, who):
        """ "A random player chooses the first player" (setup): see
        Machine.choose_first_player."""
        store = f"_first{len(self.e.program.instructions)}"
        self.game.first_chosen = True
        self.e.emit(lambda m, f: m.choose_first_player(f, store))

    def do_choose_player(self, action, who):
        """ "A random player chooses a player": a decision among the players
        still in the game; the chosen player is "that player" (they) in the
        steps after."""
        store = f"_player{len(self.e.program.instructions)}"

        def choose(m, f):
            if store in f.locals:
                f.locals["they"] = f.locals.pop(store)
                f.locals["did"] = True
                return None
            alive = tuple(p for p in range(m.state.players) if not m.state.out[p])
            return m.ask(f, who(m, f), "player", "choose a player", alive, store,
                         tuple(f"Player {p + 1}" for p in alive))
        self.e.emit(choose)

    def do_take_next_turn(self, action, who):
        """The player takes the next turn (whatever the seat order says); in
        the setup, that player goes first (the first player of the steps
        after), and the log says so."""
        first = self.in_setup
        if first:
            self.game.first_chosen = True    # not known when the game starts

        def take(m, f):
            player = who(m, f)
            m.take_next_turn(player)
            if first:
                m.note(f"Player {player + 1} goes first.")
                m.state.turn_player = player
                f.locals["first"] = player
            f.locals["did"] = True
        self.e.emit(take)

    def do_alternate_until_passes(self, action, who):
        store = f"_alt{len(self.e.program.instructions)}"

        def window(m, f):
            return m.alternate(f, store, None)
        self.e.emit(window)

    def do_alternate_count(self, action, who):
        store = f"_alt{len(self.e.program.instructions)}"
        count = compile_amount(action.args[0], action)

        def window(m, f):
            return m.alternate(f, store, count(m, f))
        self.e.emit(window)

    def do_any_time_window(self, action, who):
        """ "Players may respond": each player in turn, from the turn player,
        may take actions usable at any time, until all pass in a row."""
        store = f"_any{len(self.e.program.instructions)}"

        def window(m, f):
            return m.any_time_window(f, store, None)
        self.e.emit(window)

    def do_take_actions(self, action, who):
        store = f"_act{len(self.e.program.instructions)}"

        def window(m, f):
            return m.action_window(f, who(m, f), store)
        self.e.emit(window)

    def do_take_actions_priority(self, action, who):
        store = f"_act{len(self.e.program.instructions)}"

        def window(m, f):
            return m.priority_window(f, who(m, f), store)
        self.e.emit(window)
