"""Where games are kept, and the evidence that they are still what was recorded.

Today's modules, each holding one thing: ``game_store`` (the ``GameStore``
application: games by name, saved with their receipts), ``inspection`` (every
problem of a stored game's rows, for ``verify`` and for refusing a damaged game),
``games_index`` (the list of games, a tracked projection) with ``games_view`` (the
table it writes) and ``games_query`` (what a listing asks and gets), ``register`` (the
register of game names), ``postgres`` (a PostgreSQL store made ready), ``probe``
(what ``store check`` asks), ``legacy`` (events only older stores hold),
``files`` (atomic writes and locks) and ``errors`` (what the store refuses with).
"""
