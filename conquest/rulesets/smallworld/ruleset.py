"""The Small World ruleset: options, notation, the greedy evaluation and the text board."""

from __future__ import annotations

from typing import Any

import conquest.rulesets.smallworld.data as D
from conquest.core.encoding import Encoding
from conquest.core.errors import OptionError
from conquest.core.game import Ruleset, State, TestSettings
from conquest.core.kinds import Action
from conquest.core.notation import guarded_format
from conquest.core.options import Option, OptionsSpec
from conquest.core.variants import VariantModel, variant_option
from conquest.rulesets.smallworld import notation
from conquest.rulesets.smallworld.notation import REGION_WORDS
from conquest.rulesets.smallworld.powers import POWER_RULES, REGION_COINS as POWER_REGION, TURN_COINS as POWER_TURN
from conquest.rulesets.smallworld.races import RACE_RULES, REGION_COINS as RACE_REGION, TURN_COINS as RACE_TURN
from conquest.rulesets.smallworld.state import (
    ACTIVE,
    CONQUER,
    DECLINED,
    DEFEND,
    DIE,
    DIPLOMACY,
    NR,
    OUT,
    PHASE_NAMES,
    PICK,
    REDEPLOY,
    RIDX,
    STOUT_CHOICE,
    SmallWorldState,
)
from conquest.rulesets.smallworld.variant import SmallWorldVariant, figures_for, figures_of


class SmallWorldRuleset(Ruleset):
    id = "smallworld"
    title = "Small World"
    min_players = 2
    max_players = 5
    rules_version = "1"
    summary = ("Small World (Days of Wonder): 14 races x 20 special powers, conquest as on page 4 of the "
               "rulebook (003), decline, scoring and the turn track, on our own boards for 2-5 players.")
    state_class = SmallWorldState
    test_settings = TestSettings(fuzz_steps=25, spectator_steps=25, players=3, browser_actions=120,
                                 preferred_actions=("pick", "conquer", "final"), rl_observation_games=(6, 10_000),
                                 narration_games=((3, 1), (2, 2)))

    # --- RL hooks (issue 28) ---
    max_chance_outcomes = 20
    """The 20 special powers drawn at set-up."""

    def rl_encoding(self, players: int, options: dict[str, Any]) -> Encoding:
        """This game's own encoding (``encoding.py``: faster and smaller than the generic one built from the view;
        trained policies depend on its layout)."""
        from conquest.rulesets.smallworld.encoding import SmallWorldEncoding
        return SmallWorldEncoding(players, options, verbs=notation.VERBS)

    def options(self) -> OptionsSpec:
        return OptionsSpec((
            Option("map", "standard", "the board: 'standard' (the project's board for the player count) or "
                   "'generated' (a new board to the same figures, from the game's seed)",
                   choices=("standard", "generated")),
            Option("own_decline_defends", False, "whether your own In Decline tokens add to the cost of "
                   "conquering their region (003 counts only 'other player's' tokens: default false)",
                   type=bool),
            Option("stout_first_turn", True, "whether a Stout race may go into decline at the end of the turn "
                   "its combo was chosen (Stout: 'at the end of a normal turn'; the first turn counts as one: "
                   "default true)", type=bool),
            Option("flying_first_conquest", True, "whether a Flying race's first conquest may be any land region "
                   "(Flying: 'conquer any land region': default true) or must be a border region like any first "
                   "conquest (003: 'must enter it by conquering one of its border Regions')", type=bool),
            Option("convert_needs_token", True, "whether a Sorcerers' conversion needs a Race token in hand, like "
                   "any conquest (003: 'Regardless of a Race and/or Special Power benefit, a player must always have "
                   "at least one Race token available to initiate a new Conquest': default true) or not (false: the "
                   "Sorcerer comes from the supply)", type=bool, legacy=False),
            Option("reinforcement_die", "once_a_turn", "once_a_turn: the reinforcement die is used once a turn, for "
                   "the turn's last conquest, and after it the turn's conquests end, declined Ghouls' die included "
                   "(the active race then conquers no more); each_race: declined Ghouls and the active race each "
                   "may roll it for their own last conquest", choices=("once_a_turn", "each_race"),
                   legacy="each_race"),
            Option("column", "", "fix the first visible combos, top first, as race:power pairs separated by "
                   "commas (e.g. 'ratmen:flying,elves:hill'); the rest are drawn at random"),
            *variant_option(self),
        ))

    def variant_schema(self) -> type[VariantModel]:
        """Token counts of races and powers, races and powers left out, starting coins (``variant.py``)."""
        return SmallWorldVariant

    def default_players(self) -> int:
        return 2

    def check_option_combination(self, players: int, options: dict[str, Any]) -> None:
        fig = figures_for(str(options.get("variant") or ""))
        for r, p in self._column(options):
            if r in fig.removed_races or p in fig.removed_powers:
                raise OptionError(f"option column: {D.RACE_IDS[r]}:{D.POWER_IDS[p]} names a race or power the "
                                  f"variant leaves out")

    @staticmethod
    def _column(options: dict[str, Any]) -> list[tuple[int, int]]:
        text = str(options.get("column") or "").strip()
        if not text:
            return []
        out: list[tuple[int, int]] = []
        for part in text.split(","):
            if ":" not in part:
                raise OptionError(f"option column: '{part}' must be race:power")
            r, p = (x.strip().lower() for x in part.split(":", 1))
            if r not in D.RACE_INDEX:
                raise OptionError(f"option column: unknown race '{r}' (races: {', '.join(D.RACE_IDS)})")
            if p not in D.POWER_INDEX:
                raise OptionError(f"option column: unknown power '{p}' (powers: {', '.join(D.POWER_IDS)})")
            out.append((D.RACE_INDEX[r], D.POWER_INDEX[p]))
        if len(out) > 6 or len({r for r, _ in out}) != len(out) or len({p for _, p in out}) != len(out):
            raise OptionError("option column: at most 6 combos, each race and power once")
        return out

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        board = D.get_board(players, options["map"], seed)
        return SmallWorldState.fresh(players, options, board, seed, self._column(options))

    # ---- notation ---------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    @guarded_format("smallworld")
    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def describe_action(self, state: State, action: Any) -> str:
        """What the action does, in the game's words: region names (never their ids), the cost of a conquest,
        the banner's place, price and tokens; the notation stays the button's value."""
        assert isinstance(state, SmallWorldState)
        k = action[0]

        def plural(n: int, w: str) -> str:
            return f"{n} {w}" + ("" if n == 1 else "s")

        region = ""
        if k in REGION_WORDS or k == "redeploy":
            r = RIDX.get(action[1], -1)
            region = state.board.names[r] if 0 <= r < state.board.n else str(action[1])
        if k == "conquer":
            r = RIDX.get(action[1], -1)
            if state.cur >= 0 and 0 <= r < state.board.n:
                return f"conquer {region} ({plural(state.conquest_cost(state.cur, r), 'token')})"
            return f"conquer {region}"
        if k == "final":
            return f"final conquest of {region}: roll the reinforcement die for the tokens you lack"
        if k == "dragon":
            return f"conquer {region} with the Dragon (1 token)"
        if k == "convert":
            return f"convert the lone enemy token in {region} (Sorcerers)"
        if k == "abandon":
            return (f"give back 1 Amazon token from {region}" if state.phase == REDEPLOY and state.amazon_debt
                    else f"abandon {region}: its tokens go back to your hand")
        if k == "redeploy":
            return f"place {plural(action[2], 'token')} from your hand in {region}"
        if k in ("camp", "fortress", "hero"):
            return {"camp": "put an Encampment in ", "fortress": "build a Fortress in ",
                    "hero": "put a Hero in "}[k] + region
        if k == "pick" and action[1] < len(state.col_race):
            i = action[1]
            race, power = D.RACES[state.col_race[i]], D.POWERS[state.col_power[i]]
            tokens = int(race.get("banner", 0)) + int(power.get("badge", 0))
            price = "free" if i == 0 else f"pay {plural(i, 'coin')}"
            on = state.col_coins[i]
            return (f"take the {power['name']} {race['name']} ({tokens} tokens; {price}"
                    + (f", collect the {plural(on, 'coin')} on it" if on else "") + ")")
        if k == "decline":
            return "go into decline (your race stops conquering and keeps scoring; a new race next turn)"
        if k == "berserk":
            return "roll the reinforcement die now (Berserk), before choosing the next conquest"
        if k == "peace":
            return f"make peace with Player {action[1] + 1} (Diplomat)"
        if k == "end":
            return {CONQUER: "stop conquering and redeploy your tokens",
                    REDEPLOY: "end the turn and score your regions",
                    STOUT_CHOICE: "do not go into decline (end the turn)",
                    DIPLOMACY: "make peace with no one",
                    DEFEND: "done: keep the rest of the tokens off the board"}.get(state.phase, "end")
        return self.format_action(action)

    def action_odds(self, state: State, action: Any) -> dict[str, Any]:
        """The exact outcomes of an action that leads into dice (conquest/rulesets/smallworld/odds.py)."""
        from conquest.rulesets.smallworld.odds import action_odds
        return action_odds(self, state, action)

    def seat_names(self, players: int, options: dict[str, Any]) -> list[str]:
        return [f"Player {i + 1}" for i in range(players)]

    def confirm_text(self, view: dict[str, Any], action: Any) -> str | None:
        """Going into decline, and ending the conquests with tokens in hand, ask a second click in the page."""
        word = self.format_action(action).split(" ")[0]
        if word == "decline":
            return "Go into decline? Your active race will stop conquering and cannot be revived."
        if word == "end" and view.get("phase") == "conquer":
            race = (view.get("turn_state") or {}).get("race")
            hand = ((view.get("races") or {}).get(race) or {}).get("hand", 0) if race else 0
            if isinstance(hand, int) and hand > 0:
                return f"Stop conquering with {hand} token(s) still in hand?"
        return None

    def has_odds(self, state: State, action: Any) -> bool:
        """Odds beside ``final rN``: the reinforcement die of the last conquest."""
        return isinstance(action, tuple) and bool(action) and action[0] == "final"

    def seat_factions(self, record: Any, state: State) -> list[dict[str, list[str]]]:
        """Balance reports: the races, powers and combos each seat picked, in order (read from the record's
        ``pick`` actions, replayed from its start: a race back in the box may be picked again by another)."""
        st = record.new_state()
        out: list[dict[str, list[str]]] = [{"race": [], "power": [], "combo": []} for _ in range(st.players)]
        for text in record.actions:
            a = self.parse_action(text)
            if a[0] == "pick" and st.phase == PICK:
                race, power = D.RACES[st.col_race[a[1]]]["id"], D.POWERS[st.col_power[a[1]]]["id"]
                seat = out[st.seat]
                seat["race"].append(race)
                seat["power"].append(power)
                seat["combo"].append(f"{race}+{power}")
            st = st.apply_unchecked(a)
        return out

    def round_of(self, state: State) -> int:
        assert isinstance(state, SmallWorldState)
        return state.turn

    def game_stats(self, state: State) -> dict[str, Any]:
        """Figures of one game for simulation reports (docs/rules/smallworld.md, "Figures for simulation
        reports"): the game turns played, the winner's coins and margin over the runner-up, the winner's active
        race and power at the end (``none`` when it had no active race, ``shared`` when the win is shared), the
        regions held at the end (of them by races in decline), and the running counts of ``base.STAT_KEYS``."""
        assert isinstance(state, SmallWorldState)
        s = state
        coins = sorted(s.coins, reverse=True)
        res = s.result()
        won = [t for t in range(s.players) if res[t] > 0] if res is not None else []
        race = power = "shared" if len(won) > 1 else "none"
        if len(won) == 1 and s.active_race(won[0]) >= 0:
            x = s.active_race(won[0])
            race, power = D.RACE_IDS[x], D.POWER_IDS[s.rpower[x]]
        held = [x for x in s.region_race if x >= 0]
        return {"rounds": s.turn, "winner_coins": coins[0], "margin": coins[0] - coins[1], "winner_race": race,
                "winner_power": power, "regions_held": len(held),
                "regions_in_decline": sum(1 for x in held if s.rstatus[x] == DECLINED), **s.stats}

    # ---- the board for the browser ----------------------------------------------------------------
    TERRAIN_FILL = {"farmland": "#eadf94", "forest": "#8fbf7a", "hill": "#c9cf8e", "mountain": "#b3a89c",
                    "swamp": "#9bab8c", "sea": "#86b8de", "lake": "#a7d3ef"}

    def board_json(self, view: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """The map file and, per region, its occupant, tokens and markers, built from ``view`` only."""
        board = D.get_board(int(view["players"]), str(view["options"].get("map", "standard")),
                            int(view["map"]["seed"]))
        races = view.get("races", {})
        regions: dict[str, Any] = {}
        for r in board.map.regions:
            info = view["regions"][r.id]
            race = info.get("race")
            attrs = r.attrs
            cell: dict[str, Any] = {"owner": None, "pieces": [], "markers": []}
            if race:
                rinfo = races.get(race, {})
                cell["owner"] = rinfo.get("seat")
                declined = rinfo.get("status") == "declined"
                cell["declined"] = declined
                cell["pieces"].append({"seat": rinfo.get("seat"), "count": info["tokens"], "help": f"race:{race}",
                                       "kind": D.RACES[D.RACE_INDEX[race]]["name"] + (" (in decline)" if declined
                                                                                      else "")})
            else:
                cell["fill"] = self.TERRAIN_FILL.get(attrs.get("terrain", ""), "#eee")
                if info.get("lost_tribe"):
                    cell["pieces"].append({"seat": None, "count": 1, "kind": "Lost Tribe"})
            for key, name in (("lair", "Troll's Lair"), ("fortress", "Fortress"), ("encampments", "Encampment"),
                              ("hole", "Hole-in-the-Ground"), ("hero", "Hero"), ("dragon", "Dragon")):
                if info.get(key):
                    cell["markers"].append(name if info[key] == 1 else f"{info[key]} {name}s")
            symbols = [s for s in ("mine", "cavern", "magic") if attrs.get(s)]
            cell["label"] = f"{attrs.get('terrain', '')}" + (f" ({', '.join(symbols)})" if symbols else "")
            regions[r.id] = cell
        notes = [f"Turn {view['turn']} of {view['turns']}."]
        col = view.get("column") or []
        if col:
            notes.append("Combos: " + "; ".join(
                f"{i}: {D.POWERS[D.POWER_INDEX[c['power']]]['name']} {D.RACES[D.RACE_INDEX[c['race']]]['name']}"
                + (f" (+{c['coins']} coins)" if c.get("coins") else "") for i, c in enumerate(col)))
        for t, st in enumerate(view.get("seats", [])):
            own = [f"{D.POWERS[D.POWER_INDEX[v['power']]]['name']} {D.RACES[D.RACE_INDEX[k]]['name']}"
                   + (" (in decline)" if v.get("status") == "declined" else "") for k, v in races.items()
                   if v.get("seat") == t]
            coins = st.get("coins")
            notes.append(f"Seat {t}: {'?' if coins is None else coins} coins; " + (", ".join(own) or "no race"))
        from conquest.rulesets.smallworld.webboard import extras, question
        return {"map": board.map.to_json(), "regions": regions, "notes": notes[:1], **extras(view),
                "question": question(view, seat, board.names)}

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        """Every part hidden from ``seat`` resampled: see ``conquest.rulesets.smallworld.hidden``."""
        from conquest.rulesets.smallworld.hidden import determinize
        return determinize(state, seat, rng)

    # ---- the greedy evaluation --------------------------------------------------------------------
    def help_terms(self) -> dict[str, dict[str, str]]:
        from conquest.rulesets.smallworld.webboard import help_terms
        return help_terms()

    def evaluate(self, state: State, seat: int) -> float:
        """Coins, plus the income the seat's regions would bring over the turns left, plus what its spare
        tokens can still conquer (or, without an active race, the combo it will pick: ``_growth``), plus the
        defence of exposed regions, relative to the best opponent. It reads nothing ``view(seat)`` hides: the
        opponents' coin totals are left out."""
        assert isinstance(state, SmallWorldState)
        res = state.result()
        if res is not None:
            return 1000.0 * res[seat] + state.coins[seat] - max(state.coins)
        # only what view(seat) shows: the opponents' coins are face down, so their values leave coins out
        vals = [self._value(state, s) + (state.coins[s] if s == seat else 0) for s in range(state.players)]
        mine = vals[seat]
        others = max(v for i, v in enumerate(vals) if i != seat)
        return mine - 0.7 * others

    def _value(self, st: SmallWorldState, s: int) -> float:
        b = st.board
        # this round's scoring is still to come for later seats, and for the seat to play until it scores
        pending = s > st.seat or (s == st.seat and st.phase in (PICK, CONQUER, DIE, REDEPLOY))
        later = max(st.turns - st.turn, 0)
        weight = (1.0 if pending else 0.0) + 0.6 * later
        x = st.active_race(s)
        px = st.rpower[x] if x >= 0 else -1
        income = 0.0
        defence = 0.0
        rr, rs, tok = st.region_race, st.rseat, st.tokens
        race_coins = RACE_REGION
        power_coins = POWER_REGION[px] if px >= 0 else None
        for i in range(b.n):
            y = rr[i]
            if y < 0 or rs[y] != s:
                continue
            # the coins the region brings at each scoring: 1, and the race's and power's bonuses (their entries)
            rc = race_coins[y]
            bonus = rc(st, i, y == x) if rc is not None else 0
            if y == x and power_coins is not None:
                bonus += power_coins(st, i)
            v = 1.0 + bonus
            if y == x:
                # exposed regions want more tokens
                exposed = b.edge[i] or any(rr[j] >= 0 and rs[rr[j]] != s for j in b.adj[i])
                guard = tok[i] + st.lair[i] + st.fort[i] + st.camp[i] + b.mountain[i]
                defence += min(guard, 4) * (0.25 if exposed else 0.05)
                if st.immune(i):
                    defence += 0.8 if exposed else 0.3
            elif later:
                v *= 0.8  # declined regions erode
            income += v
        if x >= 0:
            # the entries' coins of the turn: every turn's are income; this turn's conquests' count for the seat
            # playing until it scores; a bonus paid once is not income
            rt, pt = RACE_TURN[x], POWER_TURN[px]
            turn = ((RACE_RULES[x].turn_coins_when, rt(st, True) if rt is not None else 0),
                    (POWER_RULES[px].turn_coins_when, pt(st) if pt is not None else 0))
            every = sum(c for when, c in turn if when == "every turn")
            this = sum(c for when, c in turn if when == "this turn")
            if every:
                income += every
            if pending and s == st.seat:
                income += this
            spare = st.rhand[x] + sum(tok[i] - 1 for i in range(b.n) if rr[i] == x)
            if x == D.AMAZONS and st.amazon_debt and s == st.seat:
                # the 4 conquest-only tokens leave at redeployment: regions they cannot be taken from are lost
                income -= max(0, st.amazon_debt - spare)
                spare = max(0, spare - st.amazon_debt)
        # turns in which the seat can still conquer and then score (this one counts before it has played)
        conquests_left = later + (1 if s > st.seat else 0)
        if x >= 0:
            growth = self._growth(spare, conquests_left, s > st.seat)
        else:
            growth = self._fresh_combo(st, conquests_left, s > st.seat)
        return income * weight + growth + defence * min(later, 1)

    @staticmethod
    def _fresh_combo(st: SmallWorldState, turns: int, this_round: bool) -> float:
        """What a seat without an active race can expect from the combo it picks next: ``_growth`` of the
        tokens of the best of the three cheapest combos in the column (their coins are not counted; 9 when no
        combo is shown)."""
        col_r, col_p = st.col_race, st.col_power
        fig = figures_of(st)
        tokens = max((fig.tokens(col_r[i], col_p[i]) for i in range(min(3, len(col_r), len(col_p)))), default=9)
        return SmallWorldRuleset._growth(tokens, turns, this_round)

    @staticmethod
    def _growth(tokens: float, turns: int, this_round: bool) -> float:
        """The coins that ``tokens`` spare tokens bring by conquest over ``turns`` turns that end in scoring:
        each turn they take about one region per 2.6 tokens, and each region taken keeps about 1.6 of them on
        the board (one to hold it, some to defend it), so growth slows as the race spreads; every region taken
        scores on each turn after, later turns weighted 0.6 as the income of held regions is (opponents
        erode what a race holds). ``this_round``: the first of those turns is this round's, weighted 1."""
        spare, held, value = float(tokens), 0.0, 0.0
        for k in range(turns):
            take = spare / 2.6
            held += take
            spare -= 1.6 * take
            value += held * (1.0 if k == 0 and this_round else 0.6)
        return value

    # ---- the text board ---------------------------------------------------------------------------
    def render_text(self, state: State, seat: int | None = None) -> str:
        assert isinstance(state, SmallWorldState)
        b = state.board
        res = state.result()
        if res is not None:
            best = max(res)
            won = [t for t in range(state.players) if res[t] == best]
            who = (f"seat {won[0]} wins" if len(won) == 1
                   else "seats " + ", ".join(str(t) for t in won) + " share the win")
            lines = [f"Small World — {b.map.name} — game over after turn {state.turns}/{state.turns}: {who}"]
        else:
            lines = [f"Small World — {b.map.name} — turn {state.turn}/{state.turns}, "
                     f"seat {state.seat} to play ({PHASE_NAMES[state.phase]})"]
        for t in range(state.players):
            # coins are face down during the game (a seat sees its own); they are counted openly at the end
            coins: Any = state.coins[t] if res is not None or (seat is not None and seat == t) else "?"
            parts = []
            for x in range(NR):
                if state.rseat[x] == t and state.rstatus[x] != OUT:
                    tag = "active" if state.rstatus[x] == ACTIVE else "in decline"
                    parts.append(f"{D.POWERS[state.rpower[x]]['name']} {D.RACES[x]['name']} ({tag}, "
                                 f"{state.rhand[x]} in hand)")
            lines.append(f"  seat {t}: coins {coins}; " + ("; ".join(parts) or "no race yet"))
        if state.col_race:
            lines.append("  combos: " + " | ".join(
                f"{i}: {D.POWERS[p]['name']} {D.RACES[x]['name']} "
                f"({figures_of(state).banner[x] + figures_of(state).badge[p]}){' +' + str(c) + 'c' if c else ''}"
                for i, (x, p, c) in enumerate(zip(state.col_race, state.col_power, state.col_coins))))
            lines.append("  (combos: slot I costs I coins; (N) the tokens it gives; +Nc the coins lying on it)")
        from conquest.rulesets.smallworld.textmap import draw
        labels: list[str] = []
        for i in range(b.n):
            y = state.region_race[i]
            if y >= 0:
                code = D.RACES[y]["name"][:2]
                code = code if state.rstatus[y] == ACTIVE else code.lower()
                labels.append(f"{state.tokens[i]}{code}{state.rseat[y]}")
            elif state.lost[i]:
                labels.append("LT")
            else:
                labels.append("")
        lines.extend("  " + row for row in draw(b, labels))
        lines.append("  (3Ra1: 3 Ratmen of seat 1; in decline: lower case on the map (1gh0), * in the table below "
                     "(Elves*); LT: Lost Tribe; ~ water, ^ mountain)")
        lines.append("  (edge: touches the edge; shore: on a sea that does; both are border regions for a first "
                     "conquest)")
        lines.append("  region  name             terrain    marks        occupant")
        for i in range(b.n):
            marks = []
            if b.mine[i]:
                marks.append("mine")
            if b.cavern[i]:
                marks.append("cave")
            if b.magic[i]:
                marks.append("magic")
            if b.edge[i]:
                marks.append("edge")
            elif b.entry[i]:
                marks.append("shore")  # on a sea touching the edge: a border region for a first conquest
            occ = ""
            y = state.region_race[i]
            if y >= 0:
                occ = (f"{state.tokens[i]} {D.RACES[y]['name']}{'*' if state.rstatus[y] == DECLINED else ''}"
                       f" (seat {state.rseat[y]})")
            elif state.lost[i]:
                occ = "Lost Tribe"
            extra = [name for name, arr in (("lair", state.lair), ("fortress", state.fort), ("hole", state.hole),
                                            ("hero", state.hero), ("dragon", state.dragon)) if arr[i]]
            if state.camp[i]:
                extra.append(f"{state.camp[i]} camp")
            terrain = [k for k, v in D.TERRAIN_CODES.items() if v == b.terrain[i]][0]
            nb = ",".join(f"r{j + 1}" for j in b.adj[i])
            lines.append(f"  r{i + 1:<5} {b.names[i][:16]:<16} {terrain:<10} {' '.join(marks):<12} "
                         f"{occ} {' '.join(extra)}  | {nb}")
        return "\n".join(lines)


__all__ = ["SmallWorldRuleset", "CONQUER", "REDEPLOY"]
