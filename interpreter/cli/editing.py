"""``lsp``: the language server an editor starts (interpreter.editor)."""

from __future__ import annotations

import sys

import click

from interpreter.cli.common import print_problems
from interpreter.editor import server
from interpreter.errors import Problem


@click.command()
def lsp() -> None:
    """Start the language server (LSP over stdin and stdout) for an editor:
    check, completion, hover and go-to-definition for rules, card, deck and
    ruling files. Needs the lsp extra: pip install 'cardrules[lsp]'."""
    if not server.AVAILABLE:
        print_problems([Problem(
            "E920", "the language server needs pygls, which is not installed", None, None,
            ("the lsp extra",), "install it: pip install 'cardrules[lsp]'")], err=True)
        sys.exit(2)
    if server.serve():
        sys.exit(130)      # Ctrl-C


COMMANDS = (lsp,)
