"""What the Small World board adds for the web app, from ``view(seat)`` only: a panel per seat (coins when
the seat may see them, its races and powers, active or in decline, tokens in hand), the race and power
banners of the combination column, and the rules help: every race and power with its text from races.yaml
and powers.yaml (the files the rules read)."""

from __future__ import annotations

from typing import Any

from conquest.rulesets.smallworld import data as D

# the verbs of the notation, as docs/rules/smallworld.md lists them per step
VERBS = {"pick": "take a race and power combination from the column: the top one is free, each one further down "
                 "costs 1 coin, left on every combination above it",
         "conquer": "take a region with tokens of your active race (2 tokens, plus 1 for each enemy token, "
                    "Mountain, Encampment, Fortress or Troll's Lair in it)",
         "final": "the last conquest of the turn, 1 to 3 tokens short, with the reinforcement die",
         "dragon": "(Dragon Master) conquer a region with one token and the Dragon",
         "convert": "(Sorcerers) replace a lone enemy token with one of yours",
         "berserk": "(Berserk) roll the reinforcement die before a conquest",
         "abandon": "take the tokens of one of your regions back into your hand (the region is left empty)",
         "decline": "put your active race in decline instead of conquering this turn",
         "redeploy": "place tokens from your hand in one of your regions",
         "camp": "(Bivouacking) put an Encampment in a region", "fortress": "(Fortified) "
         "build a Fortress in a region", "hero": "(Heroic) put a Hero in a region",
         "peace": "(Diplomat) choose an opponent to be at peace with",
         "end": "stop conquering, end the redeployment, or end the turn"}


def _race(rid: str) -> dict[str, Any]:
    return D.RACES[D.RACE_INDEX[rid]]


def _power(pid: str) -> dict[str, Any]:
    return D.POWERS[D.POWER_INDEX[pid]]


def help_terms() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for r in D.RACES:
        out[f"race:{r['id']}"] = {"kind": "race", "name": r["name"],
                                  "text": f"{r.get('text', '')} ({r.get('banner', '?')} tokens on the banner)"}
    for p in D.POWERS:
        out[f"power:{p['id']}"] = {"kind": "power", "name": p["name"],
                                   "text": f"{p.get('text', '')} "
                                           f"({p.get('badge', p.get('tokens', '?'))} tokens on the badge)"}
    for v, text in VERBS.items():
        out[f"verb:{v}"] = {"kind": "action", "name": v, "text": text}
    return out


def hand_now(view: dict[str, Any], race: str) -> int:
    """The race's tokens in hand, counting at the start of its turn the tokens it is about to take back ("Ready
    your troops": all but one of each of its regions, and the Amazons' 4): what it will conquer with."""
    info = (view.get("races") or {}).get(race) or {}
    hand = int(info.get("hand") or 0)
    ts = view.get("turn_state") or {}
    mine_now = info.get("status") == "active" and info.get("seat") == view.get("seat")
    if not mine_now or ts.get("readied") or view.get("phase") not in ("pick", "conquer"):
        return hand
    on_board = [int(r.get("tokens") or 0) for r in (view.get("regions") or {}).values() if r.get("race") == race]
    spare = sum(t - 1 for t in on_board if t > 1)
    if race == "amazons":
        spare += max(0, min(4, int(_race(race).get("supply", 0)) - hand - sum(on_board)))
    return hand + spare


def question(view: dict[str, Any], seat: int | None, names: Any) -> str | None:
    """What the seat to move is asked now, in the game's words (shown above its actions)."""
    if seat is None or view.get("to_move") != seat:
        return None
    phase = view.get("phase")
    ts = view.get("turn_state") or {}
    races = view.get("races") or {}
    active = ts.get("race") or next((r for r, v in races.items()
                                     if v.get("seat") == seat and v.get("status") == "active"), None)
    rname = _race(active)["name"] if active else ""
    if phase == "pick":
        return ("Choose a race and power. The top banner is free; each banner further down costs 1 coin, left on "
                "every banner above it. Each banner says how many tokens it gives.")
    if phase == "conquer":
        n = hand_now(view, active) if active else 0
        return (f"Conquer with your {rname}: {n} token{'' if n == 1 else 's'} in hand. Each region shows what it "
                "costs (2, plus 1 per token, mountain or other defence there). Stop conquering to redeploy"
                + ("; or go into decline instead of conquering this turn." if not ts.get("conquered") else "."))
    if phase == "redeploy":
        n = int((races.get(active) or {}).get("hand") or 0) if active else 0
        if ts.get("amazon_debt"):
            return f"Your Amazons give back their 4 extra tokens: take {ts['amazon_debt']} from your regions."
        return (f"Redeploy: place your {n} {rname} token{'' if n == 1 else 's'} in hand in your regions (each keeps "
                "at least one), then end the turn to score." if n else
                "Redeploy done: end the turn to score your regions.")
    if phase == "defend":
        mine = next((r for r, v in races.items() if v.get("seat") == seat and v.get("hand")), None)
        n = int(races[mine].get("hand") or 0) if mine else 0
        return (f"You lost a region during the other player's turn. Redeploy your {n} surviving "
                f"{_race(mine)['name'] if mine else ''} token{'' if n == 1 else 's'}: place them in regions your race "
                "still holds (or leave the rest off the board).")
    if phase == "stout":
        return "Your turn is scored. Stout: go into decline now, or end the turn?"
    if phase == "diplomat":
        return "Diplomat: choose an opponent you did not attack this turn; they cannot attack you next turn."
    if phase == "die":
        return "Roll the reinforcement die."
    return None


def extras(view: dict[str, Any]) -> dict[str, Any]:
    races = view.get("races", {})
    panels = []
    for t, st in enumerate(view.get("seats", [])):
        badges = []
        holds = []
        for rid, v in races.items():
            if v.get("seat") != t:
                continue
            r, p = _race(rid), _power(v["power"])
            declined = v.get("status") == "declined"
            badges.append([f"{p['name']} {r['name']}" + (" (in decline)" if declined else ""),
                           f"{r['name']}: {r.get('text', '')}. {p['name']}: {p.get('text', '')}"])
            if not declined:
                holds.append([f"{r['name']} in hand", hand_now(view, rid),
                              "tokens of the active race not on the board (at the start of a turn: all but one "
                              "token of each region, taken back to conquer with)"])
        coins = st.get("coins")
        panels.append({"seat": t, "score": [["coins", "face down" if coins is None else coins,
                                             "victory coins (the others' are face down)"]],
                       "holds": holds, "badges": badges})
    column = [{"race": c["race"], "power": c["power"], "coins": c.get("coins", 0)} for c in view.get("column") or []]
    return {"panels": panels, "help": help_terms(), "banners": [
        {"title": f"{_power(c['power'])['name']} {_race(c['race'])['name']}: "
                  f"{int(_race(c['race']).get('banner', 0)) + int(_power(c['power']).get('badge', 0))} tokens",
         "text": f"{_race(c['race'])['name']}: {_race(c['race']).get('text', '')}. "
                 f"{_power(c['power'])['name']}: {_power(c['power']).get('text', '')}",
         "note": f"+{c['coins']} coins" if c["coins"] else "", "action": f"pick {i}"} for i, c in enumerate(column)]}
