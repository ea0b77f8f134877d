"""MODIFICATIONS TO THE GAME PHASES (rules document ``002``): "During the Production phase, count not only the
icons on the cards constructed in your Duchy, but also those from the bonus locations you control, as well as
those in your Castle territory. There is a new phase at the end of the round: the Conquest phase."

The base game is not in the document. A round here is: Production (standalone mode: the stand-in of
``economy.yaml`` turns each player's production into points), the Soldier income (a chance roll in standalone
mode, the tokens a player enters in companion mode), then the Conquest phase (``conquest_phase``). Readings in
docs/rules/kingdom.md."""

from __future__ import annotations

from conquest.rulesets.kingdom.base import INCOME
from conquest.rulesets.kingdom.board import PRODUCTION_ICONS
from conquest.rulesets.kingdom.conquest_phase import begin_conquest
from conquest.rulesets.kingdom.state import KingdomData
from conquest.rulesets.kingdom.variant import economy_of


def production(s: KingdomData, seat: int) -> dict[str, int]:
    """"count not only the icons on the cards constructed in your Duchy, but also those from the bonus
    locations you control, as well as those in your Castle territory." """
    out = {k: 0 for k in PRODUCTION_ICONS}
    for icon in s.board.castle_icons[seat]:
        out[icon] += 1
    kinds = s.board.loc_kind
    for i, o in enumerate(s.loc):
        if o == seat and kinds[i] in out:
            out[kinds[i]] += 1
    return out


def production_points(s: KingdomData, seat: int) -> int:
    """Standalone stand-in: what one Production phase is worth to ``seat`` (see economy.yaml)."""
    eco = economy_of(s)
    pts: dict[str, int] = eco["points"]
    total: int = eco["castle_icon"] * len(s.board.castle_icons[seat])
    kinds = s.board.loc_kind
    for i, o in enumerate(s.loc):
        if o == seat:
            total += pts[kinds[i]]
    return total


def start_round(s: KingdomData) -> None:
    """A round of the stand-in base game: Production (standalone), Soldier income, then the Conquest
    phase, which the rules place "at the end of the round"."""
    if not s.companion():
        for p in (0, 1):
            s.points[p] += production_points(s, p)
    if not s.options["keep_soldiers"] and not s.companion():
        s.soldiers = [0, 0]
    s.phase = INCOME
    s.current = 0
    if not s.companion() and s.options["soldier_die"] == 0:
        base = s.options["soldier_base"]
        s.soldiers[0] += base
        s.soldiers[1] += base
        begin_conquest(s)


def income(s: KingdomData, n: int) -> None:
    """Seat ``current`` receives ``n`` Soldier tokens; after both seats, the Conquest phase begins."""
    s.soldiers[s.current] += n
    if s.current == 0:
        s.current = 1
    else:
        begin_conquest(s)
