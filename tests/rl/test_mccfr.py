"""OpenSpiel's outcome-sampling MCCFR runs on Valda (``python -m meadhall.rl.mccfr``), in a short mode."""

from __future__ import annotations

import contextlib
import io

from meadhall.rl.mccfr import main, run


def test_mccfr_runs_on_valda_and_its_policy_plays() -> None:
    outcome = run("valda", players=2, iterations=4, games=2, seed=1)
    assert outcome.iterations == 4 and outcome.games == 2
    assert outcome.information_states > 0  # the solver met the seats' information states
    assert 0.0 <= outcome.wins <= 2.0
    assert run("valda", players=2, iterations=4, games=2, seed=1) == outcome  # seeded: the same run again


def test_the_command_line_says_what_it_did() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["valda", "--iterations", "2", "--games", "1", "--seed", "3"]) == 0
    assert out.getvalue().startswith("2 iterations, ")
    assert "against random play" in out.getvalue()
