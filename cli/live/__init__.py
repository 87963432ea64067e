"""The live table (``coimbra serve``): a web server where every player records from their own phone.

``server`` assembles and runs it; ``api`` and ``stream`` are the HTTP API and its
event stream (``docs/serve.md``), ``access`` who may read and write, ``table`` the
served game behind the store's use cases; ``pages`` and ``static`` are the players' and
watchers' pages. What they answer, the JSON of a game and its entries, is said by
``cli.presenter``, as the terminal's commands say it: no module here imports one of theirs.
"""
