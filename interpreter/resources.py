"""Where the shipped grammar, rules and card files are.

In a source checkout they sit at the top of the repository (``grammar/``,
``rules/``, ``cards/``); in an installed wheel they ship inside the package as
``interpreter/grammar`` and so on (see pyproject.toml). This module is the one
place that knows both layouts (and reads a grammar's labelled examples).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The directory of shipped data called ``name`` (grammar, rules, cards or templates)."""
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def grammar_path(filename: str) -> Path:
    return data_dir("grammar") / filename


def read_grammar(filename: str) -> str:
    return grammar_path(filename).read_text(encoding="utf-8")


def read_examples(filename: str) -> dict[str, list[str]]:
    """The labelled bad examples beside a grammar: 'label:' then indented
    example lines (grammar/effect.examples)."""
    try:
        text = read_grammar(filename)
    except FileNotFoundError:
        return {}
    table: dict[str, list[str]] = {}
    label = None
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if not raw.startswith((" ", "\t")):
            label = raw.strip().rstrip(":")
            table.setdefault(label, [])
        elif label:
            table[label].append(raw.strip())
    return table
