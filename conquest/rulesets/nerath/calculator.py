"""The Nerath battle calculator behind ``Ruleset.calculator()`` (conquest/core/calculator.py): a battle given by
its pieces (a land or sea battle, a defender with an ally, Heroes against a dungeon's Guardians) answered with its
exact odds (conquest/rulesets/nerath/odds.py), or by ``--monte-carlo N`` battles played through the rules
(conquest/rulesets/nerath/montecarlo.py). The web app serves it at ``/api/odds/nerath`` and on the page
``/calc/nerath``; the command line as ``conquest odds nerath --attacker ... --defender ...``. docs/odds.md."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field as PField

from conquest.core.calculator import Block, Calculator, Field
from conquest.core.odds import OddsError

MAX_SIDE = 40
"""Pieces a side in the web calculator (the command line takes up to ``MAX_BATTLE_PIECES``)."""
MAX_BATTLE_PIECES = 100
"""The most pieces one side of a battle may list (attacker, defender, ally) for ``conquest odds``."""
MAX_BATTLE_STATES = 100_000
"""The most cells of a battle's chain (attacker states x defender states, an ally's multiplying them) that
``conquest odds`` solves: about 2-3 CPU seconds at the limit (docs/odds.md)."""

SEA_KINDS = ("storm", "dragon", "warship", "fighter", "wizard")
"""The pieces that may fight at sea (flying pieces, Warships and Heroes: the others are refused by
``odds_sides._Side``); the page offers only these in a sea battle."""

PieceName = Annotated[str, PField(min_length=1, max_length=40)]


class NerathOddsIn(BaseModel):
    """``POST /api/odds/nerath``: the battle calculator's input, as ``conquest odds nerath`` takes it. A side is
    a list of piece ids (``["footsoldier", "siege"]``) or the CLI's comma text (``"2 footsoldier, siege"``);
    ``ally``: the defender's ally's pieces; ``dungeon``: the defender is a list of Guardian tiles (``facedown``
    for one not seen)."""
    model_config = ConfigDict(extra="forbid", strict=True)
    attacker: list[PieceName] | Annotated[str, PField(max_length=500)]
    defender: list[PieceName] | Annotated[str, PField(max_length=500)]
    sea: bool = False
    order: Literal["cheapest", "listed"] = "cheapest"
    press: str = PField("always", max_length=40)
    attacker_cards: list[Annotated[str, PField(max_length=60)]] = PField(default_factory=list, max_length=40)
    defender_cards: list[Annotated[str, PField(max_length=60)]] = PField(default_factory=list, max_length=40)
    hurt_dragon_fights: bool = True
    ally: list[PieceName] | Annotated[str, PField(max_length=500)] | None = None
    ally_cards: list[Annotated[str, PField(max_length=60)]] = PField(default_factory=list, max_length=40)
    dungeon: bool = False
    heroes_need_lasts: Literal["while_standing", "whole_battle"] = "whole_battle"


def _cards(text: str) -> list[str]:
    return [c.strip() for c in (text or "").split(",") if c.strip()]


def _web_side(value: list[str] | str, who: str) -> list[str]:
    from conquest.rulesets.nerath.odds_sides import parse_pieces
    pieces = parse_pieces(value if isinstance(value, str) else ",".join(value), who)
    if len(pieces) > MAX_SIDE:
        raise OddsError(f"{who}: {len(pieces)} pieces; the web calculator takes at most {MAX_SIDE} a side "
                        f"(the command line, conquest odds, takes more)")
    return pieces


def check_battle_size(sides: dict[str, list[str]], sea: bool, order: str) -> None:
    """Refuse, before any work, a battle larger than the calculator answers in seconds: more than
    ``MAX_BATTLE_PIECES`` on a side, or a chain of more than ``MAX_BATTLE_STATES`` cells (with facedown
    Guardians, summed over the deals weighed)."""
    from conquest.rulesets.nerath.data import guardian_tiles
    from conquest.rulesets.nerath.odds import NerathBattle
    from conquest.rulesets.nerath.odds_sides import FACEDOWN, _Side
    for who, pieces in sides.items():
        if len(pieces) > MAX_BATTLE_PIECES:
            raise OddsError(f"--{who}: {len(pieces)} pieces; a side may list at most {MAX_BATTLE_PIECES} pieces")
    if "guardians" in sides:
        tiles = sides["guardians"]
        pool = sorted(set(guardian_tiles()) - set(tiles))
        m = tiles.count(FACEDOWN)
        if m > len(pool):
            return   # the calculator refuses it in its own words
        deals = (math.perm if order == "listed" else math.comb)(len(pool), m)
        concrete = [t if t != FACEDOWN else pool.pop() for t in tiles]
        if len(set(concrete)) < len(concrete):
            return   # a tile twice: refused by the calculator
        one = NerathBattle(sides["attacker"], concrete, dungeon=True)
        hits = [one.a.K, one.d.K]
    else:
        hits = [_Side(pieces, who == "attacker", sea, "cheapest", {}, True, who=who).K
                for who, pieces in sides.items()]
        deals = 1
    states = deals
    for k in hits:
        states *= k + 1
    if states > MAX_BATTLE_STATES:
        raise OddsError(f"this battle's chain has {'about ' if deals > 1 else ''}{states:,} states (hits each side "
                        f"can take: {', '.join(f'{w} {k}' for w, k in zip(sides, hits))}"
                        + (f"; {deals:,} deals of the facedown Guardians" if deals > 1 else "")
                        + f"): the calculator solves at most {MAX_BATTLE_STATES:,} (fewer pieces)")


class NerathCalculator(Calculator):
    title = "Nerath battle calculator"
    body = NerathOddsIn
    monte_carlo = True
    fields = (
        Field("attacker", "attacking pieces in order, e.g. \"footsoldier,2 siege,dragon\""),
        Field("defender", "defending pieces (a castle too); with --dungeon the Guardians, e.g. "
                          "\"guardian:troll,facedown\""),
        Field("ally", "the pieces of the defender's ally in the space (allied defenders split the damage)"),
        Field("sea", "a sea battle", kind="flag", default=False),
        Field("dungeon", "Heroes exploring a dungeon entrance against its Guardians (--defender)", kind="flag",
              default=False),
        Field("order", "casualties: cheapest or listed", default="cheapest"),
        Field("press", "always, or until-below=K pieces", default="always"),
        Field("attacker-cards", "attack-bonus cards, comma-separated", default=""),
        Field("defender-cards", "attack-bonus cards, comma-separated", default=""),
        Field("ally-cards", "the ally's attack-bonus cards", default=""),
    )

    def describe(self) -> dict[str, Any]:
        """Every Nerath piece kind (id, name, cost, die), the attack-bonus cards the calculator accepts, the
        Dungeon Guardian tiles (id, name, dice, abilities, Reward) and the Heroes who may fight them."""
        from conquest.rulesets.nerath import data as nd
        from conquest.rulesets.nerath.cards import event_cards, treasure_cards
        from conquest.rulesets.nerath.odds_sides import card_bonuses
        tb = nd.tables()
        pieces = []
        for p in nd.PIECE_NAMES:
            row = tb.pieces[p]
            pieces.append({"id": p, "name": row.name, "cost": row.cost, "die": row.die})
        cards = []
        for kind, deck in (("event", event_cards()), ("treasure", treasure_cards())):
            for cid, c in sorted(deck.items()):
                try:
                    bonus = card_bonuses([cid], "card")   # the calculator's own test of a simple modifier
                except OddsError:
                    continue
                cards.append({"id": cid, "name": c.get("name", cid), "kind": kind,
                              "bonus": [{"piece": p, "value": v} for p, v in bonus.items()]})
        guardians = [{"id": g.id, "name": g.name, "dice": list(g.dice), "first_strike": g.first_strike,
                      "heroes_need": g.heroes_need or None, "reward": g.reward}
                     for g in nd.guardian_tiles().values()]
        return {"pieces": pieces, "cards": cards, "max_side": MAX_SIDE, "orders": ["cheapest", "listed"],
                "guardians": guardians, "heroes": [nd.COUNTED[h] for h in nd.HEROES], "sea_kinds": list(SEA_KINDS)}

    def web(self, body: Any) -> dict[str, Any]:
        from conquest.rulesets.nerath.odds import Battle, NerathBattle, dungeon_battle
        from conquest.rulesets.nerath.odds_sides import parse_guardians
        try:
            battle: Battle
            if body.dungeon:
                if body.sea or body.ally is not None or body.defender_cards or body.ally_cards:
                    raise OddsError("dungeon: Heroes fight the Guardians of a dungeon entrance (no sea, ally or "
                                    "defender_cards)")
                tiles = body.defender if isinstance(body.defender, str) else ",".join(body.defender)
                battle = dungeon_battle(_web_side(body.attacker, "attacker"), parse_guardians(tiles, "defender"),
                                        order=body.order, press=body.press, attacker_cards=body.attacker_cards,
                                        heroes_need_lasts=body.heroes_need_lasts)
            else:
                defender = _web_side(body.defender, "defender")
                ally = _web_side(body.ally, "ally") if body.ally is not None else None
                if ally and len(defender) + len(ally) > MAX_SIDE:
                    raise OddsError(f"defender and ally: {len(defender) + len(ally)} pieces; the web calculator "
                                    f"takes at most {MAX_SIDE} a side (the command line, conquest odds, takes more)")
                battle = NerathBattle(_web_side(body.attacker, "attacker"), defender, sea=body.sea,
                                      order=body.order, press=body.press, attacker_cards=body.attacker_cards,
                                      defender_cards=body.defender_cards,
                                      hurt_dragon_fights=body.hurt_dragon_fights, ally=ally,
                                      ally_cards=body.ally_cards)
            return battle.solve().to_json()
        except OddsError as e:
            raise OddsError(str(e).replace("--press", "press")) from None

    def cli(self, values: dict[str, Any], options: dict[str, Any], monte_carlo: int | None,
            seed: int) -> tuple[dict[str, Any], list[Block]]:
        from conquest.rulesets.nerath.odds import Battle, NerathBattle, dungeon_battle
        from conquest.rulesets.nerath.odds_sides import parse_guardians, parse_pieces
        attacker, defender, ally = values["attacker"], values["defender"], values["ally"]
        sea, dungeon, order, press = bool(values["sea"]), bool(values["dungeon"]), values["order"], values["press"]
        if attacker is None or defender is None:
            raise OddsError("give both --attacker and --defender (pieces, comma-separated)")
        sides = {"attacker": parse_pieces(attacker, "attacker")}
        if dungeon:
            sides["guardians"] = parse_guardians(defender, "defender")
        else:
            sides["defender"] = parse_pieces(defender, "defender")
            if ally is not None:
                sides["ally"] = parse_pieces(ally, "ally")
        check_battle_size(sides, sea, order)
        battle: Battle
        if dungeon:
            if sea or ally is not None or values["defender_cards"] or values["ally_cards"]:
                raise OddsError("--dungeon: Heroes fight the Guardians of a dungeon entrance (no --sea, --ally or "
                                "--defender-cards)")
            battle = dungeon_battle(parse_pieces(attacker, "attacker"), parse_guardians(defender, "defender"),
                                    order=order, press=press, attacker_cards=_cards(values["attacker_cards"]),
                                    heroes_need_lasts=str(options["heroes_need_lasts"]))
        else:
            battle = NerathBattle(parse_pieces(attacker, "attacker"), parse_pieces(defender, "defender"), sea=sea,
                                  order=order, press=press, attacker_cards=_cards(values["attacker_cards"]),
                                  defender_cards=_cards(values["defender_cards"]),
                                  hurt_dragon_fights=bool(options["hurt_dragon_fights"]),
                                  ally=parse_pieces(ally, "ally") if ally is not None else None,
                                  ally_cards=_cards(values["ally_cards"]))
        if monte_carlo is not None:
            from conquest.rulesets.nerath.montecarlo import monte_carlo as run_mc
            result = run_mc(battle, monte_carlo, seed)
        else:
            result = battle.solve()
        data = result.to_json()
        return data, _report(battle, data, sea, dungeon, order)


def _report(battle: Any, data: dict[str, Any], sea: bool, dungeon: bool, order: str) -> list[Block]:
    """The text form of a battle's odds (what ``conquest odds nerath`` prints without ``--json``)."""
    if dungeon:
        head = (f"dungeon battle: {len(battle.attacker_pieces)} Heroes against the Guardians "
                f"{', '.join(battle.defender_pieces)}")
    else:
        ally_list = battle.ally_pieces
        allies = f" and {len(ally_list)} of an ally" if ally_list else ""
        head = (f"{'sea' if sea else 'land'} battle: {len(battle.attacker_pieces)} attacking against "
                f"{len(battle.defender_pieces)} defending{allies}")
    out: list[Block] = [f"{head}; casualties {order}, press {battle.press}"]
    out.append((["result", "probability"], [
        ["attacker wins (plunders the dungeon)" if dungeon else "attacker wins (conquers)",
         f"{data['attacker_wins']:.6f}"],
        ["the Guardians hold" if dungeon else "defender holds", f"{data['defender_holds']:.6f}"
         + (f"  (retreats {data['attacker_retreats']:.6f})" if data["attacker_retreats"] else "")],
        ["both destroyed", f"{data['both_destroyed']:.6f}"]]))
    for who in ("attacker", "defender"):
        rows = data[f"{who}_survivors"]
        table: list[list[str]] = []
        for row in rows[:8]:
            text = ("; ".join(f"{r}: {', '.join(p) or '(none)'}" for r, p in row["by_realm"].items())
                    if "by_realm" in row else ", ".join(row["pieces"]) or "(none)")
            table.append([text, f"{row['probability']:.6f}"])
        if len(rows) > 8:
            table.append([f"... {len(rows) - 8} more", f"{sum(r['probability'] for r in rows[8:]):.6f}"])
        out.append(([f"{who} survivors", "probability"], table))
    gold = data["expected_gold_lost"]
    out.append(f"expected gold lost: attacker {gold['attacker']:.4f}, defender {gold['defender']:.4f}; "
               f"expected rounds {data['expected_rounds']:.4f}")
    if dungeon:
        out.append(f"a won dungeon: a Treasure card and the Guardians' Rewards, {data['reward_gold']:.4g} gold "
                   f"(expected {data['expected_reward_gold']:.4f})")
    out.append(f"method: {data['method']}; {data['seconds']} s")
    return out
