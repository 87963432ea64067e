"""Where games are kept, and the evidence that they are still what was recorded.

Its public surface is small: ``GameStore`` (``game_store``: games by name, read,
recorded into, imported, forked, renamed, tagged, listed), a stored game and a JSON
log file used as GAME behind one interface (``sources``), where a store lives
(``location``), what it refuses with (``errors``), and what ``verify`` reads
(``GameStore.inspect``, an ``inspection.Inspection``). Behind it, one module a thing:

========================  ==================================================================
``repository``            a game read against its evidence, saved with it, retried on conflict
``receipts``              a receipt per save (entries and head, the snapshot vouched for), and
                          the store's ``Evidence`` of each game it handed out
``snapshots``             a copy of a game's record and table, so a long game is read unfolded
``inspection``            every problem of a stored game's rows, read one by one
``rows``                  the rows as stored (the library's recorders and mapper, one surface)
``topics``                which classes a row may name, old topics of moved classes included
``folding``               a stored aggregate folded from its own event classes only
``claims``, ``register``  which name a game gets; the register of names claimed in its save
``games_index``           the list of games, a tracked projection of the store, with the table
                          it writes (``games_view``) and what a listing asks and gets (``games_query``)
``postgres``, ``probe``   a PostgreSQL store made ready; what ``store check`` asks
``rolls``                 a game's table outcomes drawn from its seed or its parent's record
``aliases``               the club's alias map (``coimbra_events.players``) read and saved
``legacy``                events only older stores hold
========================  ==================================================================
"""
