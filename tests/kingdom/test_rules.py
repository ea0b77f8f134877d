"""Rule tests for the Conquest module; each quotes the sentence of 002_db08c703245f75da.txt it checks."""

from __future__ import annotations

import pytest

from conquest.core.errors import IllegalAction, NotationError, StateFormatError
from conquest.core.game import CHANCE
from tests.kingdom.helpers import KINGDOM, play, state_with

CONQUEST_RED = {"phase": "conquest", "current": 0}


def test_setup_twelve_armies_four_on_the_board():
    """"Take the 12 Army pawns of your color, and place 4 of them on your side of the board ... (1 on each space
    of the territories beside the castle) ... Place the rest of the Army pawns beside the board to form your
    reserve.\""""
    for side in ("a", "b"):
        s = state_with(board=side)
        b = s.board
        for seat in (0, 1):
            beside = b.adjacent[b.castles[seat]]
            assert sum(s.armies[2 * t + seat] for t in beside) == 4
            assert sum(s.armies[2 * t + seat] for t in range(b.territories)) == 4
            assert s.reserve[seat] == 8
            assert all(s.loc[l] == seat for l in b.start_locs[seat])


def test_trap_tokens_only_from_locations():
    """"Do not take any Trap tokens by default (you only have them if you control the appropriate bonus
    locations)." — the tokens are counted from the locations held, nothing else."""
    s = state_with()
    b = s.board
    traps = sum(1 for l in b.start_locs[0] if b.loc_kind[l] == "trap")
    assert s.tokens(0)["trap"] == traps == 2
    s2 = state_with({"locations": {"fernmarch.1": None}})
    assert s2.tokens(0)["trap"] == 1


def test_more_soldiers_goes_first_and_tie_to_round_first_player():
    """"The player with more Soldier tokens goes first. If it is a tie, the 1st player for the Round goes
    first.\""""
    s = state_with()
    assert s.to_move == CHANCE
    assert play(s, "roll 1", "roll 2").current == 1
    assert play(s, "roll 4", "roll 2").current == 0
    assert play(s, "roll 3", "roll 3").current == 0
    tie_b = state_with({"first_player": 1})
    assert play(tie_b, "roll 3", "roll 3").current == 1


def test_actions_alternate():
    """"You take one action, then your opponent takes one action; then you, then your opponent, and so on\""""
    s = state_with({**CONQUEST_RED, "soldiers": [3, 3]})
    s = play(s, "recruit 1")
    assert s.to_move == 1
    s = play(s, "recruit 2")
    assert s.to_move == 0


def test_recruit_spends_tokens_and_fills_castle():
    """"Spend 1 Soldier token per army you wish to recruit, then take that number of Army pawns from your
    reserve, and place them in your castle's territory.\""""
    s = play(state_with({**CONQUEST_RED, "soldiers": [4, 0]}), "recruit 3")
    assert s.soldiers[0] == 1 and s.reserve[0] == 5
    assert s.armies[2 * s.board.castles[0]] == 3


def test_cannot_recruit_with_empty_reserve():
    """"You cannot recruit if all of your armies are already on the board.\""""
    s = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [0, 8], "armies": {"westwood": [8, 0]}})
    assert not any(a[0] == "recruit" for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="all of your armies are already on the board"):
        s.apply("recruit 1")


def test_move_needs_more_armies_than_the_enemy():
    """"You can only move into the territory if the number of armies you move into it is greater than the
    number of enemy armies already there.\""""
    s = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [5, 6],
                    "armies": {"southbay": [3, 0], "greatlake": [0, 2]}})
    s = play(s, "move greatlake")
    with pytest.raises(IllegalAction):
        s.apply("from southbay 2")
    with pytest.raises(IllegalAction, match="choose the armies that move first"):
        s.apply("go")
    equal = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [6, 6],
                        "armies": {"southbay": [2, 0], "greatlake": [0, 2]}})
    with pytest.raises(IllegalAction, match="greater than the number of enemy armies"):
        equal.apply("move greatlake")


def test_equal_losses_both_return_to_castles():
    """"All enemy armies in the destination territory return to their castle, and you return the same number of
    armies from this territory to your castle (in other words, equal "losses" for both sides).\""""
    s = state_with({**CONQUEST_RED, "soldiers": [6, 0], "reserve": [4, 5],
                    "armies": {"southbay": [2, 0], "westwood": [2, 0], "greatlake": [0, 3]}})
    s = play(s, "move greatlake", "from southbay 2", "from westwood 2", "go")
    b = s.board
    g = b.index["greatlake"]
    assert s.armies[2 * g] == 1 and s.armies[2 * g + 1] == 0
    assert s.armies[2 * b.castles[1] + 1] == 3
    assert s.armies[2 * b.castles[0]] == 3
    assert s.soldiers[0] == 2
    assert sum(s.armies[2 * t] for t in range(b.territories)) + s.reserve[0] == 12


def test_never_onto_the_opponents_castle():
    """"Remember: You cannot move your Army pawns onto your opponent's castle.\""""
    s = state_with({**CONQUEST_RED, "soldiers": [9, 0], "reserve": [6, 8],
                    "armies": {"highmoor": [2, 0], "frostmere": [0, 4]},
                    "locations": {"highmoor.1": 0, "highmoor.2": 0, "frostmere.1": 1, "frostmere.2": 1}})
    assert ("move", "bluehold") not in s.legal_actions()
    with pytest.raises(IllegalAction, match="opponent's castle"):
        s.apply("move bluehold")


def test_castle_always_controlled():
    """"You always have control of your castle (even if you have no more Army pawns there).\""""
    s = state_with()
    b = s.board
    assert s.armies[2 * b.castles[0]] == 0
    assert s.controller(b.castles[0]) == 0 and s.controller(b.castles[1]) == 1


def test_one_army_per_bonus_location_no_limit_per_territory():
    """"There is no limit to the number of Army pawns you can have in a single territory; however, each bonus
    location can only accommodate a single Army pawn.\""""
    s = state_with({**CONQUEST_RED, "soldiers": [9, 0], "reserve": [4, 8], "armies": {"redhold": [4, 0]}})
    s = play(s, "move fernmarch", "from redhold 4", "go")
    t = s.board.index["fernmarch"]
    assert s.armies[2 * t] == 6
    assert len(s.occupied(0, t)) == 2


def test_leaving_a_location_loses_the_effect_immediately():
    """"If you remove an army from a bonus location, or this army is returned to your castle, you immediately
    lose the bonus effect associated with this location. If it was a Trap or Spy token, you must discard the
    corresponding token.\""""
    s = state_with({**CONQUEST_RED, "soldiers": [3, 0]})
    s = play(s, "move southbay", "from fernmarch 1", "go")
    assert s.phase == "vacate"
    s = play(s, "vacate fernmarch.1")
    assert s.tokens(0)["trap"] == 1


def test_armies_sent_home_lose_their_locations():
    """"If you remove an army from a bonus location, or this army is returned to your castle, you immediately
    lose the bonus effect associated with this location.\""""
    s = state_with({"phase": "conquest", "current": 1, "soldiers": [0, 4], "reserve": [7, 6],
                    "armies": {"stonegate": [1, 0], "westwood": [0, 2]},
                    "locations": {"stonegate.2": 0, "westwood.1": 1, "westwood.2": 1}})
    assert s.tokens(0)["spy"] == 1
    s = play(s, "move stonegate", "from westwood 2", "go")
    assert s.tokens(0)["spy"] == 0
    assert s.tokens(1)["double_move"] == 0


def test_double_move():
    """"Double move: ... you can choose your starting territories not only from those adjacent to it, but also
    from your territories adjacent to those. Thus your Army pawns can move 2 territories at once, as long as
    they do not move through enemy territories this way.\""""
    base = {**CONQUEST_RED, "soldiers": [5, 0], "reserve": [5, 8],
            "armies": {"westwood": [1, 0], "stonegate": [2, 0]}}
    with_dm = state_with({**base, "locations": {"westwood.1": 0}})
    assert ("from", "stonegate", 2) in play(with_dm, "move ravenford").legal_actions()
    without = state_with({**base, "locations": {"westwood.2": 0}})
    assert ("from", "stonegate", 2) not in play(without, "move ravenford").legal_actions()
    through_enemy = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [5, 6],
                                "armies": {"eastfen": [1, 0], "greatlake": [2, 0], "westwood": [0, 1],
                                           "northbay": [0, 1]},
                                "locations": {"eastfen.1": 0}})
    assert ("move", "ravenford") not in through_enemy.legal_actions()


def test_stop_twice_in_a_row_ends_the_phase():
    """"Continue like this until both you and your opponent have Stopped Your Conquest one after the other.\""""
    s = state_with({**CONQUEST_RED, "soldiers": [3, 3]})
    s = play(s, "stop")
    assert s.round == 1 and s.to_move == 1
    s = play(s, "stop")
    assert s.round == 2 and s.phase == "income"


def test_stopped_player_carries_on_if_the_opponent_acts():
    """"If your opponent Recruit or Move their armies, you will be able to carry on playing.\""""
    s = play(state_with({**CONQUEST_RED, "soldiers": [3, 3]}), "stop", "recruit 1")
    assert s.to_move == 0 and s.round == 1
    s = play(s, "recruit 1", "stop")
    assert s.round == 1 and s.to_move == 0


def test_territory_vp_in_the_controllers_color():
    """"In each territory, the number in your color indicates the number of gross victory points it earns you
    if you control it.\""""
    s = state_with({"armies": {"greatlake": [1, 0]}, "reserve": [7, 8]})
    b = s.board
    expected_red = sum(b.vp[b.index[t]][0] for t in ("fernmarch", "millbrook", "greatlake"))
    expected_blue = sum(b.vp[b.index[t]][1] for t in ("highmoor", "frostmere"))
    assert s.territory_vp(0) == expected_red == 6
    assert s.territory_vp(1) == expected_blue == 2


def test_game_ends_after_the_last_conquest_phase():
    """"At the end of the game, the territories you control earn you additional victory points.\""""
    s = state_with({"round": 4, "phase": "conquest", "current": 1, "stopped": 0, "points": [10, 10],
                    "armies": {"greatlake": [1, 0]}, "reserve": [7, 8]}, rounds=4)
    s = play(s, "stop")
    assert s.to_move is None
    assert s.final_scores() == [16, 12]
    assert s.result() == (1.0, 0.0)


def test_production_counts_locations_and_castle():
    """"During the Production phase, count not only the icons on the cards constructed in your Duchy, but also
    those from the bonus locations you control, as well as those in your Castle territory.\""""
    s = state_with({"armies": {"southbay": [2, 0]}, "reserve": [6, 8],
                    "locations": {"southbay.1": 0, "southbay.2": 0}})
    prod = s.production(0)
    castle_icons = s.board.castle_icons[0]
    assert prod["material"] == castle_icons.count("material") + 1  # fernmarch.2
    assert prod["exploration"] == 1 and prod["gold"] == 1
    assert s.tokens(0)["krystallium"] == 1


def test_illegal_actions_name_the_action_and_leave_the_state():
    s = state_with({**CONQUEST_RED, "soldiers": [2, 2]})
    before = s.to_json()
    with pytest.raises(IllegalAction) as e:
        s.apply("recruit 3")
    assert "recruit 3" in str(e.value) and "Soldier token" in str(e.value)
    assert isinstance(e.value, ValueError)
    assert s.to_json() == before
    with pytest.raises(NotationError):
        s.apply("conquer everything")


def test_notation_is_case_and_space_insensitive_and_canonical():
    assert KINGDOM.parse_action("  FROM  Westwood   2 ") == ("from", "westwood", 2)
    assert KINGDOM.format_action(("from", "westwood", 2)) == "from westwood 2"
    for bad in ("recruit", "recruit -1", "move", "place westwood", "roll x", ""):
        with pytest.raises(NotationError):
            KINGDOM.parse_action(bad)


def test_state_json_errors_name_the_field():
    s = state_with()
    doc = s.to_json()
    for patch, field in (({"armies": {"westwood": [1, "x"]}}, "armies/westwood/1"),
                         ({"armies": {"atlantis": [1, 0]}}, "armies/atlantis"),
                         ({"reserve": [9, 8]}, "reserve/0"),
                         ({"phase": "dance"}, "phase"),
                         ({"locations": {"westwood.1": 3}}, "locations/westwood.1")):
        bad = {**doc, **patch} if "armies" not in patch else {**doc, "armies": {**doc["armies"], **patch["armies"]}}
        with pytest.raises(ValueError, match=field):
            KINGDOM.state_from_json(bad)


def test_companion_mode_takes_soldier_tokens_from_the_players():
    s = state_with(mode="companion")
    assert s.to_move == 0
    s = play(s, "soldiers 2", "soldiers 5")
    assert s.soldiers == [2, 5] and s.to_move == 1 and s.points == [0, 0]


def test_companion_entry_replaces_the_count():
    """Companion mode: the Soldier tokens a player enters are those in front of them (docs/rules/kingdom.md)."""
    s = play(state_with({"round": 2, "phase": "income", "current": 0, "soldiers": [3, 3]}, mode="companion"),
             "soldiers 1", "soldiers 1")
    assert s.soldiers == [1, 1]


def test_unknown_state_fields_are_refused():
    doc = state_with().to_json()
    with pytest.raises(ValueError, match="soldierz"):
        KINGDOM.state_from_json({**doc, "soldierz": [1, 1]})


def _refusal(state, action: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert state.to_json() == before
    return e.value.reason


def test_double_move_through_an_enemy_territory_is_refused_for_that_reason():
    """"Thus your Army pawns can move 2 territories at once, as long as they do not move through enemy
    territories this way." — Fern March reaches The Great Lake only through South Bay; while Blue holds South
    Bay the refusal names South Bay as Blue's, not a lack of adjacency."""
    s = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [7, 7],
                    "armies": {"westwood": [1, 0], "fernmarch": [2, 0], "southbay": [0, 1]},
                    "locations": {"westwood.1": 0, "fernmarch.1": 0, "fernmarch.2": 0}})
    s = play(s, "move greatlake")
    reason = _refusal(s, "from fernmarch 2")
    assert "southbay is blue's" in reason
    assert "do not move through enemy territories" in reason
    assert "not adjacent" not in reason


def test_two_territories_away_without_double_move_names_the_missing_effect():
    """"Double move: During a Move Armies action, after having chosen the destination territory, you can choose
    your starting territories not only from those adjacent to it, but also from your territories adjacent to
    those." — without the effect, a territory two steps away is refused as not adjacent."""
    s = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [7, 8],
                    "armies": {"westwood": [1, 0], "fernmarch": [2, 0]},
                    "locations": {"westwood.2": 0, "fernmarch.1": 0, "fernmarch.2": 0}})
    reason = _refusal(play(s, "move greatlake"), "from fernmarch 2")
    assert reason.startswith("fernmarch is not adjacent to greatlake")
    assert "needs the Double move bonus effect" in reason


def test_double_move_via_own_option_names_the_empty_territory():
    """Option double_move_via=own (docs/rules/kingdom.md): "as long as they do not move through enemy
    territories" read strictly, only your own territories carry a double move; the refusal says so."""
    s = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [7, 8],
                    "armies": {"westwood": [1, 0], "fernmarch": [2, 0], "southbay": [0, 0]},
                    "locations": {"westwood.1": 0, "fernmarch.1": 0, "fernmarch.2": 0}},
                   double_move_via="own")
    reason = _refusal(play(s, "move greatlake"), "from fernmarch 2")
    assert "southbay is empty" in reason and "'own'" in reason


def test_destination_only_two_steps_away_names_the_blocking_territories():
    """"Thus your Army pawns can move 2 territories at once, as long as they do not move through enemy
    territories this way." — side B: Blue, with Double move, has armies only in Barrow Down, two territories
    from Glimmerdell through Red Hold (Red's castle) or Wheatfield (Red's armies). Choosing Glimmerdell is
    refused for that reason, not as if no army were near; without Double move, for the missing effect."""
    patch = {"phase": "conquest", "current": 1, "soldiers": [0, 4], "reserve": [11, 5],
             "armies": {"barrowdown": [0, 2], "wheatfield": [1, 0], "glimmerdell": [0, 0], "ferrycross": [0, 1]},
             "locations": {"barrowdown.1": 1, "wheatfield.1": 0, "wheatfield.2": None, "glimmerdell.1": None,
                           "ferrycross.1": 1}}
    reason = _refusal(state_with(patch, board="b"), "move glimmerdell")
    assert reason.startswith("barrowdown is 2 territories from glimmerdell")
    assert "do not move through enemy territories" in reason
    assert "redhold is red's" in reason and "wheatfield is red's" in reason
    without = {**patch, "locations": {**patch["locations"], "ferrycross.1": None, "ferrycross.2": 1}}
    reason = _refusal(state_with(without, board="b"), "move glimmerdell")
    assert reason.startswith("barrowdown is not adjacent to glimmerdell")
    assert "needs the Double move bonus effect" in reason
    # nothing of Blue's within two territories: the plain reason
    assert (_refusal(state_with(patch, board="b"), "move saltmarsh")
            == "none of your territories with armies is adjacent to saltmarsh")


def test_the_destination_is_not_a_starting_territory():
    """"Choose a destination territory and any number of your adjacent territories ... then move these armies
    to the destination territory." — armies already in the destination do not move into it: naming it as a
    starting territory is refused as such (not as a territory too far away), and one army is one army."""
    s = play(state_with({**CONQUEST_RED, "soldiers": [3, 0]}), "move fernmarch")
    assert _refusal(s, "from fernmarch 1") == ("fernmarch is the destination of this move: the armies come "
                                               "from the territories around it")
    assert _refusal(play(state_with({**CONQUEST_RED, "soldiers": [3, 0]}), "move southbay"),
                    "from millbrook 3") == "red has only 2 armies in millbrook"
    one = state_with({**CONQUEST_RED, "soldiers": [3, 0], "reserve": [9, 7],
                      "armies": {"millbrook": [1, 0], "southbay": [0, 1]},
                      "locations": {"millbrook.2": None, "southbay.1": 1}})
    assert _refusal(play(one, "move fernmarch"), "from millbrook 2") == "red has only 1 army in millbrook"


def test_too_few_soldier_tokens_is_refused_as_such():
    """"Spend 1 Soldier token per army you wish to move from your starting territories" — with 3 armies next
    to 2 enemy armies but only 2 Soldier tokens, the move is refused for the tokens, not for the armies."""
    s = state_with({**CONQUEST_RED, "soldiers": [2, 0], "reserve": [5, 6],
                    "armies": {"southbay": [3, 0], "greatlake": [0, 2]},
                    "locations": {"southbay.1": 0, "southbay.2": 0, "greatlake.2": 1, "greatlake.3": 1}})
    reason = _refusal(s, "move greatlake")
    assert reason == ("Spend 1 Soldier token per army you wish to move: moving more than the 2 enemy armies in "
                      "greatlake takes 3 Soldier tokens and red has 2")
    # with the tokens but not the armies, the outnumbering rule is the reason
    few = state_with({**CONQUEST_RED, "soldiers": [5, 0], "reserve": [6, 6],
                      "armies": {"southbay": [2, 0], "greatlake": [0, 2]},
                      "locations": {"southbay.1": 0, "southbay.2": 0, "greatlake.2": 1, "greatlake.3": 1}})
    assert _refusal(few, "move greatlake").startswith("You can only move into the territory if the number of "
                                                      "armies you move into it is greater")


def test_loader_refuses_a_stop_by_the_seat_to_move():
    """"If your opponent Stops Their Conquest just after you have, it ends the Conquest phase." — after a stop
    the opponent acts, so a state where the seat that stopped is also the one to move is never reached."""
    with pytest.raises(StateFormatError) as e:
        state_with({**CONQUEST_RED, "soldiers": [3, 3], "stopped": 0})
    assert e.value.field == "stopped"
    assert state_with({**CONQUEST_RED, "soldiers": [3, 3], "stopped": 1}).stopped == 1
    with pytest.raises(StateFormatError) as e:
        state_with({"stopped": 1})  # the income phase
    assert e.value.field == "stopped"


def test_loader_refuses_a_move_outside_the_move_phases():
    """"Choose a destination territory and any number of your adjacent territories." — a move under way exists
    only between 'move TERRITORY' and the end of that action."""
    with pytest.raises(StateFormatError) as e:
        state_with({**CONQUEST_RED, "soldiers": [3, 3], "move": {"to": "southbay", "from": {}}})
    assert e.value.field == "move"
    ok = state_with({**CONQUEST_RED, "phase": "move", "soldiers": [3, 3], "move": {"to": "southbay", "from": {}}})
    assert ok.move_to == ok.board.index["southbay"]
