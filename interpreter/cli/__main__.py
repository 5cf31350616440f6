"""``python -m interpreter.cli``: the command line, as the ``cardrules`` script runs it."""

from interpreter.cli import main

main()
