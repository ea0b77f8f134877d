"""The boards: reference figures per player count, the map format, the seeded generator."""

from __future__ import annotations

import pytest

from conquest.core.maps import MapError, parse_map
from conquest.rulesets.smallworld import data as D
from conquest.rulesets.smallworld.mapgen import generate_board, validate_board

FIGURES = {2: (23, 15, 4, 9, 4), 3: (30, 16, 7, 10, 5), 4: (39, 18, 8, 14, 7), 5: (48, 21, 9, 18, 9)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_standard_boards_have_the_reference_figures(players):
    """Set-up table: "| players | turns | regions | edge regions | mountains | lost tribes | mines / caverns /
    magic |" and "Each map has 2 seas and 1 lake."  """
    b = D.get_board(players, "standard")
    regions, edge, mountains, tribes, symbols = FIGURES[players]
    assert b.n == regions
    assert sum(b.edge) == edge
    assert sum(b.mountain) == mountains
    assert sum(b.lost_tribe) == tribes
    assert sum(b.mine) == sum(b.cavern) == sum(b.magic) == symbols
    kinds = [r.kind for r in b.map.regions]
    assert kinds.count("sea") == 2 and kinds.count("lake") == 1
    assert b.map.id == f"smallworld-{players}"
    terrains = {r.attrs["terrain"] for r in b.map.regions}
    assert terrains == {"farmland", "forest", "hill", "mountain", "swamp", "sea", "lake"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_entry_regions_follow_003(players):
    """003: a border Region is "a Region adjacent to the edge of the board or one whose shore is on a Sea adjacent
    to the edge of the board"."""
    b = D.get_board(players, "standard")
    seas = [i for i in range(b.n) if b.map.regions[i].kind == "sea"]
    assert all(b.edge[s] for s in seas)
    for i in range(b.n):
        expected = b.edge[i] or any(j in seas for j in b.adj[i])
        assert b.entry[i] == expected
    # some inland regions are entries only through a sea shore, and some are not entries at all
    assert any(b.entry[i] and not b.edge[i] for i in range(b.n))
    assert any(not b.entry[i] for i in range(b.n))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 17, 123456])
def test_generated_boards_are_valid_and_reproducible(players, seed):
    """`--option map=generated` makes a board to the same figures from the game's seed."""
    doc = generate_board(D.FIGURES[players], seed)
    gm = parse_map(doc, source="gen", kinds=("land", "sea", "lake"))
    validate_board(gm, D.FIGURES[players])
    assert generate_board(D.FIGURES[players], seed) == doc
    other = generate_board(D.FIGURES[players], seed + 1)
    assert other["regions"] != doc["regions"]


def test_generated_board_is_used_by_the_option():
    from conquest.rulesets.smallworld import RULESET
    st = RULESET.new_game(4, {"map": "generated"}, 99)
    assert st.board.key == "generated-39-99"
    again = RULESET.state_from_json(st.to_json())
    assert again.board is st.board
    assert st.to_json()["map"] == {"id": "generated-39-99", "seed": 99}


def test_validator_refuses_a_board_with_wrong_figures():
    doc = generate_board(D.FIGURES[2], 5)
    for r in doc["regions"]:
        if r["attrs"].get("lost_tribe"):
            r["attrs"].pop("lost_tribe")
            break
    gm = parse_map(doc, source="bad", kinds=("land", "sea", "lake"))
    with pytest.raises(MapError, match="lost_tribes"):
        validate_board(gm, D.FIGURES[2])


def test_map_file_drives_the_drawing():
    """Every region has a centre and a polygon, for the terminal and the browser."""
    b = D.get_board(5, "standard")
    js = b.map.to_json()
    assert all("center" in r and len(r["polygon"]) >= 3 for r in js["regions"])
    assert len(js["borders"]) == sum(len(a) for a in b.adj) // 2


def test_every_race_and_power_has_its_scenario():
    """Issue 4: "at least one scenario per race and per power"."""
    from pathlib import Path
    folder = Path(__file__).parent.parent / "scenarios" / "smallworld"
    names = {p.stem for p in folder.glob("*.yaml")}
    for rid in D.RACE_IDS:
        assert any(n == f"race_{rid}" or n.startswith(f"race_{rid}_") for n in names), rid
    for pid in D.POWER_IDS:
        key = pid.replace("-", "_")
        assert any(n == f"power_{key}" or n.startswith(f"power_{key}_") for n in names), pid


@pytest.mark.parametrize("players", [2, 5])
def test_text_board_names_every_region(players):
    """The terminal draws the board from the same file: every region's number appears on the drawing."""
    import re

    from conquest.rulesets.smallworld.textmap import ROWS, draw
    b = D.get_board(players, "standard")
    lines = draw(b, ["3Ra0"] * b.n)
    assert len(lines) == ROWS
    found = {int(x) for x in re.findall(r"r(\d+)", "\n".join(lines))}
    assert found == set(range(1, b.n + 1))
