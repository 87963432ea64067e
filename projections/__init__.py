"""Read side: views built by folding events through the rules core (scores, board state, audits).

Which fold serves which view
----------------------------
Every fold of a record goes through one step, ``rules.fast.apply_in`` (``rules.core.apply``
without its check), carried by a ``fast.Fold`` (one working copy of the table from event to event). The entry points
differ in what they keep on the way, because the views that read them need different
things: an end state, a verdict, every table, or what each entry did.

=========================  ==========================================  ================================  ==========================================
fold                       what it folds                               who uses it / which view          why it is a fold of its own
=========================  ==========================================  ================================  ==========================================
``fast.Fold``              events one after another, one working       every fold below                  the step: ``apply`` with no new copy per
                           copy of the table carried; narrating or                                       event, the told changes on one flat tape
                           not
``core.fold``              events, each checked; raises at the first   the rules core's tests            untrusted events where an illegal one is
                           illegal one                                                                   an error, not a report
``fast.narrate``           legal plays: every state, and what the      ``consequences.fold`` of a plain  one native loop writing one tape: the
                           rules told of each                          record (the timeline)             timeline's hot path (bench/store.py (d))
``history.replay``         a resolved line of play; stops at the       ``validate`` (stops),             the whole line at once, keeping only the
                           first illegal play, or skips and lists      ``Game.replay`` and the league's  end and the verdicts
                           them                                        ``GameFold.final`` (skip)
``history.advance``        one more entry of a stored record onto the  ``Game.state``,                   the incremental step: a new entry costs
                           table now                                   ``GameFold.take``                 one ``apply`` unless it changes the line
                                                                                                         (then ``replay``)
``history.LineFold``       a record entry by entry, keeping its line   ``consequences.fold`` of a        each entry's table, a correction refolding
                           of play and the table after every play      record with history entries       only the plays after the one it touches
``validation.validate``    a log's line of play, every event checked,  ``validate``, ``score``, a log    a report (how far, which rule, overrides,
                           up to the first illegal one                 file as GAME, import, ``verify``, migration), never an exception for an
                                                                       a log's timeline                  illegal event
``Game.state``             a stored game: on from its snapshot or its  every command on a stored game    the aggregate's table, folded once and
                           first entry, lazily (``folded_record``)                                       lazily; new entries through ``advance``
``consequences.fold``      every entry of a record, each play          ``timeline``, ``explain`` of one  every table plus what each entry did on it,
                           narrated as it is applied                   entry, ``entries_since`` /        in one fold (``narrate`` or a narrating
                                                                       ``plays_since`` (record, act)     ``LineFold``)
``timeline.timeline``      a stored game, or a log validated first     the replayer, ``show``/``diff``   the index of every state: a step or a jump
                                                                       at a point, move list and replay  is a lookup (wraps ``consequences.fold``)
                                                                       page exports
``audit.fold_line``        the line of play as it stands (plays in     ``explain``, the ledger           a dispute asks about the line now: after a
                           force, not entries), each play narrated                                       correction the timeline refolds later plays
                                                                                                         unnarrated, so its told changes are those
                                                                                                         of the line as it was
league ``GameFold``        a game's rows from the notification log,    the league projection             rows, not a ``Game``: no aggregate per
                           one at a time, each hash checked                                              row, a damaged game counted out, income
                                                                                                         and start spaces observed on the way
=========================  ==========================================  ================================  ==========================================

Alike but kept apart: ``Game.state`` and ``GameFold`` take the same step
(``advance``, then ``replay`` where the line changes) from different sources (the
aggregate with its snapshot; notification rows, hash by hash); ``validate``'s loop
over a plain log is ``core.fold`` reporting where it stops instead of raising.
"""
