"""A server-side SVG chart of a person's placings over time (no JavaScript), one dot per game.

Place 1 is at the top; each game is a dot in its game's colour (Okabe-Ito, told apart by
colour-blind eyes) with a different shape per game for black-and-white prints; a thin line
joins the games in the order they ended.
"""

from html import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 190, 16, 36
LEGEND_STEP = 22
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
#: Marker shapes by game: circle, square, diamond, triangle, ...
SHAPES = ("circle", "square", "diamond", "triangle", "circle", "square")
DOT = 5


def placings_chart(
    points: list[tuple[str, int, int]],
    labels: dict[str, str],
    *,
    title: str,
    place_label: str,
    first_last: tuple[str, str],
) -> str:
    """SVG text: `points` are (game, place, players) in order; `labels` name the games."""
    if not points:
        return ""
    deepest = max(2, *(players for _game, _place, players in points))
    games = list(dict.fromkeys(game for game, _place, _players in points))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = max(1, len(points) - 1)

    def x(index: int) -> float:
        return LEFT + plot_w * index / steps if len(points) > 1 else LEFT + plot_w / 2

    def y(place: int) -> float:
        return TOP + plot_h * (place - 1) / (deepest - 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="placings-chart" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        _axes(y, deepest, place_label, first_last),
    ]
    path = " ".join(
        f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(place):.1f}"
        for i, (_game, place, _players) in enumerate(points)
    )
    parts.append(f'<path d="{path}" fill="none" stroke="#888" stroke-width="1"/>')
    for index, (game, place, players) in enumerate(points):
        slot = games.index(game) % len(COLOURS)
        tip = f"{labels.get(game, game)}: {place}/{players}"
        parts.append(_marker(slot, x(index), y(place), tip))
    for slot, game in enumerate(games):
        top = TOP + 8 + slot * LEGEND_STEP
        parts.append(_marker(slot % len(COLOURS), WIDTH - RIGHT + 18, top, None))
        parts.append(
            f'<text x="{WIDTH - RIGHT + 30}" y="{top + 4}">{escape(labels.get(game, game))}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _axes(y, deepest: int, place_label: str, first_last: tuple[str, str]) -> str:
    """Grid lines at every place, the place numbers, the first and last dates."""
    lines = [
        f'<text x="4" y="{TOP - 4}" fill="#444">{escape(place_label)}</text>',
    ]
    for place in range(1, deepest + 1):
        lines.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(place):.1f}" y2="{y(place):.1f}"'
            ' stroke="#ddd"/>'
            f'<text x="{LEFT - 8}" y="{y(place) + 4:.1f}" text-anchor="end">{place}</text>'
        )
    first, last = first_last
    lines.append(f'<text x="{LEFT}" y="{HEIGHT - 10}">{escape(first)}</text>')
    lines.append(
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 10}" text-anchor="end">{escape(last)}</text>'
    )
    return "".join(lines)


def _marker(slot: int, cx: float, cy: float, tip: str | None) -> str:
    """A game's marker at (cx, cy), with a hover title."""
    colour, shape = COLOURS[slot], SHAPES[slot]
    title = f"<title>{escape(tip)}</title>" if tip else ""
    if shape == "square":
        body = f'<rect x="{cx - DOT:.1f}" y="{cy - DOT:.1f}" width="{2 * DOT}" height="{2 * DOT}"'
    elif shape == "diamond":
        body = (
            f'<polygon points="{cx:.1f},{cy - DOT - 1:.1f} {cx + DOT + 1:.1f},{cy:.1f}'
            f' {cx:.1f},{cy + DOT + 1:.1f} {cx - DOT - 1:.1f},{cy:.1f}"'
        )
    elif shape == "triangle":
        body = (
            f'<polygon points="{cx:.1f},{cy - DOT - 1:.1f} {cx + DOT + 1:.1f},{cy + DOT:.1f}'
            f' {cx - DOT - 1:.1f},{cy + DOT:.1f}"'
        )
    else:
        body = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{DOT}"'
    return f'<g class="game-dot">{body} fill="{colour}">{title}</{body.split()[0][1:]}></g>'
