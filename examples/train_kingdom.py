"""Train a kingdom policy with MaskablePPO (sb3-contrib) against the `random` agent, on the CPU.

    python examples/train_kingdom.py --out kingdom-policy                # the full run (a few minutes)
    python examples/train_kingdom.py --steps 4000 --eval 20 --out /tmp/p  # a smoke run

The learner plays a seat drawn at random each game (the observation is written from the seat's side, so one
policy plays both colours). The policy is saved in the safe format (OUT.json, a description, and
OUT.safetensors, weights only: no pickle), which plays as an agent, `policy:path=OUT.json` (docs/rl.md), and can
be installed in a server's policies folder (`conquest serve --policies DIR`). At the end the policy plays
`--eval` games against the opponent (seats alternate) and the win rate is printed.
Needs the `rl` extra: pip install 'conquest[rl]'.
"""

from __future__ import annotations

import argparse
import json
import time


def evaluate(path: str, games: int, opponent: str, seed: int) -> float:
    """The saved policy's score over ``games`` games against ``opponent`` (seats alternate), each played by the
    runner with the policy as an agent (what `conquest simulate` does)."""
    from conquest.agents import get_agent
    from conquest.analysis.runner import play_game
    from conquest.core.registry import get_ruleset
    from conquest.rl.policy_agent import PolicyAgent

    rs = get_ruleset("kingdom")
    me, other = PolicyAgent(path=path), get_agent(opponent, human_ok=False)
    total = 0.0
    for g in range(games):
        seat = g % 2
        _, state = play_game(rs, [me, other] if seat == 0 else [other, me], seed=seed * 100_003 + g)
        result = state.result()
        assert result is not None
        total += result[seat]
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=100_000, help="environment steps of training")
    ap.add_argument("--opponent", default="random", help="the agent trained against")
    ap.add_argument("--eval", type=int, default=200, help="games played to measure the win rate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (more than 1 only helps large networks; on a busy machine it slows down)")
    ap.add_argument("--out", default="kingdom-policy", help="where the policy is saved: OUT.json and "
                                                            "OUT.safetensors")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    import conquest.rl as rl
    from conquest.rl.convert import policy_from_sb3

    torch.set_num_threads(args.threads)
    env = rl.gym_env("kingdom", seat="random", opponents=args.opponent)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=1024, batch_size=256, n_epochs=5,
                        learning_rate=1e-3, gamma=0.995, ent_coef=0.01,
                        policy_kwargs={"net_arch": [128, 128]}, device="cpu", verbose=0)
    start = time.time()
    model.learn(total_timesteps=args.steps)
    minutes = (time.time() - start) / 60
    out, _weights = policy_from_sb3(model, args.out, "kingdom",
                                    help_text=f"MaskablePPO, {args.steps} steps against {args.opponent}")
    rate = evaluate(out, args.eval, args.opponent, args.seed) if args.eval else float("nan")
    print(json.dumps({"steps": args.steps, "train_minutes": round(minutes, 2), "opponent": args.opponent,
                      "eval_games": args.eval, "win_rate": round(rate, 3), "policy": out}))


if __name__ == "__main__":
    main()
