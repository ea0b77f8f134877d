"""Actions (rules document 001, the Actions table of the "Action Phase"): Move, Claim, Claim Settlement,
Destroy (Claimed) Settlement, Steal from Dragon cave, Steal from thief's chest, Attack, Abandon Claim — which
of them a dragon can take from where it stands, what each costs, the rule that refuses one, and the Claim and
the Attack themselves. Destroy and Steal roll on the Charts (``charts``); the turn of 3 actions and the answers
to a declared action are the Action Phase (``action_phase``). Readings R9, R14, R20, R21, R33 in docs/rules/narby.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import (
    BABA,
    CAVE0,
    CHEST,
    DRAGON0,
    EMPTY,
    KIND_NAME,
    NO_DESTROY,
    PIDX,
    PLACE0,
    RESTING,
    RUIN,
    TOWN,
    UNDEAD,
    key_order,
    key_text,
)
from conquest.rulesets.narby.state import NarbyData, count, move_dragon, remove_claim, seat_label
from conquest.rulesets.narby.tables import TABLES as T
from conquest.rulesets.narby.variant import tables_of


# ==================================================================== what the dragon can do from here
def action_choices(s: NarbyData, seat: int) -> tuple[list[Any], list[Any], list[Any], bool, bool, bool]:
    """The actions of the table open to ``seat`` at node act, as ``(first, moves, last, can_attack,
    can_steal, can_destroy)``: ``first`` the claims of settlements and places, steals, attacks and destroys;
    ``moves``; ``last`` the abandons and the claims of blank squares (which earn nothing at tribute). The
    flags say whether an attack / steal / destroy has a target in reach (for the cards and powers that add
    to one)."""
    # Long because: it is the rulebook's Actions table, one block per row (Move, Claim, Claim Settlement, Attack,
    # Steal, Destroy, Abandon) with the cards and powers that change it.
    a = s.dpos[seat]
    acts = s.acts
    occ = s.occ
    claims = s.claims
    out: list[Any] = []
    settles: list[int] = []
    blanks: list[int] = []
    place_t: list[str] = []
    caves: list[int] = []
    dragons: list[int] = []
    chest = s.near_chest(seat)
    for q in B.RING[s.adj][a]:
        c = occ[q]
        if c == EMPTY:
            blanks.append(q)
        elif c <= RUIN:
            settles.append(q)
        elif c == CHEST:
            pass
        elif c < DRAGON0:
            caves.append(c - CAVE0)
        elif c < PLACE0:
            t = c - DRAGON0
            if t not in dragons:
                dragons.append(t)
        else:
            pid = T.place_ids[c - PLACE0]
            if pid not in place_t:
                place_t.append(pid)
    steal_t: list[str] = [T.dragon_ids[s.dragon[t]] for t in caves if t != seat]
    if chest:
        steal_t.append("chest")
    if RESTING in place_t and s.options["undead_steal"] == "resting_place":
        u = s.seat_of("undead")
        if u >= 0 and u != seat:
            steal_t.append("undead")
    destroy_t: list[int | str] = []
    moves: list[Any] = []
    late: list[Any] = []
    if acts >= 1:
        rng = T.speedster_range if s.bonus[0] else T.move_range
        for b in B.near_anchors(a, rng, s.adj):
            if s.clear_for(seat, b):
                moves.append(("move", b))
        if s.rings_left[seat] >= 1:
            cl = settles
            if s.power_ready_control(seat, BABA):
                # Baba Yaga's Hut, Control: "Claimed Dragon can use an action to claim adjacent settlement"
                hut = s.places[BABA]
                extra = [q for q in B.RING[s.adj][hut] if TOWN <= occ[q] <= RUIN and q not in cl]
                cl = settles + extra
            for q in cl:
                o = claims.get(q, -1)
                if o == -1 or (o != seat and acts >= 2):
                    out.append(("claim", q))
            for p in place_t:
                o = claims.get(p, -1)
                if o == -1 or (o != seat and acts >= 2):
                    out.append(("claim", p))
            for q in blanks:
                if q not in claims:
                    late.append(("claim", q))
            if s.rings_left[seat] >= 2 and s.power_ready(seat, "citadel_of_torture"):
                # Citadel of Torture: "May claim two settlements adjacent to dragon as a single action"
                free = [q for q in settles if q not in claims]
                for i in range(len(free)):
                    for j in range(i + 1, len(free)):
                        out.append(("claim2", free[i], free[j]))
        # "Destroy Claimed Settlement | Roll on Destroy chart" names no owner: own claims too, unless the
        # option destroy_own_claims=false keeps the older reading (R14)
        mine = -2 if s.options["destroy_own_claims"] else seat  # -2: no claim is excluded
        if s.dragon[seat] not in NO_DESTROY:
            destroy_t.extend(q for q in settles if claims.get(q, -1) != mine)
        destroy_t.extend(p for p in place_t if claims.get(p, -1) != mine)
        for victim in steal_t:
            out.append(("steal", victim))
        for t in dragons:
            out.append(("attack", T.dragon_ids[s.dragon[t]]))
        for target in destroy_t:
            out.append(("destroy", target))
        abandons = [("abandon", key) for key in sorted(claims, key=key_order) if claims[key] == seat]
        late[:0] = abandons
    return out, moves, late, bool(dragons), bool(steal_t), bool(destroy_t)


# ==================================================================== taking one
def _move(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    s.acts -= 1
    s.bonus[0] = 0
    move_dragon(s, seat, action[1])
    return None


def _claim(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    key = action[1]
    s.acts -= 2 if s.claims.get(key, -1) not in (-1, seat) else 1
    return {"type": "claim", "actor": seat, "targets": (key,)}


def _claim_two(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    s.acts -= 1
    s.used |= 1 << PIDX["citadel_of_torture"]
    count(s, "powers_used")
    return {"type": "claim", "actor": seat, "targets": (action[1], action[2])}


def _destroy(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    s.acts -= 1
    mod, s.bonus[3] = s.bonus[3], 0
    return {"type": "destroy", "actor": seat, "target": action[1], "mod": mod}


def _steal(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    s.acts -= 1
    mod, s.bonus[2] = s.bonus[2], 0
    t = action[1]
    return {"type": "steal", "actor": seat, "from": "chest" if t == "chest" else s.seat_of(t), "mod": mod}


def _attack(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    s.acts -= 1
    mod, s.bonus[1] = s.bonus[1], 0
    return {"type": "attack", "actor": seat, "defender": s.seat_of(action[1]), "mod": mod}


def _abandon(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    s.acts -= 1
    remove_claim(s, action[1])
    return None


# the Actions table: verb -> what taking it does
TAKE: dict[str, Callable[[NarbyData, int, Any], dict[str, Any] | None]] = {
    "move": _move, "claim": _claim, "claim2": _claim_two, "destroy": _destroy, "steal": _steal,
    "attack": _attack, "abandon": _abandon,
}


def take_action(s: NarbyData, seat: int, action: Any) -> dict[str, Any] | None:
    """Pay the action's cost ("Each turn a Dragon has 3 actions"; Claim Settlement costs 2) and do it: a Move
    or an Abandon Claim is done at once (None); a claim, destroy, steal or attack is returned as the event
    the other dragons may answer before it is resolved."""
    return TAKE[action[0]](s, seat, action)


def claim(s: NarbyData, seat: int, targets: Sequence[int | str]) -> None:
    """Claim / Claim Settlement: "Put a claim ring on adjacent settlement or place of power"; "Remove
    opponents claim and put a claim ring"."""
    for key in targets:
        if s.rings_left[seat] < 1:
            break
        prev = s.claims.get(key, -1)
        if prev >= 0:
            s.rings_left[prev] += 1
        s.claims[key] = seat
        s.rings_left[seat] -= 1
        count(s, "claims")
        if prev >= 0 and prev != seat:
            count(s, "claims_taken")
        if isinstance(key, str):
            count(s, "places_claimed")


def attack(s: NarbyData, a: int, d: int, a_roll: int, d_roll: int) -> None:
    """"Opposed Roll, Ties go to defender"; "Lower roll gives 3 coins to the winner"."""
    count(s, "attacks")
    winner, loser = (a, d) if a_roll > d_roll else (d, a)
    pay = min(tables_of(s).attack_stake, s.coins[loser])
    s.coins[loser] -= pay
    s.coins[winner] += pay


# ==================================================================== why one is refused
def what_is_on(s: NarbyData, q: int) -> str:
    c = s.occ[q]
    if c == EMPTY:
        return "nothing"
    if c <= RUIN:
        return f"a {KIND_NAME[c]}"
    if c == CHEST:
        return "the thief's treasure chest"
    if c < DRAGON0:
        return f"the cave of {seat_label(s, c - CAVE0)}"
    if c < PLACE0:
        return f"the dragon of {seat_label(s, c - DRAGON0)}"
    return T.places[c - PLACE0].name


def action_refusal(s: NarbyData, action: Any) -> str:
    """The rule of the Actions table that refuses ``action`` (move, claim, claim2, destroy, steal, attack,
    abandon) for the dragon to act, named for this very case; "" for the other kinds."""
    seat = s.who
    kind = action[0]
    if kind == "move":
        return move_refusal(s, action[1])
    if kind == "claim":
        return claim_refusal(s, action[1])
    if kind == "claim2":
        if not s.power_ready(seat, "citadel_of_torture"):
            return ("Citadel of Torture: \"May claim two settlements adjacent to dragon as a single "
                    "action\" — only for the dragon whose ring is on the Citadel, once per round")
        if s.rings_left[seat] < 2:
            return "Citadel of Torture: two claim rings are needed"
        return ("Citadel of Torture: both squares must be unclaimed settlements adjacent to the dragon "
                "(\"Dragon has to be adjacent with target of claim\")")
    if kind == "destroy":
        return destroy_refusal(s, action[1])
    if kind == "steal":
        return steal_refusal(s, action[1])
    if kind == "attack":
        t = s.seat_of(action[1])
        if t < 0:
            return f"there is no {action[1]} dragon in this game"
        if t == seat:
            return "Attack: \"Dragons may attack each other\" — a dragon cannot attack itself"
        return (f"Attack: \"When dragons are adjacent they can attack\" — the {action[1]} dragon is not "
                f"adjacent to yours")
    if kind == "abandon":
        key = action[1]
        o = s.claims.get(key, -1)
        if o < 0:
            return f"Abandon Claim: there is no claim ring on {key_text(key)}"
        return (f"Abandon Claim: \"Take one of your colored claim rings\" — the ring on {key_text(key)} "
                f"is {seat_label(s, o)}'s")
    return ""


def move_refusal(s: NarbyData, b: int) -> str:
    seat = s.who
    a = s.dpos[seat]
    x, y = B.xy(b)
    if not B.is_anchor(b):
        return (f"\"Dragons take up 4 spaces in a 2x2 arrangement\": a dragon is named by its top-left square, "
                f"and {x},{y} would put it off the board (columns and rows 1-19)")
    if b == a:
        return f"Move: the dragon is already at {x},{y}"
    rng = T.speedster_range if s.bonus[0] else T.move_range
    d = B.dist(a, b, s.adj)
    if d > rng:
        return (f"Move: \"Move up to {T.move_range} spaces\"" + (" (Speedster: 4)" if s.bonus[0] else "")
                + f" — {x},{y} is {d} spaces away" + (" counting side steps only (adjacency=4)"
                                                       if s.adj == 4 else ""))
    for q in B.FOOT[b]:
        c = s.occ[q]
        if c == EMPTY or c == DRAGON0 + seat:
            continue
        what = what_is_on(s, q)
        if c == CHEST:
            return (f"the thief's chest at {B.sq_text(q)} keeps dragons off its square (option "
                    f"chest_blocks=true; the Move row itself does not name the chest)")
        return (f"Move: \"You may fly over settlements but cannot land on a settlement, cave, or place of "
                f"power, or another dragon\" — {B.sq_text(q)} holds {what}")
    return ""


def claim_refusal(s: NarbyData, key: int | str) -> str:
    seat = s.who
    if isinstance(key, str) and key not in s.places:
        return f"{T.places[PIDX[key]].name} is not on the board"
    if isinstance(key, int) and (s.occ[key] == CHEST or CAVE0 <= s.occ[key] < PLACE0):
        return (f"Claim: only a settlement, a place of power or a blank space can be claimed — "
                f"{key_text(key)} holds {what_is_on(s, key)}")
    o = s.claims.get(key, -1)
    if o == seat:
        return f"Claim: {key_text(key)} already has your claim ring"
    if s.rings_left[seat] < 1:
        return "Claim: you have no claim ring left (every ring is on the board; Abandon Claim frees one)"
    if not s.adjacent_to_dragon(seat, key):
        hut = (s.controller(BABA) == seat and isinstance(key, int)
               and key in B.RINGSET[s.adj][s.places[BABA]])
        if not hut or not isinstance(key, int):
            return (f"Claim: \"Dragon has to be adjacent with target of claim\" — {key_text(key)} is not "
                    f"adjacent to your dragon")
        if not TOWN <= s.occ[key] <= RUIN:
            return ("Baba Yaga's Hut: \"Claimed Dragon can use an action to claim adjacent settlement\" — "
                    "settlements only, not blank spaces")
    if o >= 0:
        if isinstance(key, int) and s.occ[key] == EMPTY:
            return (f"Claim Settlement: \"Remove opponents claim and put a claim ring on adjacent settlement "
                    f"or place of power\" — a blank space claimed by {seat_label(s, o)} cannot be taken "
                    f"(reading R14)")
        if s.acts < 2:
            return (f"Claim Settlement: taking {seat_label(s, o)}'s claim costs 2 actions, you have "
                    f"{s.acts}")
    return ""


def destroy_refusal(s: NarbyData, key: int | str) -> str:
    seat = s.who
    if isinstance(key, str):
        if key not in s.places:
            return f"{T.places[PIDX[key]].name} is not on the board"
    elif not TOWN <= s.occ[key] <= RUIN:
        return (f"\"Dragons may destroy settlements or places of power\" — {key_text(key)} holds "
                f"{what_is_on(s, key)}")
    if s.claims.get(key, -1) == seat and not s.options["destroy_own_claims"]:
        return (f"Destroy: {key_text(key)} is your own claim; with option destroy_own_claims=false a dragon "
                f"does not destroy its own claims (reading R14; Abandon Claim takes a ring back)")
    if isinstance(key, int) and s.dragon[seat] in NO_DESTROY:
        return f"the {s.dragon_id(seat)} dragon \"Shall not destroy settlements\""
    if not s.adjacent_to_dragon(seat, key):
        return (f"Destroy: the target must be adjacent to your dragon, as for Claim and Attack (reading "
                f"R14) — {key_text(key)} is not")
    return ""


def steal_refusal(s: NarbyData, target: str) -> str:
    seat = s.who
    if target == "chest":
        if s.chest < 0:
            return "Steal from thief's chest: the chest is not on the board yet"
        return (f"Steal from thief's chest: \"Dragon must be adjacent to thief's treasure chest\" — the chest "
                f"at {B.sq_text(s.chest)} is not adjacent to your dragon")
    t = s.seat_of(target)
    if t < 0:
        return f"there is no {target} dragon in this game"
    if t == seat:
        return ("Steal from Dragon cave: \"Dragons may steal from other dragon caverns\" — a dragon cannot "
                "rob its own cave")
    if s.dragon[t] == UNDEAD:
        if s.options["undead_steal"] == "never":
            return ("the Undead \"Does not place home cave\": it has no cave to steal from (option "
                    "undead_steal=never)")
        if RESTING not in s.places:
            return ("the Undead \"Does not place home cave\": it can be robbed only beside the Immortals "
                    "Resting Place, its home, which is not on the board (reading R5)")
        return ("the Undead \"Does not place home cave\": it is robbed beside the Immortals Resting Place "
                "(reading R5), which is not adjacent to your dragon")
    return (f"Steal from Dragon cave: the cave must be adjacent to your dragon, as for the thief's chest "
            f"(reading R14) — the {target} cave at {B.sq_text(s.cave[t])} is not")
