"""The log of the Conquest module (kingdom) told as sentences, from one seat's views only
(``conquest.core.narration``): "Blue moves 3 armies into Millbrook: Red's 2 armies there go home, and 2 of
Blue's with them". Everything in this game is public; the lines still read the views alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conquest.core.narration import changed_keys, die, ends, line, listing, plural, score_row
from conquest.rulesets.kingdom.board import Board, load_board


def board_of(view: Mapping[str, Any]) -> Board:
    return load_board(view["options"]["board"])


def territory(view: Mapping[str, Any], tid: str) -> str:
    r = board_of(view).map.by_id.get(tid)
    return r.name if r is not None else tid


def location(view: Mapping[str, Any], loc: str) -> str:
    b = board_of(view)
    i = b.loc_index.get(loc)
    kind = b.loc_kind[i].replace("_", " ") if i is not None else "bonus location"
    return f"the {kind} location of {territory(view, loc.split('.')[0])}"


def armies(n: int) -> str:
    return plural(n, "army", "armies")


def changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    out = set(changed_keys(before.get("armies"), after.get("armies")))
    out |= {k.split(".")[0] for k in changed_keys(before.get("locations"), after.get("locations"))}
    return sorted(out)


def breakdown(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The final score of each seat: territory VP plus production points."""
    d = view.get("derived") or {}
    return [score_row(names[p] if p < len(names) else f"seat {p}",
                      [("territories (VP)", d["territory_vp"][p]), ("production points", view["points"][p])],
                      d["score"][p]) for p in (0, 1)]


def narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
            names: Sequence[str]) -> dict[str, Any]:
    out = _narrate(before, action, after, seat, names)
    if ends(before, after):
        out["final"] = breakdown(after, names)
    return out


def _narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
             names: Sequence[str]) -> dict[str, Any]:
    ch = changed(before, after)
    mover = before.get("to_move")

    def name(p: int) -> str:
        return "you" if p == seat else names[p] if 0 <= p < len(names) else f"seat {p}"

    def Name(p: int) -> str:
        n = name(p)
        return n[:1].upper() + n[1:]

    if action is None:
        return line("Something you cannot see happens", "hidden", changed=ch)
    verb = action[0]
    if mover == "chance":
        p = int(before.get("current", 0))
        n = action[1]
        base = int(before["options"].get("soldier_base", 0))
        got = (after["soldiers"][p] - before["soldiers"][p]) if "soldiers" in after else n + base
        text = f"{Name(p)} roll{'' if p == seat else 's'} the Soldier die: {n} — {plural(got, 'Soldier token')}"
        return line(text, "dice", changed=ch, group=f"income-{before.get('round')}",
                    dice=[die(Name(p), f"d{before['options'].get('soldier_die', 6)}", plural(got, "Soldier token"),
                              value=n)])
    me = int(mover) if isinstance(mover, int) else int(before.get("current", 0))
    s = "" if me == seat else "s"
    move = before.get("move") or {}
    group = f"move-{before.get('round')}-{me}-{move.get('to')}" if move else None
    if verb == "recruit":
        n = action[1]
        return line(f"{Name(me)} recruit{s} {armies(n)} into {'your' if me == seat else 'their'} castle "
                    f"({plural(n, 'Soldier token')})", changed=ch)
    if verb == "move":
        tid = action[1]
        foe = (before.get("armies") or {}).get(tid, [0, 0])[1 - me]
        text = f"{Name(me)} start{s} a move into {territory(before, tid)}"
        if foe:
            text += f", held by {armies(foe)} of {name(1 - me)}"
        return line(text, "move", changed=ch, group=f"move-{before.get('round')}-{me}-{tid}")
    if verb == "from":
        return line(f"{Name(me)} take{s} {armies(action[2])} from {territory(before, action[1])}", changed=ch,
                    group=group)
    if verb == "go":
        return _go(before, after, me, seat, name, Name, ch, group)
    if verb == "vacate":
        return line(f"{Name(me)} leave{s} {location(before, action[1])}", changed=ch, group=group)
    if verb == "place":
        return line(f"{Name(me)} take{s} {location(before, action[1])}", changed=ch, group=group)
    if verb == "stop":
        text = f"{Name(me)} stop{s} {'your' if me == seat else 'their'} conquest"
        if after.get("round") != before.get("round") or after.get("to_move") is None:
            text += ": the Conquest phase ends" + (" and the game is over" if after.get("to_move") is None else "")
        return line(text, "end" if after.get("to_move") is None else "turn", changed=ch)
    if verb == "soldiers":
        return line(f"{Name(me)} bring{s} {plural(action[1], 'Soldier token')} to the Conquest phase", changed=ch)
    return line(f"{Name(me)}: {' '.join(map(str, action))}", changed=ch)


def _go(before: Mapping[str, Any], after: Mapping[str, Any], me: int, seat: int | None, name: Any, Name: Any,
        ch: list[str], group: str | None) -> dict[str, Any]:
    move = before.get("move") or {}
    tid = str(move.get("to"))
    sources = move.get("from") or {}
    total = sum(int(n) for n in sources.values())
    s = "" if me == seat else "s"
    text = f"{Name(me)} move{s} {armies(total)} into {territory(before, tid)}"
    frm = [f"{n} from {territory(before, t)}" for t, n in sources.items()]
    if len(frm) > 1:
        text += f" ({listing(frm)})"
    foe = (before.get("armies") or {}).get(tid, [0, 0])[1 - me]
    kind = "move"
    if foe:
        kind = "battle"
        whose = "your" if 1 - me == seat else f"{name(1 - me)}'s"
        text += (f": {foe} of {whose} armies go home to the castle, and {foe} of "
                 f"{'yours' if me == seat else name(me) + chr(39) + 's'} with them")
    held = [k for k, v in (after.get("locations") or {}).items()
            if k.startswith(tid + ".") and v == me and (before.get("locations") or {}).get(k) != me]
    if held:
        text += f"; {'you take' if me == seat else 'they take'} " + listing([location(before, k).split(' of ')[0]
                                                                             for k in held])
    return line(text, kind, changed=ch, group=group)
