"""Each ruleset's rules read the varied data of the game's variant (``Ruleset.variant_schema``): the same position
under the published data and under a variant plays differently, as the variant says."""

from __future__ import annotations

import random
from typing import Any

from conquest.analysis.runner import sample_chance
from conquest.core.game import CHANCE, State
from conquest.core.registry import get_ruleset
from tests.narby.helpers import play as narby_play, position as narby_position
from tests.smallworld.helpers import make as sw_make, play as sw_play


def with_variant(state: State, variant: dict[str, Any]) -> State:
    """The same position in a game made with ``variant``."""
    doc = state.to_json()
    doc["options"] = {**doc["options"], "variant": variant}
    doc.pop("to_move", None)
    return state.ruleset.state_from_json(doc)


# ------------------------------------------------------------------------------------------------ Narby
KIND_THIEVES = [{"max": 3, "gain": -1}, {"min": 4, "max": 9, "gain": 2}, {"min": 10, "max": 15, "gain": 4},
                {"min": 16, "max": 19, "gain": 6}, {"min": 20, "gain": 9}]


def test_narby_steal_reads_the_variants_steal_chart() -> None:
    """Steal Chart, "10 to 15 | Fair Theft | 1 | 1": a roll of 12 from the chest takes 1 coin; a variant's row for
    10-15 that gives 4 takes 4."""
    st = narby_position({"chest": "6,6", "dragon_at": ["5,5", "7,7"], "chest_coins": 8})
    published = narby_play(st, "steal chest", "roll 12")
    assert published.coins[0] == 11 and published.chest_coins == 7
    varied = narby_play(with_variant(st, {"steal_chart": KIND_THIEVES}), "steal chest", "roll 12")
    assert varied.coins[0] == 14 and varied.chest_coins == 4


def test_narby_deals_only_the_variants_cards() -> None:
    """"A random bonus card is handed out to each Dragon": from the deck the variant keeps."""
    st = narby_position({"node": "draw", "phase": "draw", "seat": None, "step": 0, "hands": [None, None]})
    assert len(st.chance_outcomes()) == 18
    varied = with_variant(st, {"cards": ["vigor", "sheriff", "mayor"]})
    assert sorted(a[1] for a, _ in varied.chance_outcomes()) == ["mayor", "sheriff", "vigor"]


def test_narby_refuses_a_deck_smaller_than_the_dragons() -> None:
    import pytest

    from conquest.core.errors import OptionError
    with pytest.raises(OptionError, match="more dragons than bonus cards"):
        get_ruleset("narby").new_game(3, {"variant": {"cards": ["vigor", "sheriff"]}})


# ------------------------------------------------------------------------------------------ Small World
def test_smallworld_tokens_of_a_combo_follow_the_variants_banner_and_badge() -> None:
    """"Tokens received = banner number + badge number (limited by the race's token supply)": Amazons (banner 6,
    supply 15) with Commando (badge 4) take 6 + 4, and their 4 for conquest: 14. With a banner of 3 and a badge
    of 1: 3 + 1 + 4 = 8. With 9 and 5: 9 + 5 + 4 = 18, beyond the supply of 15: 15."""
    st = sw_make(2)
    while st.to_move == CHANCE:  # the rest of the column
        st = st.apply(sw_first(st))
    published = sw_play(st, "pick 0")
    ama = published.cur  # type: ignore[attr-defined]
    assert published.rhand[ama] == 14  # type: ignore[attr-defined]
    fewer = sw_play(with_variant(st, {"races": {"amazons": {"banner": 3}}, "powers": {"commando": {"badge": 1}}}),
                    "pick 0")
    assert fewer.rhand[ama] == 8  # type: ignore[attr-defined]
    more = sw_play(with_variant(st, {"races": {"amazons": {"banner": 9}}, "powers": {"commando": {"badge": 5}}}),
                   "pick 0")
    assert more.rhand[ama] == 15  # type: ignore[attr-defined]


def sw_first(st: State) -> Any:
    return st.chance_outcomes()[0][0]


def test_smallworld_a_removed_race_is_never_drawn() -> None:
    """"14 race banners ... are shuffled": the race the variant leaves in the box is not among them."""
    rs = get_ruleset("smallworld")
    st = rs.new_game(3, {"variant": {"removed_races": ["ratmen"]}}, 0)
    rng = random.Random(1)
    drawn: set[str] = set()
    for _ in range(30):
        s = st
        while s.to_move == CHANCE:
            drawn |= {a[1] for a, _ in s.chance_outcomes() if a[0] == "race"}
            s = s.apply(sample_chance(s, rng))
    assert "ratmen" not in drawn and len(drawn) == 13
    published = rs.new_game(3, {}, 0)
    assert "ratmen" in {a[1] for a, _ in published.chance_outcomes() if a[0] == "race"}


def test_smallworld_starting_coins() -> None:
    """"Each player starts with 5 Victory coins" (setup.yaml starting_coins): the variant's number instead."""
    rs = get_ruleset("smallworld")
    assert rs.new_game(3, {"variant": {"starting_coins": 8}}, 0).coins == [8, 8, 8]
    assert rs.new_game(3, {}, 0).coins == [5, 5, 5]
    handicap = rs.new_game(3, {"variant": {"seat_coins": [0, 2, 4]}}, 0)
    assert handicap.coins == [5, 7, 9]
    assert rs.state_from_json(handicap.to_json()) == handicap


def test_smallworld_column_option_cannot_name_a_removed_race() -> None:
    import pytest

    from conquest.core.errors import OptionError
    with pytest.raises(OptionError, match="names a race or power the variant leaves out"):
        get_ruleset("smallworld").new_game(2, {"column": "ratmen:flying", "variant": {"removed_races": ["ratmen"]}})


# ------------------------------------------------------------------------------------------------ Kingdom
def test_kingdom_production_reads_the_variants_board_values() -> None:
    """Standalone stand-in (economy.yaml): a Production phase is worth the castle's icons and the bonus
    locations held; with a variant's values it is worth those instead."""
    from conquest.rulesets.kingdom.phases import production_points
    st = get_ruleset("kingdom").new_game(2, {}, 0)
    icons = [len(st.board.castle_icons[p]) for p in (0, 1)]  # type: ignore[attr-defined]
    published = [production_points(st, p) for p in (0, 1)]  # castle_icon: 1 point per icon
    varied = with_variant(st, {"castle_icon": 3})
    assert [production_points(varied, p) - published[p] for p in (0, 1)] == [2 * n for n in icons]
    assert all(n > 0 for n in icons)


# ------------------------------------------------------------------------------------------------- Nerath
def _reinforce_with_gold() -> State:
    rs = get_ruleset("nerath")
    rng = random.Random(3)
    st = rs.new_game(4, {}, 3)
    while True:
        if st.to_move == CHANCE:
            st = st.apply(sample_chance(st, rng))
            continue
        legal = st.legal_actions()
        if any(a[0] == "buy" and a[1] == "footsoldier" for a in legal):
            return st
        st = st.apply(rng.choice(legal))


def test_nerath_buys_at_the_variants_prices() -> None:
    """REINFORCE: "Buy as many pieces as you can afford of any type, at their cost": a Footsoldier at the
    variant's price (out of reach at 500 gold; free at 0)."""
    st = _reinforce_with_gold()
    buy = next(a for a in st.legal_actions() if a[0] == "buy" and a[1] == "footsoldier")
    realm = st.realm  # type: ignore[attr-defined]
    gold = st.gold[realm]  # type: ignore[attr-defined]
    assert st.apply(buy).gold[realm] == gold - 1  # type: ignore[attr-defined]
    dear = with_variant(st, {"prices": {"footsoldier": 100}})
    assert not any(a[0] == "buy" and a[1] == "footsoldier" for a in dear.legal_actions())
    assert "costs 100 gold" in dear.illegal_reason(buy)
    free = with_variant(st, {"prices": {"footsoldier": 0}})
    assert free.apply(buy).gold[realm] == gold  # type: ignore[attr-defined]


def test_nerath_treasury_forces_and_cards() -> None:
    """"Each player takes his starting treasury: Karkoth 10 gold ...", the starting pieces (setup.yaml) and the
    Event decks: each from the variant."""
    rs = get_ruleset("nerath")
    forces = {"castles": ["k07"], "pieces": {"k07": {"footsoldier": 9}}}
    st = rs.new_game(4, {"events": "decks", "variant": {"treasury": {"karkoth": 30}, "forces": {"karkoth": forces},
                                                        "removed_cards": ["v-swift-sails"]}}, 0)
    doc, pub = st.to_json(), rs.new_game(4, {"events": "decks"}, 0).to_json()
    assert doc["gold"] == {**pub["gold"], "karkoth": 30} and pub["gold"]["karkoth"] == 10
    assert doc["pieces"]["k07"] == {"karkoth": {"footsoldier": 9}}
    assert pub["pieces"]["k07"] == {"karkoth": {"footsoldier": 3, "siege": 1, "monster": 1, "dragon": 1}}
    assert "k12" not in doc["pieces"] and "k12" in pub["pieces"]  # the realm's forces are the variant's, whole
    assert "v-swift-sails" in pub["event_decks"]["vailin"]
    assert doc["event_decks"]["vailin"] == [c for c in pub["event_decks"]["vailin"] if c != "v-swift-sails"]
