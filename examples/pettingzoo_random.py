import numpy as np
from interpreter.adapters.pettingzoo import env as cardrules_env

env = cardrules_env("pocket-league", decks=("Blaze and Tide", "Plain Folk"), seed=7)
env.reset()
rng = np.random.default_rng(7)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        print(agent, reward)                    # 1.0 the winner, -1.0 the loser
        env.step(None)
    else:                                       # a random legal action (masked)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
