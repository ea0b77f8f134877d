"""The borders a web board shows (conquest/web/board.py): a map given by centres only is drawn as cells set
apart, with one line per pair of bordering regions and none between regions that do not border each other;
a map with its own shapes keeps them and gets a line only where two shapes border each other without a
visible shared side."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from conquest.core.maps import load_map
from conquest.core.registry import get_ruleset
from conquest.web.board import _edges, _inside, _seg_dist, board_for, complete_board

# a tiny map of centres: a 3 x 3 grid whose Voronoi cells touch their 4 grid neighbours (and meet their
# diagonal ones at a corner); the borders are a path and one long border between two opposite corners, so
# several cells that touch are not neighbours and one border joins cells that do not touch
CENTRES = {f"r{x}{y}": [x * 10.0, y * 10.0] for x in range(3) for y in range(3)}
BORDERS = [["r00", "r10"], ["r10", "r20"], ["r20", "r21"], ["r21", "r11"], ["r11", "r01"], ["r01", "r02"],
           ["r02", "r12"], ["r12", "r22"], ["r00", "r22"]]


def tiny_board() -> dict[str, Any]:
    return complete_board({"map": {"format": "conquest-map/1", "id": "tiny", "name": "Tiny",
                                   "regions": [{"id": k, "name": k, "kind": "land", "center": c}
                                               for k, c in CENTRES.items()],
                                   "borders": BORDERS}})


def polygons(board: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    return {r["id"]: [(float(x), float(y)) for x, y in r["polygon"]] for r in board["map"]["regions"]}


def distance(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    return min(_seg_dist(p, q, r, s) for p, q in _edges(a) for r, s in _edges(b))


def test_a_map_of_centres_gets_one_line_per_border_and_none_between_other_regions() -> None:
    board = tiny_board()
    links = board["map"]["links"]
    drawn = [tuple(sorted((lk["a"], lk["b"]))) for lk in links]
    assert sorted(drawn) == sorted(tuple(sorted(b)) for b in BORDERS)  # one each, no more
    assert len(set(drawn)) == len(drawn)
    centres = {k: tuple(c) for k, c in CENTRES.items()}
    for lk in links:  # from centre to centre
        assert (tuple(lk["from"]), tuple(lk["to"])) in ((centres[lk["a"]], centres[lk["b"]]),
                                                        (centres[lk["b"]], centres[lk["a"]]))
    assert board["legend"][-1]["line"] is True and "border" in board["legend"][-1]["text"]


def test_a_map_of_centres_draws_no_two_cells_touching() -> None:
    polys = polygons(tiny_board())
    for a, b in itertools.combinations(polys, 2):
        assert distance(polys[a], polys[b]) > 1.0, f"the cells of {a} and {b} touch"
    for k, c in CENTRES.items():  # each cell still holds its centre (its name and pieces are drawn there)
        assert _inside((c[0], c[1]), polys[k])


def test_every_line_of_a_map_of_centres_shows_or_is_drawn_over_the_cells() -> None:
    """A line drawn under the cells that ran under a third one would seem to end in it (r00-r22 passes the
    centre r11): the cells give way to a line, or the line is marked to be drawn over them."""
    board = tiny_board()
    polys = polygons(board)
    for lk in board["map"]["links"]:
        a, b = tuple(lk["from"]), tuple(lk["to"])
        crossed = [k for k in polys if k not in (lk["a"], lk["b"])
                   and min(_seg_dist(a, b, p, q) for p, q in _edges(polys[k])) == 0.0]
        assert lk["over"] == bool(crossed), (lk, crossed)
    assert any(lk["over"] for lk in board["map"]["links"])  # r00-r22 crosses r11, whose centre is on it


@pytest.mark.parametrize("board", ["a", "b"])
def test_kingdom_boards_show_every_border_and_no_other(board: str) -> None:
    rs = get_ruleset("kingdom")
    st = rs.new_game(2, rs.options().resolve({"board": board}), 1)
    drawn = board_for(rs, st, st.view(0), 0)
    assert drawn is not None
    m = drawn["map"]
    assert sorted(tuple(sorted((lk["a"], lk["b"]))) for lk in m["links"]) == sorted(tuple(b) for b in m["borders"])
    polys = polygons(drawn)
    for a, b in itertools.combinations(polys, 2):
        assert distance(polys[a], polys[b]) > 0.5, f"{a} and {b} touch"
    for lk in m["links"]:  # no line is hidden under a third territory
        ends = (tuple(lk["from"]), tuple(lk["to"]))
        assert lk["over"] or all(distance([*ends], polys[k]) > 0 for k in polys if k not in (lk["a"], lk["b"]))


def test_a_map_with_shapes_keeps_them_and_bridges_only_a_corner_border() -> None:
    """Small World's map for 2: Sea of Mists (r7) and Hartfell (r9) border each other at a point where four
    regions meet; every other border is a shared side of the shapes."""
    gm = load_map("conquest/rulesets/smallworld/maps/smallworld-2.yaml")
    given = gm.to_json()
    board = complete_board({"map": given})
    assert [r["polygon"] for r in board["map"]["regions"]] == [r["polygon"] for r in given["regions"]]
    bridges = {(lk["a"], lk["b"]) for lk in board["map"]["links"]}
    assert ("r7", "r9") in bridges and gm.adjacent("r7", "r9")
    assert all(gm.adjacent(a, b) for a, b in bridges) and len(bridges) <= 3
    assert all(lk["bridge"] and lk["over"] for lk in board["map"]["links"])


def test_a_grid_without_borders_and_a_map_of_hexes_get_no_lines() -> None:
    for rid, players in (("narby", 2), ("nerath", 4)):
        rs = get_ruleset(rid)
        st = rs.new_game(players, rs.options().resolve({}), 1)
        drawn = board_for(rs, st, st.view(0), 0)
        assert drawn is not None and not drawn["map"].get("links"), rid


def test_a_rim_cell_of_a_map_of_centres_shows_its_name_inside_away_from_the_edge() -> None:
    """Five holds, the Keep in the middle (the map ``conquest new`` writes): the North Hold's centre is near the
    top of its cell (the cell reaches the map's edge), so its name and pieces stand at the cell's middle height,
    inside it; the Keep's centre is the middle of its cell and stays its label point."""
    regions = [{"id": "north", "name": "North Hold", "kind": "land", "center": [50, 12]},
               {"id": "east", "name": "East Hold", "kind": "land", "center": [88, 50]},
               {"id": "south", "name": "South Hold", "kind": "land", "center": [50, 88]},
               {"id": "west", "name": "West Hold", "kind": "land", "center": [12, 50]},
               {"id": "keep", "name": "The Keep", "kind": "land", "center": [50, 50]}]
    borders = [["north", "east"], ["east", "south"], ["south", "west"], ["west", "north"],
               ["keep", "north"], ["keep", "east"], ["keep", "south"], ["keep", "west"]]
    board = complete_board({"map": {"format": "conquest-map/1", "id": "holds", "name": "Holds", "regions": regions,
                                    "borders": borders}})
    placed = {r["id"]: r for r in board["map"]["regions"]}
    for rid in ("north", "south"):
        r = placed[rid]
        ys = [p[1] for p in r["polygon"]]
        at = r["label_at"]
        assert _inside((at[0], at[1]), [(float(x), float(y)) for x, y in r["polygon"]])
        assert min(at[1] - min(ys), max(ys) - at[1]) >= 0.3 * (max(ys) - min(ys)), (rid, at, min(ys), max(ys))
    assert placed["keep"]["label_at"] == [50.0, 50.0]
