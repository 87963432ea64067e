"""The club's league: standings, ratings and player profiles, read models of the store's notification log.

``fold`` folds each stored game from its rows, ``contribution`` turns a finished
game into one row per seat (scored by the rules core), ``view`` keeps those rows
in tables of the store's own database together with the position of the last
event they reflect, ``ratings`` replays the openskill ratings game by game,
``projection`` drives it all (the library's ``Projection``: a pull catch-up loop
on every store, the library's ``ProjectionRunner`` on PostgreSQL), and
``reports`` reads standings, profiles and ratings back out.
"""
