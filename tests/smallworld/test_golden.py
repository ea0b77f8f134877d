"""Golden games (the "perft" idea): seeded random games whose legal-action counts at every step and final coins
are pinned in a file, so any change to the rules shows up. After an intended change, regenerate with
``SMALLWORLD_REGOLD=1 pytest tests/smallworld/test_golden.py`` and review the diff."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from conquest.analysis.runner import sample_chance
from conquest.core.game import CHANCE
from conquest.rulesets.smallworld import RULESET

GOLDEN = Path(__file__).parent / "golden_games.json"
GAMES = [(2, 3), (3, 7), (4, 11), (5, 19)]


def _trace(players: int, seed: int) -> dict:
    rng = random.Random(seed)
    st = RULESET.new_game(players, {}, seed)
    counts = []
    actions = []
    while st.to_move is not None:
        legal = st.legal_actions()
        counts.append(len(legal))
        a = sample_chance(st, rng) if st.to_move == CHANCE else legal[rng.randrange(len(legal))]
        actions.append(RULESET.format_action(a))
        st = st.apply(a)
    return {"players": players, "seed": seed, "legal_counts": counts, "actions": actions,
            "coins": list(st.coins), "result": list(st.result() or [])}


def test_golden_games_are_unchanged():
    got = [_trace(p, s) for p, s in GAMES]
    if os.environ.get("SMALLWORLD_REGOLD") or not GOLDEN.exists():
        GOLDEN.write_text(json.dumps(got, separators=(",", ":")) + "\n")
    want = json.loads(GOLDEN.read_text())
    for g, w in zip(got, want):
        for i, (a, b) in enumerate(zip(g["actions"], w["actions"])):
            assert (a, g["legal_counts"][i]) == (b, w["legal_counts"][i]), \
                f"{g['players']} players, seed {g['seed']}: step {i} differs"
        assert g == w
