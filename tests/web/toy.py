"""A tiny ruleset made for the web app's tests: it has every feature the server must handle generically —
chance nodes (a secret deal, a public die), hidden information (each seat's secret card), an action that
reveals a secret (peek), several small decisions in one turn (place, place, end), and a board hook.

Rules of "Toy": regions north, east, south, west, centre (a map of centres, drawn as Voronoi cells).
Each seat is first dealt a secret card 1..3 (chance ``deal S V``, hidden from the others). On its turn a
seat may ``place R`` up to two times (an army on an empty region or one it holds), may ``peek`` once a game
(it then sees every secret card), and ends with ``end``; then a die is rolled (chance ``roll N``): a 6 gives
the seat one point. After ``rounds`` rounds the score is regions held + points + secret card.
"""

from __future__ import annotations

from typing import Any

from conquest.core.errors import NotationError
from conquest.core.game import CHANCE, Action, Ruleset, State
from conquest.core.options import Option, OptionsSpec

REGIONS = ["north", "east", "south", "west", "centre"]
CENTERS = {"north": [50, 10], "east": [90, 50], "south": [50, 90], "west": [10, 50], "centre": [50, 50]}
SECRET_PREFIX = "zq"  # seat 1's secret card 3 is "zq1x3": easy to look for in responses


class ToyState(State):
    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.players = players
        self.options = options
        self.owner = [-1] * len(REGIONS)
        self.armies = [0] * len(REGIONS)
        self.secret: list[str | None] = [None] * players
        self.peeked = [False] * players
        self.points = [0] * players
        self.turn = 0
        self.placed = 0
        self.rolling = False
        self.rounds_done = 0

    @property
    def to_move(self) -> int | None:
        if None in self.secret or self.rolling:
            return CHANCE
        if self.rounds_done >= self.options["rounds"]:
            return None
        return self.turn

    def legal_actions(self) -> list[Action]:
        tm = self.to_move
        if tm is None:
            return []
        if tm == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        acts: list[Action] = []
        if self.placed < 2:
            acts += [("place", r) for i, r in enumerate(REGIONS) if self.owner[i] in (-1, tm)]
        if not self.peeked[tm]:
            acts.append(("peek",))
        acts.append(("end",))
        return acts

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if None in self.secret:
            s = self.secret.index(None)
            return [(("deal", s, v), 1 / 3) for v in (1, 2, 3)]
        if self.rolling:
            return [(("roll", n), 1 / 6) for n in range(1, 7)]
        return []

    def _apply(self, a: Action) -> None:
        kind = a[0]
        if kind == "deal":
            self.secret[a[1]] = f"{SECRET_PREFIX}{a[1]}x{a[2]}"
        elif kind == "roll":
            if a[1] == 6:
                self.points[self.turn] += 1
            self.rolling = False
            self.placed = 0
            self.turn = (self.turn + 1) % self.players
            if self.turn == 0:
                self.rounds_done += 1
        elif kind == "place":
            i = REGIONS.index(a[1])
            self.owner[i] = self.turn
            self.armies[i] += 1
            self.placed += 1
        elif kind == "peek":
            self.peeked[self.turn] = True
        elif kind == "end":
            self.rolling = True

    def clone(self) -> ToyState:
        c = type(self).__new__(type(self))
        c.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        return c

    def result(self) -> tuple[float, ...] | None:
        if self.to_move is not None:
            return None
        sc = self.scores()
        best = max(sc)
        n = sum(1 for s in sc if s == best)
        return tuple(1.0 / n if s == best else 0.0 for s in sc)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(sum(1 for o in self.owner if o == p) + self.points[p]
                           + int((self.secret[p] or "x0").split("x")[1]))
                     for p in range(self.players))

    def view(self, seat: int | None) -> dict[str, Any]:
        d = self.to_json()
        over = self.to_move is None
        d["secret"] = [s if (over or p == seat or (seat is not None and self.peeked[seat])) else None
                       for p, s in enumerate(self.secret)]
        return d

    def _body_json(self) -> dict[str, Any]:
        return {"owner": self.owner, "armies": self.armies, "secret": self.secret, "peeked": self.peeked,
                "points": self.points, "turn": self.turn, "placed": self.placed, "rolling": self.rolling,
                "rounds_done": self.rounds_done}

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> ToyState:
        s = cls(players, options)
        for k in ("owner", "armies", "secret", "peeked", "points", "turn", "placed", "rolling", "rounds_done"):
            setattr(s, k, data[k])
        return s


class ToyRuleset(Ruleset):
    id = "toy"
    title = "Toy (a test game)"
    min_players = 2
    max_players = 3
    rules_version = "1"
    summary = "A tiny game with dice, secret cards and a board, for testing the web app."
    state_class = ToyState

    def options(self) -> OptionsSpec:
        return OptionsSpec((Option("rounds", 2, "how many rounds are played", type=int, minimum=1, maximum=9),
                            Option("colour", "red", "a harmless choice", choices=("red", "blue"))))

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        return self.state_class(players, options)

    def parse_action(self, text: str) -> Action:
        p = text.split()
        try:
            if p[0] in ("end", "peek") and len(p) == 1:
                return (p[0],)
            if p[0] == "place" and len(p) == 2 and p[1] in REGIONS:
                return ("place", p[1])
            if p[0] == "roll" and len(p) == 2:
                return ("roll", int(p[1]))
            if p[0] == "deal" and len(p) == 3:
                return ("deal", int(p[1]), int(p[2]))
        except (IndexError, ValueError):
            pass
        raise NotationError(f"'{text}' is not toy notation (place R, peek, end, roll N, deal S V)")

    def format_action(self, action: Action) -> str:
        return " ".join(str(x) for x in action)

    def describe_action(self, state: State, action: Action) -> str:
        if action[0] == "place":
            return f"Place an army in {action[1]}"
        return {"end": "End the turn", "peek": "Look at every secret card"}.get(action[0], str(action))

    def evaluate(self, state: State, seat: int) -> float:
        return state.scores()[seat]

    def confirm_text(self, view: dict[str, Any], action: Action) -> str | None:
        """Peeking is once a game: the page asks first."""
        return "Peek at every secret card? You may do it once a game." if action == ("peek",) else None

    def board_json(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {
            "map": {"format": "conquest-map/1", "id": "toy", "name": "Toy",
                    "regions": [{"id": r, "name": r.title(), "kind": "land", "center": CENTERS[r]}
                                for r in REGIONS],
                    "borders": [["north", "centre"], ["east", "centre"], ["south", "centre"],
                                ["west", "centre"]]},
            "regions": {r: {"owner": (o if o >= 0 else None),
                            "pieces": ([{"seat": o, "kind": "army", "count": n}] if n else [])}
                        for r, o, n in zip(REGIONS, view["owner"], view["armies"])},
            "notes": [f"Round {view['rounds_done'] + 1}"],
        }


class PlainToyRuleset(ToyRuleset):
    """The same game without a board hook: the page shows its generic panel."""
    id = "plaintoy"
    title = "Toy without a board"

    def board_json(self, view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        return None   # Ruleset's default: no board


class PlainToyState(ToyState):
    pass


PlainToyRuleset.state_class = PlainToyState
TOY = ToyRuleset()
PLAIN = PlainToyRuleset()
ToyState.ruleset = TOY  # type: ignore[misc]
PlainToyState.ruleset = PLAIN  # type: ignore[misc]
