"""The ``coimbra`` command line: a Typer app with Rich views."""
