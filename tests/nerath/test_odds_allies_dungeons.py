"""Exact odds of the Nerath battles with allied defenders and of dungeon battles (Heroes against Dungeon
Guardians): hand-computed cases quoting the rules document, the calculator against its own rational arithmetic
and against Monte Carlo battles played by the ruleset's own rules, battles read from positions (facedown
Guardians never read), the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.data import guardian_tiles
from conquest.rulesets.nerath.montecarlo import (
    HiddenGuardians,
    NerathBattle,
    OddsError,
    battle_document,
    dungeon_battle,
    monte_carlo,
    parse_guardians,
)
from conquest.rulesets.nerath.odds import beyond_calculator

ROOT = Path(__file__).resolve().parents[2]
TILES = sorted(guardian_tiles())


def close(x: float, y: F | float, tol: float = 1e-12) -> bool:
    return abs(x - float(y)) < tol


def row_p(rows: list[dict[str, Any]], **by_realm: list[str]) -> float:
    """The probability of the defender survivors row whose realms keep exactly these pieces."""
    return sum(r["probability"] for r in rows if r.get("by_realm") == by_realm)


def allies(a: list[str], d: list[str], ally: list[str], **kw: Any) -> NerathBattle:
    return NerathBattle(a, d, ally=ally, names=("nerath", "vailin"), **kw)


def agrees_with_the_rules(b: Any, n: int, seed: int) -> None:
    """Each of the three results within 4.5 standard errors of n battles played by the rules."""
    ex = b.solve()
    mc = monte_carlo(b, n, seed=seed)
    for k in ("attacker_wins", "defender_holds", "both_destroyed"):
        p = getattr(ex, k)
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        assert abs(getattr(mc, k) - p) <= 4.5 * se, (b.attacker_pieces, b.defender_pieces, k, p, getattr(mc, k))
    assert abs(ex.attacker_wins + ex.defender_holds + ex.both_destroyed - 1) < 1e-12


# ------------------------------------------------------------------------------------ allied defenders
def test_the_odd_hit_goes_to_the_ally_with_more_pieces():
    # "If there is no consensus, each takes half the total damage. On an number of hits, the ally with the most
    # pieces in the space takes the extra" - one round (the lone attacker then retreats): a hit (1/6) always
    # falls on Vailin's two footsoldiers
    b = allies(["footsoldier"], ["footsoldier"], ["footsoldier", "footsoldier"], press="until-below=2")
    r = b.solve(exact=True).to_json()
    assert close(row_p(r["defender_survivors"], nerath=["footsoldier"], vailin=["footsoldier"]), F(1, 6))
    assert row_p(r["defender_survivors"], nerath=[], vailin=["footsoldier", "footsoldier"]) == 0.0
    assert close(row_p(r["defender_survivors"], nerath=["footsoldier"], vailin=["footsoldier", "footsoldier"]),
                 F(5, 6))


def test_an_odd_hit_between_equal_allies_is_decided_at_random():
    # "if you each have the same number of pieces there, decide randomly"
    b = allies(["footsoldier"], ["footsoldier"], ["footsoldier"], press="until-below=2")
    rows = b.solve().to_json()["defender_survivors"]
    assert close(row_p(rows, nerath=[], vailin=["footsoldier"]), F(1, 12))
    assert close(row_p(rows, nerath=["footsoldier"], vailin=[]), F(1, 12))


def test_hits_one_ally_cannot_take_go_to_the_other():
    # "If more hits are scored against one ally than he has pieces to lose, the other ally must take all the
    # remaining damage." Two Siege Engines roll 4 d8 (3/8 each); 4 hits on 1 + 4 footsoldiers: Nerath's half
    # (2) is one more than it can take, so Vailin loses 3 - the only way Vailin keeps just one footsoldier.
    b = allies(["siege", "siege"], ["footsoldier"], ["footsoldier"] * 4, press="until-below=3")
    rows = b.solve(exact=True).to_json()["defender_survivors"]
    assert close(row_p(rows, nerath=[], vailin=["footsoldier"]), F(3, 8) ** 4)
    # 3 hits: Nerath 1, Vailin 2 (the extra one to the ally with more pieces)
    three = 4 * F(3, 8) ** 3 * F(5, 8)
    assert close(row_p(rows, nerath=[], vailin=["footsoldier", "footsoldier"]), three)


def test_each_realm_rolls_with_its_own_attack_bonus_and_owns_its_castle():
    # every Nerath attack-bonus effect is its own realm's (effects.attack_bonus(state, realm, ...)): a +1 card
    # of the first defender makes its Wizard hit on 5+, not its ally's
    b = allies(["footsoldier"], ["wizard"], ["wizard", "castle"], defender_cards=["k-dark-rites"])
    assert b.d.dice(0, True) == ((10, 5, 1), (10, 6, 1))
    assert b.d.dice(0, False) == ((20, 6, 1),)          # the ally's Castle (d20)
    r = b.solve().to_json()
    kept = {tuple(sorted(row["by_realm"]["vailin"])) for row in r["defender_survivors"]}
    assert ("castle",) in kept and all("castle" not in row["by_realm"]["nerath"] for row in r["defender_survivors"])
    # the Castle is captured when the attacker wins: "If you conquer a land space containing a Castle, you
    # capture it." - the defenders' expected gold lost counts it then
    assert r["expected_gold_lost"]["defender"] > 4 * r["attacker_wins"]


def test_allied_float_agrees_with_rational_arithmetic():
    rng = random.Random(3)
    kinds = ["footsoldier", "siege", "fighter", "wizard", "monster", "dragon"]
    for _ in range(6):
        b = allies([rng.choice(kinds) for _ in range(rng.randint(1, 3))],
                   [rng.choice(kinds) for _ in range(rng.randint(1, 2))] + ["castle"],
                   [rng.choice(kinds) for _ in range(rng.randint(1, 2))],
                   order=rng.choice(["cheapest", "listed"]), press=rng.choice(["always", "until-below=2"]))
        f, e = b.solve(), b.solve(exact=True)
        for k in ("attacker_wins", "defender_holds", "both_destroyed", "expected_rounds"):
            assert abs(getattr(f, k) - getattr(e, k)) < 1e-12, k
        assert e.extra["probability_total"] == 1.0


@pytest.mark.parametrize("b", [
    allies(["footsoldier", "footsoldier", "siege", "monster"], ["footsoldier", "wizard"], ["footsoldier", "castle"]),
    allies(["dragon", "footsoldier", "siege"], ["dragon", "castle"], ["monster", "footsoldier"], order="listed",
           hurt_dragon_fights=False),
    allies(["siege", "siege", "storm", "wizard"], ["footsoldier", "footsoldier"], ["fighter"],
           press="until-below=3", defender_cards=["k-dark-rites"], attacker_cards=["cube-of-force"]),
    allies(["warship", "fighter", "storm", "dragon"], ["warship", "wizard"], ["storm", "warship"], sea=True),
], ids=["castle-of-the-ally", "dragons-listed", "cards-and-retreat", "sea"])
def test_allied_exact_agrees_with_monte_carlo_through_the_rules(b):
    """The rules' own damage split (engine: battle.begin_damage, its chance node 'extra REALM'), each ally
    choosing its casualties by the order policy: "if allied pieces share a space, they all defend the space
    together"."""
    agrees_with_the_rules(b, 400, seed=len(b.attacker_pieces))


def test_a_declared_allied_battle_is_the_calculators_battle():
    rs = get_ruleset("nerath")
    b = allies(["footsoldier", "siege", "dragon"], ["footsoldier", "castle"], ["wizard", "footsoldier"])
    doc, x, _a, _d = battle_document(b)
    r = rs.action_odds(rs.state_from_json(doc), f"battle {x}")
    ex = b.solve()
    assert r["battle"]["allies"] == {"vailin": ["footsoldier", "wizard"], "nerath": ["footsoldier", "castle"]}
    got = {o["outcome"]: o["probability"] for o in r["outcomes"]}
    assert close(got["attacker wins"], ex.attacker_wins) and close(got["both destroyed"], ex.both_destroyed)
    assert abs(r["expected_gold_lost"]["defender"] - ex.expected_gold_lost["defender"]) < 1e-12


def test_press_mid_allied_battle_reads_each_realms_losses():
    # "If pieces remain on both sides at the end of a battle round, the attacker decides whether to continue the
    # battle (press the attack)": the odds of pressing start from each ally's pieces left, its wounded Dragons
    rs = get_ruleset("nerath")
    b = allies(["footsoldier"] * 3 + ["dragon"], ["footsoldier", "dragon"], ["footsoldier", "footsoldier"])
    doc, x, _a, _d = battle_document(b)
    s = rs.state_from_json(doc).apply(f"battle {x}")
    # round 1: the attacker scores 3 hits: Vailin (2 pieces) and Nerath (2) - the odd one decided at random
    s = s.apply("hits 3").apply("hits 0")
    assert s.to_json()["battle"]["step"] == "split"
    s = s.apply("extra nerath")
    # Nerath takes 2 (chooses its footsoldier and wounds its Dragon), Vailin 1
    while s.to_json()["battle"]["step"] == "assign":
        q = s.to_json()["battle"]["queue"][0][0]
        s = s.apply("hit footsoldier" if q == "vailin" or ("hit", "footsoldier") in s.legal_actions()
                    else "hit dragon")
    assert s.to_json()["battle"]["step"] == "press"
    r = rs.action_odds(s, "press")
    ref = NerathBattle(["footsoldier"] * 3 + ["dragon"], ["footsoldier"], ally=["dragon"], names=("vailin", "nerath"),
                       wounded=(0, 0, 1)).solve()
    assert close({o["outcome"]: o["probability"] for o in r["outcomes"]}["attacker wins"], ref.attacker_wins)
    assert r["battle"]["allies"] == {"vailin": ["footsoldier"], "nerath": ["dragon"]}


# ------------------------------------------------------------------------------------ dungeon battles
def dungeon(a: list[str], tiles: list[str], **kw: Any) -> NerathBattle:
    return NerathBattle(a, tiles, dungeon=True, **kw)


def test_heroes_attack_the_guardian_as_in_a_battle():
    # "Follow the usual rules for battles, with the Heroes as attacker and the Dungeon Guardian as defender":
    # a Fighter's d10 hits on 6+ (1/2), the Skeleton Guard's d8 (3/8); both strike in the same step
    r = dungeon(["fighter"], ["skeleton-guard"]).solve(exact=True)
    cont = F(1, 2) * F(5, 8)
    assert r.extra["exact_fractions"]["attacker_wins"] == str(F(1, 2) * F(5, 8) / (1 - cont))
    assert r.extra["exact_fractions"]["both_destroyed"] == str(F(1, 2) * F(3, 8) / (1 - cont))
    assert {tuple(x["pieces"]): x["probability"] for x in r.defender_survivors} == {
        ("skeleton-guard",): r.defender_holds, (): r.attacker_wins + r.both_destroyed}


def test_heroes_need_8_and_a_card_bonus_trumps_it():
    # "Heroes Need 7+/8+ to Hit: A Hero scores a hit against the Guardian only on an attack roll of the
    # specified number or higher." / "An Event card that grants a Hero a bonus to attack rolls trumps this
    # special ability." The Wraith (d10, Heroes need 8): a Fighter hits 3/10; with Dark Rites (+1) on 5+: 6/10
    plain = dungeon(["fighter"], ["wraith"]).solve(exact=True)
    assert plain.extra["exact_fractions"]["attacker_wins"] == str(F(3, 10) * F(1, 2) / (1 - F(7, 10) * F(1, 2)))
    card = dungeon(["fighter"], ["wraith"], attacker_cards=["k-dark-rites"]).solve(exact=True)
    assert card.extra["exact_fractions"]["attacker_wins"] == str(F(6, 10) * F(1, 2) / (1 - F(4, 10) * F(1, 2)))


def test_a_treasure_bonus_does_not_trump_heroes_need():
    # "A Hero scores a hit against the Guardian only on an attack roll of the specified number or higher." /
    # "An Event card that grants a Hero a bonus to attack rolls trumps this special ability." The Sword of Kas
    # (a Treasure: +1 for Fighters) is no Event card: against the Wraith the Fighter still hits 3/10; against
    # the Skeleton Guard (d8, no such ability) its +1 counts: 5+ on a d10, 6/10
    plain = dungeon(["fighter"], ["wraith"]).solve(exact=True)
    sword = dungeon(["fighter"], ["wraith"], attacker_cards=["sword-of-kas"]).solve(exact=True)
    assert sword.extra["exact_fractions"] == plain.extra["exact_fractions"]
    both = dungeon(["fighter"], ["wraith"], attacker_cards=["sword-of-kas", "k-dark-rites"])
    assert both.a.dice(0, False, 8) == ((10, 4, 1),)   # the Event card trumps: 6 less the whole +2
    skeleton = dungeon(["fighter"], ["skeleton-guard"], attacker_cards=["sword-of-kas"])
    assert skeleton.a.dice(0, False, 0) == ((10, 5, 1),)


def test_a_position_s_treasure_bonus_does_not_trump_heroes_need():
    """``battle dN`` read from a position: the Treasure's record (``treasure``, its sixth field) counts as a
    bonus but not as the Event card's that trumps "Heroes Need"."""
    rs = get_ruleset("nerath")
    doc, x, _a, _d = battle_document(dungeon(["fighter"], ["wraith"]))
    doc["guardians"][x][0]["face_up"] = True
    doc["effects"] = [["karkoth", "attack_bonus", 1, "fighter", "game", "treasure"]]
    r = rs.action_odds(rs.state_from_json(doc), f"battle {x}")
    assert close(r["attacker_wins"], dungeon(["fighter"], ["wraith"]).solve().attacker_wins)
    doc["effects"] = [["karkoth", "attack_bonus", 1, "fighter", "turn"]]      # an Event card's
    r = rs.action_odds(rs.state_from_json(doc), f"battle {x}")
    ref = dungeon(["fighter"], ["wraith"], attacker_cards=["k-dark-rites"]).solve()
    assert close(r["attacker_wins"], ref.attacker_wins)


def test_the_highest_need_holds_against_every_guardian_while_its_guardian_stands():
    # "If the dungeon entrance contains multiple Dungeon Guardians, the disadvantage affects all the Heroes'
    # attack rolls during that battle-even against Dungeon Guardians that would otherwise be easy to hit."
    # (option heroes_need_lasts=while_standing, reading 22: held while the Guardian with it stands)
    b = dungeon(["fighter"], ["wraith", "goblin-pack"], heroes_need_lasts="while_standing")
    assert b.d.variant == [8, 8, 8, 0]          # cheapest: the Goblins' two dice go first, the Wraith last
    assert b.a.dice(0, False, 8) == ((10, 8, 1),)
    listed = dungeon(["fighter"], ["wraith", "goblin-pack"], order="listed", heroes_need_lasts="while_standing")
    assert listed.d.variant == [8, 0, 0, 0]     # the Wraith first: then the Fighter hits on 6+ again
    assert listed.solve().attacker_wins > b.solve().attacker_wins


def test_heroes_need_lasts_the_whole_battle_by_default():
    # the same sentence read as "during that battle": the Wraith's 8+ holds after the Wraith is destroyed
    # (heroes_need_lasts=whole_battle, the default, reading 22)
    b = dungeon(["fighter"], ["wraith", "goblin-pack"], order="listed")
    assert b.d.variant == [8, 8, 8, 8]
    standing = dungeon(["fighter"], ["wraith", "goblin-pack"], order="listed", heroes_need_lasts="while_standing")
    assert b.solve().attacker_wins < standing.solve().attacker_wins
    with pytest.raises(OddsError, match="heroes_need_lasts 'always'"):
        dungeon(["fighter"], ["wraith"], heroes_need_lasts="always")


def test_first_strike_guardians_strike_with_the_wizards():
    # "First Strike: If there are multiple Dungeon Guardians, all those with First Strike attack at the same
    # time. Your Wizards and any other Heroes that can make First Strike attacks attack them at the same time."
    # A Wizard (d10: 1/2) and the Kobold Trappers (First Strike d6: 1/6) roll together; nobody rolls after.
    r = dungeon(["wizard"], ["kobold-trappers"]).solve(exact=True)
    cont = F(1, 2) * F(5, 6)
    assert r.extra["exact_fractions"]["attacker_wins"] == str(F(1, 2) * F(5, 6) / (1 - cont))
    assert r.extra["exact_fractions"]["both_destroyed"] == str(F(1, 2) * F(1, 6) / (1 - cont))


def test_a_guardian_loses_one_die_a_hit_chosen_by_its_controller():
    # "If a Guardian has multiple attack dice, each time you score a hit against it, it loses one of its attack
    # dice (the opponent controlling it chooses which)." Policy cheapest: the fewest faces first
    b = dungeon(["fighter"], ["minotaur"])
    assert b.d.K == 2 and b.d.dice(0, False) == ((8, 6, 1), (12, 6, 1)) and b.d.dice(1, False) == ((12, 6, 1),)
    assert dungeon(["fighter"], ["minotaur"], order="listed").d.dice(1, False) == ((8, 6, 1),)
    # a Guardian with dice already lost (a battle in progress) fights with what it has left
    hurt = dungeon(["fighter"], ["minotaur"], guardian_dice={"minotaur": [12]})
    assert hurt.d.K == 1 and hurt.solve().attacker_wins > b.solve().attacker_wins


def test_a_won_dungeon_brings_the_rewards_of_the_guardians_fought():
    # "Reward: At the end of the battle, if you won, your realm gets an extra reward in Gold in addition to the
    # Treasure gained from plundering the dungeon." Ogre 2 + Troll 2
    r = dungeon(["fighter", "wizard", "wizard"], ["ogre", "troll"]).solve()
    assert r.extra["reward_gold"] == 4 and close(r.extra["expected_reward_gold"], 4 * r.attacker_wins)


def test_dungeon_float_agrees_with_rational_arithmetic():
    rng = random.Random(11)
    for _ in range(6):
        b = dungeon([rng.choice(["fighter", "wizard"]) for _ in range(rng.randint(1, 3))], rng.sample(TILES, 2),
                    order=rng.choice(["cheapest", "listed"]), press=rng.choice(["always", "until-below=2"]))
        f, e = b.solve(), b.solve(exact=True)
        for k in ("attacker_wins", "defender_holds", "both_destroyed", "expected_rounds"):
            assert abs(getattr(f, k) - getattr(e, k)) < 1e-12, k


@pytest.mark.parametrize("b", [
    dungeon(["fighter", "wizard", "wizard"], ["wraith", "troll"]),
    dungeon(["fighter", "fighter", "wizard", "wizard"], ["lich"]),
    dungeon(["fighter", "wizard"], ["minotaur", "kobold-trappers"], order="listed", press="until-below=2"),
    dungeon(["wizard", "fighter"], ["beholder", "goblin-pack"], attacker_cards=["k-dark-rites"],
            guardian_dice={"beholder": [12]}),
    dungeon(["fighter", "fighter"], ["mind-flayer", "zombie-horde", "gelatinous-cube"]),
    dungeon(["fighter", "fighter", "wizard"], ["wraith", "goblin-pack"], order="listed",
            heroes_need_lasts="whole_battle"),
], ids=["need-8-and-two-dice", "lich", "first-strike-listed-retreat", "card-and-hurt-guardian", "three-guardians",
        "need-for-the-whole-battle"])
def test_dungeon_exact_agrees_with_monte_carlo_through_the_rules(b):
    """The rules' own dungeon battle (Guardians' dice and hits, Heroes' need, first strikes), the Guardians'
    damage chosen by their seat with the order policy: "Multiple Dungeon Guardians must be fought
    simultaneously. The opponent controlling them decides how to take damage." """
    agrees_with_the_rules(b, 400, seed=len(b.defender_pieces))


def test_facedown_guardians_are_the_average_over_the_tiles_they_may_be():
    h = dungeon_battle(["fighter", "wizard"], ["facedown"], unseen=TILES[:6])
    assert isinstance(h, HiddenGuardians) and len(h.battles) == 6
    r = h.solve()
    each = [dungeon(["fighter", "wizard"], [t]).solve() for t in TILES[:6]]
    assert close(r.attacker_wins, sum(e.attacker_wins for e in each) / 6)
    assert close(r.expected_rounds, sum(e.expected_rounds for e in each) / 6)
    # the Rewards: expected over the deals; what a win brings, on average over the wins
    assert close(r.extra["expected_reward_gold"], sum(e.extra["expected_reward_gold"] for e in each) / 6)
    assert close(r.extra["reward_gold"] * r.attacker_wins, r.extra["expected_reward_gold"])
    # a face-up Guardian stays itself, the facedown one is any other tile
    two = dungeon_battle(["fighter", "wizard"], ["troll", "facedown"], unseen=TILES)
    assert isinstance(two, HiddenGuardians) and len(two.battles) == len(TILES) - 1
    assert all(b.defender_pieces[0] == "troll" for b in two.battles)
    agrees_with_the_rules(h, 600, seed=5)


def test_a_declared_dungeon_battle_never_reads_the_facedown_tile():
    """``battle dN`` against a facedown Guardian: the average over every tile not face up on the board - the
    same odds whichever tile lies there and whatever the facedown pile holds."""
    rs = get_ruleset("nerath")
    b = dungeon(["fighter", "wizard"], ["troll"])
    doc, x, _a, _d = battle_document(b)
    doc["guardians"]["d2"] = [{"tile": "lich", "face_up": True, "dice": [12, 10, 8]}]   # seen elsewhere
    answers = []
    for tile in ("troll", "goblin-pack", "young-dragon"):
        d = json.loads(json.dumps(doc))
        d["guardians"][x] = [{"tile": tile, "face_up": False, "dice": list(guardian_tiles()[tile].dice)}]
        d["guardian_pile"] = sorted(set(TILES) - {tile, "lich"})[: 3 + len(answers)]
        r = rs.action_odds(rs.state_from_json(d), f"battle {x}")
        r.pop("seconds")
        answers.append(r)
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["battle"]["guardians"] == ["facedown"]
    unseen = [t for t in TILES if t != "lich"]
    ref = dungeon_battle(["fighter", "wizard"], ["facedown"], unseen=unseen).solve()
    got = {o["outcome"]: o["probability"] for o in answers[0]["outcomes"]}
    assert close(got["attacker wins (plunders the dungeon)"], ref.attacker_wins)


def test_press_mid_dungeon_battle_fights_the_dice_left():
    rs = get_ruleset("nerath")
    doc, x, _a, _d = battle_document(dungeon(["fighter", "wizard"], ["troll"]))
    s = rs.state_from_json(doc).apply(f"battle {x}")
    # the Wizard's first strike hits: the Troll loses one of its two d10 (its seat has one choice: a d10)
    s = s.apply("hits 1")
    s = s.apply("hits 0").apply("hits 0")
    assert s.to_json()["battle"]["step"] == "press" and s.to_json()["guardians"][x][0]["dice"] == [10]
    r = rs.action_odds(s, "press")
    ref = dungeon(["fighter", "wizard"], ["troll"], guardian_dice={"troll": [10]}).solve()
    assert close(r["attacker_wins"], ref.attacker_wins) and r["battle"]["kind"] == "dungeon"
    assert r["reward_gold"] == guardian_tiles()["troll"].reward
    retreat = rs.action_odds(s, "retreat")
    assert retreat["outcomes"][0]["probability"] == 1.0


def test_an_empty_entrance_is_plundered_without_dice():
    # "(an entrance left empty ... the next Heroes to enter plunder it)" - docs/rules/nerath.md §22
    rs = get_ruleset("nerath")
    doc, x, _a, _d = battle_document(dungeon(["fighter"], ["troll"]))
    doc["guardians"][x] = []
    with pytest.raises(OddsError, match="no Dungeon Guardians in that entrance"):
        rs.action_odds(rs.state_from_json(doc), f"battle {x}")


def test_dungeon_battles_in_a_played_game_get_odds():
    """A position reached by play (the standard board: a facedown Guardian on each entrance)."""
    from conquest.analysis.runner import sample_chance
    from conquest.rulesets.nerath.data import DUNGEON
    from conquest.rulesets.nerath.state import IX, KIND
    rs = get_ruleset("nerath")
    rng = random.Random(2)
    st = rs.new_game(2, {}, 2)
    for _ in range(5000):
        if st.to_move == CHANCE:
            st = st.apply_unchecked(sample_chance(st, rng))
            continue
        acts = st.legal_actions()
        hits = [a for a in acts if a[0] == "battle" and KIND[IX[a[1]]] == DUNGEON]
        if hits:
            break
        st = st.apply_unchecked(rng.choice(acts))
    else:
        raise AssertionError("no dungeon battle declared")
    r = rs.action_odds(st, hits[0])
    assert r["battle"]["kind"] == "dungeon" and "facedown" in r["battle"]["guardians"]
    assert abs(sum(o["probability"] for o in r["outcomes"]) - 1) < 1e-9
    assert "averaged over" in r["method"]


# ------------------------------------------------------------------------------------ command line
def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conquest.cli", "odds", "nerath", *args], capture_output=True,
                          text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_cli_dungeon_and_allies():
    p = run_cli("--attacker", "fighter, 2 wizard", "--dungeon", "--defender", "guardian:troll, wraith", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["attacker_wins"] == dungeon(["fighter", "wizard", "wizard"],
                                                            ["troll", "wraith"]).solve().attacker_wins
    p = run_cli("--attacker", "3 footsoldier", "--defender", "footsoldier, castle", "--ally", "wizard", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["attacker_wins"] == NerathBattle(["footsoldier"] * 3, ["footsoldier", "castle"],
                                                 ally=["wizard"]).solve().attacker_wins
    assert {"defender", "ally"} == set(data["defender_survivors"][0]["by_realm"])


@pytest.mark.parametrize("args, message", [
    (["--attacker", "fighter", "--dungeon", "--defender", "guardian:dragonlord"], "unknown Dungeon Guardian"),
    (["--attacker", "footsoldier", "--dungeon", "--defender", "troll"], "cannot explore a dungeon"),
    (["--attacker", "fighter", "--dungeon", "--defender", "troll", "--sea"], "--dungeon"),
    (["--attacker", "fighter", "--dungeon", "--defender", "troll, troll"], "each Dungeon Guardian tile is unique"),
    (["--attacker", "fighter", "--defender", "castle", "--ally", "castle"], "only 1 Castle"),
    (["--attacker", "fighter", "--defender", "footsoldier", "--ally", "knight"], "ally: unknown piece 'knight'"),
])
def test_cli_bad_dungeon_and_ally_input(args, message):
    p = run_cli(*args)
    assert p.returncode == 2
    assert message in p.stderr and len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_parse_guardians_reads_ids_names_and_facedown():
    assert parse_guardians("guardian:troll, Giant Spider, 2 facedown") == ["troll", "giant-spider", "facedown",
                                                                           "facedown"]
    with pytest.raises(OddsError, match="no Guardians given"):
        parse_guardians(" , ")


def test_a_positions_battle_says_what_the_calculator_cannot_state():
    # the calculator's input is pieces, Guardian tiles and cards by id: a game's battle record lists what else
    # the position holds, so a link to the calculator page can say the odds there differ
    rs = get_ruleset("nerath")
    doc, x, _a, _d = battle_document(allies(["footsoldier", "dragon"], ["footsoldier", "castle"], ["wizard"]))
    assert rs.action_odds(rs.state_from_json(doc), f"battle {x}")["battle"]["beyond_calculator"] == []
    doc, x, _a, _d = battle_document(dungeon(["fighter", "wizard"], ["troll"]))
    s = rs.state_from_json(doc).apply(f"battle {x}").apply("hits 1").apply("hits 0").apply("hits 0")
    assert rs.action_odds(s, "press")["battle"]["beyond_calculator"] == ["the dice the Guardians have lost"]
    doc["guardians"]["d2"] = [{"tile": "lich", "face_up": True, "dice": [12, 10, 8]}]
    doc["guardians"][x] = [{"tile": "troll", "face_up": False, "dice": [10, 10]}]
    seen = rs.action_odds(rs.state_from_json(doc), f"battle {x}")["battle"]["beyond_calculator"]
    assert len(seen) == 1 and "face up elsewhere" in seen[0]
    b = NerathBattle(["dragon"], ["footsoldier"], wounded=(1, 0))
    b.a.bonus = {"dragon": 1}
    assert beyond_calculator(b) == ["wounded Dragons", "the attack bonuses in force"]
    # the calculator page states no heroes_need_lasts (it uses the default, whole_battle): a game played with
    # while_standing says so
    doc, x, _a, _d = battle_document(dungeon(["fighter"], ["wraith", "goblin-pack"]))
    doc["options"]["heroes_need_lasts"] = "while_standing"
    said = rs.action_odds(rs.state_from_json(doc), f"battle {x}")["battle"]["beyond_calculator"]
    assert said == ['"Heroes Need" held only while a Guardian with it stands (option heroes_need_lasts)']
