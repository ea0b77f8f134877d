"""The ``narby`` Ruleset (Narby Conquest, rules document 001): the game's facts, its options (each a reading
a designer may want either way, docs/rules/narby.md §2), the notation and text it hands to the CLI, and the
position evaluation of the greedy agent. The rules themselves are in the sections' modules (``rules``).
"""

from __future__ import annotations

from typing import Any

from conquest.core.encoding import Encoding
from conquest.core.errors import OptionError
from conquest.core.game import Ruleset, State, TestSettings
from conquest.core.notation import guarded_format
from conquest.core.options import Option, OptionsSpec
from conquest.core.variants import VariantModel, variant_option
from conquest.rulesets.narby import board as B, notation
from conquest.rulesets.narby.base import CITY, RUIN, TOWN
from conquest.rulesets.narby.rules import NarbyState
from conquest.rulesets.narby.tables import TABLES as T
from conquest.rulesets.narby.variant import NarbyVariant, tables_for
from conquest.rulesets.narby.view import describe_action, render

# Expected coins of one claim per tribute, from the Tribute Chart (d20 uniform): town .9, city 1.75, ...
_EV = {TOWN: 0.9, CITY: 1.75, RUIN: 0.3}
_EV_PLACE = 0.35 + 0.2 * 1.75 + 0.05 * 3.5
_PLACE_POWER = 0.6  # a place of power also brings its power


class NarbyRuleset(Ruleset):
    id = "narby"
    title = "Narby Conquest"
    min_players = 2
    max_players = 10  # "Roll ... Dragon Miniature": ten dragons, one per digit
    rules_version = "1.0"
    summary = ("dragons on a 20x20 grid claim towns, cities and places of power, steal, destroy and fight "
               "for tribute until one exceeds the win amount")
    state_class = NarbyState
    test_settings = TestSettings(fuzz_steps=60, spectator_steps=45, hides_draws=True, players=3,
                                 browser_actions=60, short_options={"max_rounds": 2},
                                 preferred_actions=("destroy", "claim", "attack", "steal"), rl_max_decisions=600,
                                 rl_observation_games=(3, 1_500), narration_games=((3, 1), (2, 2), (4, 3)))

    # --- RL hooks (issue 28) ---
    max_chance_outcomes = 20
    """A d20."""

    def rl_encoding(self, players: int, options: dict[str, Any]) -> Encoding:
        """This game's own encoding (``encoding.py``: faster and smaller than the generic one built from the view;
        trained policies depend on its layout)."""
        from conquest.rulesets.narby.encoding import NarbyEncoding
        return NarbyEncoding(players, options)

    def options(self) -> OptionsSpec:
        return OptionsSpec((
            Option("win", 50, "\"Game plays until a player exceeds 50, 75, or 100 coins\"", type=int,
                   choices=(50, 75, 100)),
            Option("dragons", "roll", "roll: each seat rolls a d20 (leading digit dropped) for its dragon; "
                   "select: each seat picks its dragon card", choices=("roll", "select")),
            Option("places", "roll", "roll: a d20 on the Places of Power table; select: the player with the "
                   "lowest coin selects the place", choices=("roll", "select")),
            Option("high_place_roll", "chooser", "Places of Power table rolls 16-20 (the table ends at 15): "
                   "chooser = same as 15 (lowest coin chooses), reroll = roll again",
                   choices=("chooser", "reroll")),
            Option("populate_repeat", "settlements", "\"Repeat this for the number of players\": settlements "
                   "= one settlement per player, then one place of power and one chest move per round; all = "
                   "settlement, place of power and chest move once per player",
                   choices=("settlements", "all")),
            Option("city", "upgrade", "a town rolled beside a town: upgrade = that town becomes a city (its "
                   "claim moves to the city); beside = a city is placed on the rolled square",
                   choices=("upgrade", "beside")),
            Option("adjacency", "8", "adjacent squares: 8 = sides and corners, 4 = sides only; movement "
                   "counts spaces the same way", choices=("8", "4")),
            Option("chest_blocks", False, "Move: \"cannot land on a settlement, cave, or place of power, or "
                   "another dragon\" does not name the thief's chest: false = a dragon may stand over the chest "
                   "(it stays beneath, still robbable); true = the chest keeps dragons off its square", type=bool),
            Option("turnabout", "chest", "Steal Chart Turnabout: the thief's lost coin goes to the thief's "
                   "treasure chest (chest) or to the dragon it tried to rob (target)",
                   choices=("chest", "target")),
            Option("undead_steal", "resting_place", "the Undead has no cave: resting_place = its coins may be "
                   "stolen from beside the Immortals Resting Place (its home) once that is on the board; "
                   "never = the Undead cannot be stolen from", choices=("resting_place", "never")),
            Option("baba_yaga", "hut", "Baba Yaga's Hut \"Moves 3 spaces each turn for free\": hut = the "
                   "controller moves the Hut itself up to 3 spaces once a round; dragon = the controller's dragon "
                   "makes a free move of up to 3 spaces once a round", choices=("hut", "dragon")),
            Option("baba_yaga_uses", "round", "Baba Yaga's Hut: the table's column says \"Power once per round\", "
                   "its text \"Moves 3 spaces each turn\": round = once a round (a use stays used for a new "
                   "controller); turn = once in each dragon's turn (the power refreshes at every turn)",
                   choices=("round", "turn")),
            Option("tribute_loss", "not_adjacent", "Tribute Chart \"0 to 4: Lose a single claim\" and \"That "
                   "adjacent claim is not scored as per the d20 roll\": not_adjacent = a claim beside the dragon "
                   "scores the adjacent row and cannot be the claim lost; any = it scores the adjacent row and "
                   "may still be the claim lost", choices=("not_adjacent", "any")),
            Option("win_check", "at_once", "\"Game plays until a player exceeds\" the win amount: at_once = the "
                   "game ends as soon as a dragon's coins exceed it (the text); round = checked when the round's "
                   "tribute is done", choices=("at_once", "round"), legacy="round"),
            Option("ties", "shared", "equal totals (coins and treasure tokens) at the end: shared = every dragon "
                   "with the top total shares the win (the document names no tie-break); coins = the dragon with "
                   "more coins wins, still equal ones share", choices=("shared", "coins"), legacy="coins"),
            Option("destroy_own_claims", True, "\"Destroy Claimed Settlement | Roll on Destroy chart\" names no "
                   "owner: true = a dragon may destroy its own claims too (the text); false = only other dragons' "
                   "claims and unclaimed ones", type=bool, legacy=False),
            Option("cards", True, "deal the bonus cards (\"Draw (if cards are available)\")", type=bool),
            Option("modifiers", "any_time", "when a card or place that adds to a roll (Fighter, Sneaker, Destroyer, "
                   "Arch of Triumph, Chrysota's Chapel) may be used in the own turn: any_time = at any decision "
                   "with an action left (the text names no moment), its bonus waiting for the roll; in_reach = "
                   "only when that roll's action is open now (reading R26)", ("any_time", "in_reach")),
            Option("max_rounds", 100, "end the game after this many rounds even if no dragon exceeded the win "
                   "amount (0 = no limit; the document allows endless games)", type=int, minimum=0,
                   maximum=10000),
            *variant_option(self),
        ))

    def variant_schema(self) -> type[VariantModel]:
        """Charts, coin amounts and the bonus cards in the deck (``variant.py``)."""
        return NarbyVariant

    def check_option_combination(self, players: int, options: dict[str, Any]) -> None:
        if options["cards"] and players > len(tables_for(options.get("variant") or "").cards):
            raise OptionError("more dragons than bonus cards")

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        return NarbyState.new(players, options)

    def log_visible(self, before: State, action: Any, after: State, seat: int | None) -> bool | None:
        """Whether a seat may see this entry of the game log (the web app's hook): the only secret of the game is
        the card in each hand (``view``), so a card dealt (chance ``card ID``) is seen by the dragon that gets it
        only; every other entry, cards played included, by all."""
        assert isinstance(before, NarbyState)
        if isinstance(action, tuple) and action and action[0] == "card":
            return seat is not None and before.node == "draw" and seat == before.k
        return True

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    @guarded_format("narby")
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def action_odds(self, state: State, action: Any) -> dict[str, Any]:
        """The exact outcomes of an action that leads into dice (conquest/rulesets/narby/odds.py)."""
        from conquest.rulesets.narby.odds import action_odds
        return action_odds(self, state, action)

    def seat_names(self, players: int, options: dict[str, Any]) -> list[str]:
        """"Seat 1" ... "Seat N", as the text board and the refusals name them (the dragons are not known
        before the setup); the state JSON numbers the same seats from 0."""
        return [f"Seat {i + 1}" for i in range(players)]

    def log_names(self, view: dict[str, Any]) -> list[list[str]]:
        """The log calls a seat by its dragon once chosen ("the Red dragon"), else by its seat name."""
        from conquest.rulesets.narby.narrate import dragon_title
        dragons = view.get("dragons") or []
        names = self.seat_names(int(view["players"]), view["options"])
        return [[n] + ([f"the {dragon_title(dragons[s])} dragon"] if s < len(dragons) and dragons[s] else [])
                for s, n in enumerate(names)]

    # ------------------------------------------------------------------ balance reports
    def seat_factions(self, record: Any, state: State) -> list[dict[str, list[str]]]:
        """Each seat's dragon."""
        assert isinstance(state, NarbyState)
        return [{"dragon": [T.dragon_ids[d]] if d >= 0 else []} for d in state.dragon]

    def round_of(self, state: State) -> int:
        assert isinstance(state, NarbyState)
        return state.round

    def game_stats(self, state: State) -> dict[str, Any]:
        """Figures of one game for simulation reports (docs/rules/narby.md, "Figures for simulation reports"):
        how it ended (``coins``: a dragon exceeded the win amount; ``round limit``: option ``max_rounds``;
        ``unfinished``), the rounds, the winning dragon (``shared`` when the win is shared), the winner's margin
        over the runner-up in totals (coins and treasure tokens), the running counts of ``state.STAT_KEYS``, the
        places of power put on the board, the coins left in the thief's chest, and
        each dragon's total as ``total_<dragon>``."""
        assert isinstance(state, NarbyState)
        s = state
        if s.node != "over":
            end_reason = "unfinished"
        elif max(s.coins) > s.options["win"]:
            end_reason = "coins"
        else:
            end_reason = "round limit"
        totals = sorted((s.total(t) for t in range(s.players)), reverse=True)
        won = s.winners() if s.node == "over" else []
        winner = (s.dragon_id(won[0]) if len(won) == 1 and s.dragon[won[0]] >= 0
                  else "shared" if len(won) > 1 else "none")
        out: dict[str, Any] = {"end_reason": end_reason, "rounds": s.round, "winner": winner,
                               "margin": totals[0] - totals[1], **s.stats,
                               "places_placed": len(s.places) + s.stats["places_destroyed"],
                               "chest_coins": s.chest_coins}
        for t in range(s.players):
            if s.dragon[t] >= 0:
                out[f"total_{s.dragon_id(t)}"] = s.total(t)
        return out

    def faction_rotation(self, players: int, options: dict[str, Any]) -> tuple[str, list[str]] | None:
        """Rolled dragons ("each seat rolls a d20") may be dealt by a balance run so that each dragon plays from
        each seat equally often; selected dragons are the players' choice and are only observed."""
        return ("dragon", list(T.dragon_ids)) if options["dragons"] == "roll" else None

    def faction_opening(self, state: State, names: list[str]) -> list[Any]:
        """The d20 rolls (seat by seat, as the setup rolls them) that give seat i the dragon ``names[i]``."""
        digit = {i: d.digit for i, d in enumerate(T.dragons)}
        rolls = []
        for name in names:
            want = digit[T.dragon_ids.index(name)]
            rolls.append(("roll", next(v for v in range(1, 21) if v % 10 == want)))
        return rolls

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        """Every part hidden from ``seat`` resampled: see ``conquest.rulesets.narby.hidden``."""
        from conquest.rulesets.narby.hidden import determinize
        return determinize(state, seat, rng)

    # ------------------------------------------------------------------ evaluation for the greedy agent
    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, NarbyState)
        r = state.result()
        if r is not None:
            return 100.0 * r[seat] + state.total(seat) * 0.01
        vals = [_worth(state, s) for s in range(state.players)]
        others = [v for s, v in enumerate(vals) if s != seat]
        return vals[seat] - 0.5 * max(others) - 0.5 * sum(others) / len(others) + _position(state, seat)

    # ------------------------------------------------------------------ text
    def describe_action(self, state: State, action: Any) -> str:
        assert isinstance(state, NarbyState)
        return describe_action(state, action)

    def render_text(self, state: State, seat: int | None = None) -> str:
        assert isinstance(state, NarbyState)
        return render(state, seat)

    def board_json(self, view: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """The board for the web app, from ``view(seat)`` only (conquest/rulesets/narby/webboard.py)."""
        from conquest.rulesets.narby.webboard import board_json
        return board_json(view, seat)

    def help_terms(self) -> dict[str, dict[str, str]]:
        from conquest.rulesets.narby.webboard import help_terms
        return help_terms()

    def confirm_text(self, view: dict[str, Any], action: Any) -> str | None:
        """Ending a turn with actions left, and taking back a claim ring, ask a second click in the web page."""
        word = self.format_action(action).split(" ")[0]
        left = view.get("actions_left")
        if word == "end" and isinstance(left, int) and left > 0:
            return f"End your turn with {left} action(s) left?"
        if word == "abandon":
            return "Take back this claim ring? The claim is lost."
        return None

    def has_odds(self, state: State, action: Any) -> bool:
        """Odds beside ``steal``, ``attack`` and ``destroy``, and beside the ``end``/``pass`` that leads into a
        tribute roll (the other dragons' reaction windows on the way read as everybody passing)."""
        from conquest.core.errors import ConquestError
        from conquest.core.kinds import CHANCE
        verb = action[0] if isinstance(action, tuple) and action else None
        if verb in ("steal", "attack", "destroy"):
            return True
        if verb in ("end", "pass"):
            try:
                nxt = state.apply(action)
                while nxt.to_move not in (None, CHANCE) and isinstance(nxt, NarbyState) and nxt.node == "react":
                    nxt = nxt.apply(("pass",))
            except ConquestError:
                return False
            return nxt.to_move == CHANCE and isinstance(nxt, NarbyState) and nxt.phase == "tribute"
        return False


def _worth(s: NarbyState, seat: int) -> float:
    """Coins in hand plus what the claims are expected to bring over the next rounds."""
    v = float(s.coins[seat] + s.tok_sum[seat])
    if s.dpos[seat] < 0:
        return v
    occ = s.occ
    ring = B.RINGSET[s.adj][s.dpos[seat]]
    d = s.dragon[seat]
    claims = 0.0
    for key, o in s.claims.items():
        if o != seat:
            continue
        if isinstance(key, str):
            claims += _EV_PLACE + _PLACE_POWER
            continue
        c = occ[key]
        if c == TOWN:
            e = 1.0 if key in ring else _EV[TOWN]
            claims += e * (2 if d == T.dragon_index["copper"] else 1)
        elif c == CITY:
            e = 2.0 if key in ring else _EV[CITY]
            claims += e + (0.6 if d == T.dragon_index["gold"] else 0)
        elif c == RUIN:
            claims += _EV[RUIN]
        else:
            claims += 0.05
    rounds_left = 3.0
    if s.hand[seat] is not None:
        v += 0.3
    return v + rounds_left * claims


def _position(s: NarbyState, seat: int) -> float:
    """A small pull toward settlements that can still be claimed and toward a chest worth robbing."""
    a = s.dpos[seat]
    if a < 0 or s.rings_left[seat] <= 0:
        return 0.0
    ax, ay = a % 20, a // 20
    best = 99
    occ = s.occ
    claims = s.claims
    for q in range(400):
        c = occ[q]
        if (c == TOWN or c == CITY) and claims.get(q, -1) != seat:
            dd = max(abs(q % 20 - ax) - 1, abs(q // 20 - ay) - 1, 0)
            if c == CITY:
                dd -= 1
            if dd < best:
                best = dd
    pull = 0.0 if best == 99 else -0.08 * best
    if s.chest >= 0 and s.chest_coins >= 3:
        q = s.chest
        dd = max(abs(q % 20 - ax) - 1, abs(q // 20 - ay) - 1, 0)
        pull = max(pull, -0.08 * dd + 0.02 * min(s.chest_coins, 15) - 0.2)
    return pull
