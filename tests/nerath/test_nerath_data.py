"""The tables of Conquest of Nerath as data: the piece table, the board, the set-up."""

from __future__ import annotations

from conquest.core.maps import load_map
from conquest.rulesets.nerath.data import HERE, LAND, REALMS, SEA, tables
from conquest.rulesets.nerath.make_board import build, cells


def test_piece_table_matches_the_document() -> None:
    """NAME TYPE COST ATTACK MOVE: "Footsoldier Land 1 6 1", "Siege Engine Land 2 8 1", "Fighter Land 2 10 2",
    "Wizard Land 3 10 2", "Monster Land 3 12 2", "Castle Land 4 - -", "Storm Elemental Flying 3 8 2",
    "Dragon Flying 5 - 3", "Warship Sea 2 8 2"."""
    p = tables().pieces
    got = {k: (v.type, v.cost, v.die, v.move) for k, v in p.items()}
    assert got["footsoldier"] == ("land", 1, 6, 1)
    assert got["siege"] == ("land", 2, 8, 1)
    assert got["fighter"] == ("land", 2, 10, 2)
    assert got["wizard"] == ("land", 3, 10, 2)
    assert got["monster"] == ("land", 3, 12, 2)
    assert got["storm"] == ("flying", 3, 8, 2)
    assert got["warship"] == ("sea", 2, 8, 2)
    assert (got["castle"][0], got["castle"][1], got["castle"][3]) == ("land", 4, 0)
    assert (got["dragon"][0], got["dragon"][1], got["dragon"][3]) == ("flying", 5, 3)
    assert tables().hit_on == 6


def test_castle_and_dragon_roll_a_d20() -> None:
    """The document lost the dice of the Castle and the Dragon; the project reads d20 for both (rules README)."""
    assert tables().pieces["castle"].die == 20
    assert tables().pieces["dragon"].die == 20


def test_abilities_as_data() -> None:
    """"Wizard ... First Strike", "Siege Engine ... Powerful Attack", "Dragon ... Durable", "Storm Elemental ...
    Capsize ... Hover", "Monster ... Run Amok", "Warship ... Sea Transport"."""
    p = tables().pieces
    assert "first_strike" in p["wizard"].abilities
    assert "powerful_attack" in p["siege"].abilities
    assert "durable" in p["dragon"].abilities
    assert {"capsize", "hover"} <= set(p["storm"].abilities)
    assert "run_amok" in p["monster"].abilities
    assert "transport" in p["warship"].abilities
    assert {"explore", "battle_at_sea"} <= set(p["fighter"].abilities)


def test_starting_land_spaces_per_realm() -> None:
    """"Base income is equal to the number of starting land spaces: Karkoth 15 gold; Vailin 13 gold; Iron Circle
    13 gold; Nerath 14 gold"."""
    b = tables().board
    counts = {r: sum(1 for h in b.home if h == i) for i, r in enumerate(REALMS)}
    assert counts == {"karkoth": 15, "vailin": 13, "iron": 13, "nerath": 14}


def test_capitals_have_their_names() -> None:
    """"an enemy Capital (Karkothi Throneholds, Vailindor, Citadel of Iron's Grasp, or Mithrafast)"."""
    b = tables().board
    names = [b.map.regions[c].name for c in b.capital]
    assert names == ["Karkothi Throneholds", "Vailindor", "Citadel of Iron's Grasp", "Mithrafast"]


def test_islands_touch_only_sea() -> None:
    """"Islands (land spaces entirely inside one or more sea spaces) are also coastal spaces."""
    b = tables().board
    islands = [i for i in range(len(b.ids)) if b.island[i]]
    assert len(islands) >= 2
    for i in islands:
        assert b.kind[i] == LAND and b.coastal[i]
        assert all(b.kind[j] == SEA for j in b.adj[i])


def test_dungeon_entrances_belong_to_nobody() -> None:
    """"Shuffle the Dungeon Guardian tiles and place one on each dungeon entrance on the board (these are not
    controlled by any realm)."""
    b = tables().board
    assert len(b.dungeons) >= 4
    assert all(b.home[d] == -1 for d in b.dungeons)


def test_impassable_corners_are_not_spaces() -> None:
    """"The impassable territories in the northeast and southwest corners of the board do not count as spaces,
    and pieces cannot enter or move through these areas."""
    grid = cells()
    width = max(x for x, _ in grid) + 1
    height = max(y for _, y in grid) + 1
    assert (width - 1, 0) not in grid and (0, height - 1) not in grid
    assert (0, 0) in grid and (width - 1, height - 1) in grid


def test_board_file_is_generated_from_the_layout() -> None:
    m = load_map(HERE / "board.yaml")
    fresh = build()
    assert [r["id"] for r in fresh["regions"]] == m.ids()
    assert len(fresh["borders"]) == sum(len(a) for a in m.adjacency) // 2


def test_starting_treasuries() -> None:
    """"Each player takes his starting treasury: Karkoth 10 gold; Vailin 11 gold; Iron Circle 12 gold; Nerath 13
    gold."""
    assert tables().treasury == [10, 11, 12, 13]


def test_starting_forces_are_about_even() -> None:
    """Our own set-up: each realm's starting army plus treasury within a few gold of the others."""
    t = tables()
    worth = []
    for i, realm in enumerate(REALMS):
        d = t.setup["realms"][realm]
        army = sum(t.pieces[p].cost * c for pcs in d["pieces"].values() for p, c in pcs.items())
        army += sum(t.pieces["warship"].cost + sum(t.pieces[p].cost for p in w[1:]) for w in d["warships"])
        worth.append(army + t.treasury[i])
    assert max(worth) - min(worth) <= 3, worth
