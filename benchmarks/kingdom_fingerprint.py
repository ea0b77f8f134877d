"""Behaviour fingerprint of the kingdom ruleset, for a refactoring that must change nothing: seeded random games
over several option sets; one hash of every state's JSON, every view (each seat and a spectator) and its browser
board, every legal action list in notation, the chance outcomes, the refusal of probe actions, the evaluation,
describe_action, render_text, the narration of every action to every seat, JSON round trips and determinize.
Run it on the old and the new code: the TOTAL lines must be equal (the split of kingdom.rules by section:
200 games gave the same TOTAL before and after).

    PYTHONPATH=$PWD nice -n 15 .venv/bin/python benchmarks/kingdom_fingerprint.py [GAMES]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from conquest.core.registry import get_ruleset

CONFIGS = [
    {},
    {"board": "b"},
    {"mode": "companion", "rounds": 2},
    {"soldier_die": 0, "keep_soldiers": False},
    {"double_move_via": "own", "first_player": 1, "soldier_die": 12, "rounds": 3},
    {"board": "b", "soldier_base": 0, "soldier_die": 20, "rounds": 6},
]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rs = get_ruleset("kingdom")
    total = hashlib.sha256()
    for ci, opts in enumerate(CONFIGS):
        h = hashlib.sha256()
        steps = 0
        for g in range(games):
            rng = random.Random(1000 * ci + g)
            s = rs.new_game(2, opts, g)
            b = s.board
            probes = ([("recruit", 1), ("recruit", 13), ("go",), ("stop",), ("soldiers", 3), ("roll", 1),
                       ("from", "nowhere", 1), ("move", "nowhere"), "junk", ("vacate", b.loc_ids[0]),
                       ("place", b.loc_ids[-1])]
                      + [("move", t) for t in b.names] + [("from", t, 1) for t in b.names]
                      + [("from", t, 5) for t in b.names[:4]])
            doc = s.to_json()
            views = {seat: s.view(seat) for seat in (0, 1, None)}
            while True:
                steps += 1
                h.update(json.dumps(doc, sort_keys=True).encode())
                for seat, v in views.items():
                    h.update(json.dumps(v, sort_keys=True).encode())
                    h.update(json.dumps(rs.board_json(v, seat), sort_keys=True).encode())
                legal = s.legal_actions()
                h.update("|".join(rs.format_action(a) for a in legal).encode())
                h.update(repr(s.chance_outcomes()).encode())
                for p in probes:
                    h.update(f"{s.is_legal(p)}:{s.illegal_reason(p) if not s.is_legal(p) else ''}".encode())
                h.update(rs.render_text(s).encode())
                h.update(repr((rs.evaluate(s, 0), rs.evaluate(s, 1))).encode())
                h.update(repr((s.result(), s.scores(), s.to_move)).encode())
                if steps % 7 == 0:
                    back = rs.state_from_json(doc)
                    assert back.to_json() == doc
                    d = s.determinize(0, random.Random(steps))
                    h.update(json.dumps(d.to_json(), sort_keys=True).encode())
                if s.to_move is None:
                    h.update(json.dumps(rs.game_stats(s), sort_keys=True).encode())
                    break
                for a in legal:
                    h.update(rs.describe_action(s, a).encode())
                a = rng.choice(legal)
                n = s.apply(a)
                ndoc = n.to_json()
                nviews = {seat: n.view(seat) for seat in (0, 1, None)}
                for seat in (0, 1, None):
                    h.update(json.dumps(rs.narrate(views[seat], a, nviews[seat], seat), sort_keys=True).encode())
                s, doc, views = n, ndoc, nviews
        print(ci, opts, steps, h.hexdigest()[:16], flush=True)
        total.update(h.digest())
    print("TOTAL", total.hexdigest())


if __name__ == "__main__":
    main()
