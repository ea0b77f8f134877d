"""One hash of Nerath's evaluation (``evaluate_all``, the floats' repr) over seeded games, for a change that must
make the evaluation faster without changing one value: run it on the old and the new tree, the TOTAL lines must
be equal.

At every state of a game (chance nodes too) it hashes ``evaluate_all`` of the state and of the states after up to
``SAMPLE`` of its legal actions; the game goes on by the best of those for the mover (greedy on a sample, so the
games reach the battles an evaluation-driven player starts) or, one decision in four, by a random action.

    PYTHONPATH=$PWD nice -n 15 .venv/bin/python benchmarks/nerath_eval_hash.py [GAMES] [MAX_STEPS]
"""

from __future__ import annotations

import hashlib
import random
import sys
import time

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset

SAMPLE = 6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    max_steps = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    rs = get_ruleset("nerath")
    total = hashlib.sha256()
    cpu = time.process_time()
    for players in (2, 3, 4):
        h = hashlib.sha256()
        evaluated = 0
        for g in range(games):
            rng = random.Random(104729 * players + g)
            st = rs.new_game(players, {}, g)
            for _ in range(max_steps):
                if st.to_move is None:
                    break
                h.update(repr(rs.evaluate_all(st)).encode())
                evaluated += 1
                if st.to_move == CHANCE:
                    st = st.apply_unchecked(sample_chance(st, rng))
                    continue
                seat = st.to_move
                acts = list(st.legal_actions())
                if len(acts) > SAMPLE:
                    acts = rng.sample(acts, SAMPLE)
                best, best_v = acts[0], float("-inf")
                for a in acts:
                    v = rs.evaluate_all(st.apply_unchecked(a))
                    h.update(repr(v).encode())
                    evaluated += 1
                    if v[seat] > best_v:
                        best, best_v = a, v[seat]
                st = st.apply_unchecked(best if rng.random() < 0.75 else rng.choice(acts))
        print(f"nerath {players} players: {evaluated} evaluations  {h.hexdigest()}", flush=True)
        total.update(h.digest())
    print(f"TOTAL {total.hexdigest()}  ({time.process_time() - cpu:.1f} s CPU)")


if __name__ == "__main__":
    main()
