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

from conquest.rulesets.nerath.montecarlo import (
    NerathBattle,
    OddsError,
    PressPolicy,
    battle_document,
    battle_position,
    monte_carlo,
    parse_pieces,
)

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


def test_two_wounded_dragons_that_cannot_roll_end_in_a_retreat():
    # hurt_dragon_fights=false and a Dragon on each side: once both are wounded no die can hit, and pressing
    # would repeat the round for ever ("If you press the attack, start another battle round"): the calculator
    # retreats (docs/odds.md). Both d20 hit 3/4; from both whole: 1/16 again, 3/16 only the defender's wounded
    # (the attacker then wins), 3/16 only the attacker's (the defender holds), 9/16 both (retreat).
    r = solve("dragon", "dragon", hurt_dragon_fights=False)
    assert close(r["attacker_wins"], F(1, 5))
    assert close(r["attacker_retreats"], F(3, 5))
    assert close(r["defender_holds"], F(4, 5))
    mc = monte_carlo(NerathBattle(["dragon"], ["dragon"], hurt_dragon_fights=False), 300, seed=3)
    assert abs(mc.retreats - 0.6) < 4.5 * (0.24 / 300) ** 0.5


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
    # a Hero is aboard the last Warship listed before it with room
    b4 = NerathBattle(["storm"], ["warship", "fighter", "warship", "wizard", "fighter", "fighter"], sea=True)
    assert [b4.d.units[w].cargo for w in (0, 2)] == [[1, 5], [3, 4]]
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


def test_cards_and_wounded_dragons_that_stop_rolling_agree_with_the_rules():
    """Attack-bonus cards become the battle's effects in the real position; option hurt_dragon_fights=false is
    the real game's option."""
    b = NerathBattle(["dragon", "footsoldier", "footsoldier", "siege"], ["dragon", "monster", "castle"],
                     attacker_cards=["k-dark-rites"], defender_cards=["cube-of-force"], hurt_dragon_fights=False)
    ex = b.solve()
    n = 500
    mc = monte_carlo(b, n, seed=11)
    for k in ("attacker_wins", "defender_holds", "both_destroyed"):
        p = getattr(ex, k)
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        assert abs(getattr(mc, k) - p) <= 4.5 * se, (k, p, getattr(mc, k))
    state, _x, _a, _d = battle_position(b)
    assert sorted(e[1:4] for e in state.to_json()["effects"]) == [["attack_bonus", 1, "*"],
                                                                   ["attack_bonus", 1, "castle"]]


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


# ------------------------------------------------------------------------------------ action_odds
from conquest.analysis.runner import sample_chance  # noqa: E402
from conquest.core.game import CHANCE  # noqa: E402
from conquest.core.registry import get_ruleset  # noqa: E402


def find_position(rid: str, players: int, want, seed: int = 0, options: dict | None = None):
    """A position reached by random play where ``want(action, state)`` picks a legal action."""
    rs = get_ruleset(rid)
    rng = random.Random(seed)
    st = rs.new_game(players, options or {}, seed)
    for _ in range(50_000):
        if st.to_move is None:
            st = rs.new_game(players, options or {}, rng.randrange(10_000))
            continue
        if st.to_move == CHANCE:
            st = st.apply_unchecked(sample_chance(st, rng))
            continue
        acts = list(st.legal_actions())
        hits = [a for a in acts if want(a, st)]
        if hits:
            return rs, st, hits[0]
        st = st.apply_unchecked(rng.choice(acts))
    raise AssertionError(f"no position found for {rid}")


def test_nerath_declared_battle_is_the_calculators_battle():
    b = NerathBattle(["footsoldier", "wizard", "dragon"], ["footsoldier", "monster", "castle"])
    rs = get_ruleset("nerath")
    doc, x, _a, _d = battle_document(b)
    state = rs.state_from_json(doc)
    r = rs.action_odds(state, f"battle {x}")
    ex = b.solve()
    probs = {o["outcome"]: o["probability"] for o in r["outcomes"]}
    assert probs == {"attacker wins": ex.attacker_wins, "defender holds": ex.defender_holds,
                     "both destroyed": ex.both_destroyed}
    assert r["expected_gold_lost"] == ex.expected_gold_lost


def test_nerath_declared_sea_battle_reads_heroes_aboard():
    b = NerathBattle(["warship", "wizard", "storm"], ["warship", "fighter", "dragon"], sea=True)
    rs = get_ruleset("nerath")
    doc, x, _a, _d = battle_document(b)
    r = rs.action_odds(rs.state_from_json(doc), f"battle {x}")
    assert sorted(r["battle"]["attacker"]) == ["storm", "warship", "wizard"] and r["battle"]["sea"]
    assert {o["outcome"]: o["probability"] for o in r["outcomes"]}["attacker wins"] == b.solve().attacker_wins


def test_nerath_press_mid_battle_counts_wounded_dragons_and_an_inactive_castle():
    rs = get_ruleset("nerath")
    b = NerathBattle(["footsoldier", "footsoldier", "dragon"], ["dragon", "castle", "monster"])
    doc, x, _a, _d = battle_document(b)
    s = rs.state_from_json(doc).apply(f"battle {x}")
    # round 1: the attackers score 2 hits (Nerath wounds its Dragon and its Castle turns inactive: "When a
    # Castle takes damage, it becomes inactive and plays no more part in the current battle") and the
    # defenders 1 (Karkoth chooses its Dragon to take it: "can take the damage from a single hit")
    s = s.apply("hits 2").apply("hits 1")
    s = s.apply("hit dragon").apply("hit castle")   # the defender assigns first
    s = s.apply("hit dragon")
    assert s.to_json()["battle"]["step"] == "press"
    r = rs.action_odds(s, "press")
    ref = NerathBattle(["footsoldier", "footsoldier", "dragon"], ["dragon", "monster"], wounded=(1, 1)).solve()
    assert {o["outcome"]: o["probability"] for o in r["outcomes"]}["attacker wins"] == ref.attacker_wins
    retreat = rs.action_odds(s, "retreat")
    assert retreat["outcomes"][0]["probability"] == 1.0
    with pytest.raises(OddsError, match="illegal action 'battle n04'"):
        rs.action_odds(s, "battle n04")


def test_smallworld_final_conquest_die():
    # "the reinforcement die" (faces 0, 0, 0, 1, 2, 3): the final conquest succeeds when tokens in hand plus
    # the die reach the region's cost
    from conquest.rulesets.smallworld.data import DIE_FACES
    rs, st, a = find_position("smallworld", 2, lambda a, s: a[0] == "final", seed=3)
    r = rs.action_odds(st, a)
    region = int(a[1][1:]) - 1
    need = st.conquest_cost(st.cur, region) - st.hand_now()
    p = sum(1 for f in DIE_FACES if f >= need) / len(DIE_FACES)
    won = sum(o["probability"] for o in r["outcomes"] if o["outcome"].startswith("conquers"))
    assert abs(won - p) < 1e-12 and 0 < p < 1
    assert abs(sum(o["probability"] for o in r["outcomes"]) - 1) < 1e-12


def test_narby_attack_is_an_opposed_d20_roll_ties_to_the_defender():
    # "Opposed Roll, Ties go to defender"; "Lower roll gives 3 coins to the winner"
    def want(a, s):
        return a[0] == "attack" and min(s.coins) >= 3
    rs, st, a = find_position("narby", 3, want, seed=1)
    after = st.apply(a)
    while after.to_move != CHANCE:   # other dragons' reaction windows: everybody passes
        after = after.apply(("pass",))
    mod = after.ev["mod"]
    p_att = sum(1 for x in range(1, 21) for y in range(1, 21) if x + mod > y) / 400
    r = rs.action_odds(st, a)
    actor = st.who
    from conquest.rulesets.narby.rules import seat_label
    gain = sum(o["probability"] for o in r["outcomes"] if f"{seat_label(st, actor)} +3 coins" in o["outcome"])
    assert abs(gain - p_att) < 1e-12


def narby_matches_sampling(rs, st, a, n: int = 1500, seed: int = 5) -> dict:
    """The exact outcomes of ``a`` against n samples played through the rules (same summary, same stop)."""
    r = rs.action_odds(st, a)
    exact = {o["outcome"]: o["probability"] for o in r["outcomes"]}
    assert abs(sum(exact.values()) - 1) < 1e-12
    from conquest.rulesets.narby.odds import _stop, _summary, _through
    summarise = _summary(rs)
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for _ in range(n):
        s = st.apply(a)
        path: tuple = ()
        while True:
            if s.to_move == CHANCE and not _stop(s, path):
                c = sample_chance(s, rng)
                path += (c,)
                s = s.apply(c)
            elif s.to_move not in (None, CHANCE) and _through(s) and not _stop(s, path):
                s = s.apply(_through(s))
            else:
                break
        k = summarise(st, s, path)
        counts[k] = counts.get(k, 0) + 1
    assert set(counts) <= set(exact)
    for k, p in exact.items():
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        assert abs(counts.get(k, 0) / n - p) <= 4.5 * se, (k, p, counts.get(k, 0) / n)
    return exact


def test_narby_steal_matches_sampling_through_the_rules():
    rs, st, a = find_position("narby", 3, lambda a, s: a[0] == "steal" and min(s.coins + [s.chest_coins]) >= 4,
                              seed=2)
    assert len(narby_matches_sampling(rs, st, a)) >= 2


def test_narby_tribute_roll_matches_sampling_through_the_rules():
    # "One d20 roll determines coins collected from all claims": the action that ends the action phase leads
    # into the first dragon's tribute roll
    from conquest.rulesets.narby.rules import CITY, TOWN

    def want(a, s):
        if s.phase != "action" or a[0] != "end":
            return False
        nxt = s.apply_unchecked(a)
        if nxt.phase != "tribute" or nxt.ev is None or nxt.to_move != CHANCE:  # the roll itself comes next
            return False
        seat = nxt.ev["seat"]
        return sum(1 for k, o in nxt.claims.items() if o == seat and isinstance(k, int)
                   and nxt.occ[k] in (TOWN, CITY)) >= 2
    rs, st, a = find_position("narby", 3, want, seed=6)
    exact = narby_matches_sampling(rs, st, a)
    assert any("coins" in k for k in exact)


def test_kingdom_soldier_income_dice_by_default_enumeration():
    # standalone mode: "each player, red then blue, gets soldier_base + a roll of a soldier_die-sided die"
    def want(a, s):
        nxt = s.apply(a)
        return nxt.to_move == CHANCE
    rs, st, a = find_position("kingdom", 2, want, seed=4)
    r = rs.action_odds(st, a)
    assert len(r["outcomes"]) == 36
    assert all(abs(o["probability"] - 1 / 36) < 1e-12 for o in r["outcomes"])
    assert all(o["outcome"].count("roll") == 2 for o in r["outcomes"])


def test_action_odds_bad_input():
    rs, st, a = find_position("smallworld", 2, lambda a, s: a[0] == "final", seed=3)
    legal = set(st.legal_actions())
    other = next(f"r{i + 1}" for i in range(st.board.n) if ("final", f"r{i + 1}") not in legal)
    with pytest.raises(OddsError, match=f"illegal action 'final {other}'"):
        rs.action_odds(st, f"final {other}")
    with pytest.raises(OddsError, match="not a region"):
        rs.action_odds(st, "final r999")
    with pytest.raises(OddsError):
        rs.action_odds(st, "fly away")


def test_cli_action_odds(tmp_path):
    doc, x, _a, _d = battle_document(NerathBattle(["footsoldier"], ["footsoldier"]))
    f = tmp_path / "game.json"
    f.write_text(json.dumps(doc))
    p = run_cli("nerath", "--state", str(f), "--action", f"battle {x}", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert abs(data["outcomes"][0]["probability"] - 5 / 11) < 1e-12
    bad = run_cli("nerath", "--state", str(f), "--action", "battle k07")
    assert bad.returncode == 2 and "illegal action 'battle k07'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
