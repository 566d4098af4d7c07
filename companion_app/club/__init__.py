"""The club across tables: people's pages, ratings, evenings and the league's standings.

Reads what the store keeps (people, seats, evenings, seasons, finished games' placings) and
computes with the pure rules of `scoring.league`. May import `store`, `i18n`, `config` and
`scoring` (docs/architecture.md). For other pages (the room display): `ratings.rating_of`
and `ratings.seat_ratings` give a person's rating and a table's seats' ratings.
"""
