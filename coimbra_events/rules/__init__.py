"""The pure rules core of Coimbra; see ``core`` for the public functions."""
