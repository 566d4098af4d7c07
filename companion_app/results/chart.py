"""A small server-side SVG line chart of everyone's cumulative score by round (no JavaScript)."""

from collections.abc import Callable
from html import escape

WIDTH, HEIGHT = 600, 260
#: Room for the axis labels (left, bottom) and the legend (right).
LEFT, RIGHT, TOP, BOTTOM = 44, 200, 16, 34
LEGEND_STEP = 22
#: Colours that stay apart for colour-blind eyes (Okabe-Ito); dashes tell lines apart in B/W print.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
MAX_LEGEND_CHARS = 16


def score_chart(
    names: list[str],
    rounds: list[dict],
    *,
    title: str,
    round_label: str,
    number: Callable[[int], str] = str,
) -> str:
    """SVG text of the running totals after each round (round 0 = the start, everyone at 0).

    `number` writes a value label as the page's language does (its grouping, the minus sign).
    """
    if not rounds or not names:
        return ""
    series = [[0] + [row["cumulative"][seat] for row in rounds] for seat in range(len(names))]
    low = min(0, *(min(line) for line in series))
    high = max(0, *(max(line) for line in series))
    if high == low:
        high = low + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = len(rounds)

    def x(step: int) -> float:
        return LEFT + plot_w * step / steps

    def y(value: int) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="score-chart" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        _axes(x, y, (low, high, steps), round_label, number),
    ]
    for seat, (name, line) in enumerate(zip(names, series, strict=True)):
        parts.append(_line(seat, name, line, (x, y), number))
    parts.append("</svg>")
    return "".join(parts)


def _axes(x, y, span: tuple[int, int, int], round_label: str, number) -> str:
    """The zero line, the value labels (low, 0, high) and the round numbers."""
    low, high, steps = span
    out = [
        f'<line x1="{x(0):.1f}" y1="{y(0):.1f}" x2="{x(steps):.1f}" y2="{y(0):.1f}" '
        'stroke="#888" stroke-width="1"/>'
    ]
    for value in sorted({low, 0, high}):
        out.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#444">'
            f"{escape(number(value))}</text>"
        )
    for step in range(steps + 1):
        out.append(
            f'<text x="{x(step):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
            f'fill="#444">{step}</text>'
        )
    out.append(
        f'<text x="{LEFT + (WIDTH - LEFT - RIGHT) / 2:.1f}" y="{HEIGHT - 4}" '
        f'text-anchor="middle" fill="#444">{escape(round_label)}</text>'
    )
    return "".join(out)


def _line(seat: int, name: str, line: list[int], scale, number) -> str:
    """One player's polyline with round markers and a legend entry."""
    x, y = scale
    colour = COLOURS[seat % len(COLOURS)]
    dash = DASHES[seat % len(DASHES)]
    points = " ".join(f"{x(step):.1f},{y(value):.1f}" for step, value in enumerate(line))
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    marks = "".join(
        f'<circle cx="{x(step):.1f}" cy="{y(value):.1f}" r="3" fill="{colour}"/>'
        for step, value in enumerate(line)
    )
    total = escape(number(line[-1]))
    shown = name if len(name) <= MAX_LEGEND_CHARS else name[: MAX_LEGEND_CHARS - 1] + "…"
    legend_x = WIDTH - RIGHT + 12
    legend_y = TOP + 8 + seat * LEGEND_STEP
    return (
        f'<g class="series" data-seat="{seat}">'
        f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"'
        f"{dash_attr}/>{marks}"
        f'<line x1="{legend_x}" y1="{legend_y}" x2="{legend_x + 22}" y2="{legend_y}" '
        f'stroke="{colour}" stroke-width="2.5"{dash_attr}/>'
        f'<text x="{legend_x + 28}" y="{legend_y + 4}">'
        f"{escape(shown)} ({total})</text></g>"
    )
