"""Razzia! on the tablet: one module per part of its pages.

`view` (the seam of docs/game-views.md), `score`, `text`;
templates in `templates/razzia/`.
"""
