"""Behaviour fingerprint of any ruleset, for a refactoring that must change nothing (the state declarations of
issue 29, an engine made faster): seeded random games at every player count, with chance drawn by its odds; one
hash of every state's JSON, every view (each seat and a spectator) and its browser board, every legal action
list in notation, the chance outcomes, describe_action of every legal action, the narration of every action to
every seat, render_text, the evaluation, result and scores, game_stats at the end, and a JSON round trip and
a determinization every few steps. Run it on the old and the new code: the TOTAL lines must be equal.

    PYTHONPATH=$PWD nice -n 15 .venv/bin/python benchmarks/fingerprint.py RULESET [GAMES] [MAX_STEPS]

(benchmarks/kingdom_fingerprint.py is the older, kingdom-only one with its option sets and probe actions.)
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time

from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset


def dumps(x: object) -> bytes:
    return json.dumps(x, sort_keys=True, default=repr).encode()


def main() -> None:
    rid = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    max_steps = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    rs = get_ruleset(rid)
    total = hashlib.sha256()
    cpu = time.process_time()
    for players in range(rs.min_players, rs.max_players + 1):
        h = hashlib.sha256()
        steps = 0
        for g in range(games):
            rng = random.Random(7919 * players + g)
            s = rs.new_game(players, None, g)
            seats: list[int | None] = [*range(s.players), None]
            doc = s.to_json()
            views = {seat: s.view(seat) for seat in seats}
            for step in range(max_steps):
                steps += 1
                h.update(dumps(doc))
                for seat, v in views.items():
                    h.update(dumps(v))
                    h.update(dumps(rs.board_json(v, seat)))
                h.update(repr((s.result(), s.scores(), s.to_move)).encode())
                if s.to_move is None:
                    h.update(dumps(rs.game_stats(s)))
                    break
                legal = s.legal_actions()
                h.update("|".join(rs.format_action(a) for a in legal).encode())
                if step % 5 == 0:
                    back = rs.state_from_json(doc)
                    assert back.to_json() == doc, "JSON round trip"
                    h.update(rs.render_text(s).encode())
                    h.update(repr([rs.evaluate(s, p) for p in range(s.players)]).encode())
                    d = s.determinize(0, random.Random(step))
                    h.update(dumps(d.to_json()))
                    for a in legal[:40]:
                        h.update(rs.describe_action(s, a).encode())
                if s.to_move == CHANCE:
                    outs = s.chance_outcomes()
                    h.update(repr(outs).encode())
                    a = rng.choices([o for o, _ in outs], [p for _, p in outs])[0]
                else:
                    a = rng.choice(legal)
                n = s.apply(a)
                ndoc = n.to_json()
                nviews = {seat: n.view(seat) for seat in seats}
                for seat in seats:
                    h.update(dumps(rs.narrate(views[seat], a, nviews[seat], seat)))
                s, doc, views = n, ndoc, nviews
        print(rid, players, "players", steps, "steps", h.hexdigest()[:16], flush=True)
        total.update(h.digest())
    print("TOTAL", total.hexdigest(), f"({time.process_time() - cpu:.1f} s CPU)")


if __name__ == "__main__":
    main()
