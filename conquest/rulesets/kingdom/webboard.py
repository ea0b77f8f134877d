"""The Kingdom board in the browser (rules document ``002``): ``board_json``, the map and, per territory, its
armies, controller and bonus locations, read from a seat's view only; the question the seat to move is asked;
and the rules help of the page (``help_terms``: the bonus locations, whose effects docs/rules/kingdom.md
names, and the verbs of the notation, read from its docstring)."""

from __future__ import annotations

from typing import Any

from conquest.core.helptext import verbs_from_docstring
from conquest.rulesets.kingdom import notation
from conquest.rulesets.kingdom.base import COLORS
from conquest.rulesets.kingdom.board import load_board

LOCATION_CODES = {"trap": "Tr", "spy": "Sp", "destroy": "De", "double_move": "2M", "krystallium": "Kr",
                  "material": "Ma", "energy": "En", "science": "Sc", "gold": "Go", "exploration": "Ex"}
LOCATIONS = {
    "trap": "a Trap token while your army holds it",
    "spy": "a Spy token while your army holds it",
    "destroy": "a card destruction while your army holds it",
    "double_move": "your moves may start two territories away (not through enemy territories)",
    "krystallium": "produces one Krystallium (worth 2 in production)",
    "material": "a Material production icon", "energy": "an Energy production icon",
    "science": "a Science production icon", "gold": "a Gold production icon",
    "exploration": "an Exploration production icon",
}


def help_terms() -> dict[str, dict[str, str]]:
    """Rules help: the bonus locations and the verbs of the notation (read from its docstring)."""
    codes = LOCATION_CODES
    out = {f"location:{k}": {"kind": "bonus location", "name": f"{codes[k]} {k.replace('_', ' ')}",
                             "text": text + " (the effect is lost when the army leaves)"}
           for k, text in LOCATIONS.items()}
    for v, text in verbs_from_docstring(notation.__doc__).items():
        out[f"verb:{v}"] = {"kind": "action", "name": v, "text": text}
    return out


def board_json(view: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The map file and, per territory, its armies, controller and bonus locations (from ``view`` only)."""
    board = load_board(view["options"]["board"])
    control = view["derived"]["control"]
    regions: dict[str, Any] = {}
    for t, tid in enumerate(board.names):
        red, blue = view["armies"][tid]
        cell: dict[str, Any] = {"owner": control[tid], "pieces": [], "markers": []}
        for p, n in ((0, red), (1, blue)):
            if n:
                cell["pieces"].append({"seat": p, "count": n, "kind": "army" if n == 1 else "armies"})
        cell["icons"] = []
        for l in board.territory_locs[t]:
            holder = view["locations"][board.loc_ids[l]]
            kind = board.loc_kind[l]
            cell["icons"].append({"icon": LOCATION_CODES[kind], "key": kind,
                                  "fill": "#fff8e1" if holder is None else ("#ef9a9a", "#90caf9")[holder],
                                  "help": f"location:{kind}", "title": f"{kind.replace('_', ' ')} bonus location"
                                  + (f", held by {COLORS[holder].capitalize()}" if holder is not None else "")})
        if t in board.castles:
            cell["label"] = "castle"
        else:
            cell["label"] = f"{board.vp[t][0]}/{board.vp[t][1]} VP"
        regions[tid] = cell
    phase_words = {"income": "Soldier tokens", "conquest": "Conquest phase", "move": "Conquest phase (a move)",
                   "vacate": "Conquest phase (a move)", "place": "Conquest phase (a move)", "over": "game over"}
    notes = [f"Round {view['round']} of {view['options']['rounds']}, {phase_words.get(view['phase'], view['phase'])}. "
             "Under each territory: its VP for Red/Blue."]
    terms = help_terms()
    legend = [{"icon": c, "text": k.replace("_", " "), "help": terms[f"location:{k}"]["text"]}
              for k, c in LOCATION_CODES.items()]
    legend += [{"icon": "", "fill": "#ef9a9a", "text": "held by Red"},
               {"icon": "", "fill": "#90caf9", "text": "held by Blue"}]
    panels = [{"seat": p, "score": [["score", view["derived"]["score"][p], None]],
               "holds": [["Soldier tokens", view["soldiers"][p], None], ["in reserve", view["reserve"][p], None]],
               "badges": [[f"{k.replace('_', ' ')} {v}", None] for k, v in view["derived"]["tokens"][p].items() if v]}
              for p in (0, 1)]

    def name(tid: str) -> str:
        return str(board.map.by_id[tid].name)

    def arm(n: int) -> str:
        return f"{n} arm{'ies' if n != 1 else 'y'}"

    if view.get("move"):
        got = view["move"]["from"]
        frm = ", ".join(f"{arm(v)} from {name(k)}" for k, v in got.items()) or "no army yet"
        notes.append(f"Moving into {name(view['move']['to'])}: {frm} "
                     f"({sum(got.values())} Soldier token{'s' if sum(got.values()) != 1 else ''}).")
    return {"map": board.map.to_json(), "regions": regions, "notes": notes, "legend": legend, "panels": panels,
            "colors": ["#c62828", "#1565c0"], "question": question(view, seat, board)}


def question(view: dict[str, Any], seat: int | None, board: Any) -> str | None:
    """What the seat to move is asked now (shown above its actions), from its view."""
    if seat is None or view.get("current") != seat or view.get("phase") in (None, "income", "over"):
        return None

    def name(tid: str) -> str:
        return str(board.map.by_id[tid].name)

    have = view["soldiers"][seat]
    phase = view["phase"]
    if phase == "conquest":
        return (f"Your action: recruit, move or stop. You have {have} Soldier token{'s' if have != 1 else ''}: "
                "recruiting costs 1 per army, and so does every army you move.")
    if phase == "move":
        mv = view["move"]
        spent = sum(mv["from"].values())
        foe = view["armies"][mv["to"]][1 - seat]
        return (f"Moving into {name(mv['to'])}: choose the territories to bring armies from "
                f"(1 Soldier token each; {have - spent} left)"
                + (f", more than the {foe} enemy arm{'ies' if foe != 1 else 'y'} there" if foe else "")
                + ", then move.")
    task = (view.get("tasks") or [{}])[0]
    where = name(task["territory"]) if task.get("territory") else "the territory"
    n = task.get("count", 1)
    if phase == "vacate":
        return (f"Your armies leaving {where} must come off {n} bonus location{'s' if n != 1 else ''}: "
                "choose which bonus you give up (you lose it at once).")
    if phase == "place":
        return (f"Your armies arriving in {where} can take {n} of its free bonus locations: choose which "
                "bonus you want.")
    return None
