"""A player's view as fixed-size numbers: the one encoding the PettingZoo and
OpenSpiel adapters share.

Sizes come from the game's declaration, never from one game's code: its
zones (each seat's, or the shared one), player counters, numeric stats,
statuses, periods, actions and card pool, and the decks being played. The
encoder reads only ``Match.observation(player)``, so what that view hides
(another player's hand, a face-down card, a secret counter) stays hidden;
card ids are never shown (an id tells the deck position a card started in).

Layout (``Encoder.sections`` names each slice):

- ``header``: turn number, whether the viewer is the turn player, whether
  the game is over;
- ``period``: one flag per declared period (turn, phases, steps) in progress;
- ``counters``: per seat from the viewer (the viewer first), each player
  counter's value and a flag "hidden" (a secret value not revealed);
- ``zones``: per zone and seat, the number of cards, how many of each card
  of the pool (slot 0: a card whose face the viewer may not see), the sum
  of each numeric stat as modified now, and how many have each status;
  a hidden zone shows its size only;
- ``stack``: its depth and how many entries each card of the pool is the
  source of;
- ``decision``: the kind of decision asked of the viewer (one flag per
  engine kind, the last one "other"), how many options, and per option slot
  the action word its label starts with and the card it names (as pool
  index + 1, 0 for none or unseen).

Actions are option indices ``0 .. n-1`` of the open decision; ``action_bound``
derives a safe number of them from the game and the decks, and
``action_mask`` refuses (E860) a decision with more options than the space
holds rather than dropping any.
"""

from __future__ import annotations

try:
    import numpy as np
except ImportError:       # the rl extra is missing: need_rl says so
    np = None

from interpreter.errors import CardrulesError, CouldNotRun, Problem

# The kinds of decision the engine asks (engine words, not a game's);
# any other kind counts as the last flag.
DECISION_KINDS = ("action", "respond", "target", "order", "yes-no", "first player",
                  "slot", "choose", "secret", "number", "mode", "defend", "discard", "use")
HIDDEN = "a face-down card"


def need_rl(installed: bool) -> None:
    """A clear refusal (E861) when a package of the rl extra is not installed."""
    if not installed:
        raise CouldNotRun(Problem("E861", "the RL adapters need numpy, PettingZoo, "
                                  "gymnasium (and open-spiel for OpenSpiel)", None, None,
                                  ("pip install 'cardrules[rl]'",)))


def deck_size(deck) -> int:
    return sum(entry.count for _part, entries in deck.parts for entry in entries)


def action_bound(rules, decks) -> int:
    """A safe number of options for any decision: every card of the decks
    (and one more, a token or "done") with each declared action or alone,
    plus a pass. Choosing a number has no bound in the declaration; a
    decision beyond this one is refused with E860."""
    cards = sum(deck_size(deck) for deck in decks) + 1
    return cards * (len(rules.actions) + 1) + 1


class Encoder:
    """Turns ``Match.observation(player)`` into a float32 vector of fixed
    size for one game and player count, and the open decision into a mask."""

    def __init__(self, game, players: int, num_actions: int):
        need_rl(np is not None)
        rules = game.rules
        self.players = players
        self.num_actions = num_actions
        self.pool = {name: i + 1 for i, name in enumerate(sorted(game.cards))}
        self.stats = [name for name, decl in rules.stats.items() if decl.type == "number"]
        self.statuses = list(rules.statuses)
        self.periods = {name: i for i, name in enumerate(rules.periods)}
        self.counters = [name for name, decl in rules.counters.items()
                         if decl.scope == "player"]
        self.actions = sorted((a.name for a in rules.actions), key=len, reverse=True)
        self.action_index = {name: i + 1 for i, name in
                             enumerate(a.name for a in rules.actions)}
        # zones: (name, seat from the viewer or -1 shared) in declaration order
        self.zones = []
        for name, decl in rules.zones.items():
            if decl.scope == "shared":
                self.zones.append((name, -1))
            else:
                self.zones.extend((name, seat) for seat in range(players))
        per_zone = 1 + len(self.pool) + 1 + len(self.stats) + len(self.statuses)
        sizes = [("header", 3), ("period", len(self.periods)),
                 ("counters", players * len(self.counters) * 2),
                 ("zones", len(self.zones) * per_zone),
                 ("stack", 1 + len(self.pool) + 1),
                 ("decision", len(DECISION_KINDS) + 1 + 1 + 2 * num_actions)]
        self.sections, start = {}, 0
        for name, size in sizes:
            self.sections[name] = slice(start, start + size)
            start += size
        self.size = start
        self.per_zone = per_zone

    def empty(self):
        return np.zeros(self.size, dtype=np.float32)

    def encode(self, view: dict):
        """The vector of one player's view (``Match.observation(player)``)."""
        out = self.empty()
        me = view["player"]
        at = self.sections["header"].start
        out[at:at + 3] = (view["turn"], view["turn_player"] == me, view["result"] is not None)
        at = self.sections["period"].start
        for name in view["period"].values():
            if name in self.periods:
                out[at + self.periods[name]] = 1
        at = self.sections["counters"].start
        for seat in range(self.players):
            seen = view["counters"][(me + seat) % self.players]
            for name in self.counters:
                value = seen.get(name, 0)
                out[at] = value if isinstance(value, (int, float)) else 0
                out[at + 1] = value is None
                at += 2
        at = self.sections["zones"].start
        for name, seat in self.zones:
            owner = -1 if seat < 0 else (me + seat) % self.players
            self._zone(out, at, view, f"{name}/{owner}" if owner >= 0 else name)
            at += self.per_zone
        at = self.sections["stack"].start
        out[at] = len(view["stack"])
        for entry in view["stack"]:
            out[at + 1 + self.pool.get(entry["source"], 0)] += 1
        self._decision(out, view)
        return out

    def _zone(self, out, at: int, view: dict, key: str) -> None:
        shown = view["zones"].get(key)
        if shown is None:
            return
        if isinstance(shown, int):       # a zone the viewer cannot see: its size
            out[at] = shown
            return
        out[at] = len(shown)
        first_stat = at + 1 + len(self.pool) + 1
        first_status = first_stat + len(self.stats)
        for card in view["cards"].get(key, ()):
            out[at + 1 + self.pool.get(card.get("name"), 0)] += 1
            stats = card.get("stats", {})
            for i, stat in enumerate(self.stats):
                value = stats.get(stat)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    out[first_stat + i] += value
            for status in card.get("statuses", ()):
                if status in self.statuses:
                    out[first_status + self.statuses.index(status)] += 1

    def _decision(self, out, view: dict) -> None:
        decision = view["decision"]
        if decision is None:
            return
        at = self.sections["decision"].start
        kind = decision["kind"]
        out[at + (DECISION_KINDS.index(kind) if kind in DECISION_KINDS
                  else len(DECISION_KINDS))] = 1
        at += len(DECISION_KINDS) + 1
        records = decision["records"]
        self.check_fits(len(records), decision["prompt"])
        out[at] = len(records)
        names = {card["id"]: card["name"] for cards in view["cards"].values()
                 for card in cards if "id" in card}
        at += 1
        for record in records:
            out[at] = self.action_word(record["label"])
            named = [names[c] for c in record["cards"] if c in names]
            out[at + 1] = self.pool.get(named[0], 0) if named else 0
            at += 2

    def action_word(self, label: str) -> int:
        """The declared action an option's label starts with (index + 1), or 0."""
        for name in self.actions:
            if label == name or label.startswith(name + " "):
                return self.action_index[name]
        return 0

    def check_fits(self, options: int, prompt: str) -> None:
        if options > self.num_actions:
            raise CardrulesError(Problem(
                "E860", f'the decision "{prompt}" has {options} options, more than the '
                f"{self.num_actions} actions of the space", None, None,
                ("a larger max_options when the environment is made",)))

    def action_mask(self, match, player: int):
        """1 for each legal action of ``player`` now (none when another decides)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if match.current_player() == player:
            legal = match.legal_actions()
            self.check_fits(len(legal), match.state.decision.prompt)
            mask[legal] = 1
        return mask
