"""The score-sheet page: a link to the calculator form of every game that has one."""

from flask import render_template, url_for

from companion_app.games import VIEWS, view_for


def choose_calculator():
    """Links to the score-sheet form of every game that has one."""
    views = [view_for(game) for game in VIEWS]
    calculators = [
        (view.TITLE, url_for(f"web.{view.SCORE_ENDPOINT}"))
        for view in views
        if getattr(view, "SCORE_ENDPOINT", None)
    ]
    return render_template("score_choice.html", calculators=calculators)
