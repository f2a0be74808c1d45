"""meadhall's lab: bots playing seeded games against each other, and what their results say.

For researchers and for the people who tune a game's content; ``meadhall arena`` and
``meadhall balance`` are thin shells over it. It sits beside the bots, above the games:
it plays any registered game through the game protocol and names none.

* :mod:`meadhall.lab.selfplay`: the one self-play loop (seats, bots, seeds, records,
  progress, parallel processes) that the arena, the balance reports and tests use;
* :mod:`meadhall.lab.arena`: bots ranked by wins, scores and Elo over rotated seats,
  with checkpoints and resume for long runs;
* :mod:`meadhall.lab.balance`: win rates by what the seats chose, and must-pick
  verdicts, for every game whose ``Game.balance_spec`` says what counts
  (:mod:`meadhall.core.balance`);
* :mod:`meadhall.lab.stats`: Wilson intervals, the Bonferroni correction, Elo
  (Bradley-Terry) with bootstrap or Wilson intervals;
* :mod:`meadhall.lab.tables`: the text and Markdown tables of the reports.
"""
