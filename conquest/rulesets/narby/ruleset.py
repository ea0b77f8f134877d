from __future__ import annotations

from typing import Any

from conquest.core.errors import OptionError
from conquest.core.game import State, Ruleset
from conquest.core.notation import guarded_format
from conquest.core.options import Option, OptionsSpec
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby import notation
from conquest.rulesets.narby.rules import (CAVE0, CHEST, CITY, DRAGON0, EMPTY, KIND_NAME, PLACE0, RUIN, TOWN,
                                           NarbyState, PIDX, seat_label)
from conquest.rulesets.narby.tables import TABLES as T

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
            Option("cards", True, "deal the bonus cards (\"Draw (if cards are available)\")", type=bool),
            Option("max_rounds", 100, "end the game after this many rounds even if no dragon exceeded the win "
                   "amount (0 = no limit; the document allows endless games)", type=int, minimum=0,
                   maximum=10000),
        ))

    def check_option_combination(self, players: int, options: dict[str, Any]) -> None:
        if options["cards"] and players > len(T.cards):
            raise OptionError("more dragons than bonus cards")

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        return NarbyState.new(players, options)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    @guarded_format("narby")
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def seat_names(self, players: int, options: dict[str, Any]) -> list[str]:
        """"Seat 1" ... "Seat N", as the text board and the refusals name them (the dragons are not known
        before the setup); the state JSON numbers the same seats from 0."""
        return [f"Seat {i + 1}" for i in range(players)]

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
        w = action[0]
        text = self.format_action(action)
        notes = {
            "end": "end this dragon's turn",
            "pass": "do nothing",
            "move": "move the dragon (1 action)",
            "claim2": "Citadel of Torture: claim both (1 action)",
            "destroy": "roll on the Destroy chart (1 action)",
            "steal": "roll on the Steal chart (1 action)",
            "attack": "opposed d20, ties to the defender (1 action)",
            "abandon": "take back a claim ring (1 action)",
        }
        if w == "place" and state.ev is not None:
            piece = state.ev["piece"]
            x, y = B.xy(action[1])
            if piece == "chest":
                return f"{text}  (the thief's chest goes to {x},{y})"
            what = "Baba Yaga's Hut" if piece == "hut" else f"the {state.dragon_id(state.ev['dragon'])} dragon"
            return f"{text}  ({what} covers {x}-{x + 1}, {y}-{y + 1})"
        if w == "move" and state.chest >= 0 and state.chest in B.FOOT[action[1]]:
            return f"{text}  (move the dragon (1 action), landing over the thief's chest)"
        if w == "claim" and state.node == "act":
            key = action[1]
            o = state.claims.get(key, -1)
            cost = 2 if o not in (-1, state.who) else 1
            acts = f"{cost} action{'s' if cost > 1 else ''}"
            if isinstance(key, str):
                what = f"{T.places[PIDX[key]].name} (place of power)"
            else:
                c = state.occ[key]
                if c == EMPTY:
                    return f"{text}  — claim the blank square {B.sq_text(key)} (earns nothing at tribute), {acts}"
                what = f"the {KIND_NAME.get(c, 'square')} at {B.sq_text(key)}"
            if o >= 0 and o != state.who:
                return f"{text}  — take {what} from {seat_label(state, o)}, {acts}"
            return f"{text}  — claim {what}, {acts}"
        if w == "play":
            card = T.cards[T.card_ids.index(action[1])]
            return f"{text}  ({card.name}: {card.text})"
        if w == "power":
            p = T.places[PIDX[action[1]]]
            return f"{text}  ({p.name}: {p.power})"
        return f"{text}  ({notes[w]})" if w in notes else text

    def render_text(self, state: State, seat: int | None = None) -> str:
        assert isinstance(state, NarbyState)
        return render(state, seat)


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


PLACE_LETTERS = "ABEFGHIJKLMNOP"  # no C, D, R, T: those mean city, dragon, ruin, town


def seat_mark(seat: int) -> str:
    """The one character that stands for a seat on the grid: its number as the seat names count (Seat 1 is
    "1"), and "0" for Seat 10."""
    return str((seat + 1) % 10)


def render(s: NarbyState, seat: int | None) -> str:
    """The grid, two characters a square: dragons D and the seat's mark (Seat 1 is D1), caves c and the mark,
    towns t, cities C, ruins r (a claim shows the claimant's mark next to it), places of power a letter and the
    claimant's mark (or the letter twice when unclaimed), the chest $$. Seats are named as ``seat_names``
    names them ("Seat 1" is seat 0 of the state JSON)."""
    occ = s.occ
    homes = {s.home[t]: t for t in range(s.players) if s.cave[t] < 0 and s.home[t] >= 0}
    lines = [f"Narby Conquest — round {s.round}, phase {s.phase}, win above {s.options['win']} coins"]
    header = "     " + "".join(f"{x:>3}" for x in range(1, 21))
    lines.append(header)
    for y in range(1, 21):
        row = [f"  {y:>2} "]
        for x in range(1, 21):
            q = B.sq(x, y)
            c = occ[q]
            o = s.claims.get(q, -1)
            mark = seat_mark(o) if o >= 0 else " "
            if c == EMPTY:
                cell = " ." if o < 0 else f" {mark}"
                if q in homes:
                    cell = f"h{seat_mark(homes[q])}"
            elif c in (TOWN, CITY, RUIN):
                cell = {TOWN: "t", CITY: "C", RUIN: "r"}[c] + mark
            elif c == CHEST:
                cell = "$$"
            elif c < DRAGON0:
                cell = f"c{seat_mark(c - CAVE0)}"
            elif c < PLACE0:
                cell = f"D{seat_mark(c - DRAGON0)}"
            else:
                pid = T.place_ids[c - PLACE0]
                po = s.claims.get(pid, -1)
                cell = PLACE_LETTERS[c - PLACE0] + (seat_mark(po) if po >= 0 else PLACE_LETTERS[c - PLACE0].lower())
            row.append(f" {cell}")
        lines.append("".join(row))
    lines.append("")
    lines.append("  legend: D1 the dragon of Seat 1, c1 its cave, t town, C city, r ruin (a digit after it: claimed "
                 "by that seat; a lone digit: a claimed blank square), $$ thief's chest, h1 the Undead's home square"
                 + (" (Seat 10 shows as 0)" if s.players >= 10 else "") + ";")
    lines.append("          places of power: their letter and the claimant's seat, or the letter twice when "
                 "unclaimed")
    for pid, a in sorted(s.places.items(), key=lambda x: PIDX[x[0]]):
        p = T.places[PIDX[pid]]
        o = s.claims.get(pid, -1)
        used = " (used this round)" if (s.used >> PIDX[pid]) & 1 else ""
        lines.append(f"  {PLACE_LETTERS[PIDX[pid]]} {p.name} at {B.sq_text(a)}"
                     f"{' claimed by ' + seat_label(s, o) if o >= 0 else ''}: {p.power}{used}")
    under = s.chest_under()
    lines.append(f"  thief's chest: {s.chest_coins} coins" + (f" at {B.sq_text(s.chest)}" if s.chest >= 0 else "")
                 + (f", beneath the dragon of {seat_label(s, under)}" if under >= 0 else ""))
    for t in range(s.players):
        h = s.hand[t]
        hand = (h or "no card") if t == seat else ("a card" if h else "no card")
        turn = " <" if s.to_move == t else ""
        lines.append(f"  {seat_label(s, t):<18} coins {s.coins[t]:>3}  tokens "
                     f"{s.tok_sum[t]:>2} ({s.tok_n[t]})  rings left {s.rings_left[t]:>2}  hand: {hand}{turn}")
    if s.phase == "action" and s.node == "act":
        lines.append(f"  {seat_label(s, s.who)} to act, {s.acts} action(s) left")
    return "\n".join(lines)
