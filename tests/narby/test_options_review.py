"""Narby Conquest: readings a designer may want either way, as options (docs/rules/narby.md R22, R25): the
claim beside the dragon on a low tribute roll, when "exceeds" the win amount is checked, ties at the end."""

from __future__ import annotations

from tests.narby.helpers import legal_texts, play, position

TRIBUTE = {"phase": "tribute", "node": "roll", "seat": None,
           "event": {"type": "tribute", "seat": 0, "mod": 0, "town": 0, "city": 0}}
# red's dragon covers 5,5-6,6: the city at 7,5 is beside it, the towns at 12,2 and 14,2 are not
CLAIMS = {**TRIBUTE, "settlements": {"7,5": "city", "12,2": "town", "14,2": "town"},
          "claims": {"7,5": 0, "12,2": 0, "14,2": 0}}


def test_low_roll_spares_the_claim_beside_the_dragon_by_default() -> None:
    """"If a dragon is adjacent he automatically scores the coins listed. That adjacent claim is not scored as
    per the d20 roll." / "0 to 4: Lose a single claim" — the roll does not reach the adjacent claim, so it
    scores the adjacent row (city 2 coins) and is not among the claims the dragon may lose."""
    st = play(position(CLAIMS), "roll 3")
    assert st.to_json()["coins"][0] == 12
    assert sorted(legal_texts(st)) == ["lose 12,2", "lose 14,2"]
    st = st.apply("lose 14,2")
    assert set(st.to_json()["claims"]) == {"7,5", "12,2"}


def test_low_roll_with_only_adjacent_claims_loses_nothing_by_default() -> None:
    """"That adjacent claim is not scored as per the d20 roll": when every claim is beside the dragon, a roll
    of 0 to 4 takes none of them."""
    st = play(position({**TRIBUTE, "settlements": {"7,5": "city"}, "claims": {"7,5": 0}}), "roll 1")
    assert st.to_json()["claims"] == {"7,5": 0}
    assert st.to_json()["coins"][0] == 12


def test_option_any_lets_the_low_roll_take_the_adjacent_claim() -> None:
    """Option ``tribute_loss=any``: the adjacent claim scores the adjacent row and may still be the one lost
    ("Lose a single claim" among all of them)."""
    st = play(position(CLAIMS, options={"tribute_loss": "any"}), "roll 3")
    assert st.to_json()["coins"][0] == 12
    assert sorted(legal_texts(st)) == ["lose 12,2", "lose 14,2", "lose 7,5"]
    st = st.apply("lose 7,5")
    assert set(st.to_json()["claims"]) == {"12,2", "14,2"}


TWO_TRIBUTES = {**TRIBUTE, "coins": [49, 10], "settlements": {"7,5": "city", "16,17": "town"},
                "claims": {"7,5": 0, "16,17": 1}}


def test_option_round_checks_the_win_when_the_round_is_done() -> None:
    """Option ``win_check=round``: "Game plays until a player exceeds 50, 75, or 100 coins" checked when the
    round's tribute is done: red passes 50 at its tribute, blue still rolls its own."""
    st = play(position(TWO_TRIBUTES, options={"win_check": "round"}), "roll 9")
    assert st.to_json()["coins"][0] == 51
    assert not st.is_terminal() and st.to_json()["node"] == "roll"
    st = st.apply("roll 9")
    assert st.is_terminal() and st.result() == (1.0, 0.0)


def test_at_once_by_default_ends_the_game_when_the_amount_is_exceeded() -> None:
    """Default ``win_check=at_once``: "until a player exceeds" names a moment — red's 51 coins end the game
    before blue's tribute roll."""
    st = play(position(TWO_TRIBUTES), "roll 9")
    assert st.is_terminal() and st.result() == (1.0, 0.0)
    assert st.to_json()["coins"] == [51, 10]
    st = play(position({**TWO_TRIBUTES, "coins": [48, 10]}), "roll 9")
    assert not st.is_terminal()                                  # 50 does not exceed 50


# red 52 coins, blue 50 coins and 2 in treasure tokens: equal totals; blue's tribute ends the round
TIE = {"phase": "tribute", "node": "roll", "seat": None, "coins": [52, 50], "tokens": [0, 2],
       "token_count": [0, 1], "event": {"type": "tribute", "seat": 1, "mod": 0, "town": 0, "city": 0},
       "settlements": {"12,2": "town"}, "claims": {"12,2": 1}}


def test_option_coins_gives_equal_totals_to_more_coins() -> None:
    """Option ``ties=coins``: the dragon with more coins (fewer tokens) wins an equal total."""
    st = play(position(TIE, options={"ties": "coins"}), "roll 6")
    assert st.is_terminal() and st.result() == (1.0, 0.0)


def test_equal_totals_share_the_win_by_default() -> None:
    """"Treasure tokens are redeemed as coins at the end of the game" — the document names no tie-break, and a
    token is worth its coins: by default (``ties=shared``) every dragon with the top total shares the win."""
    st = play(position(TIE), "roll 6")
    assert st.is_terminal() and st.result() == (0.5, 0.5)
