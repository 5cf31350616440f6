"""Every installed game registered with OpenSpiel as a Python game:
``import interpreter.adapters.openspiel`` and ``pyspiel.load_game(
"cardrules_<id>")`` (a ``-`` of the id read ``_``: ``cardrules_pocket_league``).

Sequential, imperfect information, terminal rewards (1 the winner, -1 the
others). The engine shuffles and flips coins inside an action with its own
seeded generator, so the games are SAMPLED_STOCHASTIC with a ``seed``
parameter rather than explicit chance nodes: exposing every draw as a chance
node would need the engine to stop inside a running effect, and the seeded
generator already makes every game reproducible. Each ``new_initial_state()``
of one game object plays the next seed (``seed``, ``seed + 1``, ...).
Parameters: ``seed``, ``players``, ``decks`` (deck names separated by
``;``, one per seat or one for all; empty: the shipped decks in turn) and
``max_options`` (0: the safe bound) and ``max_decisions`` (a game not
over after that many is cut short: a draw). Observation and information state
tensors are ``adapters.encoding``'s vector of the player's view (the same
as PettingZoo's); the information state string is the player's narration
of the whole game (perfect recall), the observation string the view now.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError:       # open-spiel does not install here: importing says so (E861)
    pyspiel = None

from interpreter.adapters.encoding import need_rl
from interpreter.adapters.games import MAX_DECISIONS, game_setting
from interpreter.engine import Match
from interpreter.language.games import load_game, shipped_games

need_rl(pyspiel is not None)

PREFIX = "cardrules_"


def short_name(game_id: str) -> str:
    """The name OpenSpiel knows a game by: ``cardrules_pocket_league``."""
    return PREFIX + game_id.replace("-", "_")


def game_type(game_id: str, rules):
    """The game's OpenSpiel type: what does not change with its parameters."""
    two = rules.players_max == 2
    return pyspiel.GameType(
        short_name=short_name(game_id), long_name=f"cardrules {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if two
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.players_max, min_num_players=rules.players_min,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0, "players": rules.players_min, "decks": "",
                                 "max_options": 0, "max_decisions": MAX_DECISIONS})


class CardrulesGame(pyspiel.Game):
    """One cardrules game as an OpenSpiel game; ``register`` makes a subclass
    for each game id (``GAME_ID``, ``KIND``: its GameType)."""

    GAME_ID = ""
    KIND = None

    def __init__(self, params=None):
        kind = self.KIND
        values = dict(kind.parameter_specification)
        values.update(params or {})
        decks = [name.strip() for name in str(values["decks"]).split(";") if name.strip()]
        self.setting = game_setting(self.GAME_ID, decks, int(values["players"]),
                                    int(values["max_options"]) or None,
                                    int(values["max_decisions"]))
        self.next_seed = int(values["seed"])
        zero_sum = kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.setting.encoder.num_actions, max_chance_outcomes=0,
            num_players=self.setting.players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if zero_sum else None, max_game_length=self.setting.max_decisions)
        super().__init__(kind, info, values)

    def new_initial_state(self):
        return CardrulesState(self)

    def take_seed(self) -> int:
        """The seed of the next game played: ``seed``, ``seed + 1``, ..."""
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        return seed

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CardrulesObserver(self.setting.encoder, perfect_recall)


class Played:
    """The match of a state, and how many decisions it has taken. OpenSpiel
    clones a Python state by making a new initial state and deep-copying
    each attribute: this copies itself with ``Match.clone`` (the compiled
    game shared), and a new state starts its match (taking a seed) only
    when first asked, so a clone takes none."""

    __slots__ = ("game", "started", "decisions")

    def __init__(self, game: CardrulesGame, started: Match | None = None, decisions: int = 0):
        self.game = game
        self.started = started
        self.decisions = decisions

    @property
    def match(self) -> Match:
        if self.started is None:
            setting = self.game.setting
            self.started = Match.start(setting.compiled, setting.decks, self.game.take_seed())
        return self.started

    def __deepcopy__(self, memo):
        return Played(self.game, self.match.clone(), self.decisions)


class CardrulesState(pyspiel.State):
    """A game in progress (OpenSpiel's State over a ``Match``)."""

    def __init__(self, game: CardrulesGame):
        super().__init__(game)
        self.played = Played(game)

    @property
    def match(self) -> Match:
        return self.played.match

    def current_player(self):
        if self.match.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.match.current_player()

    def _legal_actions(self, player):
        match = self.match
        if player != match.current_player():
            return []
        actions = match.legal_actions()
        self.played.game.setting.encoder.check_fits(len(actions), match.state.decision.prompt)
        return actions

    def _apply_action(self, action):
        match = self.match
        match.apply_action(int(action))
        self.played.decisions += 1
        cap = self.played.game.setting.max_decisions
        if not match.is_terminal() and self.played.decisions >= cap:
            match.game_over_by_cap(f"cut short after {cap} decisions")

    def _action_to_string(self, player, action):
        if player == self.match.current_player():
            return self.match.action_to_string(action)
        return f"option {action}"

    def is_terminal(self):
        return self.match.is_terminal()

    def returns(self):
        return self.match.returns()

    def __str__(self):
        return "\n".join(self.match.narration())


class CardrulesObserver:
    """OpenSpiel's observer of a player: the encoder's vector as the tensor;
    as a string, the player's narration (perfect recall) or the view now."""

    def __init__(self, encoder, perfect_recall: bool):
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = encoder.empty()
        self.dict = {name: self.tensor[part] for name, part in encoder.sections.items()}

    def set_from(self, state, player):
        self.tensor[:] = self.encoder.encode(state.match.observation(player))

    def string_from(self, state, player):
        if self.perfect_recall:
            return "\n".join(state.match.narration(player))
        return view_text(state.match.observation(player))


def view_text(view: dict) -> str:
    """A player's view now in a few lines: when, the counters, each zone
    (hidden ones by size), the decision's options if theirs."""
    lines = [f"player {view['player']}, turn {view['turn']}, "
             + ", ".join(f"{k} {v}" for k, v in sorted(view["period"].items()))]
    for player, counters in enumerate(view["counters"]):
        lines.append(f"counters/{player}: " + ", ".join(
            f"{name} {'?' if value is None else value}" for name, value in counters.items()))
    for zone, shown in sorted(view["zones"].items()):
        lines.append(f"{zone}: " + (f"{shown} hidden" if isinstance(shown, int)
                                    else ", ".join(shown)))
    if view["decision"] is not None:
        lines.append(view["decision"]["prompt"] + ": " + " | ".join(view["decision"]["options"]))
    return "\n".join(lines)


def register(game_id: str, rules) -> None:
    """Registers one game with OpenSpiel (once), as a subclass of
    ``CardrulesGame`` naming it (a class, not a closure: OpenSpiel keeps its
    creator until the process ends, and a class outlives the interpreter's
    shutdown where a closure would be freed without it)."""
    kind = game_type(game_id, rules)
    if kind.short_name in pyspiel.registered_names():
        return
    game_class = type(f"CardrulesGame_{kind.short_name}", (CardrulesGame,),
                      {"GAME_ID": game_id, "KIND": kind})
    pyspiel.register_game(kind, game_class)


def register_installed() -> None:
    """Registers every installed game (the shipped ones)."""
    for game_id in shipped_games():
        register(game_id, load_game(game_id).rules)


register_installed()
