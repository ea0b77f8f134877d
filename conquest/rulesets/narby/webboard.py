"""The Narby board for the web app, built from ``view(seat)`` only: the 20x20 squares (each one a clickable
region ``"x,y"``), settlements and claims, caves, dragons over their 2x2 footprint, places of power, the
thief's chest; one panel per seat; and the rules help (dragons, places of power, cards, action verbs) taken
from the tables the rules read (``tables.yaml``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.tables import TABLES as T

# the dragons' colours (tables.yaml "color") as drawn; white and grey darkened so white letters stay readable
CSS = {"White": "#9e9e9e", "Black": "#212121", "Green": "#2e7d32", "Blue": "#1565c0", "Red": "#c62828",
       "Purple": "#6a1b9a", "Grey": "#546e7a", "Yellow": "#c79100", "Copper": "#a0522d", "Orange": "#ef6c00"}
SEAT_DEFAULT = ["#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#795548", "#ad1457",
                "#9e9d24", "#37474f"]
SETTLEMENT_ICON = {"town": ("t", "town: 1 claim ring; tribute from the Tribute Chart"),
                   "city": ("C", "city: tribute from the Tribute Chart (more than a town)"),
                   "ruin": ("r", "ruin: what is left of a destroyed settlement")}
# what each verb of the notation does (the action list and the rules help read the same text)
VERBS = {
    "end": "end this dragon's turn",
    "pass": "do nothing",
    "move": "move the dragon (1 action)",
    "claim": "put a claim ring on a settlement, square or place of power (1 action; 2 to take another's claim)",
    "claim2": "Citadel of Torture: claim both (1 action)",
    "destroy": "roll on the Destroy chart (1 action)",
    "steal": "roll on the Steal chart (1 action)",
    "attack": "opposed d20, ties to the defender (1 action)",
    "abandon": "take back a claim ring (1 action)",
    "play": "play the bonus card in hand",
    "power": "use the power of a place of power you claimed",
    "place": "put a piece (a dragon, the chest, Baba Yaga's Hut) on the square chosen",
}
_POWER_TEXT = {"no_destroy_settlements": "cannot destroy settlements",
               "city_tribute_bonus": "a bonus on city tribute",
               "double_town_tribute": "double tribute from towns",
               "no_home_cave": "has no home cave (its home is the Immortals Resting Place)"}
PLACE_LETTERS = "ABEFGHIJKLMNOP"  # as the text board letters them


def help_terms() -> dict[str, dict[str, str]]:
    """Every dragon, place of power, card and verb with its text, from the tables."""
    out: dict[str, dict[str, str]] = {}
    for d in T.dragons:
        extra = "; ".join(_POWER_TEXT.get(p, p.replace("_", " ")) for p in d.powers)
        out[f"dragon:{d.id}"] = {"kind": "dragon", "name": f"{d.name} dragon",
                                 "text": f"d20 digit {d.digit}; {d.rings} claim rings"
                                 + (f"; {extra}" if extra else "")}
    for p in T.places:
        out[f"place:{p.id}"] = {"kind": "place of power", "name": p.name,
                                "text": p.power + (f". Claimed: {p.control}" if p.control else "")}
    for c in T.cards:
        out[f"card:{c.id}"] = {"kind": "card", "name": c.name,
                               "text": c.text + (" (your own turn)" if c.timing == "own_turn"
                                                 else f" ({c.timing.replace('_', ' ')})")}
    for v, text in VERBS.items():
        out[f"verb:{v}"] = {"kind": "action", "name": v, "text": text}
    return out


def where(key: str) -> str:
    """A square as a player reads it on the labelled grid: "column 10, row 9" (the notation writes 10,9)."""
    x, y = key.split(",")
    return f"column {x}, row {y}"


def _map() -> dict[str, Any]:
    regions = [{"id": B.sq_text(q), "name": where(B.sq_text(q)), "cell": [q % B.N, q // B.N], "kind": "empty"}
               for q in range(B.SQUARES)]
    # the grid's column numbers above it and row numbers on its left, as squares are written (column, row)
    axes = {"cols": [[i + 0.5, str(i + 1)] for i in range(B.N)], "rows": [[i + 0.5, str(i + 1)] for i in range(B.N)],
            "size": 0.5, "col_y": -0.3, "row_x": -0.5}
    return {"id": "narby", "name": "Narby, 20 × 20", "labels": False, "regions": regions, "axes": axes}


def board_json(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    players = int(view["players"])
    dragons = view["dragons"]
    colors = [CSS[T.dragons[T.dragon_index[d]].color] if d else SEAT_DEFAULT[t % len(SEAT_DEFAULT)]
              for t, d in enumerate(dragons)]

    def who(t: int) -> str:
        return f"the {T.dragons[T.dragon_index[dragons[t]]].name} dragon" if dragons[t] else f"Seat {t + 1}"

    regions = _squares(view, colors, who)
    overlays, aliases = _overlays(view, regions, colors, who)
    panels = _panels(view, players, who)
    legend = [{"icon": "t", "text": "town"}, {"icon": "C", "text": "city"}, {"icon": "r", "text": "ruin"},
              {"icon": "c", "text": "cave", "fill": "#795548"},
              {"icon": "D1", "text": f"dragon (2×2): D1 is {who(0)}", "shape": "circle", "fill": colors[0]},
              {"icon": "A", "text": "place of power (2×2)", "shape": "square", "fill": "#5d4037"},
              {"icon": "$", "text": f"thief's chest ({view['chest_coins']} coins)", "shape": "square",
               "fill": "#c79100"},
              {"text": "tinted square: claimed (claimant's colour)"}]
    used = set(view.get("powers_used", []))
    notes = [f"Round {view['round']}, {view['phase']} phase" +
             (f"; {who(view['seat'])} has {view['actions_left']} action(s) left" if view.get("seat") is not None
              and view["phase"] == "action" else "") + f". Win: more than {view['options']['win']} coins."
             + " Squares are written column, row."]
    for pid in view["places"]:
        p = T.places[T.place_index[pid]]
        notes.append(f"{PLACE_LETTERS[T.place_index[pid]]}: {p.name} — {p.power}"
                     + (" (used this round)" if pid in used else ""))
    terms = help_terms()
    shown = {k: v for k, v in terms.items() if k.startswith(("card:", "verb:"))
             or (k.startswith("dragon:") and k[7:] in dragons) or (k.startswith("place:") and k[6:] in view["places"])}
    return {"kind": "narby", "map": _map(), "regions": regions, "overlays": overlays, "aliases": aliases,
            "colors": colors, "panels": panels, "legend": legend, "notes": notes, "help": shown,
            "question": question(view, seat, who)}


def _squares(view: dict[str, Any], colors: list[str], who: Callable[[int], str]) -> dict[str, Any]:
    """Each square of the board: its fill, the settlement on it, its claimant, a cave or an Undead home."""
    regions: dict[str, Any] = {}
    for q in range(B.SQUARES):
        x, y = q % B.N, q // B.N
        regions[B.sq_text(q)] = {"pieces": [], "markers": [], "icons": [],
                                 "fill": "#efe6cf" if (x + y) % 2 else "#e8dcc0"}
    claims = view["claims"]
    for key, kind in view["settlements"].items():
        icon, text = SETTLEMENT_ICON[kind]
        o = claims.get(key, -1)
        cell = regions[key]
        cell["icons"].append({"icon": icon, "key": kind, "title": text,
                              "fill": "#fff8e1" if kind != "ruin" else "#d7ccc8"})
        cell["name"] = f"{kind} at {where(key)}"
    for key, o in claims.items():
        if key in regions:
            regions[key]["owner"] = o
            regions[key]["markers"].append(f"claimed by {who(o)}")
    for t, c in enumerate(view["caves"]):
        if c:
            regions[c]["icons"].append({"icon": "c", "key": "cave", "title": f"the cave of {who(t)}",
                                        "fill": colors[t], "color": "#fff"})
            regions[c]["name"] = f"cave of {who(t)} at {where(c)}"
    for t, hsq in enumerate(view.get("home", [])):
        if hsq and not view["caves"][t]:
            regions[hsq]["icons"].append({"icon": "h", "key": "home", "title": f"the home of {who(t)} (Undead)",
                                          "fill": colors[t], "color": "#fff"})
    return regions


def _overlays(view: dict[str, Any], regions: dict[str, Any], colors: list[str],
              who: Callable[[int], str]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The pieces drawn over the squares (the places of power, the thief's chest, the dragons) and the names
    that stand for a square in the notation ("attack red" is clicked on the red dragon's square)."""
    claims = view["claims"]
    dragons = view["dragons"]
    overlays: list[dict[str, Any]] = []
    aliases: dict[str, str] = {}
    for pid, anchor in view["places"].items():
        i = T.place_index[pid]
        p = T.places[i]
        ax, ay = (int(v) for v in anchor.split(","))
        o = claims.get(pid, -1)
        aliases[pid] = anchor
        overlays.append({"kind": "place", "x": ax - 1, "y": ay - 1, "w": 2, "h": 2, "label": PLACE_LETTERS[i],
                         "fill": "#5d4037", "stroke": colors[o] if o >= 0 else "#222", "opacity": 0.75,
                         "title": f"{p.name} (place of power){', claimed by ' + who(o) if o >= 0 else ''}",
                         "help": f"place:{pid}"})
        for dx in (0, 1):
            for dy in (0, 1):
                regions[B.sq_text(B.sq(ax + dx, ay + dy))]["name"] = p.name
    if view.get("chest"):
        aliases["chest"] = view["chest"]  # "steal chest" is clicked on the chest
        cx, cy = (int(v) for v in view["chest"].split(","))
        overlays.append({"kind": "chest", "x": cx - 1 + 0.15, "y": cy - 1 + 0.15, "w": 0.7, "h": 0.7, "label": "$",
                         "fill": "#c79100", "round": 0.1, "text": "#3b2a14",
                         "title": f"the thief's treasure chest: {view['chest_coins']} coins"})
    for t, a in enumerate(view["dragon_at"]):
        if a:
            ax, ay = (int(v) for v in a.split(","))
            d = dragons[t]
            if d:
                aliases[d] = a  # "attack red", "play robber red": clicked on that dragon's square
            overlays.append({"kind": "dragon", "x": ax - 1, "y": ay - 1, "w": 2, "h": 2, "seat": t, "round": 0.9,
                             "label": f"D{t + 1}", "opacity": 0.88,
                             "title": f"{who(t)} (columns {ax}–{ax + 1}, rows {ay}–{ay + 1})",
                             "help": f"dragon:{d}" if d else None})
    return overlays, aliases


def _panels(view: dict[str, Any], players: int, who: Callable[[int], str]) -> list[dict[str, Any]]:
    """Each seat's panel: its dragon, coins, tribute tokens, rings left, card in hand and places of power."""
    dragons = view["dragons"]
    claims = view["claims"]
    panels = []
    for t in range(players):
        d = dragons[t]
        hand = view["hands"][t]
        if hand and hand != "hidden":
            card = T.cards[T.card_ids.index(hand)]
            holds: list[list[Any]] = [["card", card.name, card.text]]
        else:
            holds = [["card", "one, face down" if hand == "hidden" else "none", None]]
        places = [T.places[T.place_index[k]] for k, o in claims.items() if o == t and k in T.place_index]
        panels.append({"seat": t, "title": f"{T.dragons[T.dragon_index[d]].name} dragon" if d else "",
                       "score": [["coins", view["coins"][t], "coins in the hoard; the game ends when one exceeds "
                                  f"{view['options']['win']}"],
                                 ["tokens", f"{view['tokens'][t]} ({view['token_count'][t]})", "tribute tokens"]],
                       "holds": [["rings left", view["rings_left"][t], "claim rings not yet on the board"], *holds],
                       "badges": [[p.name, p.power] for p in places]})
    return panels


def question(view: dict[str, Any], seat: int | None, who: Any) -> str | None:
    """What the seat to move is asked now, naming the event it answers (shown above its actions)."""
    if seat is None or view.get("to_move") != seat:
        return None
    node = view.get("node")
    ev = view.get("event") or {}
    if node == "procreator":
        x, y = (view.get("dice") or [0, 0])[:2]
        return (f"A new settlement was rolled at column {x}, row {y}. Play Pro-creator to move one of those two "
                "dice by 2 before it is built, or let it be built there.")
    if node == "react":
        actor = ev.get("actor")
        kind = ev.get("type")
        def spot(k: Any) -> str:
            k = str(k)
            if k in T.place_index:
                return T.places[T.place_index[k]].name
            kind_at = (view.get("settlements") or {}).get(k)
            return f"the {kind_at} at {where(k)}" if kind_at else f"the square at {where(k)}" if "," in k else k

        def whom(t: Any, own: str) -> str:
            return own if t == seat else (who(t) if isinstance(t, int) and t >= 0 else "another dragon")

        frm = ev.get("from")
        what = {"attack": f"attacks {whom(ev.get('defender'), 'you')}",
                "steal": ("is stealing from the thief's chest" if frm == "chest"
                          else f"is stealing from {whom(frm, 'your')}{'' if frm == seat else chr(39) + 's'} cave"),
                "destroy": f"is destroying {spot(ev.get('target'))}",
                "claim": "is claiming " + " and ".join(spot(k) for k in ev.get("targets") or [])
                }.get(str(kind), "acts")
        name = who(actor) if isinstance(actor, int) else "A dragon"
        return f"{name[:1].upper()}{name[1:]} {what}. Play a card or a power against it, or let it happen."
    if node == "tribute_card":
        return "Your tribute roll is next: play a tribute card (it changes this roll), or roll as it is."
    if node == "lose":
        return "Your tribute roll was 0–4: you lose a single claim. Choose which claim ring comes back."
    if node == "upgrade":
        return "A town was rolled beside these towns: choose which town becomes a city."
    if node == "pop_choose":
        return "You have the fewest coins: choose the place of power that appears."
    if node == "place":
        piece = ev.get("piece")
        if piece == "chest":
            return "Choose where the thief's chest goes."
        if piece == "hut":
            return "Choose where Baba Yaga's Hut goes."
        return "Choose where the dragon goes (it covers 2 × 2 squares from the one chosen: right and down)."
    if node == "dragon_select":
        return "Choose your dragon."
    if node == "act":
        n = view.get("actions_left")
        if not n:
            return "No actions left: end this dragon's turn (a card in hand may still be played)."
        return (f"Your turn: {n} action{'' if n == 1 else 's'} left. Move, claim, destroy, steal, attack or abandon "
                "a claim; or end the turn.")
    return None
