"""Narby Conquest rules that are easier to check in Python than in a scenario: distributions of the chance
nodes, the geometry of 2x2 pieces, and the readings of docs/rules/narby.md. Most rules are in
tests/scenarios/narby/*.yaml (one scenario per rule, each quoting the document)."""

from __future__ import annotations

import pytest

from conquest.core.errors import IllegalAction, NotationError, OptionError, StateFormatError
from conquest.rulesets.narby import RULESET, board as B
from conquest.rulesets.narby.tables import TABLES as T
from tests.narby.helpers import legal_texts, play, position


def test_dragon_roll_drops_leading_digits():
    """"Randomly pick a dragon, roll a d20 and drop any leading digits": 1-9 and 11-19 give the dragon of
    their last digit, 10 and 20 give 0 (Undead); every dragon has 2 chances in 20."""
    st = RULESET.new_game(2, {}, 0)
    outcomes = st.chance_outcomes()
    assert [a for a, _ in outcomes] == [("roll", i) for i in range(1, 21)]
    assert all(abs(p - 0.05) < 1e-12 for _, p in outcomes)
    got = {}
    for i in range(1, 21):
        got.setdefault(st.apply(f"roll {i}").to_json()["dragons"][0], []).append(i)
    assert got["undead"] == [10, 20]
    assert got["white"] == [1, 11]
    assert got["copper"] == [9, 19]
    assert len(got) == 10


def test_ten_dragons_and_their_rings():
    """"Claim Ring Count": 10 for every dragon but Copper's 7; ten dragons, so up to 10 seats."""
    assert [d.rings for d in T.dragons] == [10, 10, 10, 10, 10, 10, 10, 10, 7, 10]
    assert RULESET.max_players == 10
    RULESET.new_game(10, {}, 0)
    with pytest.raises(OptionError, match="not 11"):
        RULESET.new_game(11, {}, 0)


def test_draw_deals_from_the_cards_left():
    """"All cards are returned and shuffled. A random bonus card is handed out to each Dragon." — a card dealt
    to one dragon cannot be dealt to the next."""
    st = position({"node": "draw", "phase": "draw", "seat": None, "step": 0, "hands": [None, None]})
    first = st.chance_outcomes()
    assert len(first) == 18 and abs(sum(p for _, p in first) - 1) < 1e-12
    st = st.apply("card vigor")
    second = st.chance_outcomes()
    assert len(second) == 17 and ("card", "vigor") not in [a for a, _ in second]
    with pytest.raises(IllegalAction):
        st.apply("card vigor")


def test_treasure_token_faces():
    """"Treasure tokens should have a 1, 2, or 3. If the treasure token does not contain a value then it will
    be a 1." (our mix: blank, 1, 2, 3 equally likely)."""
    st = position({"node": "token", "seat": None,
                   "event": {"type": "token", "seat": 0, "left": 1, "then": "act"}})
    dist = dict(st.chance_outcomes())
    assert dist == {("token", 1): 0.5, ("token", 2): 0.25, ("token", 3): 0.25}


def test_two_by_two_adjacency_eight_and_four():
    """"Dragons take up 4 spaces in a 2x2 arrangement"; adjacent = touching by a side or (default) a corner."""
    a = B.sq(5, 5)
    assert B.FOOT[a] == (B.sq(5, 5), B.sq(6, 5), B.sq(5, 6), B.sq(6, 6))
    assert len(B.RING[8][a]) == 12 and len(B.RING[4][a]) == 8
    assert B.sq(4, 4) in B.RINGSET[8][a] and B.sq(4, 4) not in B.RINGSET[4][a]
    st = position({"settlements": {"4,7": "town"}})
    assert "claim 4,7" in legal_texts(st)
    st4 = position({"settlements": {"4,7": "town"}}, options={"adjacency": "4"})
    assert "claim 4,7" not in legal_texts(st4)
    assert "claim 4,6" in legal_texts(st4)


def test_move_counts_spaces_in_the_adjacency():
    """Move: "Move up to 3 spaces" — a diagonal step is one space with 8-adjacency, two with 4-adjacency."""
    assert "move 8,8" in legal_texts(position())
    assert "move 8,8" not in legal_texts(position(options={"adjacency": "4"}))
    assert "move 7,6" in legal_texts(position(options={"adjacency": "4"}))


def test_move_flies_over_but_lands_clear():
    """"You may fly over settlements but cannot land on a settlement, cave, or place of power, or another
    dragon" — every destination in the legal list has a free 2x2 footprint."""
    st = position({"settlements": {"7,5": "town", "6,8": "city", "8,3": "ruin"}, "chest": "8,7"})
    occ = st.occ
    moves = [a for a in st.legal_actions() if a[0] == "move"]
    assert moves
    for _, b in moves:
        assert all(occ[q] in (0, 30, 4) for q in B.FOOT[b])  # empty, red itself, or the chest (R33)
        assert B.dist(b, st.dpos[0], 8) <= 3
    assert ("move", B.sq(8, 5)) in moves  # over the town at 7,5
    assert ("move", B.sq(7, 7)) in moves  # over the chest at 8,7: it is not in the Move row's list
    assert ("move", B.sq(7, 4)) not in moves  # onto the town at 7,5


def test_a_dragon_may_land_on_the_chest():
    """Move: "cannot land on a settlement, cave, or place of power, or another dragon" — the thief's chest is
    not in the list, so (reading R33, default chest_blocks=false) a dragon may stand over it; the chest stays
    on its square beneath the dragon, and shows again when the dragon leaves."""
    st = position({"chest": "8,6"})
    st = play(st, "move 7,5")
    doc = st.to_json()
    assert doc["dragon_at"][0] == "7,5" and doc["chest"] == "8,6"
    assert st.chest_under() == 0
    again = RULESET.state_from_json(st.to_json())  # the state document may put a dragon over the chest
    assert again.to_json() == doc
    st = play(st, "move 10,5")
    assert st.chest_under() == -1 and st.occ[B.sq(8, 6)] == 4 and st.to_json()["chest"] == "8,6"


def test_the_chest_beneath_a_dragon_can_be_robbed():
    """Steal from thief's chest: "Dragon must be adjacent to thief's treasure chest" — beneath a dragon the
    chest can still be robbed by a dragon adjacent to its square, and by the dragon standing over it (R33)."""
    st = position({"chest": "6,6", "dragon_at": ["5,5", "7,7"]})  # red over the chest; blue beside its square
    assert st.chest_under() == 0
    assert "steal chest" in legal_texts(st)
    blue = position({"chest": "6,6", "dragon_at": ["5,5", "7,7"], "seat": 1})
    assert "steal chest" in legal_texts(blue)
    far = position({"chest": "6,6", "dragon_at": ["5,5", "9,9"], "seat": 1})
    assert "steal chest" not in legal_texts(far)
    st = play(st, "steal chest", "roll 12")  # Fair Theft: 1 coin
    assert st.coins[0] == 11 and st.chest_coins == 2


def test_moving_the_chest_from_under_a_dragon():
    """"Roll two d20 to determine treasure chest location, move the treasure chest miniature": a square under
    a dragon is occupied and is rolled again; the chest's own square keeps it where it is (still beneath the
    dragon); moved elsewhere, the dragon stays and the chest leaves from under it (R12, R33)."""
    base = {"chest": "6,6", "node": "chest_x", "seat": None, "step": 2, "phase": "populate"}
    st = play(position(base), "roll 16", "roll 16")  # 16,16 is under blue (15,15): rolled again
    assert st.node == "chest_x" and st.to_json()["chest"] == "6,6"
    st = play(st, "roll 6", "roll 6")  # its own square: it stays, still beneath red
    assert st.to_json()["chest"] == "6,6" and st.chest_under() == 0 and st.chest_coins == 6
    st = play(position(base), "roll 12", "roll 13")
    assert st.to_json()["chest"] == "12,13" and st.occ[B.sq(6, 6)] == 30 and st.occ[B.sq(12, 13)] == 4
    st = position({"chest": "6,6", "places": {"darkheart_cottage": "2,8"}, "claims": {"darkheart_cottage": 0}})
    st = play(st, "power darkheart_cottage", "place 9,9")  # "Move thief's treasure 5 spaces"
    assert st.to_json()["chest"] == "9,9" and st.to_json()["dragon_at"][0] == "5,5"
    assert st.occ[B.sq(6, 6)] == 30 and st.occ[B.sq(9, 9)] == 4


def test_option_chest_blocks():
    """Option chest_blocks=true, the other reading of "cannot land on a settlement, cave, or place of power, or
    another dragon": the chest keeps dragons off its square; the refusal names the option, not the list."""
    st = position({"chest": "8,6"}, options={"chest_blocks": True})
    assert "move 7,5" not in legal_texts(st)
    with pytest.raises(IllegalAction, match="chest_blocks"):
        st.apply("move 7,5")
    with pytest.raises(StateFormatError, match="dragon_at/0"):
        position({"chest": "6,6"}, options={"chest_blocks": True})


def test_place_of_power_footprint_from_the_rolled_quarter():
    """"place on quarter of the place of power miniature in the space indicated" — the rolled square is the
    top-left quarter unless the piece would leave the board."""
    assert B.anchor_for(3, 4) == B.sq(3, 4)
    assert B.anchor_for(20, 4) == B.sq(19, 4)
    assert B.sq(20, 20) in B.FOOT[B.anchor_for(20, 20)]


def test_undead_home_moves_to_the_resting_place():
    """Immortals Resting Place: "Home of Undead Dragon" — once it is on the board, Tower of Faces / Horror put
    the Undead beside it instead of beside its starting square."""
    st = position({"dragons": ["red", "undead"], "caves": ["4,4", None], "home": ["4,4", "17,17"],
                   "hands": ["horror", None]})
    st = st.apply("play horror undead")
    assert "place 18,18" in legal_texts(st)
    st2 = position({"dragons": ["red", "undead"], "caves": ["4,4", None], "home": ["4,4", "17,17"],
                    "places": {"immortals_resting_place": "2,12"}, "hands": ["horror", None]})
    st2 = st2.apply("play horror undead")
    assert "place 18,18" not in legal_texts(st2)
    assert "place 4,12" in legal_texts(st2)


def test_claim_settlement_returns_the_ring():
    """"Claim Settlement: Remove opponents claim and put a claim ring" — rings are counted from the board."""
    st = position({"settlements": {"7,5": "town"}, "claims": {"7,5": 1}})
    assert st.rings_left == [10, 9]
    st = play(st, "claim 7,5")
    assert st.rings_left == [9, 10]
    assert st.acts == 1


def test_free_plays_remain_after_the_last_action():
    """A turn always ends: cards and powers are used once, and with no action left only free plays remain."""
    st = position({"actions_left": 0, "hands": ["vigor", None]})
    assert legal_texts(st) == ["end", "play vigor"]
    st = st.apply("play vigor")
    assert st.acts == 1


def test_turn_passes_when_nothing_is_left():
    """"Each turn a Dragon has 3 actions": the third action ends the turn when nothing free remains."""
    st = play(position(), "move 6,5", "move 7,5", "move 8,5")
    assert st.to_move == 1 and st.acts == 3


def test_notation_round_trip_and_errors():
    for text in ["roll 17", "token 2", "card procreator", "dragon undead", "place 3,14", "move 19,19",
                 "claim 3,4", "claim soul_mine", "claim 3,4 5,6", "destroy madhouse", "steal chest",
                 "steal gold", "attack red", "abandon 1,1", "lose soul_mine", "play robber blue",
                 "play leader 4,4", "play procreator y-2", "power tower_of_faces red",
                 "power tower_of_unquenched_flame 3,3", "choose citadel_of_torture", "upgrade 2,2", "end",
                 "pass"]:
        assert RULESET.format_action(RULESET.parse_action(text)) == text
    assert RULESET.parse_action("claim 5,6 3,4") == RULESET.parse_action("claim 3,4 5,6")
    assert RULESET.parse_action("play Pro-creator x+2") == ("play", "procreator", "x+2")
    for bad in ["", "roll 21", "roll x", "move 0,3", "move 3", "claim atlantis", "steal pink", "play joker",
                "play vigor red", "power soul_mine red", "jump 3,3", "play procreator z+2", "claim 3,3 3,3"]:
        with pytest.raises(NotationError):
            RULESET.parse_action(bad)


def test_illegal_action_names_the_rule():
    st = position({"settlements": {"9,9": "town"}})
    with pytest.raises(IllegalAction, match="adjacent"):
        st.apply("claim 9,9")
    with pytest.raises(IllegalAction, match="3 spaces"):
        st.apply("move 12,12")


def refusal(st, text: str) -> str:
    with pytest.raises(IllegalAction) as e:
        st.apply(text)
    return str(e.value)


def test_steal_from_own_cave_says_why():
    """"Dragons may steal from other dragon caverns or the thief's treasure chest" — red next to its own cave is
    refused for that reason, not for adjacency."""
    msg = refusal(position(), "steal red")  # red at 5,5 is adjacent to its cave at 4,4
    assert "own cave" in msg and "other dragon caverns" in msg and "adjacent" not in msg


def test_refusals_explain_the_rule_that_refuses():
    """Each refusal names the rule that stops this very action, not its row's whole note: the Move row's list
    ("cannot land on a settlement, cave, or place of power, or another dragon") only for what is in it,
    "Move up to 3 spaces" for distance, "Dragons may attack each other" for attacking oneself, "Take one of
    your colored claim rings" for another's ring, "Shall not destroy settlements" for Gold and Copper."""
    st = position({"settlements": {"7,5": "town", "3,3": "town", "8,3": "city"},
                   "claims": {"3,3": 0, "8,3": 1}, "hands": ["guardian", None]})
    assert "holds a town" in refusal(st, "move 7,4") and "another dragon" in refusal(st, "move 7,4")
    assert "7 spaces away" in refusal(st, "move 12,12")
    assert "off the board" in refusal(st, "move 20,5")
    assert "itself" in refusal(st, "attack red")
    assert "not adjacent" in refusal(st, "attack blue")
    assert "no gold dragon" in refusal(st, "attack gold")
    assert "own claim" in refusal(position({"settlements": {"7,5": "town"}, "claims": {"7,5": 0}},
                                           options={"destroy_own_claims": False}), "destroy 7,5")
    assert "already has your claim ring" in refusal(st, "claim 3,3")
    assert "cave of Seat 1 (red)" in refusal(st, "claim 4,4")
    assert "Seat 2 (blue)'s" in refusal(st, "abandon 8,3")
    assert "not in your hand" in refusal(st, "play vigor")
    assert "declares a steal" in refusal(st, "play guardian")
    assert "not on the board" in refusal(st, "power soul_mine")
    gold = position({"dragons": ["gold", "blue"], "settlements": {"7,5": "town"}})
    assert "Shall not destroy settlements" in refusal(gold, "destroy 7,5")
    two = position({"settlements": {"7,5": "town"}, "claims": {"7,5": 1}, "actions_left": 1})
    assert "costs 2 actions" in refusal(two, "claim 7,5")
    blank = position({"claims": {"7,5": 1}})
    assert "blank space claimed by Seat 2 (blue)" in refusal(blank, "claim 7,5")


def test_state_json_errors_name_the_field():
    with pytest.raises(StateFormatError, match="settlements/3,3"):
        position({"settlements": {"3,3": "castle"}})
    with pytest.raises(StateFormatError, match="dragon_at/1"):
        position({"dragon_at": ["5,5", "5,6"]})
    with pytest.raises(StateFormatError, match="claims"):
        position({"claims": {"soul_mine": 0}})
    with pytest.raises(StateFormatError, match="seat"):
        position({"seat": 5})
    with pytest.raises(StateFormatError, match="caves/0"):
        position({"dragons": ["undead", "blue"]})
    with pytest.raises(StateFormatError, match="event"):
        position({"node": "roll", "seat": None})
    with pytest.raises(StateFormatError, match="event"):  # a list where the event's type belongs
        position({"event": {"type": [], "seat": 0, "left": 1, "then": "act"}})
    with pytest.raises(StateFormatError, match="^node: input should be 'act', .*'upgrade' \\(got 'nap'\\)$"):
        position({"node": "nap"})   # the declared node ids: an unknown node is refused by the schema
    with pytest.raises(StateFormatError, match="^coins: expected a list of 2 entries$"):
        position({"coins": [10, 10, 10]})   # one per seat
    with pytest.raises(StateFormatError, match="^event/defender: seat 2 out of range$"):
        position({"node": "react", "seat": 1, "event": {"type": "attack", "actor": 0, "defender": 2, "queue": [1]}})


def test_view_hides_other_hands():
    """Bonus cards are in hand: only their holder sees them."""
    st = position({"hands": ["vigor", "leader"]})
    assert st.view(0)["hands"] == ["vigor", "hidden"]
    assert st.view(1)["hands"] == ["hidden", "leader"]
    assert st.view(None)["hands"] == ["hidden", "hidden"]
    assert st.to_json()["hands"] == ["vigor", "leader"]


def test_render_text_shows_the_pieces():
    st = position({"settlements": {"7,5": "town"}, "claims": {"7,5": 1}, "places": {"soul_mine": "12,2"}})
    text = RULESET.render_text(st, 0)
    assert "D1" in text and "t2" in text and "$$" in text and "Soul Mine" in text and "c2" in text


def test_blank_square_claims_come_last_and_say_they_earn_nothing():
    """"Dragons may claim a blank space on the board" (R9: it earns nothing at tribute) — every blank square next
    to the dragon stays a legal claim, but the list offers the useful actions first: claims of settlements and
    places, steals, attacks, destroys, cards, moves, and the blank claims at the end."""
    st = position({"settlements": {"7,5": "town"}, "places": {"soul_mine": "3,6"}, "chest": "7,7",
                   "dragon_at": ["5,5", "7,3"], "hands": ["vigor", None]})
    acts = [RULESET.format_action(a) for a in st.legal_actions()]
    blank = [i for i, a in enumerate(acts) if a.startswith("claim") and a not in ("claim 7,5", "claim soul_mine")]
    assert len(blank) == 6  # 12 squares around red, less a town, the chest, the cave, 2 of the Soul Mine, blue
    useful = [acts.index(a) for a in ("claim 7,5", "claim soul_mine", "steal chest", "attack blue", "destroy 7,5",
                                      "play vigor", "move 8,8")]
    assert max(useful) < min(blank)
    assert acts[0] == "end"
    assert acts.index("claim 7,5") < acts.index("steal chest") < acts.index("attack blue") < acts.index("move 8,8")
    assert RULESET.describe_action(st, RULESET.parse_action("claim 5,4")) == (
        "claim the blank square at column 5, row 4 (earns nothing at tribute; 1 action)")
    assert "claim the town at column 7, row 5" in RULESET.describe_action(st, RULESET.parse_action("claim 7,5"))
    taken = position({"settlements": {"7,5": "town"}, "claims": {"7,5": 1}})
    assert "take the town at column 7, row 5 from the Blue dragon (2 actions)" in RULESET.describe_action(
        taken, RULESET.parse_action("claim 7,5"))


def test_seats_have_one_name_on_the_board_and_in_the_cli():
    """The CLI's seat names ("Seat 1", from seat_names) are the board's: Seat 1 is seat 0 of the state JSON,
    drawn D1 / c1 and listed as "Seat 1 (red)"; the JSON keeps 0-based seats."""
    assert RULESET.seat_names(3, RULESET.options().resolve({})) == ["Seat 1", "Seat 2", "Seat 3"]
    st = position({"settlements": {"7,5": "town"}, "claims": {"7,5": 1}, "chest": "6,6"})
    text = RULESET.render_text(st, 0)
    assert "Seat 1 (red)" in text and "Seat 2 (blue)" in text and "seat 0" not in text.lower()
    assert " D1 D1 t2" in text and " c1" in text and "D0" not in text
    assert "beneath the dragon of Seat 1 (red)" in text  # R33: the chest under red
    assert st.to_json()["claims"] == {"7,5": 1}
    ten = position({"dragons": ["white", "black", "green", "blue", "red", "purple", "iron", "gold", "copper",
                                "undead"], "dragon_at": ["1,1", "15,15", "1,4", "1,7", "1,10", "1,13", "1,16",
                                                         "4,1", "7,1", "10,1"],
                    "caves": ["3,3", "17,17", "3,6", "3,9", "3,12", "3,15", "3,18", "6,3", "9,3", None],
                    "home": ["3,3", "17,17", "3,6", "3,9", "3,12", "3,15", "3,18", "6,3", "9,3", "12,3"],
                    "coins": [0] * 10, "tokens": [0] * 10, "token_count": [0] * 10, "hands": [None] * 10,
                    "order": list(range(10))}, players=10)
    text = RULESET.render_text(ten, 0)
    assert "Seat 10 (undead)" in text and " D0 D0" in text and "Seat 10 shows as 0" in text


def test_setup_patch_is_forgiving_about_derived_fields():
    """The documented state format: `phase` follows from `node`, `turn` from the acting `seat`, `rings_left`
    from `claims` (docs/rules/narby.md §5)."""
    st = position({"seat": 1, "phase": "populate", "claims": {"1,1": 1}})
    doc = st.to_json()
    assert doc["phase"] == "action" and doc["turn"] == 1 and doc["rings_left"] == [10, 9]
    assert st.to_move == 1


def test_full_board_does_not_loop():
    """A location on a piece is rolled again — but on a board with no free square the chest stays put and a
    settlement is skipped, so populate always ends (our guard; the document never fills its board)."""
    st = position()
    taken = {q for q, c in enumerate(st.occ) if c}
    towns = {B.sq_text(q): "city" for q in range(B.SQUARES) if q not in taken}
    st = position({"settlements": towns, "node": "chest_x", "seat": None, "step": 2, "chest_coins": 0})
    st = play(st, "roll 1", "roll 1")
    assert st.to_json()["chest"] == "10,10" and st.chest_coins == 3 and st.node == "act"
    st = position({"settlements": towns, "node": "settle_x", "seat": None, "step": 1})
    st = play(st, "roll 1", "roll 1")
    assert st.node == "pop_roll"


def test_a_square_of_a_place_is_not_the_place():
    """Places of power are named by id in the notation; a square of one is refused with a hint."""
    st = position({"places": {"soul_mine": "7,5"}})
    assert not st.is_legal(RULESET.parse_action("claim 8,6"))
    with pytest.raises(IllegalAction, match="claim soul_mine"):
        st.apply("claim 8,6")


def test_baba_yaga_once_per_round_or_each_turn():
    """Baba Yaga's Hut: "Power once per round" (the table's column) against "Moves 3 spaces each turn for free"
    (its text), reading R34. Default baba_yaga_uses=round: a Hut walked this round stays used when blue takes
    it over; with baba_yaga_uses=turn the power is back at the start of blue's turn."""
    patch = {"places": {"baba_yaga_hut": "10,10"}, "chest": "1,20", "claims": {"baba_yaga_hut": 1},
             "powers_used": ["baba_yaga_hut"]}
    st = play(position(patch), "end")
    assert st.who == 1 and "power baba_yaga_hut" not in legal_texts(st)
    st = play(position(patch, options={"baba_yaga_uses": "turn"}), "end")
    assert st.who == 1 and "power baba_yaga_hut" in legal_texts(st)
    st = play(st, "power baba_yaga_hut", "place 12,10")
    assert st.to_json()["places"]["baba_yaga_hut"] == "12,10" and "power baba_yaga_hut" not in legal_texts(st)
