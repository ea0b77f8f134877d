"""What the Small World board adds for the web app, from ``view(seat)`` only: a panel per seat (coins when
the seat may see them, its races and powers, active or in decline, tokens in hand), the race and power
banners of the combination column, and the rules help: every race and power with its text from races.yaml
and powers.yaml (the files the rules read)."""

from __future__ import annotations

from typing import Any

from conquest.rulesets.smallworld import data as D

# the verbs of the notation, as docs/rules/smallworld.md lists them per step
VERBS = {"pick": "pick I: take the race and power combination in slot I of the column (0 = top) for I coins, "
                 "one on each combination above it",
         "conquer": "conquer rN: take region rN with tokens of the active race (2 tokens, plus 1 for each "
                    "enemy token, Mountain, Encampment, Fortress or Troll's Lair in it)",
         "final": "final rN: the last conquest of the turn, 1 to 3 tokens short, with the reinforcement die",
         "dragon": "dragon rN (Dragon Master): conquer rN with one token and the Dragon",
         "convert": "convert rN (Sorcerers): replace a lone enemy token with one of yours",
         "berserk": "berserk (Berserk): roll the reinforcement die before a conquest",
         "abandon": "abandon rN: take the tokens of rN back into the hand (the region is left empty)",
         "decline": "decline: put the active race in decline instead of conquering this turn",
         "redeploy": "redeploy rN K: place K tokens from the hand into region rN",
         "camp": "camp rN (Bivouacking): put an Encampment in rN", "fortress": "fortress rN (Fortified): "
         "build a Fortress in rN", "hero": "hero rN (Heroic): put a Hero in rN",
         "peace": "peace S (Diplomat): choose seat S (0-based) to be at peace with (see the Diplomat power)",
         "end": "end the step: stop conquering, end redeployment (hand empty) or the turn"}


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
                                   "text": f"{p.get('text', '')} ({p.get('badge', p.get('tokens', '?'))} tokens on the badge)"}
    for v, text in VERBS.items():
        out[f"verb:{v}"] = {"kind": "action", "name": v, "text": text}
    return out


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
                holds.append([f"{r['name']} in hand", v.get("hand", 0), "tokens of the active race not on the board"])
        coins = st.get("coins")
        panels.append({"seat": t, "score": [["coins", "face down" if coins is None else coins,
                                             "victory coins (the others' are face down)"]],
                       "holds": holds, "badges": badges})
    column = [{"race": c["race"], "power": c["power"], "coins": c.get("coins", 0)} for c in view.get("column") or []]
    return {"panels": panels, "help": help_terms(), "banners": [
        {"title": f"{_power(c['power'])['name']} {_race(c['race'])['name']}",
         "text": f"{_race(c['race'])['name']}: {_race(c['race']).get('text', '')}. "
                 f"{_power(c['power'])['name']}: {_power(c['power']).get('text', '')}",
         "note": f"+{c['coins']} coins" if c["coins"] else "", "action": f"pick {i}"} for i, c in enumerate(column)]}
