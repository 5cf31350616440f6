import numpy as np
import pyspiel
import interpreter.adapters.openspiel  # noqa: F401  (registers every installed game)

game = pyspiel.load_game("cardrules_pocket_league", {"seed": 7})
state = game.new_initial_state()
rng = np.random.default_rng(7)
while not state.is_terminal():
    player = state.current_player()
    tensor = state.observation_tensor(player)      # what the player sees, as numbers
    state.apply_action(int(rng.choice(state.legal_actions())))
print(state.returns(), len(tensor), game.num_distinct_actions())
