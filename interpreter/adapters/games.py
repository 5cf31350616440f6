"""What both adapters start from: a game (a shipped id or a rules file's
path) loaded, checked and compiled, the decks of its seats, and the encoder
and action bound for them."""

from __future__ import annotations

import attrs

from interpreter.adapters.encoding import Encoder, action_bound
from interpreter.cli.common import load_playable
from interpreter.errors import CouldNotRun, Problem

# a game that has not ended after this many decisions is cut short (truncated)
MAX_DECISIONS = 20_000


@attrs.define
class Setting:
    """One game ready for an environment: compiled, its decks, its encoder."""

    game_id: str
    compiled: object
    decks: list
    encoder: Encoder
    max_decisions: int = MAX_DECISIONS

    @property
    def players(self) -> int:
        return len(self.decks)


def game_setting(game: str, decks=(), players: int | None = None,
                 max_options: int | None = None, max_decisions: int = MAX_DECISIONS) -> Setting:
    """The game ``game`` (a shipped id or a path to a rules file) with the
    decks named (one for every seat, or one for all; none: the shipped decks
    in turn), for ``players`` seats (default: the decks named, else the
    game's least). ``max_options``: the size of the action space (default:
    the safe bound the game and decks give, ``encoding.action_bound``);
    ``max_decisions``: a game not over after that many is cut short."""
    names = list(decks)
    count = players or (len(names) if len(names) > 1 else None)
    playable = load_playable(game, count, names)
    seats = playable.seats(0)
    bound = action_bound(playable.loaded.rules, seats)
    if max_options is not None and max_options < 2:
        raise CouldNotRun(Problem("E862", f"max_options must be 2 or more, not {max_options}"))
    if max_decisions < 1:
        raise CouldNotRun(Problem("E862", f"max_decisions must be 1 or more, not {max_decisions}"))
    encoder = Encoder(playable.compiled, len(seats), max_options or bound)
    return Setting(playable.loaded.game_id, playable.compiled, seats, encoder, max_decisions)
