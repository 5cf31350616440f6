"""Any game as a PettingZoo AEC environment: ``env(game, decks, seed)``.

Each seat is an agent (``player_0``, ``player_1``, ...). An observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` from the
acting agent's own view (``adapters.encoding``); the action space is
``Discrete(N)`` with N the game's safe bound of options; an action is the
index of an option of the open decision. Rewards come at the end: 1 to the
winner, -1 to the others, 0 each for a draw. A game that passes
``max_decisions`` decisions is truncated (docs/rl.md).
"""

from __future__ import annotations

try:
    import gymnasium
    from pettingzoo import AECEnv
except ImportError:       # the rl extra is missing: env() says so (E861)
    gymnasium = None
    AECEnv = object

from interpreter.adapters.encoding import need_rl
from interpreter.adapters.games import MAX_DECISIONS, game_setting
from interpreter.engine import Match


def env(game: str, decks=(), seed: int | None = None, players: int | None = None,
        max_options: int | None = None, max_decisions: int = MAX_DECISIONS,
        render_mode: str | None = None) -> "CardrulesEnv":
    """An AEC environment playing ``game`` (a shipped id or a rules file's
    path) with the decks named (one per seat or one for all; none: the
    shipped decks in turn). Games are seeded ``seed, seed + 1, ...`` at each
    ``reset()`` without a seed (``seed`` None: from 0); ``reset(seed=S)``
    plays the game of seed S. ``max_options``: the size of the action space
    (default: the game's safe bound); ``max_decisions``: a game not over
    after that many decisions is truncated (a draw)."""
    need_rl(gymnasium is not None)
    return CardrulesEnv(game_setting(game, decks, players, max_options, max_decisions),
                        seed, render_mode)


class CardrulesEnv(AECEnv):
    """One game of cardrules, agent by agent (PettingZoo's AEC API)."""

    metadata = {"render_modes": ["ansi"], "name": "cardrules_v0",
                "is_parallelizable": False}

    def __init__(self, setting, seed: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.setting = setting
        self.encoder = setting.encoder
        self.render_mode = render_mode
        self.next_seed = 0 if seed is None else seed
        self.possible_agents = [f"player_{p}" for p in range(setting.players)]
        size = self.encoder.size
        self.observation_spaces = {agent: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-float("inf"), float("inf"), (size,),
                                                dtype="float32"),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.encoder.num_actions,),
                                                dtype="int8")})
            for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(self.encoder.num_actions)
                              for agent in self.possible_agents}
        self.match = None
        self.decisions = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options=None) -> None:
        if seed is None:
            seed, self.next_seed = self.next_seed, self.next_seed + 1
        else:
            self.next_seed = seed + 1
        self.seed_played = seed
        self.match = Match.start(self.setting.compiled, self.setting.decks, seed)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._settle()

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict:
        seat = self.seat(agent)
        return {"observation": self.encoder.encode(self.match.observation(seat)),
                "action_mask": self.encoder.action_mask(self.match, seat)}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.match.apply_action(int(action))
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self._settle()

    def _settle(self) -> None:
        """The agent to act next; at the end, every agent's reward."""
        match = self.match
        cap = self.setting.max_decisions
        if not match.is_terminal() and self.decisions >= cap:
            match.game_over_by_cap(f"cut short after {cap} decisions")
            self.truncations = {agent: True for agent in self.agents}
        if match.is_terminal():
            returns = match.returns()
            self.rewards = {agent: returns[self.seat(agent)] for agent in self.agents}
            if not any(self.truncations.values()):
                self.terminations = {agent: True for agent in self.agents}
            self._accumulate_rewards()
            # every agent takes its last (None) step, from the first seat
            self.agent_selection = self.agents[0]
            return
        self.rewards = {agent: 0.0 for agent in self.agents}
        self.agent_selection = self.possible_agents[match.current_player()]

    def render(self):
        """The log as the agent to act sees it (``Match.narration``), as text
        (render_mode "ansi"; the package prints nothing itself)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: env(render_mode='ansi')")
            return None
        return "\n".join(self.match.narration(self.seat(self.agent_selection)))

    def close(self) -> None:
        self.match = None
