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

import importlib
import sys

import click

from interpreter.cli.common import print_problems
from interpreter.errors import CardrulesError


# Each command and the module of this package that holds it. A module is
# imported only when one of its commands runs (or help lists them all):
# `check` does not wait for the web table's, the language server's or the
# simulations' libraries to load.
_COMMAND_MODULES = {
    "check": "checking", "explain": "checking", "ruling": "checking",
    "new": "checking", "games": "checking",
    "play": "playing", "replay": "playing",
    "simulate": "simulating", "soak": "simulating",
    "serve": "serving",
    "lsp": "editing",
}


class _Group(click.Group):
    """Click group whose usage errors exit 2 with a one-line hint, and whose
    commands are loaded from their modules when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(_COMMAND_MODULES))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _COMMAND_MODULES:
            module = importlib.import_module(f"{__name__}.{_COMMAND_MODULES[cmd_name]}")
            for command in module.COMMANDS:
                self.add_command(command)
        return self.commands.get(cmd_name)

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

