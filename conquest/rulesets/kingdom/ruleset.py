"""The kingdom ruleset: its options, the evaluation the computer players use, and the hooks that hand the
text board (``view.py``), the browser board and rules help (``webboard.py``) and the log (``narrate.py``) to
their modules."""

from __future__ import annotations

from typing import Any

from conquest.core.encoding import Encoding
from conquest.core.game import Ruleset, State, TestSettings
from conquest.core.notation import guarded_format
from conquest.core.options import Option, OptionsSpec
from conquest.core.variants import VariantModel, variant_option
from conquest.rulesets.kingdom import notation, turn, view as _view, webboard
from conquest.rulesets.kingdom.base import CONQUEST, MOVE, OVER, PLACE, VACATE, economy
from conquest.rulesets.kingdom.board import board_sides
from conquest.rulesets.kingdom.conquest_phase import end_action
from conquest.rulesets.kingdom.end import final_scores, territory_vp
from conquest.rulesets.kingdom.move import move_armies, move_capacity, move_sources_for
from conquest.rulesets.kingdom.phases import production_points
from conquest.rulesets.kingdom.rules import KingdomState
from conquest.rulesets.kingdom.variant import KingdomVariant, economy_of


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
            *variant_option(self),
        ))

    def variant_schema(self) -> type[VariantModel]:
        """The standalone board values: points per bonus location kind and per castle icon (``variant.py``)."""
        return KingdomVariant

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        return KingdomState.setup(options)

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
        return webboard.help_terms()

    def board_json(self, view: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """The map file and, per territory, its armies, controller and bonus locations (from ``view`` only):
        ``webboard.py``."""
        return webboard.board_json(view, seat)

    # ------------------------------------------------------------------ evaluation for the greedy agent
    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, KingdomState)
        s = _settled(state)
        if s.phase == OVER:
            a, b = final_scores(s)
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
        score = final_scores(state)
        return {"rounds": state.round, "red_territories": held[0], "blue_territories": held[1],
                "red_production_points": state.points[0], "blue_production_points": state.points[1],
                "margin": abs(score[0] - score[1])}

    # ------------------------------------------------------------------ text
    def describe_action(self, state: State, action: Any) -> str:
        """What the action does and what it costs, in the game's words (``view.py``)."""
        assert isinstance(state, KingdomState)
        text = _view.describe_action(state, action)
        return text if text is not None else self.format_action(action)

    def render_text(self, state: State, seat: int | None = None) -> str:
        assert isinstance(state, KingdomState)
        return _view.render_text(state, seat)


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
            end_action(s)
            return s
        move_armies(s)
    guard = 0
    while s.phase in (VACATE, PLACE) and guard < 50:
        turn.apply(s, turn.legal_actions(s)[0])
        guard += 1
    return s


def _projection(s: KingdomState, p: int) -> float:
    rounds_left = s.options["rounds"] - s.round
    last = rounds_left == 0
    value = float(s.points[p] + territory_vp(s, p))
    if not s.companion():
        value += rounds_left * production_points(s, p)
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
    pts = economy_of(s)["points"]
    rounds_left = s.options["rounds"] - s.round
    worst = 0.0
    for t in range(b.territories):
        mine = s.armies[2 * t + p]
        if not mine or t in b.castles:
            continue
        srcs = move_sources_for(s, t, op)
        if srcs and move_capacity(s, t, op, srcs) > mine:
            loss = b.vp[t][p] + b.vp[t][op] + rounds_left * sum(pts[b.loc_kind[l]] for l in s.occupied(p, t))
            worst = max(worst, loss)
    return worst
