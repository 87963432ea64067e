"""The live table (``coimbra serve``): a web server where every player records from their own phone.

``server`` assembles and runs it; ``api`` and ``stream`` are the HTTP API and its
event stream (``docs/serve.md``), ``access`` who may read and write, ``table`` the
served game behind the store's use cases, ``game_view`` the JSON of a game and its
entries; ``pages`` and ``static`` are the players' and watchers' pages.
"""
