"""The Conquest state told as text (rules document ``002``): the text board of ``conquest show`` and the CLI
(``render_text``) and what an action does and costs, in the game's words (``describe_action``).

Every part of the game is on the table, so what a seat sees is the whole state: the view is the state's JSON
(``State.view``) and a determinization is a clone."""

from __future__ import annotations

from typing import Any

from conquest.rulesets.kingdom.base import COLORS, MOVE, OVER
from conquest.rulesets.kingdom.bonus import tokens
from conquest.rulesets.kingdom.end import final_scores, territory_vp
from conquest.rulesets.kingdom.rules import KingdomState


def describe_action(state: KingdomState, action: Any) -> str | None:
    """What the action does and what it costs, in the game's words (territory names, the bonus of a
    location; never an id). None for the actions of the income (the ruleset writes their notation)."""
    b = state.board
    w = action[0]
    me = state.current

    def tok(n: int) -> str:
        return f"{n} Soldier token{'s' if n != 1 else ''}"

    def arm(n: int) -> str:
        return f"{n} arm{'ies' if n != 1 else 'y'}"

    if w == "recruit":
        n = action[1]
        return f"recruit {arm(n)} into your castle ({tok(n)})"
    if w == "move":
        t = b.index[action[1]]
        e = state.enemy_armies(t, me)
        own = t == b.castles[me]
        return (f"move armies into {b.map.regions[t].name}" + (" (your castle)" if own else "")
                + (f": bring more than its {arm(e)}" if e else "")
                + " (1 Soldier token per army moved)")
    if w == "from":
        n = action[2]
        return f"bring {arm(n)} from {b.map.by_id[action[1]].name} ({tok(n)})"
    if w == "go":
        n = state.moved_total()
        return f"move now: {arm(n)} into {b.map.regions[state.move_to].name} ({tok(n)})"
    if w in ("vacate", "place"):
        l = b.loc_index[action[1]]
        kind = b.loc_kind[l].replace("_", " ")
        where = b.map.regions[b.loc_territory[l]].name
        if w == "vacate":
            return f"take the army off the {kind} location in {where} (you lose its bonus)"
        return f"put an army on the {kind} location in {where} (you gain its bonus)"
    if w == "stop":
        return "stop your conquest"
    return None


def render_text(state: KingdomState, seat: int | None = None) -> str:
    b = state.board
    lines = [f"Conquest board {b.map.name} — round {state.round}/{state.options['rounds']}, "
             f"{state.options['mode']} mode, phase: {state.phase}"]
    for p in (0, 1):
        tok = tokens(state, p)
        toks = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in tok.items() if v) or "no effects"
        lines.append(f"  {COLORS[p]:<5} soldiers {state.soldiers[p]:>2}  reserve {state.reserve[p]:>2}  "
                     f"points {state.points[p]:>3}  territory VP {territory_vp(state, p):>2}  [{toks}]")
    lines.append("")
    lines.append(f"  {'territory':<13}{'kind':<7}{'VP r/b':<8}{'armies':<10}bonus locations")
    for t, name in enumerate(b.names):
        r = b.map.regions[t]
        a0, a1 = state.armies[2 * t], state.armies[2 * t + 1]
        arm = f"red {a0}" if a0 else f"blue {a1}" if a1 else "-"
        vp = "castle" if t in b.castles else f"{b.vp[t][0]}/{b.vp[t][1]}"
        locs = []
        for l in b.territory_locs[t]:
            o = state.loc[l]
            mark = "" if o < 0 else ("*R" if o == 0 else "*B")
            locs.append(f"{b.loc_ids[l].split('.')[1]}:{b.loc_kind[l]}{mark}")
        if t in b.castles:
            locs = ["icons: " + ", ".join(b.castle_icons[b.castles.index(t)])]
        nbrs = ",".join(b.names[j] for j in sorted(b.adjacent[t]))
        lines.append(f"  {name:<13}{r.kind:<7}{vp:<8}{arm:<10}{' '.join(locs)}")
        lines.append(f"  {'':<13}borders: {nbrs}")
    if state.phase == MOVE:
        frm = ", ".join(f"{b.names[s]} {n}" for s, n in state.move_from) or "nothing yet"
        lines.append(f"\n  Moving into {b.names[state.move_to]}: {frm}")
    if state.phase == OVER:
        sc = final_scores(state)
        lines.append(f"\n  Final: red {sc[0]}, blue {sc[1]}")
    return "\n".join(lines)
