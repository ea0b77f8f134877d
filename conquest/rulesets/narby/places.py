"""Places of Power (rules document 001, the Places of Power table of the "Populate Phase": "Power once per
round" and "Control"): what each place does for the dragon whose claim ring is on it. Its own turn's powers
(``power ID ...`` at node act), the powers that answer another dragon's declared action (Soulwash Temple,
Pearlthorn Castle, Blade Miller) and the Soul Mine's tribute bonus. Where the places come from is in
``populate``; Baba Yaga's Hut's "Control" and the Citadel of Torture's double claim change the Claim action
(``actions``). Readings R28, R29, R34 in docs/rules/narby.md.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import BABA, PIDX, RUIN, TOWN
from conquest.rulesets.narby.state import NarbyData, ask_place, count, seat_label
from conquest.rulesets.narby.tables import TABLES as T


def power_uses(s: NarbyData, seat: int, can_attack: bool, can_steal: bool) -> list[Any]:
    """The ``power`` actions of ``seat`` at node act (no action spent), in the order the places came on the
    board; ``can_attack`` / ``can_steal``: an attack / a steal is open to the dragon now."""
    out: list[Any] = []
    if not s.places:
        return out
    acts = s.acts
    for pid in s.places:
        if not s.power_ready(seat, pid):
            continue
        if pid == BABA:
            if s.options["baba_yaga"] == "hut":
                if s.place_options_for("hut", -1, "near", 3):
                    out.append(("power", BABA))
            elif s.place_options_for("dragon", seat, "near", 3):
                out.append(("power", BABA))
        elif pid == "angelstar_shrine":
            out.append(("power", pid))
        elif pid == "tower_of_faces":
            for t in range(s.players):
                if s.place_options_for("dragon", t, "home", 0):
                    out.append(("power", pid, s.dragon_id(t)))
        elif pid == "tower_of_unquenched_flame":
            occ = s.occ
            for q in range(B.SQUARES):
                if occ[q] == RUIN:
                    out.append(("power", pid, q))
        elif pid == "arch_of_triumph":
            if acts >= 1 and can_attack:
                out.append(("power", pid))
        elif pid == "madhouse":
            for t in range(s.players):
                if t != seat and s.place_options_for("dragon", t, "near", 1):
                    out.append(("power", pid, s.dragon_id(t)))
        elif pid == "chrysotas_chapel":
            if acts >= 1 and can_steal:
                out.append(("power", pid))
        elif pid == "darkheart_cottage":
            if s.chest >= 0 and s.place_options_for("chest", -1, "near", 5):
                out.append(("power", pid))
    return out


def use_power(s: NarbyData, seat: int, action: Any) -> None:
    """A power of the own turn; the powers that move a piece leave the placement to ``seat`` (node place)."""
    pid = action[1]
    s.used |= 1 << PIDX[pid]
    count(s, "powers_used")
    if pid == "angelstar_shrine":
        s.acts += 1
    elif pid == "arch_of_triumph":
        s.bonus[1] += 2
    elif pid == "chrysotas_chapel":
        s.bonus[2] += 2
    elif pid == "tower_of_unquenched_flame":
        s.occ[action[2]] = TOWN
    elif pid == BABA:
        # "Moves 3 spaces each turn for free": the walking Hut (default) or its dragon (option baba_yaga)
        if s.options["baba_yaga"] == "hut":
            ask_place(s, seat, "hut", -1, "near", 3)
        else:
            ask_place(s, seat, "dragon", seat, "near", 3)
    elif pid == "tower_of_faces":
        ask_place(s, seat, "dragon", s.seat_of(action[2]), "home", 0)
    elif pid == "madhouse":
        ask_place(s, seat, "dragon", s.seat_of(action[2]), "near", 1)
    elif pid == "darkheart_cottage":
        ask_place(s, seat, "chest", -1, "near", 5)


def power_answers(s: NarbyData, t: int, ev: dict[str, Any]) -> list[Any]:
    """The powers seat ``t`` may use against the declared action ``ev`` of another dragon."""
    out: list[Any] = []
    typ = ev["type"]
    if typ == "attack":
        if s.power_ready(t, "soulwash_temple"):
            out.append(("power", "soulwash_temple"))
    elif typ == "destroy":
        if ev["target"] in s.claims and s.power_ready(t, "pearlthorn_castle"):
            out.append(("power", "pearlthorn_castle"))
        if s.power_ready(t, "blade_miller"):
            out.append(("power", "blade_miller"))
    return out


def answer_with_power(s: NarbyData, pid: str) -> bool:
    """Use ``pid`` against the declared action; returns whether that action goes on (Blade Miller: "-1 to
    opponents destroy roll") or is prevented (Soulwash Temple: "Prevent a single attack"; Pearlthorn Castle:
    "Prevents a claim from being destroyed")."""
    s.used |= 1 << PIDX[pid]
    count(s, "powers_used")
    if pid == "blade_miller":
        assert s.ev is not None
        s.ev["mod"] -= 1
        return True
    return False


def soul_mine_bonus(s: NarbyData, seat: int) -> int:
    """Soul Mine: "+1 on tribute rolls", once per round."""
    if s.power_ready(seat, "soul_mine"):
        s.used |= 1 << PIDX["soul_mine"]
        return 1
    return 0


def power_refusal(s: NarbyData, pid: str) -> str:
    """Why ``power ID`` is refused now."""
    seat = s.who
    name = T.places[PIDX[pid]].name
    if pid not in s.places:
        return f"{name} is not on the board"
    o = s.controller(pid)
    if o != seat:
        return (f"{name}: its power is for the dragon whose claim ring is on it (\"Power once per round\"), "
                + ("nobody's" if o < 0 else f"{seat_label(s, o)}'s") + " now")
    if not s.power_ready(seat, pid):
        return f"{name}: \"Power once per round\" — used already this round"
    special = {
        "pearlthorn_castle": "is used when another dragon declares a destroy of a claim",
        "blade_miller": "is used when another dragon declares a destroy",
        "soulwash_temple": "is used when another dragon declares an attack",
        "soul_mine": "applies by itself to your tribute roll",
        "immortals_resting_place": "has no power (\"Home of Undead Dragon\")",
        "citadel_of_torture": "is used by claiming two settlements at once: 'claim x,y x,y'",
    }
    if pid in special:
        return f"{name} {special[pid]}"
    return f"{name}: {T.places[PIDX[pid]].power} — not possible now (see the legal actions)"
