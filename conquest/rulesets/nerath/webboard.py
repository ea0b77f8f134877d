"""The Nerath board for the web app, built from ``view(seat)`` only: one label per space, realm colours, pieces
drawn by kind (a shape and a letter with the count), Castles, capitals, dungeon entrances and their Guardians
as icons; one panel per seat (realms, gold, VP, cards, the alliance and the victory target); and the rules help
(piece kinds, Guardians, Event and Treasure cards, action verbs) from the data files the rules read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import conquest.rulesets.nerath.notation as notation
from conquest.core.game import json_copy
from conquest.core.helptext import verbs_from_docstring
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.cardtext import (  # noqa: F401
    ABILITY,
    EFFECT,
    PIECE_ICON,
    REALM_COLOR,
    REALM_NAME,
    WHEN,
    card_effect,
    card_text,
)
from conquest.rulesets.nerath.data import REALMS, guardian_tiles, tables
from conquest.rulesets.nerath.state import CAPITAL, IDS, LENGTH_VP, TREASURES_TO_WIN, seating


def help_terms() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for pid, p in tables().pieces.items():
        ab = ", ".join(ABILITY.get(a, a.replace("_", " ")) for a in p.abilities)
        letter = PIECE_ICON.get(pid, ("?", ""))[0]
        out[f"piece:{pid}"] = {"kind": "piece", "name": f"{p.name} ({letter})",
                               "text": f"{p.type}; costs {p.cost} gold; attacks with a d{p.die}; moves {p.move}"
                               + (f"; {ab}" if ab else "")}
    for gid, g in guardian_tiles().items():
        extra = [s for s, on in (("strikes first", g.first_strike),
                                 (f"Heroes hit it only on {g.heroes_need}+", g.heroes_need),
                                 (f"{g.reward} gold reward", g.reward)) if on]
        out[f"guardian:{gid}"] = {"kind": "guardian", "name": g.name,
                                  "text": "attacks with " + " + ".join(f"d{d}" for d in g.dice)
                                  + (f"; {', '.join(extra)}" if extra else "")}
    for cid, c in event_cards().items():
        out[f"event:{cid}"] = {"kind": "event card", "name": c["name"],
                               "text": card_effect(cid) + f" ({REALM_NAME.get(c.get('realm', ''), '')} deck)"}
    for cid, c in treasure_cards().items():
        out[f"treasure:{cid}"] = {"kind": "treasure card", "name": c["name"], "text": card_effect(cid)}
    for v, text in verbs_from_docstring(notation.__doc__).items():
        out[f"verb:{v}"] = {"kind": "action", "name": v, "text": text}
    return out


def _card_names(cards: Any, table: dict[str, dict[str, Any]]) -> str:
    if isinstance(cards, int):
        return f"{cards} face down" if cards else "none"
    return ", ".join(table[c]["name"] if c in table else c for c in cards) or "none"


def _card_help(cards: Any) -> str | None:
    """The tooltip of a hand: each card's name, what it does and when it can be played, one a line."""
    if isinstance(cards, int) or not cards:
        return None
    return "\n".join(card_text(c) for c in cards)


def _anchor_labels(board_map: dict[str, Any]) -> None:
    """Each space's name, pieces and icons go on its own hex nearest its middle (the centre of a sea that
    surrounds an island can fall on the island)."""
    for r in board_map["regions"]:
        if "label_at" in r:
            continue
        mids = [(sum(p[0] for p in h) / 6, sum(p[1] for p in h) / 6)
                for h in (_hex(x, y) for x, y in r["attrs"]["cells"])]
        mx, my = sum(p[0] for p in mids) / len(mids), sum(p[1] for p in mids) / len(mids)
        best = min(mids, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
        r["label_at"] = [round(best[0], 2), round(best[1], 2)]


def board_json(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    board_map = board_map_json()
    _anchor_labels(board_map)
    players = int(view.get("players", 4))
    opts = view["options"]
    seat_of, team = seating(players, opts["mode"], opts["three_player"])
    colors = [REALM_COLOR[REALMS[seat_of.index(t)]] for t in range(players)]
    regions = _regions(view, seat_of)
    # the alliances and the victory target
    sides: dict[int, list[str]] = {}
    for ri, realm in enumerate(REALMS):
        sides.setdefault(team[ri], []).append(realm)
    length = opts["length"]

    def target(t: int) -> str:
        alone = len(sides[t]) == 1
        if length in LENGTH_VP:
            return f"{LENGTH_VP[length][0 if alone else 1]} VP"
        return f"all four capitals or {TREASURES_TO_WIN[0 if alone else 1]} Treasures"

    panels = _panels(view, players, seat_of, team, sides, target)
    legend = [{"icon": PIECE_ICON[p][0], "shape": PIECE_ICON[p][1], "fill": "#555", "text": tables().pieces[p].name,
               "help": help_terms()[f"piece:{p}"]["text"]} for p in PIECE_ICON if p != "castle"]
    legend += [{"icon": "C", "text": "Castle"}, {"icon": "★", "text": "capital"},
               {"icon": "G2", "text": "dungeon entrance (Guardians left)"}]
    legend += [{"text": f"{REALM_NAME[r]}", "shape": "square", "fill": REALM_COLOR[r], "icon": ""} for r in REALMS]
    side_text = "; ".join(" + ".join(REALM_NAME[x] for x in xs) + f" (to win: {target(tm)})"
                          for tm, xs in sorted(sides.items()))
    notes = [f"Round {view['round']}: {REALM_NAME.get(view['realm'], view['realm'])}, {view['phase']} step.",
             f"Sides: {side_text}."]
    # a Move step entered as a player thinks: the space, the pieces (a count per kind), the destination;
    # the page turns it into one `move FROM TO PIECE N` per kind
    compose = None
    if view.get("phase") == "move" and view.get("movable"):
        compose = {"verb": "move", "template": "move {from} {to} {kind} {n}", "counts": view["movable"],
                   "names": {k: p.name for k, p in tables().pieces.items()}}
    # names and counts at a size in pixels (board.js legibleLayout); a phone opens on the seat's own realm
    mine = {REALMS[r] for r in range(4) if seat is not None and seat_of[r] == seat}
    focus = sorted(rid for rid, owner in view["control"].items() if owner in mine)
    # the view box: the spaces' anchors and half a hex around (the open sea beyond the outer hexes is cut)
    xs = [r["label_at"][0] for r in board_map["regions"]]
    ys = [r["label_at"][1] for r in board_map["regions"]]
    box = [min(xs) - 6.5, min(ys) - 6.5, max(xs) - min(xs) + 13, max(ys) - min(ys) + 13]
    legible = {"name_px": NAME_PX, "count_px": COUNT_PX, "unit_px": UNIT_PX, "focus": focus or None,
               "viewbox": [round(v, 2) for v in box]}
    return {"kind": "nerath", "map": board_map, "regions": regions, "colors": colors, "panels": panels,
            "legend": legend, "notes": notes, "help": help_terms(), "compose": compose, "legible": legible,
            "prompt": prompt(view, seat), "notation": "title", "layout": "large"}


def _regions(view: dict[str, Any], seat_of: tuple[int, ...]) -> dict[str, dict[str, Any]]:
    """Each space of the board: its controller, the pieces and Warships on it, a Castle, a capital's ring, a
    dungeon's Guardians, the battles declared there."""
    m = tables().board.map
    regions: dict[str, dict[str, Any]] = {rid: {"pieces": [], "markers": [], "icons": []} for rid in IDS}
    for rid, owner in view["control"].items():
        regions[rid]["owner"] = seat_of[REALMS.index(owner)]
        regions[rid]["color"] = REALM_COLOR[owner]
        regions[rid]["label"] = REALM_NAME[owner]
        regions[rid]["hideLabel"] = True
    for rid, by_realm in view["pieces"].items():
        for realm, row in by_realm.items():
            for piece, c in row.items():
                icon, shape = PIECE_ICON.get(piece, ("?", "circle"))
                regions[rid]["pieces"].append({"seat": seat_of[REALMS.index(realm)], "color": REALM_COLOR[realm],
                                               "kind": f"{tables().pieces[piece].name}{'s' if c > 1 else ''}"
                                               f" ({REALM_NAME[realm]})",
                                               "count": c, "icon": icon, "shape": shape, "help": f"piece:{piece}"})
    for sid, sh in view["ships"].items():
        cargo = "+".join(sh["cargo"])
        regions[sh["space"]]["pieces"].append({"seat": seat_of[REALMS.index(sh["owner"])],
                                               "color": REALM_COLOR[sh["owner"]], "icon": "B", "shape": "square",
                                               "kind": f"Warship {sid} ({REALM_NAME[sh['owner']]})"
                                               + (f" carrying {cargo}" if cargo else ""), "count": 1})
    for rid in view["castles"]:
        regions[rid]["icons"].append({"icon": "C", "key": "castle", "title": "Castle: new pieces are bought here"})
    for c in CAPITAL:
        regions[IDS[c]]["icons"].append({"icon": "★", "key": "capital", "title": "capital"})
        regions[IDS[c]]["ring"] = "#c9a227"  # a capital keeps a gold ring, whoever holds it
    tiles = guardian_tiles()
    for r in m.regions:
        if r.kind == "dungeon":
            regions[r.id]["fill"] = "#a1887f"
            gs = view["guardians"].get(r.id) or []
            names = ", ".join((tiles[g["tile"]].name if g.get("tile") in tiles else "a face-down Guardian")
                              + (f" (dice {g['dice']})" if g.get("face_up") else "") for g in gs)
            regions[r.id]["icons"].append({"icon": f"G{len(gs)}" if gs else "∅", "key": "dungeon",
                                           "title": f"dungeon entrance: {names or 'no Guardian left'}"})
    for rid in view["battles"]:
        regions[rid]["markers"].append("battle declared")
    if view.get("battle"):
        regions[view["battle"]["space"]]["markers"].append("battle!")
    return regions


def _panels(view: dict[str, Any], players: int, seat_of: tuple[int, ...], team: tuple[int, ...],
            sides: dict[int, list[str]], target: Callable[[int], str]) -> list[dict[str, Any]]:
    """Each seat's panel: its realms' VP, gold and cards in hand, its allies and its side's victory target."""
    events = event_cards()
    treasures = treasure_cards()
    length = view["options"]["length"]
    panels = []
    for t in range(players):
        realms = [REALMS[r] for r in range(4) if seat_of[r] == t]
        tm = team[REALMS.index(realms[0])]
        allies = [REALM_NAME[x] for x in sides[tm] if x not in realms]
        panels.append({
            "seat": t, "title": " & ".join(REALM_NAME[x] for x in realms),
            "score": [[f"{REALM_NAME[x]} VP", view["vp"][x], None] for x in realms]
            + [[f"{REALM_NAME[x]} gold", view["gold"][x], None] for x in realms],
            "holds": [[f"{REALM_NAME[x]} events", _card_names(view["event_hands"][x], events),
                       _card_help(view["event_hands"][x])] for x in realms]
            + [[f"{REALM_NAME[x]} treasures", _card_names(view["treasure_hands"][x], treasures),
                _card_help(view["treasure_hands"][x])] for x in realms],
            "badges": ([[f"allied with {', '.join(allies)}", "allies share victory: their VP are added"]]
                       if allies else [])
            + [[f"wins at {target(tm)}", "the victory target of this side (option length: " + length + ")"]]})
    return panels


def prompt(view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The question the seat to move answers, in the game's words (None when it is not this seat's move):
    {text, hits?}; a casualty choice gives the hits left and the battle's log group, and the page counts the
    roll's hits from the log into "{total}" and "{nth}" ("3 hits to take: choose 1 of 3")."""
    if seat is None or view.get("to_move") != seat:
        return None
    text = _prompt(view)
    if text is None:
        return None
    b = view.get("battle") or {}
    if b.get("step") == "assign" and b.get("queue") and b["queue"][0][0] != "guardians":
        from conquest.rulesets.nerath.narrate import battle_key
        r, left = b["queue"][0]
        return {"text": text, "hits": {"left": left, "group": battle_key(view, b["space"]),
                                       "side": "defender" if r == b["attacker"] else "attacker"}}
    return {"text": text}


def _prompt(view: dict[str, Any]) -> str | None:
    from conquest.core.narration import listing, plural
    from conquest.rulesets.nerath.narrate import acting_realm, army, cap, realm_name, sides, space_name
    me = acting_realm(view)
    b = view.get("battle")
    if b:
        where = space_name(b["space"])
        att, defs = b["attacker"], list(b.get("defenders") or [])
        foes = listing([realm_name(r) for r in defs]) or "the Guardians"
        step = b.get("step")
        if step == "assign" and b.get("queue"):
            r, left = b["queue"][0]
            if r == "guardians":
                return (f"{cap(realm_name(att))} scored hits on the Guardians in {where}: "
                        f"choose which Guardian loses a die ({plural(left, 'hit')} still to take)")
            scorer = foes if r == att else realm_name(att)
            # the page knows the roll (its log): "{total}" and "{nth}" are filled there (game.js promptText)
            return (f"{cap(scorer)} scored {{total}} on you in {where}: choose your casualties, one at a time "
                    f"({{total}} to take: choose {{nth}})")
        if step == "choose":
            h = b.get("split_hits", 0)
            how = "choose which of them takes it" if h == 1 else "split the hits between them"
            return (f"{cap(realm_name(att))} scored {plural(h, 'hit')} on {foes} in {where}: you play both, so "
                    f"{how} (each realm then chooses its casualties)")
        if step == "press":
            s = sides(view, b["space"])
            mine = army(s.get(att, {})) or "no pieces"
            theirs = listing([f"{realm_name(r)} with {army(p)}" for r, p in s.items() if r != att])
            theirs = theirs or listing([str(t).replace("-", " ").title() for t in b.get("guardian_tiles") or []]) \
                or "the Castle"
            return (f"Battle in {where}, after round {b.get('round')}: your {mine} against {theirs}. "
                    f"Press on for another round, or retreat? (the odds of pressing on are below)")
        if step == "window":
            kind = b.get("window_kind")
            moment = {"battle": f"Before the battle in {where}", "roll": f"Your side has rolled in {where}",
                      "damage": f"You are about to take hits in {where}"}.get(kind, f"In the battle in {where}")
            return f"{moment}: play one of these cards now, or none?"
        if step == "withdraw":
            return f"You retreat from {where}: choose where each retreating piece goes"
        if step == "amok":
            return f"Your Monster won in {where}: it may run amok into a next enemy space, or stop"
        if step == "landing":
            return f"The sea battle in {where} is won: land the pieces your Warships carry, or stop landing"
    react = view.get("reaction")
    if react:
        mover = cap(realm_name(react.get("mover")))
        if react.get("kind") == "income":
            return f"{mover} collects its income: play a card now, or none?"
        at = f" {space_name(react['space'])}" if react.get("space") else " a space of yours"
        return f"{mover} moves into{at}: play a card now, or none?"
    phase = view.get("phase")
    gold = (view.get("gold") or {}).get(me)
    if phase == "move":
        return ("Move step: click a space with your pieces, set how many, then click where they go; moving into an "
                "enemy space declares a battle there. End the step when you are done.")
    if phase == "fight":
        n = len(view.get("battles") or [])
        return f"Fight Battles step: choose the next battle to fight ({plural(n, 'battle')} declared)."
    if phase == "reposition":
        kinds = tables().board.map
        dungeons = [sp for sp in (view.get("movable") or {}) if sp in kinds.by_id and kinds.by_id[sp].kind == "dungeon"]
        if dungeons:
            return (f"Reposition step: your Heroes in {listing([space_name(d) for d in dungeons])} have plundered "
                    f"the dungeon and must leave it: choose the exit (a friendly land space next to it, or a "
                    f"Warship of yours next to it).")
        return ("Reposition step: your flying pieces may move to a friendly space within their Move; "
                "then end the step.")
    if phase == "reinforce":
        return (f"Reinforce step: you have {gold} gold. Buy pieces (in the spaces of your Castles; Warships in a sea "
                f"next to one), then end the step to collect your income.")
    return None


NAME_PX, COUNT_PX = 11, 12  # the smallest space name and piece count drawn, in pixels
UNIT_PX = 6.4  # pixels per board unit (a hex is 10 units wide) at which the names fit their spaces


# ---- the hex outlines of the spaces
_HEX_R = 10 / 3 ** 0.5


def _hex(x: int, y: int) -> list[tuple[float, float]]:
    import math
    cx, cy = (x + 0.5 * (y % 2)) * 10 + 5, y * 1.5 * _HEX_R + 5
    return [(round(cx + _HEX_R * math.cos(math.radians(60 * k - 30)), 2),
             round(cy + _HEX_R * math.sin(math.radians(60 * k - 30)), 2)) for k in range(6)]


def _outline(cells: list[list[int]]) -> list[list[float]]:
    """The outline of a set of hex cells: the edges not shared by two of them, chained; the longest ring."""
    best = max(_rings(cells), key=len)
    return [[a, b] for a, b in best]


def _parts(cells: list[list[int]]) -> list[list[list[float]]]:
    """The outlines of the cells apart from the longest ring (a sea's hex that touches the rest only at a
    corner), not its holes (the islands in it)."""
    rings = _rings(cells)
    best = max(rings, key=len)

    def inside(p: tuple[float, float]) -> bool:
        hit = False
        for a, b in zip(best, best[1:] + best[:1]):
            if (a[1] > p[1]) != (b[1] > p[1]) and p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]):
                hit = not hit
        return hit
    return [[[a, b] for a, b in ring] for ring in rings
            if ring is not best
            and not inside((sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring)))]


def _rings(cells: list[list[int]]) -> list[list[tuple[float, float]]]:
    """The outlines of a set of hex cells: the edges not shared by two of them, chained into rings."""
    count: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
    for x, y in cells:
        h = _hex(x, y)
        for k in range(6):
            a, b = h[k], h[(k + 1) % 6]
            key = (a, b) if a < b else (b, a)
            count[key] = count.get(key, 0) + 1
    nxt: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for (a, b), c in count.items():
        if c == 1:
            nxt.setdefault(a, []).append(b)
            nxt.setdefault(b, []).append(a)
    rings: list[list[tuple[float, float]]] = []
    seen: set[tuple[float, float]] = set()
    for start in sorted(nxt):
        if start in seen:
            continue
        ring = [start]
        seen.add(start)
        prev, cur = None, start
        while True:
            options = [p for p in nxt[cur] if p != prev and (p not in seen or p == start)]
            if not options:
                break
            prev, cur = cur, options[0]
            if cur == start:
                break
            ring.append(cur)
            seen.add(cur)
        rings.append(ring)
    return rings


_MAP_CACHE: dict[str, Any] = {}


def board_map_json() -> dict[str, Any]:
    if not _MAP_CACHE:
        m = tables().board.map.to_json()
        for r in m["regions"]:
            r["polygon"] = _outline(r["attrs"]["cells"])
            parts = _parts(r["attrs"]["cells"])
            if parts:
                r["parts"] = parts  # drawn with the polygon (Eastern Reach's hex beside Anvil Hills)
        _MAP_CACHE.update(m)
    out: dict[str, Any] = json_copy(_MAP_CACHE)
    return out  # a copy: a caller who edits it never edits the cache
