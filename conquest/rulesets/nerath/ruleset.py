"""The ``nerath`` ruleset: options, new games, notation, the greedy evaluation and the text board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import conquest.rulesets.nerath.notation as notation
from conquest.core.encoding import Encoding
from conquest.core.errors import OptionError
from conquest.core.game import Ruleset, State, TestSettings
from conquest.core.notation import guarded_format
from conquest.core.options import Option, OptionsSpec
from conquest.core.variants import VariantModel, variant_option
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import COUNTED, DRAGON, DUNGEON, LAND, N_TYPES, REALM_TITLES, REALMS, SEA, R, tables
from conquest.rulesets.nerath.dice import hit_chance
from conquest.rulesets.nerath.income import income
from conquest.rulesets.nerath.rules import NerathState
from conquest.rulesets.nerath.setup import setup_board
from conquest.rulesets.nerath.state import (
    ADJ,
    C1,
    C2,
    CAPITAL,
    COST,
    DIE,
    HIT_ON,
    HOME,
    IDS,
    IS_CAPITAL,
    KIND,
    LANDS,
    OWNER,
    PER_SPACE,
    SPACE,
    STEP_TITLES,
    S,
)
from conquest.rulesets.nerath.variant import NerathVariant

# Expected hits per round and hits absorbed, per piece (for the evaluation)
_STRENGTH = [hit_chance(DIE[t], HIT_ON) * (2 if t == 1 else 1) for t in range(N_TYPES)]
_TOUGH = [2 if t == DRAGON else 1 for t in range(N_TYPES)]
_ARMY_VALUE = [0.8 * COST[t] for t in range(N_TYPES)]
_CASTLE_STRENGTH = hit_chance(tables().castle.die, HIT_ON)
_SHIP_STRENGTH = hit_chance(tables().warship.die, HIT_ON)


class NerathRuleset(Ruleset):
    id = "nerath"
    title = "D&D: Conquest of Nerath"
    min_players = 2
    max_players = 4
    rules_version = "2"   # 2: the Guardians of a won dungeon come in the Reposition step (was: at the battle's end)
    summary = ("Four realms at war in the Axis & Allies family: mixed dice, first strike, durable dragons, "
               "castles, sea transport, alliances. Our own board, Guardian tiles, Treasure cards and Event decks.")
    state_class = NerathState
    test_settings = TestSettings(fuzz_steps=20, spectator_steps=40, hides_draws=True, players=4,
                                 browser_actions=160, short_options={"max_rounds": 1},
                                 preferred_actions=("move", "battle", "press", "hit", "retreat"),
                                 rl_max_decisions=400, rl_observation_games=(3, 600),
                                 narration_games=((4, 1), (2, 2)), evaluate_players=(None, 2, 3))
    search_prior = 2  # a hundred moves a decision: ismcts ranks every node (docs/agents.md, "Strength")
    search_plans = 2  # ismcts searches over the Move step's plans, each a child played whole (docs/agents.md,
    # "Search over turns")

    # --- RL hooks (issue 28) ---
    max_chance_outcomes = 64
    """32 Treasures, and one outcome per possible number of hits (a margin over the 32 that random games reach)."""

    def rl_encoding(self, players: int, options: dict[str, Any]) -> Encoding:
        """This game's own encoding (``encoding.py``: faster and smaller than the generic one built from the view;
        trained policies depend on its layout)."""
        from conquest.rulesets.nerath.encoding import NerathEncoding
        return NerathEncoding(players, options)

    def options(self) -> OptionsSpec:
        return OptionsSpec((
            Option("mode", "alliance", "alliance: Karkoth and the Iron Circle against Vailin and Nerath; "
                   "free-for-all: 4 players, every other realm is an enemy", ("alliance", "free-for-all")),
            Option("length", "short", "short (13 VP, 20 shared), medium (20 / 30) or long (all Capitals, or "
                   "8 / 12 Treasures)", ("short", "medium", "long")),
            Option("three_player", "three-sides", "3 players: 'three-sides' reads \"Vailin and Nerath vs. "
                   "Karkoth vs. the Iron Circle\" literally; 'two-sides' keeps Karkoth and the Iron Circle "
                   "allied", ("three-sides", "two-sides")),
            Option("max_rounds", 60, "end the game after this many rounds (the side with most VP wins); 0 for "
                   "no limit", None, int, 0, 1000),
            Option("hurt_dragon_fights", True, "a Dragon that took its one hit keeps rolling in the battle",
                   None, bool),
            Option("heroes_need_lasts", "whole_battle", "a dungeon battle's \"Heroes Need 7+/8+\": "
                   "whole_battle (the highest among all the Guardians the battle began with: \"the disadvantage "
                   "affects all the Heroes' attack rolls during that battle\") or while_standing (the highest "
                   "number among the Guardians still standing)", ("whole_battle", "while_standing"),
                   legacy="while_standing"),
            Option("ally_split", "choose", "allied defenders' damage (\"Allies decide among themselves how to "
                   "take damage in battle. If there is no consensus, each takes half the total damage.\"): choose "
                   "(a seat that plays both allies splits the hits as it likes; allies of two seats take half "
                   "each) or half (half each always)", ("choose", "half"), legacy="half"),
            Option("board_setup", "standard", "standard: the starting pieces and Castles of setup.yaml; empty: "
                   "no pieces, Castles on the capitals only (for scenarios)", ("standard", "empty")),
            Option("events", "decks", "Event decks: our own decks of events.yaml (one per realm, as the game is "
                   "played), or none (a designer's option)", ("none", "decks")),
            *variant_option(self),
        ))

    def variant_schema(self) -> type[VariantModel]:
        """Prices, treasuries, starting forces and the cards in the decks (``variant.py``)."""
        return NerathVariant

    def default_players(self) -> int:
        return 4

    def check_option_combination(self, players: int, options: dict[str, Any]) -> None:
        if options["mode"] == "free-for-all" and players != 4:
            raise OptionError("the free-for-all game is for 4 players (each controls one realm)")

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        st = NerathState(players, options)
        setup_board(st)
        st.dealing = [r for r in range(R) for _ in range(2) if st.decks[r]]
        if st.dealing or st.dealing_guardians:
            st.phase = "deal"
        else:
            st.start_turn()
        return st

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    @guarded_format("nerath")
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def state_from_json(self, data: Any) -> State:
        return super().state_from_json(data)

    def action_odds(self, state: State, action: Any) -> dict[str, Any]:
        """Odds of a battle declared or pressed from this position, or of any action that leads into dice."""
        from conquest.rulesets.nerath.odds import action_odds
        return action_odds(self, state, action)

    def seat_names(self, players: int, options: dict[str, Any]) -> list[str]:
        st = NerathState(players, self.options().resolve(options))
        names: list[list[str]] = [[] for _ in range(players)]
        for r in range(R):
            names[st.seat_of[r]].append(REALM_TITLES[r])
        return [" & ".join(n) for n in names]

    def log_names(self, view: dict[str, Any]) -> list[list[str]]:
        """The log calls a seat by its realms ("Karkoth", "the Iron Circle")."""
        from conquest.rulesets.nerath.narrate import SHORT
        players = int(view["players"])
        st = NerathState(players, self.options().resolve(view["options"]))
        names: list[list[str]] = [[] for _ in range(players)]
        for r in range(R):
            names[st.seat_of[r]].append(SHORT[REALMS[r]].removeprefix("the "))
        b = view.get("battle") or {}
        if isinstance(b.get("guardian_seat"), int) and 0 <= b["guardian_seat"] < players:
            names[b["guardian_seat"]].append("the Guardians")  # the seat that decides for them
        return names

    def seat_factions(self, record: Any, state: State) -> list[dict[str, list[str]]]:
        """Balance reports: each seat's realm(s). A realm's place in the turn order is fixed (Karkoth, Vailin,
        Iron Circle, Nerath) and the seats follow it, so realms are not rotated: seat and realm are one factor."""
        assert isinstance(state, NerathState)
        out: list[dict[str, list[str]]] = [{"realm": []} for _ in range(state.players)]
        for r in range(R):
            out[state.seat_of[r]]["realm"].append(REALMS[r])
        return out

    def round_of(self, state: State) -> int:
        assert isinstance(state, NerathState)
        return state.round

    def game_stats(self, state: State) -> dict[str, Any]:
        """Figures of one game for simulation reports: how it ended, rounds, battles, dungeons, Treasures."""
        assert isinstance(state, NerathState)
        return {"end_reason": state.end_reason or "unfinished", "rounds": state.round, **state.stats,
                "treasures_won": sum(len(h) + len(p) for h, p in zip(state.treasures, state.treasures_played)),
                "treasures_played": sum(len(p) for p in state.treasures_played)}

    def log_visible(self, before: State, action: Any, after: State, seat: int | None) -> bool | None:
        """Whether a seat may see this entry of the game log (the web app's hook): an Event card drawn is seen by
        its realm's seat only (unless it is Play Immediately, played face up at once), a Treasure card drawn by
        the plundering realm's seat, a Guardian tile placed facedown by nobody; everything else by all. A spectator
        (``seat`` None) holds no realm: it sees no more than a seat that is not the card's holder."""
        assert isinstance(before, NerathState)
        if not isinstance(action, tuple) or not action:
            return True
        verb = action[0]
        if verb == "draw":  # a spectator sees no hand, so no card drawn into one
            realm = before.dealing[0] if before.phase == "deal" else before.realm
            card = event_cards().get(action[1], {})
            return bool(card.get("immediate")) or (seat is not None and before.seat_of[realm] == seat)
        if verb == "treasure":
            return seat is not None and before.battle is not None and before.seat_of[before.battle.attacker] == seat
        if verb == "guardian":
            return False
        return True

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        """Every part hidden from ``seat`` resampled: see ``conquest.rulesets.nerath.hidden``."""
        from conquest.rulesets.nerath.hidden import determinize
        return determinize(state, seat, rng)

    # ------------------------------------------------------------------------------ evaluation
    def evaluate(self, state: State, seat: int) -> float:
        """Material, and what battles are worth at their exact odds (the declared ones, and those each realm can
        start next): the seat's side minus the strongest other side (``nerath/evaluation.py``)."""
        assert isinstance(state, NerathState)
        res = state.result()
        if res is not None:
            return 1000.0 * res[seat]
        from conquest.rulesets.nerath.evaluation import team_values
        return _side_margin(state, team_values(state), seat)

    def evaluate_all(self, state: State) -> list[float]:
        """``evaluate`` for every seat, the sides' values worked out once."""
        assert isinstance(state, NerathState)
        res = state.result()
        if res is not None:
            return [1000.0 * v for v in res]
        from conquest.rulesets.nerath.evaluation import team_values
        teams = team_values(state)
        return [_side_margin(state, teams, p) for p in range(state.players)]

    def evaluate_reference(self, state: State, seat: int) -> float:
        """The evaluation before 2026-11-27 (``greedy:old=1``): VP, lands, gold, army strength, the declared
        battles' odds by a strength ratio, threats by adjacent strength."""
        assert isinstance(state, NerathState)
        res = state.result()
        if res is not None:
            return 1000.0 * res[seat]
        return _side_margin(state, self._team_values(state), seat)

    def plans(self, state: State, legal: Sequence[Any]) -> list[list[Any]]:
        """The Move step's attack plans (``evaluation.plans``): every piece that can reach an enemy space or
        dungeon entrance moved there."""
        assert isinstance(state, NerathState)
        from conquest.rulesets.nerath.evaluation import plans
        return plans(state, legal)

    @staticmethod
    def _team_values(state: NerathState) -> dict[int, float]:
        """The value of each side (team): its realms' VP, lands, gold, pieces, declared battles, Treasures and
        threatened lands."""
        st = state
        realm_val = [0.0] * R
        for r in range(R):
            realm_val[r] = 4.0 * st.vp[r] + 0.5 * st.gold[r]
        lands = [0] * R
        for s in LANDS:
            lands[st.ctrl[s]] += 1
        for r in range(R):
            realm_val[r] += 1.5 * lands[r] + (3.0 if st.ctrl[CAPITAL[r]] == r else -6.0)
        if st.phase == "reinforce":
            # the income about to be collected, so that ending the step is not worth more than buying
            realm_val[st.realm] += 0.5 * income(st, st.realm)
        army = [0.0] * (S * R)
        n = st.pieces
        power = [0.0] * (S * R)
        for i, c in enumerate(n):  # the counts are flat: (space * R + realm) * N_TYPES + kind; most are 0
            if c:
                cell, t = divmod(i, N_TYPES)
                v = _ARMY_VALUE[t] * c
                realm_val[cell % R] += v
                army[cell] += v
                power[cell] += c * _STRENGTH[t] * _TOUGH[t]
        for sh in st.ships.values():
            realm_val[sh[OWNER]] += 1.6 + 0.8 * sum(COST[c] for c in (sh[C1], sh[C2]) if c >= 0)
            power[sh[SPACE] * R + sh[OWNER]] += _SHIP_STRENGTH
        for s in LANDS:
            if st.castle[s]:
                realm_val[st.ctrl[s]] += 2.0
                power[s * R + st.ctrl[s]] += _CASTLE_STRENGTH * 1.5
        # declared battles: the attacker's expected gain
        r0 = st.realm
        for x in st.pending + ([st.battle.space] if st.battle is not None else []):
            att = power[x * R + r0]
            dfn = sum(power[x * R + e] for e in range(R) if st.team[e] != st.team[r0])
            if KIND[x] == LAND:
                pw = (att * att) / (att * att + dfn * dfn + 1e-9) if att else 0.0
                gain = 1.5 + (5.0 if IS_CAPITAL[x] else 1.0) * 4.0 * (HOME[x] != r0)
                realm_val[r0] += pw * gain - (1 - pw) * 0.8 * army[x * R + r0]
            elif KIND[x] == DUNGEON:
                g = sum(hit_chance(f, HIT_ON) for t in st.guardians[x] for f in t[2:]) * 1.5
                pw = (att * att) / (att * att + g * g + 1e-9) if att else 0.0
                realm_val[r0] += pw * 7.0 - (1 - pw) * 0.8 * army[x * R + r0]
        # Treasures: VP to come when played (a little less than played, so that greedy plays them)
        cards = treasure_cards()
        long_game = st.options["length"] == "long"
        for r in range(R):
            realm_val[r] += sum(3.5 * cards[c]["vp"] for c in st.treasures[r] if c in cards)
            if long_game:
                realm_val[r] += 4.0 * (len(st.treasures[r]) + len(st.treasures_played[r]))
        # threats: enemy power next to my weakly held lands
        team = st.team
        enemies = [[e for e in range(R) if team[e] != team[r]] for r in range(R)]
        for s in LANDS:
            owner = st.ctrl[s]
            mine = power[s * R + owner]
            threat = 0.0
            foes = enemies[owner]
            for y in ADJ[s]:
                base = y * R
                for e in foes:
                    threat += power[base + e]
            if threat > mine:
                realm_val[owner] -= min(1.5, 0.3 * (threat - mine)) * (3.0 if IS_CAPITAL[s] else 1.0)
        teams: dict[int, float] = {}
        for r in range(R):
            teams[st.team[r]] = teams.get(st.team[r], 0.0) + realm_val[r]
        return teams

    # ------------------------------------------------------------------------------ text board
    def render_text(self, state: State, seat: int | None = None) -> str:
        assert isinstance(state, NerathState)
        st = state
        lines = [f"[bold]Conquest of Nerath[/bold] — round {st.round}, {REALM_TITLES[st.realm]}'s turn, "
                 f"{STEP_TITLES.get(st.phase, st.phase)} step"]
        lines.append("  ".join(f"{REALMS[r]}: {st.vp[r]} VP {st.gold[r]} gold" for r in range(R)))
        lines.append("spaces listed below: occupied, with a Castle, or held by another realm than their own; "
                     "[K] controller, * capital, C Castle")
        letter = {r: REALMS[r][0].upper() for r in range(R)}
        lines.extend(self.hex_map(st))
        for s in range(S):
            parts = []
            for r in range(R):
                base = (s * R + r) * N_TYPES
                row = [f"{st.pieces[base + t]} {COUNTED[t]}" for t in range(N_TYPES) if st.pieces[base + t]]
                if row:
                    parts.append(f"{letter[r]}: " + ", ".join(row))
            ships = [f"ship {sid} ({REALMS[sh[OWNER]]}" + "".join(
                f" +{COUNTED[c]}" for c in (sh[C1], sh[C2]) if c >= 0) + ")"
                for sid, sh in sorted(st.ships.items()) if sh[SPACE] == s]
            if KIND[s] == LAND:
                head = f"{IDS[s]:>4} [{letter[st.ctrl[s]]}]" + ("*" if IS_CAPITAL[s] else " ") + \
                       ("C" if st.castle[s] else " ")
            elif KIND[s] == SEA:
                head = f"{IDS[s]:>4} ~~~ "
            else:
                head = f"{IDS[s]:>4} dng "
            if parts or ships or (KIND[s] == LAND and (st.castle[s] or st.ctrl[s] != HOME[s])):
                lines.append(f"{head} {tables().board.map.regions[s].name:<24} " + "; ".join(parts + ships))
        if st.pending:
            lines.append("declared battles: " + ", ".join(IDS[s] for s in st.pending))
        if st.battle is not None:
            b = st.battle
            lines.append(f"battle in {IDS[b.space]} round {b.round}: {b.step}")
        if st.winners is not None:
            lines.append(f"game over ({st.end_reason}): seats {st.winners} win")
        return "\n".join(lines)

    def hex_map(self, st: NerathState) -> list[str]:
        """The board as a hex grid of space ids, coloured by controller (Rich markup); bold when occupied."""
        colour = ("red", "green", "white", "blue")
        grid: dict[tuple[int, int], str] = {}
        for s, region in enumerate(tables().board.map.regions):
            occupied = any(st.pieces[s * PER_SPACE:s * PER_SPACE + PER_SPACE]) or \
                any(sh[SPACE] == s for sh in st.ships.values())
            for k, (x, y) in enumerate(region.attrs["cells"]):
                if KIND[s] == LAND:
                    tok = f"[{colour[st.ctrl[s]]}]{IDS[s]}[/]"
                elif KIND[s] == SEA:
                    tok = f"[cyan]{IDS[s] if k == 0 else '~~'}[/]"
                else:
                    tok = f"[magenta]{IDS[s]}[/]"
                if occupied and (k == 0):
                    tok = f"[bold]{tok}[/bold]"
                grid[(x, y)] = tok + " " * (4 - len(IDS[s] if KIND[s] != SEA or k == 0 else "~~"))
        w = max(x for x, _ in grid) + 1
        h = max(y for _, y in grid) + 1
        out = []
        for y in range(h):
            row = "  " if y % 2 else ""
            row += "".join(grid.get((x, y), "    ") for x in range(w))
            out.append(row.rstrip())
        return out

    def board_json(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The board for the web app, from what ``view(seat)`` shows (conquest/rulesets/nerath/webboard.py)."""
        from conquest.rulesets.nerath.webboard import board_json
        return board_json(view, seat)

    def help_terms(self) -> dict[str, dict[str, str]]:
        from conquest.rulesets.nerath.webboard import help_terms
        return help_terms()

    def confirm_text(self, view: dict[str, Any], action: Any) -> str | None:
        """A retreat, and the end of the Move step, ask a second click in the web page."""
        word = self.format_action(action).split(" ")[0]
        if word == "retreat":
            return "Retreat? Your pieces leave the battle and the space stays with the defender."
        if word == "done" and view.get("phase") == "move":
            return "End the Move step? Pieces you have not moved stay where they are this turn."
        return None

    def has_odds(self, state: State, action: Any) -> bool:
        """Odds beside ``battle X`` (a battle not yet begun), ``press`` and ``retreat``: a battle the calculator
        takes (not one without defenders, taken without dice, nor an entrance without Guardians, plundered
        without dice)."""
        from conquest.core.odds import OddsError
        from conquest.rulesets.nerath.odds import battle_from_state
        from conquest.rulesets.nerath.state import IX
        assert isinstance(state, NerathState)
        verb = action[0] if isinstance(action, tuple) and action else None
        if verb == "battle" and state.battle is None and len(action) > 1:
            x = IX.get(action[1]) if isinstance(action[1], str) else None
        elif verb in ("press", "retreat") and state.battle is not None:
            x = state.battle.space
        else:
            return False
        if x is None:
            return False
        try:
            battle_from_state(state, x)
        except OddsError:
            return False
        return True

    def calculator(self) -> Any:
        """The battle calculator (conquest/rulesets/nerath/calculator.py)."""
        from conquest.rulesets.nerath.calculator import NerathCalculator
        return NerathCalculator()

    def describe_action(self, state: State, action: Any) -> str:
        """The action in the game's words, with names and never a space id: "Move 2 Footsoldiers from Blackmere
        to Gallows Reach", "Play Dark Rites: all pieces hit on 5+; before a battle of yours"."""
        from conquest.core.narration import counted
        from conquest.rulesets.nerath.cardtext import card_text
        from conquest.rulesets.nerath.narrate import PHASES, piece_name, space_name
        verb = action[0]

        def n_of(n: int, piece: str) -> str:
            name = piece_name(piece)
            return f"1 {name}" if n == 1 else counted(n, name)

        if verb == "done":
            phase = getattr(state, "phase", "")
            bt = getattr(state, "battle", None)
            step = bt.get("step") if isinstance(bt, dict) else getattr(bt, "step", None)  # a view's or a state's
            if step == "landing":
                return "Land no more pieces from the Warships"
            return f"End the {PHASES.get(phase, phase)} step"
        if verb == "move":
            return f"Move {n_of(action[4], action[3])} from {space_name(action[1])} to {space_name(action[2])}"
        if verb == "sail":
            extra = ""
            if isinstance(state, NerathState) and action[1] in state.ships:
                sh = state.ships[action[1]]
                cargo = [COUNTED[c] for c in (sh[C1], sh[C2]) if c >= 0]
                extra = f" carrying {', '.join(piece_name(c) for c in cargo)}" if cargo else ""
            return f"Sail Warship {action[1]}{extra} to {space_name(action[2])}"
        if verb == "embark":
            return f"Board 1 {piece_name(action[3])} from {space_name(action[1])} onto Warship {action[2]}"
        if verb == "debark":
            return f"Land 1 {piece_name(action[3])} from Warship {action[1]} in {space_name(action[2])}"
        if verb == "battle":
            return f"Fight the battle in {space_name(action[1])}"
        if verb == "hit":
            if action[1] == "guardian":
                return f"Guardian {action[2]} loses its d{action[3]}"
            if action[1] == "ship":
                return f"Take the hit on Warship {action[2]}"
            if action[1] == "wounded-dragon":
                return "Take the hit on the wounded Dragon (it dies)"
            if action[1] == "castle":
                return "Take the hit on the Castle"
            if len(action) > 2:
                return f"Take the hit on 1 {piece_name(action[1])} aboard Warship {action[2]}"
            return f"Take the hit on 1 {piece_name(action[1])}"
        if verb == "split":
            from conquest.rulesets.nerath.narrate import split_text
            return split_text(action)
        if verb == "press":
            return "Press on: fight another round"
        if verb == "retreat":
            return "Retreat: leave the battle"
        if verb == "withdraw":
            return f"Withdraw {n_of(action[3], action[2])} to {space_name(action[1])}"
        if verb == "withdraw-ship":
            return f"Withdraw Warship {action[1]} to {space_name(action[2])}"
        if verb == "withdraw-aboard":
            return f"Withdraw 1 {piece_name(action[2])} aboard Warship {action[1]}"
        if verb == "amok":
            return f"The Monster runs amok into {space_name(action[1])}"
        if verb == "stay":
            return "The Monster stops running amok"
        if verb == "buy":
            cost = tables().pieces[action[1]].cost
            if len(action) > 3 and action[2] == "ship":
                return f"Buy 1 {piece_name(action[1])} ({cost} gold) aboard Warship {action[3]}"
            where = f" in {space_name(action[2])}" if len(action) > 2 else ""
            return f"Buy 1 {piece_name(action[1])} ({cost} gold){where}"
        if verb == "play":
            target = f" — remove 1 {piece_name(action[3])} in {space_name(action[2])}" if len(action) >= 4 else ""
            return f"Play {card_text(action[1])}{target}"
        if verb == "pass":
            return "Play no card"
        return self.format_action(action)

def _side_margin(st: NerathState, teams: dict[int, float], seat: int) -> float:
    """The seat's side's value minus the strongest other side's."""
    my_realms = [r for r in range(R) if st.seat_of[r] == seat]
    mine_t = st.team[my_realms[0]] if my_realms else -1
    others = [v for t, v in teams.items() if t != mine_t]
    return teams.get(mine_t, 0.0) - (max(others) if others else 0.0)
