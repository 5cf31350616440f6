"""The compiler: a checked game lowered to programs the engine runs.

The program format (``program``: :class:`Program`, the :class:`Emitter`,
``WAIT`` / ``JUMPED``, ``Unsupported``; ``frames``: where a running program
is), the parts of card text compiled to closures (``players``, ``selectors``
with the measures that count them, ``conditions``, ``modifiers``,
``costs``, ``verb_slots``), the step compiler (``steps``, with its steps by
theme in ``moving_steps``, ``changing_steps``, ``window_steps``,
``verb_steps`` and ``combat_steps``), abilities (``abilities``,
``triggered``) and a whole game (``game``: :func:`compile_game`, producing
the records of ``compiled``). Nothing here runs a program: the compiled
closures call the engine's machine.
"""
