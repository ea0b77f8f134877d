"""What a Small World position must hold between its fields, as play keeps it: ``serial.from_body`` reads a
document into the fields, then this refuses a field incoherent with the rest, naming it; the tests hold it after
every action of random games (tests/core/test_coherence.py), so that every legal action leads to a state that
loads again."""

from __future__ import annotations

from typing import TYPE_CHECKING

import conquest.rulesets.smallworld.data as D
from conquest.core.errors import StateFormatError
from conquest.core.keys import check_seat
from conquest.rulesets.smallworld.common import ACTIVE, DECLINED, NR, OUT, PHASE_NAMES
from conquest.rulesets.smallworld.owned import MARKERS
from conquest.rulesets.smallworld.powers import POWER_RULES
from conquest.rulesets.smallworld.races import RACE_RULES
from conquest.rulesets.smallworld.variant import figures_for

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def check_coherence(s: SmallWorldState) -> None:
    """The seats, the races and the column, the regions, then the turn and its phase, against each other."""
    _check_races(s)
    _check_column(s)
    _check_regions(s)
    _check_turn(s)
    for race in RACE_RULES:   # what each race's and power's own fields must hold
        race.check_fields(s)
    for power in POWER_RULES:
        power.check_fields(s)


def _check_races(s: SmallWorldState) -> None:
    for i, (c, f) in enumerate(zip(s.coins, s.coins_floor, strict=True)):
        if f > c:
            raise StateFormatError(f"seats/{i}/coins_at_least", f"expected an integer 0..{c}, got {f!r}")
    for x in range(NR):
        if s.rstatus[x] != OUT:
            check_seat(s.players, s.rseat[x], f"races/{D.RACE_IDS[x]}/seat")
    for t in range(s.players):
        act = [x for x in range(NR) if s.rseat[x] == t and s.rstatus[x] == ACTIVE]
        if len(act) > 1:
            raise StateFormatError("races", f"seat {t} has {len(act)} active races")
        spirit = [POWER_RULES[s.rpower[x]].spirit for x in range(NR) if s.rseat[x] == t and s.rstatus[x] == DECLINED]
        if spirit.count(False) > 1 or spirit.count(True) > 1:
            raise StateFormatError("races", f"seat {t} has too many declined races")
    powers_in_play = [s.rpower[x] for x in range(NR) if s.rstatus[x] != OUT]
    if len(set(powers_in_play)) != len(powers_in_play):
        raise StateFormatError("races", "a power is held by two races")


def _check_column(s: SmallWorldState) -> None:
    """The combos shown, and the race drawn for the bottom of the column (the last of ``col_race`` when it has
    one more than ``col_power``), which waits for its power in phase draw-power, and only then."""
    drawn = len(s.col_race) > len(s.col_power)
    if drawn != (PHASE_NAMES[s.phase] == "draw-power"):
        raise StateFormatError("drawn_race", "the race drawn waits for its power in phase draw-power, and only "
                                             "then")
    if len(s.col_race) > 6:
        raise StateFormatError("drawn_race", "the column already shows 6 combos")
    in_play = {s.rpower[x] for x in range(NR) if s.rstatus[x] != OUT}
    for k, x in enumerate(s.col_race):
        if s.rstatus[x] != OUT or x in s.col_race[:k]:
            raise StateFormatError("drawn_race" if k == len(s.col_power) else f"column/{k}/race",
                                   "race already in play or shown")
    for k, p in enumerate(s.col_power):
        if p in in_play or p in s.col_power[:k]:
            raise StateFormatError(f"column/{k}/power", "power already in play or shown")


def _check_regions(s: SmallWorldState) -> None:
    """Each region's race in play, with tokens, on land unless it sails, markers (those the races' and powers'
    entries own) only with a race; a race's tokens (board and hand) within its supply."""
    n = s.board.n
    for i in range(n):
        x, rid = s.region_race[i], f"r{i + 1}"
        if x >= 0 and s.rstatus[x] == OUT:
            raise StateFormatError(f"regions/{rid}/race", f"{D.RACE_IDS[x]} is not in play (add it to races)")
        if (x >= 0) != (s.tokens[i] > 0):
            raise StateFormatError(f"regions/{rid}/tokens", "a region with a race holds at least 1 token, "
                                                            "and an empty one none")
        if s.board.water[i] and x >= 0 and not POWER_RULES[s.rpower[x]].sails:
            raise StateFormatError(f"regions/{rid}/race", "only a Seafaring race holds a sea or the lake")
        if x < 0 and any(getattr(s, m)[i] for m in MARKERS):
            raise StateFormatError(f"regions/{rid}", "markers lie only in occupied regions")
    supply = figures_for(str(s.options.get("variant") or "")).supply
    for x in range(NR):
        if s.rstatus[x] != OUT:
            on_board = sum(s.tokens[i] for i in range(n) if s.region_race[i] == x)
            if on_board + s.rhand[x] > supply[x]:
                raise StateFormatError(f"races/{D.RACE_IDS[x]}/hand",
                                       f"{D.RACE_IDS[x]} have {on_board} tokens on the board and {s.rhand[x]} in "
                                       f"hand: more than the {supply[x]} of their supply")
        elif s.rhand[x]:
            raise StateFormatError(f"races/{D.RACE_IDS[x]}/hand", "a race in the box holds no tokens")


def _check_turn(s: SmallWorldState) -> None:
    """The turn, the seats to move and the acting race against the phase; the coins play can have paid by
    this turn."""
    ph, players = PHASE_NAMES[s.phase], s.players
    if s.turn > s.turns:
        raise StateFormatError("turn", f"expected an integer 0..{s.turns}, got {s.turn!r}")
    check_seat(players, s.seat, "seat")
    if s.defender >= 0:
        check_seat(players, s.defender, "turn_state/defender")
    if s.turn == 0 and ph not in ("draw-race", "draw-power"):
        raise StateFormatError("turn", "turn 0 is the set-up (the column's draws); play starts at turn 1")
    if ph in ("conquer", "redeploy", "defend", "die"):   # the seat to move must be able to act in its phase
        if s.cur < 0 or s.rstatus[s.cur] == OUT:
            raise StateFormatError("turn_state/race", f"phase {ph} needs the acting race in play")
        owner = s.defender if ph == "defend" else s.seat
        if s.rseat[s.cur] != owner:
            raise StateFormatError("turn_state/race", f"{D.RACE_IDS[s.cur]} does not belong to seat {owner}")
    if ph == "defend" and s.defender < 0:
        raise StateFormatError("turn_state/defender", "phase defend needs the defending seat")
    if ph == "die" and s.final_r < 0 and not (s.rstatus[s.cur] == ACTIVE
                                                  and POWER_RULES[s.rpower[s.cur]].rolls_before_conquest):
        raise StateFormatError("turn_state/final_region", "phase die needs the region of the final conquest")
    # coins within what the turns so far can have paid: every coin comes from the start or from scoring
    # (at most a few per region and a power's flat bonus a turn); the column's coins are seats' coins set down
    fig = figures_for(str(s.options.get("variant") or ""))
    most = sum(fig.coins_at_start(t) for t in range(players)) + max(s.turn, 1) * players * (10 * s.board.n + 20)
    if sum(s.coins) + sum(s.col_coins) > most:
        raise StateFormatError("seats", f"{sum(s.coins) + sum(s.col_coins)} coins by turn {s.turn} (with those on "
                                        f"the column): more than play can have paid ({most})")
    if ph == "pick" and not s.col_race:
        raise StateFormatError("column", "phase pick needs combos in the column")
