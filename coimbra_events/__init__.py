"""Coimbra domain: catalog, events, the pure rules core and the JSON game log."""

RULESET = "coimbra-rules-texts-000-002-003+gaps-1"
"""The ruleset this engine implements: the three rule texts and GAPS.md decisions."""
