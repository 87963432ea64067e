"""Unit tests of the rules core, one module per part of the rules; builders in ``helpers``."""
