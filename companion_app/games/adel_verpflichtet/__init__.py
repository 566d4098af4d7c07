"""Adel Verpflichtet on the tablet: one module per part of its pages.

`view` (the seam of docs/game-views.md), `score`, `setup`, `text`;
templates in `templates/adel_verpflichtet/`.
"""
