"""Where a game was decided: every decision of a line of play graded, every random outcome's luck measured.

Monte Carlo playouts from the table as it was at each entry (``playouts``), the options of one
decision compared with common random numbers (``evaluation``), a random outcome's luck with its
standard error (``luck``), losses turned into grades
(``grades``), and the whole line of play analysed in parallel processes (``engine``). Domain
only: the rules core and the catalog; the read model with names and its cache live in
``projections.analysis``.
"""
