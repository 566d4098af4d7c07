"""A person's page: games played and won per game, ratings, recent games, head-to-head."""

from dataclasses import dataclass, field

from companion_app.club import ratings
from companion_app.store import db, finished, roster
from companion_app.store.finished import Play
from scoring.league.ratings import Rating

#: Recent games listed on a person's page.
RECENT_GAMES = 12


@dataclass
class GameLine:
    """One game's line of a person's page."""

    game: str
    played: int = 0
    won: int = 0
    rating: Rating | None = None


@dataclass
class Rival:
    """Head-to-head against one other person: games together, finished ahead, behind, level."""

    person: int
    name: str
    together: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0
    tables: list[str] = field(default_factory=list)


@dataclass
class Profile:
    """Everything a person's page shows."""

    person: roster.Person
    merged_from: int | None
    plays: list[Play]
    games: list[GameLine]
    rating: Rating | None
    rivals: list[Rival]

    @property
    def recent(self) -> list[Play]:
        """The latest games, newest first."""
        return self.plays[::-1][:RECENT_GAMES]

    @property
    def won(self) -> int:
        """Games won (a shared first place counts)."""
        return sum(1 for play in self.plays if play.seat_of(self.person.id).rank == 1)


def profile(person_id: int) -> Profile:
    """The page of a person (RosterError for an unknown id)."""
    conn = db.get_db()
    person, merged_from = roster.get(conn, person_id)
    plays = finished.plays(conn, person=person.id)
    book = ratings.book()
    return Profile(
        person=person,
        merged_from=merged_from,
        plays=plays,
        games=_game_lines(person.id, plays, book),
        rating=book.rating(person.id),
        rivals=head_to_head(person.id, plays),
    )


def _game_lines(person: int, plays: list[Play], book) -> list[GameLine]:
    """Played and won per game, most played first."""
    lines: dict[str, GameLine] = {}
    for play in plays:
        line = lines.setdefault(play.game, GameLine(play.game))
        line.played += 1
        line.won += play.seat_of(person).rank == 1
    for line in lines.values():
        line.rating = book.rating(person, line.game)
    return sorted(lines.values(), key=lambda line: (-line.played, line.game))


def head_to_head(person: int, plays: list[Play]) -> list[Rival]:
    """Every person met at a table, the most games together first."""
    rivals: dict[int, Rival] = {}
    for play in plays:
        mine = play.seat_of(person)
        for other in play.seats:
            if other.person == person:
                continue
            rival = rivals.setdefault(other.person, Rival(other.person, other.person_name))
            rival.together += 1
            rival.ahead += mine.rank < other.rank
            rival.behind += mine.rank > other.rank
            rival.level += mine.rank == other.rank
            rival.tables.append(play.table_id)
    return sorted(rivals.values(), key=lambda r: (-r.together, r.name.casefold(), r.person))


def placings(person: int, plays: list[Play]) -> list[tuple[Play, int, int]]:
    """(game, place, players) of each of the person's games, in the order they ended."""
    return [(play, play.seat_of(person).rank, len(play.seats)) for play in plays]
