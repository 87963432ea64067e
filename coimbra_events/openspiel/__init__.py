"""Coimbra for OpenSpiel, the field's common ground for game AI (the optional extra ``openspiel``).

``actions`` numbers every decision and every piece of a table draw a catalog allows,
``draws`` breaks the table's rolls and deals into one chance node per die and per card,
``position`` walks a game through the rules core, and ``game`` (which imports
``pyspiel``, so only with the extra installed) registers the game ``coimbra``:

    import pyspiel
    import coimbra_events.openspiel.game  # registers "coimbra"
    game = pyspiel.load_game("coimbra", {"players": 3})
"""
