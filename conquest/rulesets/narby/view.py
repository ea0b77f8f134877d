"""What a seat sees of a Narby Conquest position (rules document 001): the JSON view (another seat's card is
hidden), the text board (the 20x20 grid and the pieces, as the CLI prints it) and the description of each
legal action. The JSON itself is in ``serial``.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B, notation
from conquest.rulesets.narby.base import CAVE0, CHEST, CITY, DRAGON0, EMPTY, KIND_NAME, PIDX, PLACE0, RUIN, TOWN
from conquest.rulesets.narby.state import NarbyData, seat_label
from conquest.rulesets.narby.tables import TABLES as T


def view(s: NarbyData, seat: int | None) -> dict[str, Any]:
    """The state JSON with the other seats' cards hidden ("hidden"; a seat sees its own)."""
    doc = s.to_json()
    doc["hands"] = [h if (t == seat or h is None) else "hidden" for t, h in enumerate(s.hand)]
    return doc


def _at(q: int) -> str:
    x, y = B.xy(q)
    return f"column {x}, row {y}"


def _dragon(state: NarbyData, dragon_id: str) -> str:
    return f"the {T.dragons[T.dragon_index[dragon_id]].name} dragon" if dragon_id in T.dragon_index else dragon_id


def _thing(state: NarbyData, key: Any) -> str:
    """A claimable key in words: a place of power by name, a square by what is on it and where."""
    if isinstance(key, str):
        return f"{T.places[PIDX[key]].name} (place of power)"
    c = state.occ[key]
    if c == EMPTY:
        return f"the blank square at {_at(key)}"
    return f"the {KIND_NAME.get(c, 'square')} at {_at(key)}"


def describe_action(state: NarbyData, action: Any) -> str:
    """What the legal action does here, in the game's words: squares as "column 10, row 9" (the labels of the
    grid), dragons, places and cards by name; the CLI prints the notation beside it."""
    w = action[0]
    one = "1 action"
    if w == "place" and state.ev is not None:
        piece = state.ev["piece"]
        x, y = B.xy(action[1])
        if piece == "chest":
            return f"put the thief's chest at column {x}, row {y}"
        what = "Baba Yaga's Hut" if piece == "hut" else _dragon(state, state.dragon_id(state.ev["dragon"]))
        return f"put {what} on columns {x}–{x + 1}, rows {y}–{y + 1}"
    if w == "move":
        x, y = B.xy(action[1])
        over = state.chest >= 0 and state.chest in B.FOOT[action[1]]
        return (f"move the dragon to columns {x}–{x + 1}, rows {y}–{y + 1} ({one})"
                + (", landing over the thief's chest" if over else ""))
    if w in ("claim", "claim2") and state.node == "act":
        if w == "claim2":
            return f"claim {_thing(state, action[1])} and {_thing(state, action[2])} (Citadel of Torture, {one})"
        key = action[1]
        o = state.claims.get(key, -1)
        cost = 2 if o not in (-1, state.who) else 1
        acts = f"{cost} action{'s' if cost > 1 else ''}"
        if not isinstance(key, str) and state.occ[key] == EMPTY:
            return f"claim {_thing(state, key)} (earns nothing at tribute; {acts})"
        if o >= 0 and o != state.who:
            return f"take {_thing(state, key)} from {_dragon(state, state.dragon_id(o))} ({acts})"
        return f"claim {_thing(state, key)} ({acts})"
    if w == "destroy":
        return f"destroy {_thing(state, action[1])}: roll on the Destroy chart ({one})"
    if w == "abandon":
        return f"take back your claim ring from {_thing(state, action[1])} ({one})"
    if w == "lose":
        return f"lose your claim on {_thing(state, action[1])}"
    if w == "upgrade":
        return f"the town at {_at(action[1])} becomes a city"
    if w == "steal":
        t = action[1]
        src = "the thief's chest" if t == "chest" else f"{_dragon(state, t)}'s cave"
        return f"steal from {src}: roll on the Steal chart ({one})"
    if w == "attack":
        return f"attack {_dragon(state, action[1])}: both roll a d20, ties to the defender ({one})"
    if w == "choose":
        p = T.places[PIDX[action[1]]]
        return f"{p.name} appears ({p.power})"
    if w == "dragon":
        return f"play {_dragon(state, action[1])}"
    if w == "play":
        card = T.cards[T.card_ids.index(action[1])]
        arg = action[2] if len(action) > 2 else None
        if action[1] == "procreator" and isinstance(arg, str):
            axis = "column" if arg[0] == "x" else "row"
            return f"play Pro-creator: the settlement's {axis} die {arg[1:]} ({card.text})"
        if isinstance(arg, str) and arg in T.dragon_index:
            return f"play {card.name} on {_dragon(state, arg)} ({card.text})"
        if isinstance(arg, int):
            return f"play {card.name} on {_thing(state, arg)} ({card.text})"
        return f"play {card.name} ({card.text})"
    if w == "power":
        p = T.places[PIDX[action[1]]]
        arg = action[2] if len(action) > 2 else None
        on = (f" on {_dragon(state, arg)}" if isinstance(arg, str) and arg in T.dragon_index
              else f" on {_thing(state, arg)}" if isinstance(arg, int) else "")
        return f"use {p.name}{on} ({p.power})"
    if w == "pass":
        return {"react": "let it happen (play nothing)", "procreator": "let the settlement be built where rolled",
                "tribute_card": "play no card: roll the tribute as it is"}.get(str(state.node), "do nothing")
    if w == "end":
        return "end this dragon's turn"
    return notation.format_action(action)


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
