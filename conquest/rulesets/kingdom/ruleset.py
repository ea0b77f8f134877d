"""The kingdom ruleset: its options, the evaluation the computer players use, the text and browser boards."""

from __future__ import annotations

from typing import Any, Sequence

from conquest.core.encoding import Encoding
from conquest.core.game import Ruleset, State, TestSettings
from conquest.core.notation import guarded_format
from conquest.core.options import Option, OptionsSpec
from conquest.rulesets.kingdom import notation
from conquest.rulesets.kingdom.board import board_sides, load_board
from conquest.rulesets.kingdom.rules import (CONQUEST, COLORS, INCOME, MOVE, OVER, PLACE, VACATE, KingdomState,
                                             economy)


LOCATION_CODES = {"trap": "Tr", "spy": "Sp", "destroy": "De", "double_move": "2M", "krystallium": "Kr",
                  "material": "Ma", "energy": "En", "science": "Sc", "gold": "Go", "exploration": "Ex"}


class KingdomRuleset(Ruleset):
    id = "kingdom"
    title = "It's a Wonderful Kingdom: Conquest"
    min_players = 2
    max_players = 2
    rules_version = "1.0"
    summary = "the Conquest board of It's a Wonderful Kingdom: recruit, move armies, hold territories"
    state_class = KingdomState
    test_settings = TestSettings(fuzz_steps=40, spectator_steps=25, players=2, browser_actions=120,
                                 short_options={"rounds": 1}, preferred_actions=("move", "from", "go"),
                                 rl_observation_games=(6, 10_000), narration_games=((2, 1), (2, 2)))

    # --- RL hooks (issue 28) ---
    max_chance_outcomes = 20
    """The soldier die, an option, has at most 20 faces."""

    def rl_encoding(self, players: int, options: dict[str, Any]) -> Encoding:
        """This game's own encoding (``encoding.py``: faster and smaller than the generic one built from the view;
        trained policies depend on its layout)."""
        from conquest.rulesets.kingdom.encoding import KingdomEncoding
        return KingdomEncoding(players, options)

    def options(self) -> OptionsSpec:
        eco = economy()["soldier_income"]
        return OptionsSpec((
            Option("board", "a", "which side of the Conquest board", choices=tuple(board_sides())),
            Option("mode", "standalone",
                   "standalone: a simple stand-in for the base game's economy; companion: you enter the "
                   "Soldier tokens of each round from a physical game", choices=("standalone", "companion")),
            Option("rounds", 4, "rounds of the base game (a Conquest phase ends each)", type=int,
                   minimum=1, maximum=12),
            Option("soldier_base", eco["base"], "standalone: Soldier tokens each player receives per round",
                   type=int, minimum=0, maximum=20),
            Option("soldier_die", eco["die"], "standalone: sides of the die added to the Soldier income "
                   "(0 for none)", type=int, choices=(0, 3, 4, 6, 8, 10, 12, 20)),
            Option("keep_soldiers", True, "standalone: Soldier tokens not spent in a Conquest phase are kept for "
                   "the next round (false: they are lost)", type=bool),
            Option("double_move_via", "friendly_or_empty", "Double move: the territory an army passes "
                   "through may be empty or yours (friendly_or_empty) or must be yours (own); never the "
                   "opponent's", choices=("friendly_or_empty", "own")),
            Option("first_player", 0, "seat that is the 1st player in round 1 (alternates each round)",
                   type=int, choices=(0, 1)),
        ))

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        return KingdomState.setup(options)

    def narrate(self, before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
                names: Sequence[str] | None = None) -> dict[str, Any]:
        """The log line of ``action`` told to ``seat`` from its views (``kingdom/narrate.py``)."""
        from conquest.rulesets.kingdom.narrate import narrate
        if names is None:
            names = self.seat_names(int(before["players"]), before["options"])
        return narrate(before, action, after, seat, names)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    @guarded_format("kingdom")
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def seat_names(self, players: int, options: dict[str, Any]) -> list[str]:
        return ["Red", "Blue"]

    def confirm_text(self, view: dict[str, Any], action: Any) -> str | None:
        """Stopping the conquest with Soldier tokens left asks a second click in the web page."""
        if self.format_action(action).split(" ")[0] != "stop":
            return None
        soldiers, current = view.get("soldiers"), view.get("current")
        left = soldiers[current] if isinstance(soldiers, list) and isinstance(current, int) else 0
        if isinstance(left, int) and left > 0:
            return (f"Stop your conquest with {left} Soldier token(s) left? If your opponent stops next, the "
                    f"Conquest phase ends.")
        return None

    def has_odds(self, state: State, action: Any) -> bool:
        """No odds in the page: the only die, the Soldier income roll, is rolled at the start of a round and no
        decision leads into it by choice."""
        return False

    def help_terms(self) -> dict[str, dict[str, str]]:
        from conquest.rulesets.kingdom.webhelp import help_terms
        return help_terms(LOCATION_CODES)

    def board_json(self, view: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
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
        terms = self.help_terms()
        legend = [{"icon": c, "text": k.replace("_", " "), "help": terms[f"location:{k}"]["text"]}
                  for k, c in LOCATION_CODES.items()]
        legend += [{"icon": "", "fill": "#ef9a9a", "text": "held by Red"},
                   {"icon": "", "fill": "#90caf9", "text": "held by Blue"}]
        panels = [{"seat": p, "score": [["score", view["derived"]["score"][p], None]],
                   "holds": [["Soldier tokens", view["soldiers"][p], None], ["in reserve", view["reserve"][p], None]],
                   "badges": [[f"{k.replace('_', ' ')} {v}", None] for k, v in view["derived"]["tokens"][p].items() if v]}
                  for p in (0, 1)]
        name = (lambda tid: board.map.by_id[tid].name)
        arm = (lambda n: f"{n} arm{'ies' if n != 1 else 'y'}")
        if view.get("move"):
            got = view["move"]["from"]
            frm = ", ".join(f"{arm(v)} from {name(k)}" for k, v in got.items()) or "no army yet"
            notes.append(f"Moving into {name(view['move']['to'])}: {frm} "
                         f"({sum(got.values())} Soldier token{'s' if sum(got.values()) != 1 else ''}).")
        return {"map": board.map.to_json(), "regions": regions, "notes": notes, "legend": legend, "panels": panels,
                "colors": ["#c62828", "#1565c0"], "question": self._question(view, seat, board)}

    @staticmethod
    def _question(view: dict[str, Any], seat: int | None, board: Any) -> str | None:
        """What the seat to move is asked now (shown above its actions), from its view."""
        if seat is None or view.get("current") != seat or view.get("phase") in (None, "income", "over"):
            return None
        name = (lambda tid: board.map.by_id[tid].name)
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



    # ------------------------------------------------------------------ evaluation for the greedy agent
    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, KingdomState)
        s = _settled(state)
        if s.phase == OVER:
            a, b = s.final_scores()
            return float((a - b) if seat == 0 else (b - a))
        return _projection(s, seat) - _projection(s, 1 - seat)

    def seat_factions(self, record: Any, state: State) -> list[dict[str, list[str]]]:
        """Balance reports: each seat's colour. Red is seat 0 and Blue seat 1 (each colour has its own side of
        the board), so colours are not rotated: seat and colour are one factor."""
        return [{"colour": [name]} for name in self.seat_names(2, state.options)]

    def round_of(self, state: State) -> int:
        assert isinstance(state, KingdomState)
        return state.round

    def game_stats(self, state: State) -> dict[str, Any]:
        assert isinstance(state, KingdomState)
        b = state.board
        held = [sum(1 for t in range(b.territories) if t not in b.castles and state.controller(t) == p)
                for p in (0, 1)]
        return {"rounds": state.round, "red_territories": held[0], "blue_territories": held[1],
                "red_production_points": state.points[0], "blue_production_points": state.points[1],
                "margin": abs(state.final_scores()[0] - state.final_scores()[1])}

    # ------------------------------------------------------------------ text
    def describe_action(self, state: State, action: Any) -> str:
        """What the action does and what it costs, in the game's words (territory names, the bonus of a
        location; never an id)."""
        assert isinstance(state, KingdomState)
        b = state.board
        w = action[0]
        me = state.current
        tok = (lambda n: f"{n} Soldier token{'s' if n != 1 else ''}")
        arm = (lambda n: f"{n} arm{'ies' if n != 1 else 'y'}")
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
        return self.format_action(action)

    def render_text(self, state: State, seat: int | None = None) -> str:
        assert isinstance(state, KingdomState)
        b = state.board
        lines = [f"Conquest board {b.map.name} — round {state.round}/{state.options['rounds']}, "
                 f"{state.options['mode']} mode, phase: {state.phase}"]
        for p in (0, 1):
            tok = state.tokens(p)
            toks = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in tok.items() if v) or "no effects"
            lines.append(f"  {COLORS[p]:<5} soldiers {state.soldiers[p]:>2}  reserve {state.reserve[p]:>2}  "
                         f"points {state.points[p]:>3}  territory VP {state.territory_vp(p):>2}  [{toks}]")
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
            sc = state.final_scores()
            lines.append(f"\n  Final: red {sc[0]}, blue {sc[1]}")
        return "\n".join(lines)


def _settled(state: KingdomState) -> KingdomState:
    """For evaluation only: finish a half-made move the strongest way (all armies still available) and take
    the first choice of any pending location decision."""
    s = state
    if s.phase not in (MOVE, VACATE, PLACE):
        return s
    s = s.clone()
    if s.phase == MOVE:
        me = s.current
        used = {x for x, _ in s.move_from}
        budget = s.soldiers[me] - s.moved_total()
        extra = []
        for src in s.move_sources:
            if src not in used and budget > 0:
                n = min(budget, s.armies[2 * src + me])
                if n:
                    extra.append((src, n))
                    budget -= n
        s.move_from = s.move_from + tuple(extra)
        if s.moved_total() <= s.enemy_armies(s.move_to, me):
            s._end_action()
            return s
        s.move_armies()
    guard = 0
    while s.phase in (VACATE, PLACE) and guard < 50:
        s._apply(s.legal_actions()[0])
        guard += 1
    return s


def _projection(s: KingdomState, p: int) -> float:
    rounds_left = s.options["rounds"] - s.round
    last = rounds_left == 0
    value = float(s.points[p] + s.territory_vp(p))
    if not s.companion():
        value += rounds_left * s.production_points(p)
    # Armies and Soldier tokens are worth something while there is conquest left to do.
    on_board = 12 - s.reserve[p]
    value += (0.15 if last else 0.4) * on_board
    value += (0.05 if last else 0.3) * s.soldiers[p]
    value -= THREAT_WEIGHT * _threatened(s, p)
    return value


THREAT_WEIGHT = 0.5


def _threatened(s: KingdomState, p: int) -> float:
    """What the opponent could take from ``p`` with one move now: the best territory of ``p`` that the
    opponent's adjacent armies (within their Soldier tokens) outnumber."""
    if s.phase != CONQUEST or s.soldiers[1 - p] == 0:
        return 0.0
    b = s.board
    op = 1 - p
    pts = economy()["points"]
    rounds_left = s.options["rounds"] - s.round
    worst = 0.0
    for t in range(b.territories):
        mine = s.armies[2 * t + p]
        if not mine or t in b.castles:
            continue
        srcs = s.move_sources_for(t, op)
        if srcs and s.move_capacity(t, op, srcs) > mine:
            loss = b.vp[t][p] + b.vp[t][op] + rounds_left * sum(pts[b.loc_kind[l]] for l in s.occupied(p, t))
            worst = max(worst, loss)
    return worst
