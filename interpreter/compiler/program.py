"""Programs: what the compiler produces and the engine runs.

A :class:`Program` is a list of instructions; an instruction is a closure
``op(machine, frame)`` built once, when the game loads, from an AST node.
What changes while a game runs is only data in the state: which program
each frame runs, its position ``pc`` and its ``locals`` (the cards chosen so
far, the acting player, whether the last step happened). That is why a game
can be cloned or saved to JSON in the middle of an effect.

An instruction returns ``None`` to go on to the next one, :data:`WAIT` after
it has put a decision in the state (it runs again, with the answer in its
frame's locals, once the decision is answered), or :data:`JUMPED` when it has
set ``frame.pc`` or pushed a frame itself.

Locals every frame may have: ``you`` (the acting player), ``this`` (the card
whose text runs), ``it`` (the card or cards last chosen), ``did`` (whether
the last step happened: "then" and "if you do" read it).

Most instructions a program runs are bookkeeping: jumps, binding "they"
for each player in turn, forgetting "it". Those are emitted as *local*
instructions (``Emitter.emit_local``: they read the state, and change only
their frame's locals and ``pc`` -- never the log, a decision or the frames),
and a run of them is done in one step of the machine (:func:`_local_runner`):
nothing the machine checks between two steps (state rules, triggers, what
resolves) can change inside such a run.

A construct the engine cannot run yet raises :class:`Unsupported` at load
time with the place in the card or rules file, never a wrong result later.
The :class:`Emitter` builds one program, with labels and jumps.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.frames import Frame
from interpreter.errors import CardrulesError, Problem
from interpreter.source import Span


WAIT = object()
JUMPED = object()


Instruction = Callable[["object", Frame], object]


@attrs.define
class Program:
    name: str
    instructions: list = attrs.Factory(list)
    span: Span | None = None

    def __len__(self) -> int:
        return len(self.instructions)


class Unsupported(CardrulesError):
    """Text the language accepts but this engine cannot run yet."""


# how a step's suffix (grammar/effect.lark, step_suffix) reads in a message
_SUFFIX_WORDS = {
    "lasting": "a duration", "if_suffix": "if ...", "for_each_suffix": "for each ...",
    "times_suffix": "that many times", "for_free": "for free", "excess_to": "with excess to ...",
    "rest_to": "and the rest to ...", "quietly": "without triggering abilities",
    "while_suffix": "while ...", "at_end_suffix": "at the end of ...",
    "at_start_suffix": "at the start of ...", "during_suffix": "during ...",
}


def suffix_words(suffix) -> str:
    """The words of a step's suffix ("for_each_suffix" -> "for each ...")."""
    return _SUFFIX_WORDS.get(suffix.form, suffix.form.replace("_", " "))


def unsupported(node, what: str, suggestion: str | None = None) -> Unsupported:
    span = getattr(node, "span", None)
    return Unsupported(Problem("E801", f"the engine cannot run {what} yet", span,
                               suggestion=suggestion))


# ---------------------------------------------------------------- emitting code


class Emitter:
    """Builds one program; labels are resolved when the program is finished."""

    def __init__(self, name: str, span: Span | None = None):
        self.program = Program(name, [], span)
        self._local: set[int] = set()       # the local instructions' positions
        self._fixups: list[tuple[int, str]] = []
        self._labels: dict[str, int] = {}
        self._next_label = 0

    @property
    def by_rules(self) -> bool:
        """Whether this is a program of the rules file's own (its turn, an
        action): damage it deals is battle (combat) damage, the verbs it
        uses included; card text deals effect damage."""
        return self.program.name == "game" or self.program.name.startswith("action:")

    def emit(self, instruction: Instruction) -> int:
        self.program.instructions.append(instruction)
        return len(self.program.instructions) - 1

    def emit_local(self, instruction: Instruction) -> int:
        """An instruction that reads the state and changes only its frame's
        locals (and ``pc``): it never logs, decides, pushes a frame or waits."""
        at = self.emit(instruction)
        self._local.add(at)
        return at

    def label(self) -> str:
        self._next_label += 1
        return f"L{self._next_label}"

    def place(self, label: str) -> None:
        self._labels[label] = len(self.program.instructions)

    def jump_unless(self, test: Callable, label: str) -> None:
        """Jump to ``label`` unless ``test(machine, frame)`` is true."""
        box = [0]
        self._fixups.append((len(self.program.instructions), label, box))

        def jump_unless(m, frame):
            if test(m, frame):
                return None
            frame.pc = box[0]
            return JUMPED
        self.emit_local(jump_unless)

    def jump(self, label: str) -> None:
        self.jump_unless(lambda m, f: False, label)

    def finish(self) -> Program:
        for _index, label, box in self._fixups:
            box[0] = self._labels[label]
        if self._local:
            code = tuple(self.program.instructions)
            local = tuple(i in self._local for i in range(len(code)))
            for at in self._local:
                self.program.instructions[at] = _local_runner(at, code, local)
        return self.program


LOCAL_RUN_MAX = 64     # local instructions in one step (a loop of them goes on next step)


def _local_runner(start: int, code: tuple, local: tuple) -> Instruction:
    """The instruction at ``start`` and the local instructions after it
    (following its jumps), up to the first that is not local, in one step:
    it leaves ``pc`` at that one and counts the machine's steps as if each
    had been one."""
    def run_locals(m, frame):
        pc = start
        ran = 0
        end = len(code)
        while ran < LOCAL_RUN_MAX:
            frame.pc = pc
            outcome = code[pc](m, frame)
            ran += 1
            pc = pc + 1 if outcome is None else frame.pc
            if pc >= end or not local[pc]:
                break
        frame.pc = pc
        m.steps += ran - 1
        return JUMPED
    return run_locals
