"""What a Kingdom position must hold between its fields, as play keeps it: ``serial.from_body`` reads a document
into the fields, then this refuses a field incoherent with the rest, naming it; the tests hold it after every
action of random games (tests/core/test_coherence.py), so that every legal action leads to a state that loads
again."""

from __future__ import annotations

from conquest.core.errors import StateFormatError
from conquest.rulesets.kingdom.base import (
    ARMIES_PER_PLAYER,
    COLORS,
    INCOME,
    MAX_SOLDIER_ENTRY,
    MOVE,
    OVER,
    PLACE,
    VACATE,
)
from conquest.rulesets.kingdom.state import KingdomData
from conquest.rulesets.kingdom.variant import economy_for


def check_coherence(s: KingdomData) -> None:
    """What the rules rely on between fields, which a loaded document must hold as play does (a move's
    armies within its Soldier tokens, a bonus location held by an army that stands there...): refused
    naming the field, so that every legal action leads to a state that loads again."""
    _check_turn(s)
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


def _check_turn(s: KingdomData) -> None:
    """The round, the phase and the seats to move against the options and each other; the armies within their
    12 and out of the opponent's castle; a move and its tasks only in the phases that have them."""
    b, phase, options = s.board, s.phase, s.options
    if s.round > options["rounds"]:
        raise StateFormatError("round", f"expected an integer from 1 to {options['rounds']}, got {s.round!r}")
    if phase == INCOME and options["mode"] == "standalone" and options["soldier_die"] == 0:
        raise StateFormatError("phase", "with soldier_die 0 the income is paid at once: there is no "
                                        "income phase to be in")
    if s.current < 0 and phase != OVER:
        raise StateFormatError("current", "expected 0 or 1: only a finished game has nobody to move")
    if s.armies[2 * b.castles[0] + 1] or s.armies[2 * b.castles[1]]:
        raise StateFormatError("armies", "a player's armies stand in the opponent's castle")
    for p in (0, 1):
        on_board = sum(s.armies[p::2])
        if on_board + s.reserve[p] != ARMIES_PER_PLAYER:
            raise StateFormatError(f"reserve/{p}", f"{COLORS[p]} has {on_board} armies on the board and "
                                                   f"{s.reserve[p]} in reserve; the total must be "
                                                   f"{ARMIES_PER_PLAYER}")
    st = s.stopped
    if st is not None and phase in (INCOME, OVER):
        raise StateFormatError("stopped", f"must be null in the {phase} phase (a stop only counts during "
                                          "the Conquest phase)")
    if st is not None and st == s.current:
        raise StateFormatError("stopped", f"{COLORS[st]} stopped last, so {COLORS[st]} cannot be the one to "
                                          f"move (current is {s.current}): after a stop the opponent acts")
    if s.move_to >= 0 and phase not in (MOVE, VACATE, PLACE):
        raise StateFormatError("move", f"must be null in the {phase} phase (a move is under way only in "
                                       "the move, vacate and place phases)")
    if phase == MOVE and s.move_to < 0:
        raise StateFormatError("move", "the move phase needs a move")
    pending = phase in (VACATE, PLACE)
    if pending and (not s.tasks or s.tasks[0][0] != phase):
        raise StateFormatError("tasks", f"the {phase} phase needs a {phase} task first")
    if not pending and s.tasks:
        raise StateFormatError("tasks", "tasks are only pending in the vacate or place phase")
