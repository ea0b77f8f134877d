"""The rulesets through OpenSpiel (conquest/openspiel): our ``ismcts`` against OpenSpiel's search, and throughput.

    PYTHONPATH=. nice -n 15 python benchmarks/openspiel_bench.py strength [--time 0.2] [--games 20]
        [--nerath-games 8] [--nerath-options ,max_rounds=10] [--seed 2000] [ruleset ...]
    PYTHONPATH=. nice -n 15 python benchmarks/openspiel_bench.py throughput [--seconds 5]
    PYTHONPATH=. python benchmarks/openspiel_bench.py summary run1.err [run2.err@2010 ...]

``strength``: every game is played on OpenSpiel's state (``pyspiel.load_game("conquest_<id>")``). One seat is
our ``ismcts:time=T:cpu=1`` (it chooses a whole engine action from ``determinize``, as every runner gives it; the
action is then played as its tokens); the other seats are OpenSpiel's Python ``ISMCTSBot`` (random-rollout
evaluator, UCT c=2, a final policy of the most visited action) searching for T seconds of CPU per OpenSpiel decision
(a token: an engine action of several tokens gives it several times T, so the budget favours it). Kingdom has no
hidden information, so OpenSpiel's ISMCTS refuses it; there the opponent is OpenSpiel's Python ``MCTSBot`` (same
evaluator and budget). Two players: seats swapped every game; Nerath: 4 players, free-for-all, our seat going round
the table, par 1/4. A game that reaches its cap counts as shared. Each line printed is one match's JSON: games,
our score (wins, shared wins split), the Wilson 95% interval, the seeds.

``throughput``: random playouts (chance from its distribution) through OpenSpiel's interface
(``legal_actions``/``apply_action``/``chance_outcomes``) against our own loop (``legal_actions``/
``apply_unchecked``, conquest.core.chance.random_playout): OpenSpiel moves and engine actions per CPU second.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts, mcts as os_mcts

import conquest.openspiel  # noqa: F401  (registers the games)
from conquest.agents.specs import decide, get_agent
from conquest.analysis.tournament import wilson
from conquest.core.chance import random_playout


class TimedISMCTS(os_ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTSBot, its simulations run until ``budget`` seconds of CPU are spent (at least two:
    its root counts visits from the second; a random rollout to the end of a long game can take longer than the
    budget, so it overspends there, which favours it)."""

    def __init__(self, game: Any, budget: float, rng: np.random.RandomState) -> None:
        super().__init__(game, os_mcts.RandomRolloutEvaluator(1, rng), 2.0, 1, random_state=rng)
        self.budget = budget
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        end = time.process_time() + self.budget
        while True:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            # the first simulation only expands the root (OpenSpiel counts its visits from the second one)
            if time.process_time() >= end and self._root_node.total_visits > 0:
                break
        return self.get_final_policy(state, self._root_node)


class TimedMCTS(os_mcts.MCTSBot):
    """OpenSpiel's Python MCTSBot (no solver), its simulations run until ``budget`` seconds of CPU are spent."""

    def __init__(self, game: Any, budget: float, rng: np.random.RandomState) -> None:
        super().__init__(game, 2.0, 1, os_mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        self.budget = budget
        self.simulations = 0

    def mcts_search(self, state: Any) -> Any:
        root = os_mcts.SearchNode(None, state.current_player(), 1)
        end = time.process_time() + self.budget
        while True:
            path, working = self._apply_tree_policy(root, state)
            returns = working.returns() if working.is_terminal() else self.evaluator.evaluate(working)
            while path:
                i = -1
                while path[i].player == pyspiel.PlayerId.CHANCE:
                    i -= 1
                target = returns[path[i].player]
                node = path.pop()
                node.total_reward += target
                node.explore_count += 1
            self.simulations += 1
            if time.process_time() >= end:
                break
        return root


def play_game(game_string: str, ours: int, budget: float, seed: int) -> tuple[list[float], dict[str, Any]]:
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    rng = random.Random(seed)
    np_rng = np.random.RandomState(seed)
    agent = get_agent(f"ismcts:time={budget}:cpu=1")
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    bots = {p: (TimedMCTS if perfect else TimedISMCTS)(game, budget, np_rng) for p in range(n) if p != ours}
    st = game.new_initial_state()
    our_moves = 0
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes, probs = zip(*st.chance_outcomes())
            st.apply_action(rng.choices(outcomes, probs)[0])
        elif st.current_player() == ours:
            st.apply_engine_action(decide(agent, st.engine_state(), rng))
            our_moves += 1
        else:
            st.apply_action(int(bots[st.current_player()].step(st)))
    sims = sum(b.simulations for b in bots.values())
    return st.returns(), {"our_actions": our_moves, "their_simulations": sims, "moves": len(st.history()),
                          "capped": st._c.state.to_move is not None}


def strength(args: argparse.Namespace) -> None:
    for rid in args.rulesets:
        players = 4 if rid == "nerath" else 2
        name = (f"conquest_{rid}(players=4,mode=free-for-all{args.nerath_options})" if rid == "nerath"
                else f"conquest_{rid}")
        games = args.nerath_games if rid == "nerath" else args.games
        score = 0.0
        seeds = []
        capped = 0
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        sims = 0
        decisions = 0
        for g in range(games):
            seed = args.seed + g
            ours = g % players
            returns, info = play_game(name, ours, args.time, seed)
            res = returns[ours]
            # back from the zero-sum returns to the game's result: 1 win, 0 loss, shared wins split
            win = (res * (players - 1) + 1) / players if not info["capped"] else 1.0 / players
            score += win
            capped += info["capped"]
            sims += info["their_simulations"]
            decisions += info["our_actions"]
            seeds.append(seed)
            print(f"{rid}: game {g + 1}/{games} seed {seed} seat {ours} result {win:.2f} ({info}), "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        lo, hi = wilson(score / games, games)
        line = {"ruleset": rid, "players": players, "game": name, "ours": f"ismcts:time={args.time}:cpu=1",
                "theirs": ("OpenSpiel MCTSBot" if rid == "kingdom" else "OpenSpiel ISMCTSBot")
                + f" (python, random rollouts, uct_c=2, {args.time} s CPU per OpenSpiel decision)",
                "games": games, "score": round(score / games, 3), "wilson95": [round(lo, 3), round(hi, 3)],
                "par": round(1 / players, 3), "capped": capped, "seeds": [seeds[0], seeds[-1]],
                "their_simulations_per_game": round(sims / games, 1),
                "our_decisions_per_game": round(decisions / games, 1),
                "cpu_seconds_per_game": round((time.process_time() - cpu0) / games, 1)}
        print(json.dumps(line), flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(json.dumps(line) + "\n")


def throughput(args: argparse.Namespace) -> None:
    from conquest.core.registry import get_ruleset
    for rid in ("kingdom", "narby", "smallworld", "nerath"):
        players = 4 if rid == "nerath" else 2
        game = pyspiel.load_game(f"conquest_{rid}(players={players})")
        rng = random.Random(1)
        moves = actions = 0
        cpu0 = time.process_time()
        while time.process_time() - cpu0 < args.seconds:
            st = game.new_initial_state()
            start = st._c.trail
            while not st.is_terminal():
                if st.is_chance_node():
                    outcomes, probs = zip(*st.chance_outcomes())
                    st.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    legal = st.legal_actions()
                    st.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
            node = st._c.trail
            while node is not start:
                actions += 1
                node = node.parent
        os_cpu = time.process_time() - cpu0
        rs = get_ruleset(rid)
        own = 0
        cpu0 = time.process_time()
        seed = 0
        while time.process_time() - cpu0 < args.seconds:
            _st, steps = random_playout(rs.new_game(players, None, seed=0), random.Random(seed))
            own += steps
            seed += 1
        own_cpu = time.process_time() - cpu0
        line = {"ruleset": rid, "players": players,
                "openspiel_moves_per_cpu_s": round(moves / os_cpu),
                "openspiel_engine_actions_per_cpu_s": round(actions / os_cpu),
                "own_loop_engine_actions_per_cpu_s": round(own / own_cpu),
                "seconds": args.seconds}
        print(json.dumps(line), flush=True)


def summary(args: argparse.Namespace) -> None:
    """The figures of the games finished so far, from the progress lines of one or more runs (stderr): a run cut
    short for time still counts every game it finished."""
    import ast
    import re
    pat = re.compile(r"^(\w+): game (\d+)/\d+ (?:seed (\d+) )?seat (\d+) result ([\d.]+) \((\{.*\})\)")
    by: dict[str, list[tuple[int, float, dict[str, Any]]]] = {}
    for spec in args.logs:
        path, _, base = spec.partition("@")
        first = int(base) if base else args.seed
        for line in open(path):
            m = pat.match(line)
            if m:
                # lines without a seed come from a run of the default --seed, game k being seed + k - 1
                seed = int(m.group(3)) if m.group(3) else first + int(m.group(2)) - 1
                by.setdefault(m.group(1), []).append((seed, float(m.group(5)), ast.literal_eval(m.group(6))))
    for rid, rows in by.items():
        n = len(rows)
        score = sum(r for _s, r, _i in rows)
        lo, hi = wilson(score / n, n)
        seeds = sorted(s for s, _r, _i in rows)
        print(json.dumps({"ruleset": rid, "games": n, "wins": sum(r == 1.0 for _s, r, _i in rows),
                          "score": round(score / n, 3), "wilson95": [round(lo, 3), round(hi, 3)],
                          "seeds": seeds, "capped": sum(i["capped"] for _s, _r, i in rows)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("strength")
    s.add_argument("rulesets", nargs="*", default=["kingdom", "narby", "smallworld", "nerath"])
    s.add_argument("--time", type=float, default=0.2, help="seconds of CPU per decision, both sides")
    s.add_argument("--games", type=int, default=20, help="games per 2-player ruleset")
    s.add_argument("--nerath-games", type=int, default=8, help="4-player Nerath games")
    s.add_argument("--nerath-options", default=",max_rounds=10",
                   help="more parameters of the Nerath game (by default a 10-round game: the side with most VP wins)")
    s.add_argument("--seed", type=int, default=2000)
    s.add_argument("--out", help="also append the JSON lines to this file")
    t = sub.add_parser("throughput")
    t.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per game and loop")
    u = sub.add_parser("summary", help="the figures from the progress lines (stderr) of strength runs")
    u.add_argument("logs", nargs="+", help="log files; FILE@SEED for a run whose lines do not name the seed")
    u.add_argument("--seed", type=int, default=2000, help="the --seed of runs whose lines do not name the seed")
    args = ap.parse_args()
    {"strength": strength, "throughput": throughput, "summary": summary}[args.what](args)


if __name__ == "__main__":
    main()
