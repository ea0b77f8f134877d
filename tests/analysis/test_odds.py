"""Exact odds: the Nerath battle calculator against hand-computed cases (quoting the rules document), against
its own rational arithmetic, against Monte Carlo battles played by the ruleset's rules; bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from conquest.analysis.odds import NerathBattle, OddsError, PressPolicy, parse_pieces
from conquest.rulesets.nerath.odds import battle_position, monte_carlo

ROOT = Path(__file__).resolve().parents[2]


def solve(a: str, d: str, **kw: object) -> dict:
    return NerathBattle(parse_pieces(a, "attacker"), parse_pieces(d, "defender"), **kw).solve().to_json()


def exact(a: str, d: str, **kw: object):
    return NerathBattle(parse_pieces(a, "attacker"), parse_pieces(d, "defender"), **kw).solve(exact=True)


def close(x: float, y: F | float, tol: float = 1e-12) -> bool:
    return abs(x - float(y)) < tol


# ------------------------------------------------------------------------------------ hand-computed cases
def test_one_footsoldier_each():
    # "You score a hit if you roll a 6 or higher." (a d6: 1/6) / "If pieces remain on both sides at the end of
    # a battle round, the attacker decides whether to continue the battle (press the attack)"
    r = solve("footsoldier", "footsoldier")
    both_miss = F(5, 6) ** 2
    assert close(r["attacker_wins"], F(1, 6) * F(5, 6) / (1 - both_miss))
    assert close(r["both_destroyed"], F(1, 36) / (1 - both_miss))
    assert close(r["defender_holds"], F(5, 11))
    assert close(r["expected_rounds"], 1 / (1 - both_miss))
    assert close(r["expected_gold_lost"]["attacker"], F(6, 11))
    e = exact("footsoldier", "footsoldier")
    assert e.extra["exact_fractions"] == {"attacker_wins": "5/11", "both_destroyed": "1/11"}


def test_first_strike_hits_before_the_defender_strikes_back():
    # "Pieces with the First Strike ability roll their attack dice before other pieces ... If they score hits,
    # the opposing pieces take damage before they have the opportunity to strike back."
    r = solve("wizard", "footsoldier")            # a Wizard's d10 hits on 6+: 1/2
    cont = F(1, 2) * F(5, 6)
    assert close(r["attacker_wins"], F(1, 2) / (1 - cont))            # 6/7
    assert close(r["defender_holds"], F(1, 2) * F(1, 6) / (1 - cont))
    assert r["both_destroyed"] == 0.0


def test_first_strike_on_both_sides_is_simultaneous():
    # "If both the attacker and the defender have pieces with First Strike, the First Strike attacks happen at
    # the same time, and both sides score hits and take damage before continuing"
    r = solve("wizard", "wizard")
    for k in ("attacker_wins", "defender_holds", "both_destroyed"):
        assert close(r[k], F(1, 3))


def test_siege_engine_rolls_two_dice_only_when_attacking():
    # "Powerful Attack: Roll 2 [d8] when attacking and can score 2 hits if both rolls are 6+."
    r = solve("siege", "2 footsoldier")
    e = exact("siege", "2 footsoldier")
    assert close(r["attacker_wins"], float(F(e.extra["exact_fractions"]["attacker_wins"])))
    # the first round alone: both d8 hit (9/64) and both footsoldiers miss (25/36) wins at once
    one_round = NerathBattle(["siege"], ["footsoldier", "footsoldier"], press="until-below=2").solve()
    assert close(one_round.attacker_wins, F(9, 64) * F(25, 36))
    # defending, a Siege Engine rolls one d8 (3/8)
    d = solve("footsoldier", "siege")
    cont = F(5, 6) * F(5, 8)
    assert close(d["attacker_wins"], F(1, 6) * F(5, 8) / (1 - cont))


def test_castle_defends_with_a_d20_and_is_captured():
    # "When a Castle takes damage, it becomes inactive and plays no more part in the current battle" / "If you
    # conquer a land space containing a Castle, you capture it." (the Castle's die: d20, see pieces.yaml)
    r = solve("footsoldier", "castle")
    cont = F(5, 6) * F(1, 4)
    assert close(r["attacker_wins"], F(1, 6) * F(1, 4) / (1 - cont))
    assert close(r["both_destroyed"], F(1, 6) * F(3, 4) / (1 - cont))
    assert close(r["expected_gold_lost"]["defender"], 4 * r["attacker_wins"])   # a captured Castle
    # the defender keeps its Castle whenever it keeps the space (also when both sides are destroyed)
    keeps = sum(s["probability"] for s in r["defender_survivors"] if s["pieces"] == ["castle"])
    assert close(keeps, r["defender_holds"] + r["both_destroyed"])


def test_durable_dragon_takes_two_hits():
    # "Dragons are Durable and can take the damage from a single hit without being destroyed." A footsoldier
    # (1/6) against a Dragon (d20: 3/4) must hit twice; each step it wins only if the Dragon misses.
    r = solve("footsoldier", "dragon")
    assert close(r["attacker_wins"], F(1, 19) ** 2)
    # option hurt_dragon_fights=false: a wounded Dragon stops rolling, the footsoldier then wins for sure
    r2 = solve("footsoldier", "dragon", hurt_dragon_fights=False)
    assert close(r2["attacker_wins"], F(1, 19))


def test_storm_elemental_rolls_two_dice_at_sea():
    # "Capsize: In a sea battle, roll 2 [d8], both when attacking and defending."
    land = solve("storm", "footsoldier")
    sea = solve("storm", "warship", sea=True)
    p2 = 1 - F(5, 8) ** 2
    assert close(land["attacker_wins"], F(3, 8) * F(5, 6) / (1 - F(5, 8) * F(5, 6)))
    assert close(sea["attacker_wins"], p2 * F(5, 8) / (1 - F(5, 8) ** 2 * F(5, 8)))


def test_a_sunk_warship_takes_its_heroes_down():
    # "If a Warship takes damage, it is destroyed along with all land pieces it carries (including Heroes)."
    b = NerathBattle(["storm"], ["warship", "fighter", "fighter"], sea=True, order="listed")
    assert b.d.K == 1                      # the Warship is listed first: one hit sinks all three
    b2 = NerathBattle(["storm"], ["fighter", "fighter", "warship"], sea=True, order="listed")
    assert b2.d.K == 3
    # cheapest counts a Warship's cargo with it, so its Heroes are hit first
    b3 = NerathBattle(["storm"], ["warship", "fighter"], sea=True)
    assert [b3.d.units[u].kind for u, _ in b3.d.hit_slot] == ["fighter", "warship"]


def test_attack_bonus_cards():
    # events.yaml: Dark Rites [attack_bonus, 1, "*"]: the attacker's footsoldier hits on 5+ (1/3)
    r = solve("footsoldier", "footsoldier", attacker_cards=["k-dark-rites"])
    assert close(r["attacker_wins"], F(1, 3) * F(5, 6) / (1 - F(2, 3) * F(5, 6)))
    with pytest.raises(OddsError, match="not a simple battle modifier"):
        solve("footsoldier", "footsoldier", attacker_cards=["iron-flask"])
    with pytest.raises(OddsError, match="unknown card"):
        solve("footsoldier", "footsoldier", defender_cards=["no-such-card"])


# ------------------------------------------------------------------------------------ policies
def test_listed_order_puts_a_dragons_first_hit_where_it_is_listed():
    listed = NerathBattle(["dragon", "footsoldier"], ["footsoldier"], order="listed")
    cheap = NerathBattle(["dragon", "footsoldier"], ["footsoldier"], order="cheapest")
    assert listed.a.hit_slot == [(0, "wound"), (1, "kill"), (0, "kill")]
    assert cheap.a.hit_slot == [(1, "kill"), (0, "wound"), (0, "kill")]
    both_listed = {tuple(s["pieces"]): s["probability"] for s in listed.solve().attacker_survivors}
    both_cheap = {tuple(s["pieces"]): s["probability"] for s in cheap.solve().attacker_survivors}
    assert both_listed[("dragon", "footsoldier")] > both_cheap[("dragon", "footsoldier")]


def test_press_until_below_retreats():
    always = solve("2 footsoldier", "2 footsoldier")
    careful = solve("2 footsoldier", "2 footsoldier", press="until-below=2")
    assert careful["attacker_retreats"] > 0
    assert careful["attacker_wins"] < always["attacker_wins"]
    # retreat happens only with one footsoldier left: every retreat keeps exactly one
    kept = sum(s["probability"] for s in careful["attacker_survivors"] if s["pieces"] == ["footsoldier"])
    assert kept >= careful["attacker_retreats"] - 1e-12
    with pytest.raises(OddsError):
        PressPolicy.parse("sometimes")


# ------------------------------------------------------------------------------------ exactness
KINDS = ["footsoldier", "siege", "fighter", "wizard", "monster", "storm", "dragon"]


def random_battle(rng: random.Random, size: int, sea: bool = False) -> NerathBattle:
    if sea:
        def side() -> list[str]:
            out = [rng.choice(["storm", "dragon", "fighter", "wizard", "warship"]) for _ in range(rng.randint(1, 4))]
            out.insert(rng.randint(0, len(out)), "warship")
            return out   # at most 4 Heroes with at least 1 Warship: trim to what the Warships carry
        a, d = side(), side()
        for s in (a, d):
            while sum(p in ("fighter", "wizard") for p in s) > 2 * s.count("warship"):
                s.remove(next(p for p in s if p in ("fighter", "wizard")))
    else:
        a = [rng.choice(KINDS) for _ in range(rng.randint(1, size))]
        d = [rng.choice(KINDS) for _ in range(rng.randint(1, size))] + (["castle"] if rng.random() < 0.5 else [])
    return NerathBattle(a, d, sea=sea, order=rng.choice(["cheapest", "listed"]),
                        press=rng.choice(["always", "until-below=2"]))


def test_float_agrees_with_rational_arithmetic():
    rng = random.Random(7)
    for _ in range(12):
        b = random_battle(rng, 4)
        f, e = b.solve(), b.solve(exact=True)
        for k in ("attacker_wins", "defender_holds", "both_destroyed", "expected_rounds"):
            assert abs(getattr(f, k) - getattr(e, k)) < 1e-12, (b.attacker_pieces, b.defender_pieces, k)
        assert abs(f.extra["probability_total"] - 1) < 1e-12
        assert e.extra["probability_total"] == 1.0


def test_exact_agrees_with_monte_carlo_through_the_rules():
    """Random stacks, land and sea: each probability within 4.5 standard errors of n battles played by the
    ruleset's own apply/chance_outcomes (casualties and retreats chosen by the same policies)."""
    rng = random.Random(2024)
    n = 400
    for trial in range(8):
        b = random_battle(rng, 5, sea=trial >= 6)
        ex = b.solve()
        mc = monte_carlo(b, n, seed=trial)
        for k in ("attacker_wins", "defender_holds", "both_destroyed"):
            p = getattr(ex, k)
            se = max((p * (1 - p) / n) ** 0.5, 1 / n)
            assert abs(getattr(mc, k) - p) <= 4.5 * se, (b.attacker_pieces, b.defender_pieces, k, p, getattr(mc, k))
        # the rounds: a looser check on the mean
        assert abs(mc.expected_rounds - ex.expected_rounds) < 0.5 * ex.expected_rounds


def test_monte_carlo_position_is_a_real_declared_battle():
    b = NerathBattle(["footsoldier", "dragon"], ["wizard", "castle"])
    state, space, _a, _d = battle_position(b)
    doc = state.to_json()
    assert doc["phase"] == "fight" and doc["battle"]["space"] == space
    assert doc["pieces"][space] == {"karkoth": {"footsoldier": 1, "dragon": 1}, "nerath": {"wizard": 1}}
    assert space in doc["castles"]


# ------------------------------------------------------------------------------------ bad input
def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conquest.cli", "odds", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("args, message", [
    (["--attacker", "knight", "--defender", "footsoldier"], "unknown piece 'knight'"),
    (["--attacker", "castle,footsoldier", "--defender", "footsoldier"], "a Castle cannot attack"),
    (["--attacker", "footsoldier", "--defender", " , "], "defender: no pieces given"),
    (["--attacker", "monster", "--defender", "footsoldier", "--sea"], "cannot fight at sea"),
    (["--attacker", "monster", "--defender", "footsoldier", "--press", "never"], "--press 'never'"),
])
def test_cli_bad_input(args, message):
    p = run_cli("nerath", *args)
    assert p.returncode == 2
    assert message in p.stderr and len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_cli_json():
    p = run_cli("nerath", "--attacker", "footsoldier", "--defender", "footsoldier", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert set(data) >= {"attacker_wins", "defender_holds", "both_destroyed", "attacker_survivors",
                         "defender_survivors", "expected_gold_lost", "expected_rounds", "method", "seconds"}
    assert abs(data["attacker_wins"] - 5 / 11) < 1e-12
    assert {"pieces": ["footsoldier"], "probability": data["attacker_wins"]} in data["attacker_survivors"]
