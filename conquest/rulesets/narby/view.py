"""What a seat sees of a Narby Conquest position (rules document 001): the JSON view (another seat's card is
hidden), the text board (the 20x20 grid and the pieces, as the CLI prints it) and the description of each
legal action. The JSON itself is in ``serial``.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby import notation
from conquest.rulesets.narby.base import CAVE0, CHEST, CITY, DRAGON0, EMPTY, KIND_NAME, PIDX, PLACE0, RUIN, TOWN
from conquest.rulesets.narby.state import NarbyData, seat_label
from conquest.rulesets.narby.tables import TABLES as T


def view(s: NarbyData, seat: int | None) -> dict[str, Any]:
    """The state JSON with the other seats' cards hidden ("hidden"; a seat sees its own)."""
    doc = s.to_json()
    doc["hands"] = [h if (t == seat or h is None) else "hidden" for t, h in enumerate(s.hand)]
    return doc


def describe_action(state: NarbyData, action: Any) -> str:
    """The legal action as the CLI lists it: its notation and what it does here."""
    w = action[0]
    text = notation.format_action(action)
    notes = {
        "end": "end this dragon's turn",
        "pass": "do nothing",
        "move": "move the dragon (1 action)",
        "claim2": "Citadel of Torture: claim both (1 action)",
        "destroy": "roll on the Destroy chart (1 action)",
        "steal": "roll on the Steal chart (1 action)",
        "attack": "opposed d20, ties to the defender (1 action)",
        "abandon": "take back a claim ring (1 action)",
    }
    if w == "place" and state.ev is not None:
        piece = state.ev["piece"]
        x, y = B.xy(action[1])
        if piece == "chest":
            return f"{text}  (the thief's chest goes to {x},{y})"
        what = "Baba Yaga's Hut" if piece == "hut" else f"the {state.dragon_id(state.ev['dragon'])} dragon"
        return f"{text}  ({what} covers {x}-{x + 1}, {y}-{y + 1})"
    if w == "move" and state.chest >= 0 and state.chest in B.FOOT[action[1]]:
        return f"{text}  (move the dragon (1 action), landing over the thief's chest)"
    if w == "claim" and state.node == "act":
        key = action[1]
        o = state.claims.get(key, -1)
        cost = 2 if o not in (-1, state.who) else 1
        acts = f"{cost} action{'s' if cost > 1 else ''}"
        if isinstance(key, str):
            what = f"{T.places[PIDX[key]].name} (place of power)"
        else:
            c = state.occ[key]
            if c == EMPTY:
                return f"{text}  — claim the blank square {B.sq_text(key)} (earns nothing at tribute), {acts}"
            what = f"the {KIND_NAME.get(c, 'square')} at {B.sq_text(key)}"
        if o >= 0 and o != state.who:
            return f"{text}  — take {what} from {seat_label(state, o)}, {acts}"
        return f"{text}  — claim {what}, {acts}"
    if w == "play":
        card = T.cards[T.card_ids.index(action[1])]
        return f"{text}  ({card.name}: {card.text})"
    if w == "power":
        p = T.places[PIDX[action[1]]]
        return f"{text}  ({p.name}: {p.power})"
    return f"{text}  ({notes[w]})" if w in notes else text


PLACE_LETTERS = "ABEFGHIJKLMNOP"  # no C, D, R, T: those mean city, dragon, ruin, town


def seat_mark(seat: int) -> str:
    """The one character that stands for a seat on the grid: its number as the seat names count (Seat 1 is
    "1"), and "0" for Seat 10."""
    return str((seat + 1) % 10)


def render(s: NarbyData, seat: int | None) -> str:
    """The grid, two characters a square: dragons D and the seat's mark (Seat 1 is D1), caves c and the mark,
    towns t, cities C, ruins r (a claim shows the claimant's mark next to it), places of power a letter and the
    claimant's mark (or the letter twice when unclaimed), the chest $$. Seats are named as ``seat_names``
    names them ("Seat 1" is seat 0 of the state JSON)."""
    occ = s.occ
    homes = {s.home[t]: t for t in range(s.players) if s.cave[t] < 0 and s.home[t] >= 0}
    lines = [f"Narby Conquest — round {s.round}, phase {s.phase}, win above {s.options['win']} coins"]
    header = "     " + "".join(f"{x:>3}" for x in range(1, 21))
    lines.append(header)
    for y in range(1, 21):
        row = [f"  {y:>2} "]
        for x in range(1, 21):
            q = B.sq(x, y)
            c = occ[q]
            o = s.claims.get(q, -1)
            mark = seat_mark(o) if o >= 0 else " "
            if c == EMPTY:
                cell = " ." if o < 0 else f" {mark}"
                if q in homes:
                    cell = f"h{seat_mark(homes[q])}"
            elif c in (TOWN, CITY, RUIN):
                cell = {TOWN: "t", CITY: "C", RUIN: "r"}[c] + mark
            elif c == CHEST:
                cell = "$$"
            elif c < DRAGON0:
                cell = f"c{seat_mark(c - CAVE0)}"
            elif c < PLACE0:
                cell = f"D{seat_mark(c - DRAGON0)}"
            else:
                pid = T.place_ids[c - PLACE0]
                po = s.claims.get(pid, -1)
                cell = PLACE_LETTERS[c - PLACE0] + (seat_mark(po) if po >= 0 else PLACE_LETTERS[c - PLACE0].lower())
            row.append(f" {cell}")
        lines.append("".join(row))
    lines.append("")
    lines.append("  legend: D1 the dragon of Seat 1, c1 its cave, t town, C city, r ruin (a digit after it: claimed "
                 "by that seat; a lone digit: a claimed blank square), $$ thief's chest, h1 the Undead's home square"
                 + (" (Seat 10 shows as 0)" if s.players >= 10 else "") + ";")
    lines.append("          places of power: their letter and the claimant's seat, or the letter twice when "
                 "unclaimed")
    for pid, a in sorted(s.places.items(), key=lambda x: PIDX[x[0]]):
        p = T.places[PIDX[pid]]
        o = s.claims.get(pid, -1)
        used = " (used this round)" if (s.used >> PIDX[pid]) & 1 else ""
        lines.append(f"  {PLACE_LETTERS[PIDX[pid]]} {p.name} at {B.sq_text(a)}"
                     f"{' claimed by ' + seat_label(s, o) if o >= 0 else ''}: {p.power}{used}")
    under = s.chest_under()
    lines.append(f"  thief's chest: {s.chest_coins} coins" + (f" at {B.sq_text(s.chest)}" if s.chest >= 0 else "")
                 + (f", beneath the dragon of {seat_label(s, under)}" if under >= 0 else ""))
    for t in range(s.players):
        h = s.hand[t]
        hand = (h or "no card") if t == seat else ("a card" if h else "no card")
        turn = " <" if s.to_move == t else ""
        lines.append(f"  {seat_label(s, t):<18} coins {s.coins[t]:>3}  tokens "
                     f"{s.tok_sum[t]:>2} ({s.tok_n[t]})  rings left {s.rings_left[t]:>2}  hand: {hand}{turn}")
    if s.phase == "action" and s.node == "act":
        lines.append(f"  {seat_label(s, s.who)} to act, {s.acts} action(s) left")
    return "\n".join(lines)
