"""Klub ztroskotanců (The Prodigals Club) on the tablet: one module per part of its pages.

`view` (the seam of docs/game-views.md), `chart`, `score`, `text`;
templates in `templates/prodigals_club/`.
"""
