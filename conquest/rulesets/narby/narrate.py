"""The log of Narby Conquest told as sentences, from one seat's views only (``conquest.core.narration``).

Seats are named by their dragons once chosen ("the Red dragon steals from the Iron dragon's cave: roll 17 —
3 coins"); a location rolled with two d20 (column, then row) is one group, shown as one entry. Another seat's
card stays "a card": its view says "hidden".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from conquest.core.narration import changed_keys, die, ends, fact, line, listing, plural, score_row
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.tables import TABLES as T

TWO_DICE = {"cave_x": "cave", "cave_y": "cave", "settle_x": "settle", "settle_y": "settle", "pop_x": "pop",
            "pop_y": "pop", "chest_x": "chest", "chest_y": "chest"}


def dragon_title(dragon_id: str) -> str:
    for d in T.dragons:
        if d.id == dragon_id:
            return d.name
    return dragon_id.capitalize()


def place_name(pid: str) -> str:
    for p in T.places:
        if p.id == pid:
            return p.name
    return pid


def card_name(cid: str) -> str:
    for c in T.cards:
        if c.id == cid:
            return c.name
    return cid


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Teller:
    def __init__(self, before: Mapping[str, Any], after: Mapping[str, Any], names: Sequence[str]) -> None:
        self.before, self.after, self.names = before, after, names

    def who(self, seat: Any) -> str:
        if not isinstance(seat, int) or seat < 0:
            return "nobody"
        dragons = self.after.get("dragons") or self.before.get("dragons") or []
        if seat < len(dragons) and dragons[seat]:
            return f"the {dragon_title(dragons[seat])} dragon"
        return self.names[seat] if seat < len(self.names) else f"Seat {seat + 1}"

    def key(self, key: Any, view: Mapping[str, Any] | None = None) -> str:
        view = view or self.before
        k = str(key)
        if "," not in k:
            return place_name(k)
        kind = (view.get("settlements") or {}).get(k)
        caves = view.get("caves") or []
        if k in caves:
            return f"{self.who(caves.index(k))}'s cave at {k}"
        return f"the {kind} at {k}" if kind else f"the blank square {k}"

    def coins_gained(self, seat: int) -> int | None:
        b, a = self.before.get("coins") or [], self.after.get("coins") or []
        if seat < len(b) and seat < len(a) and b[seat] is not None and a[seat] is not None:
            return int(a[seat]) - int(b[seat])
        return None


def changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Squares (``x,y``) whose settlement, claim or dragon changed; places of power count at their square."""
    out = set(changed_keys(before.get("settlements"), after.get("settlements")))
    places = {**(before.get("places") or {}), **(after.get("places") or {})}
    for k in changed_keys(before.get("claims"), after.get("claims")):
        out.add(places.get(k, k))
    for k in changed_keys(before.get("places"), after.get("places")):
        out.add(places.get(k, k))
    for field in ("dragon_at", "caves"):
        b, a = before.get(field) or [], after.get(field) or []
        for i in range(max(len(b), len(a))):
            x, y = (b[i] if i < len(b) else None), (a[i] if i < len(a) else None)
            if x != y:
                out |= {s for s in (x, y) if s}
    if before.get("chest") != after.get("chest"):
        out |= {s for s in (before.get("chest"), after.get("chest")) if s}
    return sorted(s for s in out if "," in str(s))


def square(arg: Any) -> Any:
    """A square of an action (an index inside the rules) as the notation writes it (``x,y``)."""
    return B.sq_text(arg) if isinstance(arg, int) and not isinstance(arg, bool) else arg


def breakdown(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each dragon's coins plus its treasure tokens."""
    t = Teller(view, view, names)
    coins, tokens = view.get("coins") or [], view.get("tokens") or []
    return [score_row(cap(t.who(p)), [("coins", c), ("treasure tokens", tokens[p] if p < len(tokens) else 0)],
                      c + (tokens[p] if p < len(tokens) else 0)) for p, c in enumerate(coins)]


_SQUARE = re.compile(r"\b(\d{1,2}),(\d{1,2})\b")
_SHIFT = re.compile(r"Pro-creator on ([xy])([+-]2)")


def readable(text: str) -> str:
    """Squares as a player reads them on the labelled grid ("10,9" -> "column 10, row 9"), a Pro-creator's die
    by name; the notation (on hover) keeps x,y."""
    text = _SHIFT.sub(lambda m: f"Pro-creator: the settlement's {'column' if m[1] == 'x' else 'row'} die {m[2]}",
                      text)
    text = re.sub(r"\b(square|town|city|ruin|cave) (\d{1,2},\d{1,2})\b", r"\1 at \2", text)
    return _SQUARE.sub(lambda m: f"column {m[1]}, row {m[2]}", text)


def narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
            names: Sequence[str]) -> dict[str, Any]:
    out = _narrate(before, action, after, seat, names)
    if ends(before, after):
        out["final"] = breakdown(after, names)
        out["text"] += ". The game is over"
        out["kind"] = "end"
    out["text"] = readable(out["text"])
    for d in out.get("dice") or []:
        if isinstance(d.get("outcome"), str):
            d["outcome"] = readable(d["outcome"])
    return out


def _narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
             names: Sequence[str]) -> dict[str, Any]:
    # Long because: one sentence per kind of action, in the game's words; the phrasebook reads best in one place.
    t = Teller(before, after, names)
    if action is not None and action and action[0] in ("place", "move", "claim", "claim2", "destroy", "abandon",
                                                         "lose", "upgrade", "power"):
        action = (action[0],) + tuple(square(a) for a in action[1:])
    ch = changed(before, after)
    node = str(before.get("node"))
    if action is None:
        if node == "draw":
            return line(f"{cap(t.who(before.get('step')))} draws a card", "draw", changed=ch)
        # the one who acted is the one to move (``seat`` is the dragon whose turn it is, or null between turns)
        mover = before.get("to_move")
        if mover == "chance":
            return line("Chance decides something you cannot see", "hidden", changed=ch)
        return line(f"{cap(t.who(mover))} does something you cannot see", "hidden", changed=ch)
    if before.get("to_move") == "chance":
        return _chance(t, before, action, after, ch)
    me = before.get("seat")
    who = cap(t.who(me))
    verb = action[0]
    ev = before.get("event") or {}
    if verb == "place":
        piece = ev.get("piece", "dragon")
        what = ("Baba Yaga's Hut" if piece == "hut" else "the thief's chest" if piece == "chest"
                else "its dragon" if ev.get("dragon") == me else t.who(ev.get("dragon")))
        return line(f"{who} places {what} at {action[1]}", changed=ch)
    if verb == "move":
        return line(f"{who} moves to {action[1]}", changed=ch)
    if verb in ("claim", "claim2"):
        keys = list(action[1:])
        if after.get("node") == "react":  # the claim waits for the other dragons' answers (cards)
            return line(f"{who} sets out to claim {listing([t.key(k) for k in keys])}", changed=ch)
        return line(f"{who} claims {listing([t.key(k) for k in keys])}", changed=ch,
                    facts=[fact(f"/claims/{k}", equals=me) for k in keys])
    if verb == "destroy":
        return line(f"{who} sets out to destroy {t.key(action[1])}: the Destroy chart decides", "battle",
                    changed=ch, group=f"destroy-{before.get('round')}-{me}-{after.get('actions_left')}")
    if verb == "steal":
        return line(f"{who} sets out to steal from {_steal_target(t, action[1])}: the Steal chart decides",
                    "battle", changed=ch, group=f"steal-{before.get('round')}-{me}-{after.get('actions_left')}")
    if verb == "attack":
        return line(f"{who} attacks {t.who(_seat_of_dragon(before, action[1]))}: opposed d20, ties to the defender",
                    "battle", changed=ch, group=f"attack-{before.get('round')}-{me}-{after.get('actions_left')}")
    if verb == "abandon":
        return line(f"{who} takes back its claim ring from {t.key(action[1])}", changed=ch,
                    facts=[fact(f"/claims/{action[1]}", exists=False)])
    if verb == "lose":
        return line(f"{who} loses its claim on {t.key(action[1])}", "battle", changed=ch,
                    facts=[fact(f"/claims/{action[1]}", exists=False)])
    if verb == "upgrade":
        return line(f"{who} upgrades the town at {action[1]} to a city", changed=ch)
    if node == "procreator" and verb in ("pass", "play"):
        # the last answer of the Pro-creator window places the settlement the dice (as they now stand) give
        text = (f"{who} keeps the settlement dice as rolled" if verb == "pass" else
                f"{who} plays {card_name(action[1])} ({' '.join(map(str, action[2:]))})")
        facts: list[dict[str, Any]] = []
        if after.get("node") != "procreator":
            d = before.get("dice") or []
            rolled = f"{d[0]},{d[1]}" if verb == "pass" and len(d) >= 2 else None
            text += f" — {settlement_outcome(t, before, after, rolled, facts)}"
        return line(text, "card", changed=ch, facts=facts)
    if verb == "choose":
        return line(f"{who} chooses the place of power to appear: {place_name(action[1])}", changed=ch,
                    group=f"populate-{before.get('round')}")
    if verb == "play":
        arg = " ".join(str(a) for a in action[2:])
        target = t.who(_seat_of_dragon(before, arg)) if arg in (before.get("dragons") or []) else arg
        return line(f"{who} plays {card_name(action[1])}" + (f" on {target}" if target else ""), "card",
                    changed=ch)
    if verb == "power":
        arg = " ".join(str(a) for a in action[2:])
        return line(f"{who} uses the power of {place_name(action[1])}" + (f" ({arg})" if arg else ""), "card",
                    changed=ch)
    if verb == "pass":
        if node == "react":
            ev_b = before.get("event") or {}
            if ev_b.get("type") == "claim" and after.get("node") != "react":  # the last answer: the claim is made
                by = ev_b.get("actor")
                done = [k for k in ev_b.get("targets") or [] if (after.get("claims") or {}).get(k) == by]
                if done:
                    return line(f"{who} lets it happen — {t.who(by)} claims {listing([t.key(k) for k in done])}",
                                "card", changed=ch, facts=[fact(f"/claims/{k}", equals=by) for k in done])
            return line(f"{who} lets it happen", "card", changed=ch)
        if node == "procreator":
            return line(f"{who} keeps the settlement dice as rolled", "card", changed=ch)
        return line(f"{who} plays no card", "card", changed=ch)
    if verb == "end":
        return line(f"{who} ends its turn", "turn", changed=ch)
    return line(f"{who}: {' '.join(map(str, action))}", changed=ch)


def _seat_of_dragon(view: Mapping[str, Any], dragon: Any) -> int:
    dragons = list(view.get("dragons") or [])
    return dragons.index(dragon) if dragon in dragons else -1


def _steal_target(t: Teller, target: Any) -> str:
    if isinstance(target, int):
        return f"{t.who(target)}'s cave"
    if str(target) in (t.before.get("dragons") or []):
        return f"{t.who(_seat_of_dragon(t.before, target))}'s cave"
    if target == "chest":
        return "the thief's chest"
    return t.key(target)


def _chance(t: Teller, before: Mapping[str, Any], action: Any, after: Mapping[str, Any],
            ch: list[str]) -> dict[str, Any]:
    verb = action[0]
    node = str(before.get("node"))
    ev = before.get("event") or {}
    k = before.get("step")
    rnd = before.get("round")
    if verb == "card":
        return line(f"{cap(t.who(k))} draws a card: {card_name(action[1])}", "draw", changed=ch)
    if verb == "token":
        s = ev.get("seat", k)
        return line(f"{cap(t.who(s))} draws a treasure token worth {plural(action[1], 'coin')}", "draw",
                    changed=ch, dice=[die(cap(t.who(s)), "token", plural(action[1], "coin"), value=action[1])])
    n = action[1]
    if node == "dragon_roll":
        got = (after.get("dragons") or [None] * (k + 1))[k] if isinstance(k, int) else None
        outcome = f"the {dragon_title(got)} dragon" if got else "roll again"
        return line(f"{cap(t.names[k] if isinstance(k, int) and k < len(t.names) else 'A seat')} rolls for a "
                    f"dragon: {n} — {outcome}", "dice", changed=ch,
                    dice=[die(t.names[k] if isinstance(k, int) and k < len(t.names) else "a seat", "d20", outcome,
                              value=n)])
    if node in TWO_DICE:
        return _location(t, before, node, n, after, ch)
    if node == "pop_roll":
        ev_after = after.get("event") or {}
        if ev_after.get("type") == "place_power":
            outcome = f"a place of power appears: {place_name(ev_after['place'])}"
        elif after.get("node") == "pop_choose":
            outcome = f"{t.who(after.get('seat'))} chooses which place of power appears"
        else:
            outcome = "no new place of power"
        return line(f"The populate roll: {n} — {outcome}", "dice", changed=ch, group=f"populate-{rnd}",
                    dice=[die("Populate", "d20", outcome, value=n)])
    if node == "roll":
        return _roll(t, before, ev, n, after, ch)
    return line(f"Chance: {' '.join(map(str, action))}", "dice", changed=ch)


def _location(t: Teller, before: Mapping[str, Any], node: str, n: int, after: Mapping[str, Any],
              ch: list[str]) -> dict[str, Any]:
    kind = TWO_DICE[node]
    k = before.get("step")
    rnd = before.get("round")
    ev = before.get("event") or {}
    what = {"cave": f"{t.who(k)}'s cave", "settle": "a new settlement", "chest": "the thief's chest",
            "pop": place_name(ev.get("place", "")) if ev.get("place") else "a place of power"}[kind]
    group = f"{kind}-{rnd}-{k}-{ev.get('place', '')}"
    if node.endswith("_x"):
        return line(f"{cap(what)}: column {n} (d20)", "dice", changed=ch, group=group,
                    dice=[die(cap(what), "d20", f"column {n}", value=n)])
    x = (before.get("dice") or [0])[0]
    where = f"{x},{n}"
    facts: list[dict[str, Any]] = []
    if kind == "settle":
        outcome = settlement_outcome(t, before, after, where, facts)
    elif kind == "chest":
        outcome = (f"it lands at {after.get('chest')} with {plural(after.get('chest_coins', 0), 'coin')}"
                   if after.get("chest") else f"no room at {where}")
    elif kind == "cave":
        caves, home = after.get("caves") or [], after.get("home") or []
        spot = (caves[k] if isinstance(k, int) and k < len(caves) and caves[k] else
                home[k] if isinstance(k, int) and k < len(home) else None)
        outcome = f"it is at {spot}" if spot else f"no room at {where}: roll again"
    else:
        pid = ev.get("place")
        spot = (after.get("places") or {}).get(pid) if pid else None
        outcome = f"it appears at {spot}" if spot else f"no room at {where}: roll again"
    return line(f"{cap(what)}: row {n} (d20) — {outcome}", "dice", changed=ch, group=group,
                dice=[die(cap(what), "d20", outcome, value=n)], facts=facts or None)


def settlement_outcome(t: Teller, before: Mapping[str, Any], after: Mapping[str, Any], where: str | None,
                       facts: list[dict[str, Any]]) -> str:
    """What the settlement dice did, read from the board before and after (never "nothing is built" while a
    settlement appears): new towns or cities, a town become a city, the choice or the Pro-creator window still
    to come, or a square with no room (the dice are rolled again). ``facts`` gets what the sentence says."""
    sb, sa = before.get("settlements") or {}, after.get("settlements") or {}
    made = []
    for s in changed_keys(sb, sa):
        if s in sa and s not in sb:
            made.append(f"a {sa[s]} at {s}")
        elif s in sa:
            made.append(f"the {sb[s]} at {s} becomes a {sa[s]}")
        if s in sa:
            facts.append(fact(f"/settlements/{s}", equals=sa[s]))
    if made:
        return listing(made)
    nxt = after.get("node")
    dice = after.get("dice") or []
    at = where or (f"{dice[0]},{dice[1]}" if len(dice) >= 2 and dice[0] and dice[1] else "the square the dice give")
    if nxt == "procreator":
        return f"the dice say {at}; the dragons holding a card may change them first (Pro-creator)"
    if nxt == "upgrade":
        return f"a city: {t.who(after.get('to_move'))} chooses which town beside {at} becomes one"
    if nxt == "settle_x":
        return f"no room at {at}: the dice are rolled again"
    if where:
        facts.append(fact(f"/settlements/{where}", exists=False))
    return f"nothing is built at {at}"


def _roll(t: Teller, before: Mapping[str, Any], ev: Mapping[str, Any], n: int, after: Mapping[str, Any],
          ch: list[str]) -> dict[str, Any]:
    typ = ev.get("type")
    mod = int(ev.get("mod", 0) or 0)
    shown = f"{n}" + (f" {'+' if mod > 0 else '-'} {abs(mod)}" if mod else "")
    rnd = before.get("round")
    if typ == "tribute":
        s = int(ev["seat"])
        got = t.coins_gained(s)
        outcome = plural(got, "coin") if got is not None else "its tribute"
        lost = [k for k in changed_keys(before.get("claims"), after.get("claims"))
                if (before.get("claims") or {}).get(k) == s and k not in (after.get("claims") or {})]
        if lost:
            outcome += f", and it loses {listing([t.key(k) for k in lost])}"
        return line(f"{cap(t.who(s))} collects tribute: roll {shown} — {outcome}", "dice", changed=ch,
                    dice=[die(cap(t.who(s)), "d20", outcome, value=n)],
                    facts=[fact(f"/claims/{k}", exists=False) for k in lost] or None)
    actor = int(ev.get("actor", -1))
    who = cap(t.who(actor))
    if typ == "attack":
        d = int(ev.get("defender", -1))
        group = f"attack-{rnd}-{actor}-{before.get('actions_left')}"
        if "first" not in ev:
            return line(f"{who} rolls {shown} to attack {t.who(d)}", "dice", changed=ch, group=group,
                        dice=[die(who, "d20", "to beat", value=n)])
        first = int(ev["first"]) + mod
        won = first > n
        outcome = f"{t.who(actor) if won else t.who(d)} wins"
        gains = [f"{t.who(s)} {'gains' if g > 0 else 'loses'} {plural(abs(g), 'coin')}"
                 for s in (actor, d) if (g := t.coins_gained(s))]
        text = f"{cap(t.who(d))} rolls {n} against {first}: {outcome}" + (f" ({listing(gains)})" if gains else "")
        return line(text, "dice", changed=ch, group=group, dice=[die(cap(t.who(d)), "d20", outcome, value=n,
                                                                     need=f"{first} or more")])
    if typ == "steal":
        got = t.coins_gained(actor)
        outcome = plural(got, "coin") if got else "nothing"
        return line(f"{who} steals from {_steal_target(t, ev.get('from'))}: roll {shown} — {outcome}", "dice",
                    changed=ch, group=f"steal-{rnd}-{actor}-{before.get('actions_left')}",
                    dice=[die(who, "d20", outcome, value=n)])
    if typ == "destroy":
        target = ev.get("target")
        sb, sa = before.get("settlements") or {}, after.get("settlements") or {}
        cb, ca = before.get("claims") or {}, after.get("claims") or {}
        # read from the board: a settlement changed (ruined or removed) or a place of power removed; a claim ring
        # sent home leaves the target standing
        gone = (sa.get(target) != sb.get(target)) if target in sb else (
            target in (before.get("places") or {}) and target not in (after.get("places") or {}))
        outcome = ("destroyed" + (f" — now {t.key(target, after)}" if target in sa else "")) if gone else "it stands"
        if not gone and target in cb and target not in ca:
            outcome += f", and {t.who(cb[target])}'s claim ring goes home"
        if target in sb:  # a settlement: gone, a ruin now, or standing as it was
            facts = [fact(f"/settlements/{target}", equals=sa[target]) if target in sa and gone else
                     fact(f"/settlements/{target}", exists=False) if gone else
                     fact(f"/settlements/{target}", equals=sb[target])]
        else:  # a place of power
            facts = [fact(f"/places/{target}", exists=not gone)]
        if not gone and target in cb and target not in ca:
            facts.append(fact(f"/claims/{target}", exists=False))
        return line(f"{who} tries to destroy {t.key(target)}: roll {shown} — {outcome}", "dice", changed=ch,
                    group=f"destroy-{rnd}-{actor}-{before.get('actions_left')}",
                    dice=[die(who, "d20", outcome, value=n)], facts=facts)
    return line(f"Roll {shown}", "dice", changed=ch, dice=[die("chance", "d20", str(n), value=n)])
