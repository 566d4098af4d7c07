"""The score-by-round chart: one line per player, names escaped, nothing without rounds."""

import xml.etree.ElementTree as ET

from companion_app.results.chart import score_chart

SVG = "{http://www.w3.org/2000/svg}"
ROUNDS = [{"round": 1, "cumulative": [-2, 5]}, {"round": 2, "cumulative": [7, 3]}]


def chart(names=("Ann", "Bob"), rounds=ROUNDS) -> str:
    """The chart of a two-round game."""
    return score_chart(list(names), rounds, title="Score by round", round_label="Round")


def test_chart_is_well_formed_svg_with_a_line_per_player():
    """Each player gets a polyline through the start (0) and every round."""
    root = ET.fromstring(chart())
    lines = root.findall(f"{SVG}g/{SVG}polyline")
    assert len(lines) == 2
    assert all(len(line.get("points").split()) == 3 for line in lines)


def test_higher_scores_are_drawn_higher():
    """Ann's 7 after round 2 sits above Bob's 3 (SVG y grows downwards)."""
    root = ET.fromstring(chart())
    ann, bob = (line.get("points").split() for line in root.findall(f"{SVG}g/{SVG}polyline"))
    assert float(ann[2].split(",")[1]) < float(bob[2].split(",")[1])
    assert float(ann[0].split(",")[1]) == float(bob[0].split(",")[1])  # both start at 0


def test_names_with_markup_are_escaped():
    """HTML in a name stays text in the SVG."""
    svg = chart(names=("<script>alert(1)</script>", "Šárka & Žofie"))
    assert "<script>" not in svg
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert any(t and t.startswith("<script>") for t in texts)
    assert any(t and t.startswith("Šárka & Žofie") for t in texts)


def test_no_rounds_no_chart():
    """A game without rounds gets no chart."""
    assert chart(rounds=[]) == ""


def test_flat_scores_do_not_divide_by_zero():
    """Everyone at 0 after every round still draws."""
    ET.fromstring(chart(rounds=[{"round": 1, "cumulative": [0, 0]}]))
