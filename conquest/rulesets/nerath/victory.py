"""VICTORY CONDITIONS: the end of a round, the game length and the alliances' shared victory.
"""

from __future__ import annotations

from conquest.rulesets.nerath.data import R
from conquest.rulesets.nerath.state import CAPITAL, LENGTH_VP, TREASURES_TO_WIN, NerathData


def side_vp(st: NerathData) -> dict[int, int]:
    out: dict[int, int] = {}
    for r in range(R):
        out[st.team[r]] = out.get(st.team[r], 0) + st.vp[r]
    return out


def team_size(st: NerathData, team: int) -> int:
    return sum(1 for r in range(R) if st.team[r] == team)


def end_of_round(st: NerathData) -> None:
    """"At the end of each round, a player with at least the required VP and the most VP wins. On a tie,
    continue playing until one player has the most VP at the end of a game round.\""""
    length = st.options["length"]
    vps = side_vp(st)
    winner_team = None
    if length in LENGTH_VP:
        best = max(vps.values())
        leaders = [t for t, v in vps.items() if v == best]
        if len(leaders) == 1:
            t = leaders[0]
            need = LENGTH_VP[length][1 if team_size(st, t) > 1 else 0]
            if best >= need:
                winner_team = t
    else:
        for t in sorted(vps):
            if all(st.team[st.ctrl[c]] == t for c in CAPITAL):
                winner_team = t
        if winner_team is None:
            tre = {t: 0 for t in vps}
            for r in range(R):
                tre[st.team[r]] += len(st.treasures_played[r]) + len(st.treasures[r])
            best = max(tre.values())
            leaders = [t for t, v in tre.items() if v == best]
            if len(leaders) == 1:
                t = leaders[0]
                if best >= TREASURES_TO_WIN[1 if team_size(st, t) > 1 else 0]:
                    winner_team = t
    if winner_team is not None:
        finish(st, [st.seat_of[r] for r in range(R) if st.team[r] == winner_team], "victory")
        return
    limit = st.options["max_rounds"]
    if limit and st.round >= limit:
        best = max(vps.values())
        teams = [t for t, v in vps.items() if v == best]
        finish(st, [st.seat_of[r] for r in range(R) if st.team[r] in teams], "round limit")


def finish(st: NerathData, seats: list[int], reason: str) -> None:
    st.winners = sorted(set(seats))
    st.end_reason = reason
    st.phase = "over"
    st.battle = None
    st.reaction = None
    st.movable = {}
    st.pending = []
