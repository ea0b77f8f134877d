"""What a loaded Kingdom state must hold between its fields, as play does (``serial.from_body`` calls it): the
rules rely on it, and every legal action from a state that holds it leads to a state that holds it."""

from __future__ import annotations

from conquest.core.errors import StateFormatError
from conquest.rulesets.kingdom.base import COLORS, MAX_SOLDIER_ENTRY, MOVE, PLACE, VACATE
from conquest.rulesets.kingdom.state import KingdomData
from conquest.rulesets.kingdom.variant import economy_for


def check_coherence(s: KingdomData) -> None:
    """What the rules rely on between fields, which a loaded document must hold as play does (a move's
    armies within its Soldier tokens, a bonus location held by an army that stands there...): refused
    naming the field, so that every legal action leads to a state that loads again."""
    eco = economy_for(str(s.options.get("variant") or ""))
    b = s.board
    me = s.current
    # "Spend 1 Soldier token per army ... each bonus location can only accommodate a single Army pawn"
    vacating = {t: n for kind, t, n in s.tasks if kind == VACATE}
    for t in range(b.territories):
        for p in (0, 1):
            n_occ = sum(1 for l in b.territory_locs[t] if s.loc[l] == p)
            allowed = s.armies[2 * t + p] + (vacating.get(t, 0) if p == me else 0)
            if n_occ > allowed:
                raise StateFormatError("locations", f"{COLORS[p]} occupies {n_occ} bonus locations in "
                                                    f"{b.names[t]} with {s.armies[2 * t + p]} armies"
                                       + (f" and {vacating[t]} to vacate" if t in vacating and p == me else ""))
    if len(vacating) != sum(1 for kind, _t, _n in s.tasks if kind == VACATE):
        raise StateFormatError("tasks", "one vacate task per territory the armies left")
    for i, (kind, t, n) in enumerate(s.tasks):
        held = len(s.occupied(me, t))
        if kind == VACATE and n > held:
            raise StateFormatError(f"tasks/{i}/count", f"{COLORS[me]} is to vacate {n} bonus locations in "
                                                       f"{b.names[t]} but holds {held}")
        if kind == PLACE:
            if len(s.tasks) > 1:
                raise StateFormatError("tasks", "a place task comes alone, after the vacate tasks")
            if t != s.move_to:
                raise StateFormatError(f"tasks/{i}/territory", "armies are placed in the territory they "
                                                               "moved into")
            if held + n > s.armies[2 * t + me]:
                raise StateFormatError(f"tasks/{i}/count", f"{COLORS[me]} has {s.armies[2 * t + me]} "
                                                           f"armies in {b.names[t]}, {held} of them on "
                                                           f"bonus locations: {n} more cannot be placed")
    if s.move_to >= 0:
        if s.move_to == b.castles[1 - me]:
            raise StateFormatError("move/to", "no move goes into the opponent's castle")
        if s.phase == MOVE:
            seen: set[int] = set()
            for src, n in s.move_from:
                name = b.names[src]
                if src not in s.move_sources or src in seen:
                    raise StateFormatError(f"move/from/{name}", f"not a territory {COLORS[me]} can move "
                                                                f"from into {b.names[s.move_to]}")
                if n > s.armies[2 * src + me]:
                    raise StateFormatError(f"move/from/{name}", f"{n} armies from {name}, which holds "
                                                                f"{s.armies[2 * src + me]}")
                seen.add(src)
            if s.moved_total() > s.soldiers[me]:
                raise StateFormatError(f"soldiers/{me}", f"{COLORS[me]} moves {s.moved_total()} armies "
                                                         f"with {s.soldiers[me]} Soldier tokens (one each)")
            if s.soldiers[me] == 0:
                raise StateFormatError(f"soldiers/{me}", f"{COLORS[me]} is moving with no Soldier token "
                                                         "(a move costs one per army)")
    # bounds the game can reach: no more Soldier tokens nor points than the rounds so far can have given
    income = max(MAX_SOLDIER_ENTRY, s.options["soldier_base"] + s.options["soldier_die"])
    per_round = max(eco["castle_icon"] * len(b.castle_icons[p]) for p in (0, 1)) + sum(
        eco["points"][k] for k in b.loc_kind)
    for p in (0, 1):
        if s.soldiers[p] > s.round * income:
            raise StateFormatError(f"soldiers/{p}", f"{s.soldiers[p]} Soldier tokens by round "
                                                    f"{s.round}: at most {income} come each round")
        if s.points[p] > s.round * per_round:
            raise StateFormatError(f"points/{p}", f"{s.points[p]} points by round {s.round}: at most "
                                                  f"{per_round} come each round")
