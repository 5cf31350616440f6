"""The loop guard: caps past which a game ends as a draw, with the reason
(events in the log, effects nested or waiting, turns, steps between two
decisions, actions in one window), and :class:`GameOver`, which the machine
raises to stop at once when the game has just ended.
"""

from __future__ import annotations

# Loop guard: a game that goes past these ends as a draw, with the reason.
MAX_EVENTS = 200_000
MAX_DEPTH = 64
MAX_TURNS = 500
MAX_STEPS = 200_000          # steps between two decisions
MAX_ACTIONS_PER_WINDOW = 200


class GameOver(Exception):
    """Raised inside the machine when the game has just ended."""
