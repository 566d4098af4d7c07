"""People's pages: the roster (search, rename) and each person's games and ratings."""

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup

from companion_app.club import chart, profile, ratings
from companion_app.i18n import formats, translate_error
from companion_app.server import rights
from companion_app.store import db, roster, roster_admin
from companion_app.web.refusals import FORM_REFUSALS
from companion_app.web.results import title_of
from scoring.league.roster import RosterError, name_key

NOT_FOUND = 404


def roster_chips() -> list[roster.Person]:
    """The roster for the new-table chips (hidden people aside), who played most recently
    first."""
    return [person for person in roster.everyone(db.get_db()) if not person.hidden]


def _day(moment) -> str:
    """A moment's local date in the page's language."""
    return formats.date(moment)


def people_list():
    """Everyone, who played most recently first, filtered by the letters typed (?q=)."""
    wanted = name_key(request.args.get("q", ""))
    everyone = roster.everyone(db.get_db())
    shown = [person for person in everyone if wanted in name_key(person.name)]
    book = ratings.book()
    return render_template(
        "club/people.html",
        people=shown,
        query=request.args.get("q", ""),
        adding=request.args.get("add", "")[:80],
        rating_of=book.rating,
    )


def _profile_or_404(person_id: int) -> profile.Profile:
    """The person's page data, or 404."""
    try:
        return profile.profile(person_id)
    except RosterError:
        abort(NOT_FOUND)


def person(person_id: int):
    """A person's games per game, ratings, placings chart, recent games and head-to-head."""
    found = _profile_or_404(person_id)
    if found.merged_from is not None:
        return redirect(url_for("club.person", person_id=found.person.id), code=301)
    plays = found.plays
    titles = {play.game: title_of(play.game) for play in plays}
    points = [
        (play.game, place, players)
        for play, place, players in profile.placings(found.person.id, plays)
    ]
    svg = chart.placings_chart(
        points,
        titles,
        title=gettext("Placings of %(name)s, game by game", name=found.person.name),
        place_label=gettext("Place"),
        first_last=(_day(plays[0].ended), _day(plays[-1].ended)) if plays else ("", ""),
    )
    others, merges = [], []
    if rights.is_organiser():  # the merge chips: everyone else, by name; merges to undo
        merges = roster_admin.merges(db.get_db(), found.person.id)
        named = roster.names(db.get_db())
        others = sorted(
            (roster.Person(pid, name) for pid, name in named.items() if pid != found.person.id),
            key=lambda person: (name_key(person.name), person.id),
        )
    return render_template(
        "club/person.html",
        found=found,
        titles=titles,
        chart=Markup(svg),  # built from escaped text only
        day=_day,
        others=others,
        merges=merges,
        vs=_rival(found, request.args.get("vs")),
    )


def _rival(found: profile.Profile, wanted: str | None):
    """The head-to-head line asked for with ?vs=<person id>, if any."""
    if not wanted or not wanted.isdigit():
        return None
    return next((rival for rival in found.rivals if rival.person == int(wanted)), None)


def rename(person_id: int):
    """The organiser renames a person; old tables keep the names they were played with."""
    conn = db.get_db()
    try:
        with db.write_transaction(conn):
            roster.rename(conn, person_id, request.form.get("name", ""))
    except FORM_REFUSALS as refused:
        flash(translate_error(refused), "rename")
    return redirect(url_for("club.person", person_id=person_id), code=303)
