"""Final results of any game: verification code, QR codes, BG Stats import, chart, history.

Everything here is pure (no Flask, no store) and reads only the shared `results(state)`
shape of docs/game-contract.md, so a new game plugs in by providing its final standings.
May import `scoring` only (docs/architecture.md).
"""
