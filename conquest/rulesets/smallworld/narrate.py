"""The log of Small World told as sentences, from one seat's views only (``conquest.core.narration``).

A player is named with the race they play ("Ann's Ratmen conquer Hillside with 3 tokens: the Humans lose
1 token, 2 go back to their hand"); the reinforcement die is shown as a die. Coin totals are secret in Small
World: a line tells a seat its own coins only, because its view shows no one else's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conquest.core.narration import changed_keys, die, ends, fact, line, plural, score_row
from conquest.rulesets.smallworld import data as D


def race_name(race: str | None) -> str:
    if not race:
        return "no race"
    return str(D.RACES[D.RACE_INDEX[race]]["name"]) if race in D.RACE_INDEX else race


def power_name(power: str | None) -> str:
    if not power:
        return "no power"
    return str(D.POWERS[D.POWER_INDEX[power]]["name"]) if power in D.POWER_INDEX else power


def region_name(view: Mapping[str, Any], rid: str) -> str:
    board = D.get_board(int(view["players"]), str(view["options"].get("map", "standard")),
                        int(view["map"]["seed"]))
    try:
        return str(board.names[int(rid[1:]) - 1])
    except (ValueError, IndexError):
        return rid


def seat_of(view: Mapping[str, Any], race: str | None) -> int | None:
    info = (view.get("races") or {}).get(race or "")
    return info.get("seat") if info else None


def occupant(view: Mapping[str, Any], rid: str) -> str:
    r = (view.get("regions") or {}).get(rid) or {}
    if r.get("race"):
        return f"the {race_name(r['race'])} ({plural(r.get('tokens', 0), 'token')})"
    if r.get("lost_tribe"):
        return "the Lost Tribe"
    return "nobody"


def coins(view: Mapping[str, Any], seat: int) -> int | None:
    seats = view.get("seats") or []
    return seats[seat].get("coins") if 0 <= seat < len(seats) else None


def breakdown(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The coins of every seat at the end (turned over when the game is over: every row has its total), with
    the races it played."""
    rows = []
    for p, st in enumerate(view.get("seats") or []):
        races = [f"{race_name(r)}{' (in decline)' if i.get('status') == 'declined' else ''}"
                 for r, i in (view.get("races") or {}).items() if i.get("seat") == p]
        rows.append(score_row(names[p] if p < len(names) else f"Player {p + 1}",
                              [("races", ", ".join(races) or "none")], st.get("coins")))
    return rows


def narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
            names: Sequence[str]) -> dict[str, Any]:
    out = _narrate(before, action, after, seat, names)
    if ends(before, after):
        out["final"] = breakdown(after, names)
        out["kind"] = "end"
    return out


def _narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
             names: Sequence[str]) -> dict[str, Any]:
    ch = changed_keys(before.get("regions"), after.get("regions"))
    mover = before.get("to_move")
    ts = before.get("turn_state") or {}
    active = ts.get("race")
    if action is None:
        who = names[mover] if isinstance(mover, int) and mover < len(names) else "Chance"
        return line(f"{who} does something you cannot see", "hidden", changed=ch)
    verb = action[0]
    if mover == "chance":
        return _chance(before, action, after, names, ch)
    me = int(mover) if isinstance(mover, int) else -1
    player = names[me] if 0 <= me < len(names) else "Someone"
    whose = "Your" if seat is not None and me == seat else f"{player}'s"   # told to the seat that moved: "Your Orcs"
    troop = f"{whose} {race_name(active)}" if active else player
    if verb in ("conquer", "dragon"):
        rid = action[1]
        text = f"{troop} conquer {region_name(before, rid)}" + (" with the Dragon" if verb == "dragon" else "")
        text += _conquest_result(before, after, rid, active)
        return line(text, "battle", changed=ch, group=f"conquest-{before.get('turn')}-{me}",
                    facts=[fact(f"/regions/{rid}/race", equals=active)] if active else None)
    if verb == "final":
        rid = action[1]
        return line(f"{troop} try a final conquest of {region_name(before, rid)}, held by "
                    f"{occupant(before, rid)}: the reinforcement die decides", "battle", changed=ch,
                    group=f"conquest-{before.get('turn')}-{me}")
    if verb == "berserk":
        return line(f"{troop} go berserk: the reinforcement die is rolled before the next conquest", "battle",
                    changed=ch, group=f"conquest-{before.get('turn')}-{me}")
    if verb == "convert":
        rid = action[1]
        return line(f"{troop} convert the {race_name((before['regions'][rid] or {}).get('race'))} token in "
                    f"{region_name(before, rid)}", "battle", changed=ch,
                    facts=[fact(f"/regions/{rid}/race", equals=active)] if active else None)
    if verb == "abandon":
        return line(f"{troop} abandon {region_name(before, action[1])}", changed=ch,
                    facts=[fact(f"/regions/{action[1]}/race", equals=None)])
    if verb == "redeploy":
        rid, n = action[1], action[2]
        race = active if seat_of(before, active) == me else _own_race(before, me)
        return line(f"{whose} {race_name(race)} redeploy {plural(n, 'token')} to {region_name(before, rid)}",
                    changed=ch)
    if verb in ("camp", "fortress", "hero"):
        what = {"camp": "an Encampment", "fortress": "a Fortress", "hero": "a Hero"}[verb]
        return line(f"{troop} place {what} in {region_name(before, action[1])}", changed=ch)
    if verb == "peace":
        other = names[action[1]] if action[1] < len(names) else f"Player {action[1] + 1}"
        return line(f"{troop} make peace with {other} (Diplomat): no attack on them next turn", changed=ch)
    if verb == "pick":
        col = before.get("column") or []
        i = action[1]
        combo = col[i] if i < len(col) else {}
        race = combo.get("race")
        text = (f"{player} takes the {power_name(combo.get('power'))} {race_name(race)}"
                + (" (the top banner, free" if i == 0
                   else f" ({_ordinal(i + 1)} banner from the top, paying {plural(i, 'coin')}"))
        if combo.get("coins"):
            text += f", collecting {plural(combo['coins'], 'coin')}"
        text += ")"
        hand = ((after.get("races") or {}).get(race) or {}).get("hand")
        if hand is not None:
            text += f": {plural(hand, 'token')} to conquer with"
        return line(text, "turn", changed=ch)
    if verb == "decline":
        return line(f"{troop} go into decline", "turn", changed=ch)
    if verb == "end":
        return _end(before, after, me, player, troop, ch)
    return line(f"{player}: {' '.join(map(str, action))}", changed=ch)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _own_race(view: Mapping[str, Any], seat: int) -> str | None:
    races: dict[str, Any] = view.get("races") or {}
    for race, info in races.items():
        if info.get("seat") == seat and info.get("status") == "active":
            return race
    return None


def _conquest_result(before: Mapping[str, Any], after: Mapping[str, Any], rid: str, race: str | None) -> str:
    rb = (before.get("regions") or {}).get(rid) or {}
    ra = (after.get("regions") or {}).get(rid) or {}
    if ra.get("race") != race:
        return ""
    used = ra.get("tokens", 0)
    text = f" with {plural(used, 'token')}"
    foe = rb.get("race")
    if foe:
        n = rb.get("tokens", 0)
        fb = ((before.get("races") or {}).get(foe) or {}).get("hand", 0) or 0
        fa = ((after.get("races") or {}).get(foe) or {}).get("hand", 0) or 0
        back = max(0, fa - fb)
        lost = n - back
        text += f": the {race_name(foe)} lose {plural(lost, 'token')}"
        if back:
            text += f", {back} go{'es' if back == 1 else ''} back to their hand"
    elif rb.get("lost_tribe"):
        text += ": the Lost Tribe is wiped out"
    return text


def _end(before: Mapping[str, Any], after: Mapping[str, Any], me: int, player: str, troop: str,
         ch: list[str]) -> dict[str, Any]:
    phase = before.get("phase")
    if phase == "conquer":
        return line(f"{troop} stop conquering and redeploy", "turn", changed=ch)
    if phase == "redeploy":
        c0, c1 = coins(before, me), coins(after, me)
        text = f"{player} ends the turn"
        if c0 is not None and c1 is not None:
            text += f" and scores {plural(c1 - c0, 'coin')} ({c1} in all)"
        if after.get("to_move") is None:
            text += ": the game is over"
        return line(text, "end" if after.get("to_move") is None else "turn", changed=ch)
    return line(f"{player} ends the turn without going into decline", "turn", changed=ch)


def _chance(before: Mapping[str, Any], action: Any, after: Mapping[str, Any], names: Sequence[str],
            ch: list[str]) -> dict[str, Any]:
    verb = action[0]
    if verb == "race":
        return line(f"A new race is revealed in the column: the {race_name(action[1])}", "draw", changed=ch,
                    group=f"column-{before.get('turn')}")
    if verb == "power":
        col = after.get("column") or []
        combo = f"{power_name(action[1])} {race_name(col[-1]['race'])}" if col else power_name(action[1])
        return line(f"…with the power {power_name(action[1])}: the {combo} join the column", "draw",
                    changed=ch, group=f"column-{before.get('turn')}")
    if verb == "die":
        ts = before.get("turn_state") or {}
        seat = before.get("seat")
        player = names[seat] if isinstance(seat, int) and seat < len(names) else "The player"
        race = ts.get("race")
        face = action[1]
        rid = ts.get("final_region")
        if rid:
            won = ((after.get("regions") or {}).get(rid) or {}).get("race") == race
            outcome = "conquered" if won else "not enough: the conquest fails"
            text = (f"{player}'s {race_name(race)} roll the reinforcement die for {region_name(before, rid)}: "
                    f"{face} — {outcome}")
            if won:
                text += _conquest_result(before, after, rid, race)
        else:
            outcome = f"+{face} for the next conquest"
            text = f"{player}'s {race_name(race)} roll the reinforcement die (Berserk): {face}, {outcome}"
        return line(text, "dice", changed=ch, group=f"conquest-{before.get('turn')}-{seat}",
                    dice=[die(f"{player}'s {race_name(race)}", "reinforcement die", outcome, value=face)])
    return line(f"Chance: {' '.join(map(str, action))}", "dice", changed=ch)



