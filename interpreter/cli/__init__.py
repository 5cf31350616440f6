"""The ``cardrules`` command line; this package is the only one that prints.

The group and its commands, each in the module of its job: ``checking``
(check, explain, ruling, new, games), ``playing`` (play, replay),
``simulating`` (simulate, soak), ``serving`` (serve: the web table) and
``editing`` (lsp: the language server); ``common`` holds what they share
(loading a game and its decks, seeds, Ctrl-C, printing problems). Exit codes follow the linter convention: 0 clean, 1 problems
found, 2 could not run, 130 interrupted. Every user mistake is printed as a positioned problem; a
Python traceback is always a bug in cardrules.
"""

from __future__ import annotations

import sys

import click

from interpreter.cli import checking, editing, playing, serving, simulating
from interpreter.cli.common import print_problems
from interpreter.errors import CardrulesError


class _Group(click.Group):
    """Click group whose usage errors exit 2 with a one-line hint."""

    def main(self, *args, **kwargs):
        kwargs.setdefault("standalone_mode", True)
        try:
            return super().main(*args, **kwargs)
        except CardrulesError as err:  # pragma: no cover - commands catch their own
            print_problems(err.problems, err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardrules")
def main() -> None:
    """cardrules: card games as text -- rules files, card files, decks and rulings."""


for _module in (checking, playing, simulating, serving, editing):
    for _command in _module.COMMANDS:
        main.add_command(_command)
