#!/bin/sh
# The README's first Quick start step, after the install: a recorded 3-player game imported into a fresh SQLite
# store (every event checked by the rules on the way in), its final board replayed from the store, its scores.
set -eu
cd "$(dirname "$0")/.."
store="$(mktemp -d)/games.sqlite"
.venv/bin/coimbra import fixtures/games/standin-3p-seed2.json --db "$store" --name demo
.venv/bin/coimbra show demo --db "$store"
.venv/bin/coimbra score demo --db "$store"
echo "The game is stored as demo in $store: try .venv/bin/coimbra replay demo --db $store"
