"""The board drawn in the terminal from the same map file as the browser: each character cell belongs to the
region whose centre is nearest (the Voronoi cells the polygons describe); borders are drawn where cells change,
seas and the lake with '~', mountains with '^', and each region is labelled with its number and occupant."""

from __future__ import annotations

from functools import lru_cache

from conquest.rulesets.smallworld.data import Board

COLS, ROWS = 78, 24


@lru_cache(maxsize=16)
def _raster(board_key: str, centers: tuple[tuple[float, float], ...], width: float, height: float) -> list[list[int]]:
    grid = []
    for row in range(ROWS):
        y = (row + 0.5) * height / ROWS
        line = []
        for col in range(COLS):
            x = (col + 0.5) * width / COLS
            best, bd = 0, 1e18
            for i, (cx, cy) in enumerate(centers):
                d = (cx - x) ** 2 + (cy - y) ** 2
                if d < bd:
                    best, bd = i, d
            line.append(best)
        grid.append(line)
    return grid


def draw(board: Board, labels: list[str]) -> list[str]:
    """``labels[i]`` is written at region i's centre, under its number."""
    regs = board.map.regions
    centers = tuple((r.center or (0.0, 0.0)) for r in regs)
    w = float(board.map.attrs.get("width", 300.0))
    h = float(board.map.attrs.get("height", 200.0))
    grid = _raster(board.key, centers, w, h)
    chars = [[" "] * COLS for _ in range(ROWS)]
    for y in range(ROWS):
        for x in range(COLS):
            i = grid[y][x]
            right = x + 1 < COLS and grid[y][x + 1] != i
            down = y + 1 < ROWS and grid[y + 1][x] != i
            if right and down:
                chars[y][x] = "┼"
            elif right:
                chars[y][x] = "│"
            elif down:
                chars[y][x] = "─"
            elif board.water[i]:
                chars[y][x] = "~"
            elif board.mountain[i] and (x + y) % 3 == 0:
                chars[y][x] = "^"
    for i, (cx, cy) in enumerate(centers):
        row = min(ROWS - 1, max(0, int(cy / h * ROWS)))
        col = int(cx / w * COLS)
        number = f"r{i + 1}"
        text = labels[i]
        for k, t in enumerate((number, text)):
            if not t:
                continue
            r = row - 1 + k if row > 0 else row + k
            r = min(ROWS - 1, r)
            start = max(0, min(COLS - len(t), col - len(t) // 2))
            for j, ch in enumerate(t):
                chars[r][start + j] = ch
    # plain text: the terminal prints it without markup
    return ["".join(row) for row in chars]
