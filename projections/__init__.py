"""Read side: views built by folding events through the rules core (scores, board state, audits)."""
