"""A club's season across tables: evenings, league points, standings with ties, ratings.

Pure rules like the games': no I/O, no clock. `points` turns a finished game's placings into
league points by the organiser's rule, `standings` adds them up per person and explains the
order of tied rows, `ratings` keeps openskill ratings over finished games in the order they
ended, `evenings` says which club evening a moment belongs to.
"""
