"""OpenSpiel's algorithms on a Conquest game: Small World (2 players) loaded through pyspiel, one seat played by
OpenSpiel's ISMCTSBot (Python), the other by its uniform random bot; then a few random games of 4-player Nerath
played through OpenSpiel's interface. Needs the openspiel extra (pip install -e '.[openspiel]').

    PYTHONPATH=. python examples/openspiel_search.py [--simulations 30] [--seed 1]
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import conquest.openspiel  # noqa: F401  (registers conquest_kingdom, conquest_narby, ...)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations per decision")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    game = pyspiel.load_game("conquest_smallworld(players=2)")
    print(game, "\n  actions (tokens):", game.num_distinct_actions(),
          " observation tensor:", game.observation_tensor_shape())
    rng = np.random.RandomState(args.seed)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.simulations,
                              random_state=rng)
    bots = [search, pyspiel.make_uniform_random_bot(1, args.seed)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            player = state.current_player()
            action = int(bots[player].step(state))
            if player == 0 and len(state.history()) < 40:
                print(f"  seat 0 (ISMCTS) chooses token {state.action_to_string(player, action)}")
            state.apply_action(action)
    print("Small World returns (ISMCTS, random):", state.returns(), "after", len(state.history()), "moves")

    nerath = pyspiel.load_game("conquest_nerath(players=4,mode=free-for-all,max_rounds=10)")
    returns = pyspiel.evaluate_bots(nerath.new_initial_state(),
                                    [pyspiel.make_uniform_random_bot(p, args.seed + p) for p in range(4)],
                                    args.seed)
    print("Nerath, 4 random bots, returns:", returns)


if __name__ == "__main__":
    main()
