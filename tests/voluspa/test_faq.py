"""The rulebook's FAQ, one test per question (Q1-Q10)."""

from __future__ import annotations

from tests.voluspa.helpers import (
    assert_illegal,
    board_text,
    counts,
    lines,
    make_state,
    normalized,
    play,
    points,
    step_points,
)


def test_q1_powers_are_active_throughout_the_game() -> None:
    # Loki keeps making its neighbours 0: the Odin placed earlier is worth 0 to the Thor.
    assert lines("LO OD", "TH@2,0") == [("row", 3)]
    # The Troll keeps blocking.
    state = make_state("SK TR", ("TH", "VA"))
    assert_illegal(state, 0, "TH@2,0", "troll")
    # Three Fenrirs are worth 12 each: an Odin (8) does not win the line.
    assert lines("FE FE FE", "OD@3,0") == [("row", 0)]
    # VA OD VA: a Dragon on the Odin does not dominate; the Valkyries still bookend.
    assert lines("VA OD VA", "DR@1,0") == [("row", 0)]


def test_q2_valkyrie_next_to_loki_still_bookends() -> None:
    board = """
    origin 0,0
    VA TH .
    .  .  LO
    """
    # The new Valkyrie is next to the Loki (worth 0) but closes the bookend: 3.
    assert lines(board, "VA@2,0") == [("row", 3), ("column", 0)]
    # Both Valkyries next to Lokis: still a bookend.
    board = """
    origin 0,0
    LO .  .
    VA TH .
    .  .  LO
    """
    assert lines(board, "VA@2,1") == [("row", 3), ("column", 0)]


def test_q3_fenrir_next_to_loki_only_ties_its_pack() -> None:
    board = """
    origin 0,0
    SK FE .
    .  .  LO
    """
    # The placed Fenrir is 0 next to the Loki; the pack stays 4 and the new Fenrir does not dominate.
    assert lines(board, "FE@2,0") == [("row", 0), ("column", 0)]
    # The same Fenrir without the Loki makes a pack of 8 and scores.
    assert lines("SK FE", "FE@2,0") == [("row", 3)]


def test_q4_sea_serpent_with_only_a_hel_across_the_gap() -> None:
    board = """
    origin 0,0
    HE .  .
    .  .  VA
    """
    # The only other tile in the row is the Hel, a gap: no score for the row.
    assert lines(board, "SS@2,0:row") == [("span", 0)]
    assert lines(board, "SS@2,0:col") == [("span", 2)]


def test_q5_hel_beside_hel_does_not_add() -> None:
    board = """
    origin 0,0
    HE SK
    VA TH
    """
    # Hel on the Thor: around it SK, VA and a Hel; the Hel is a gap.
    assert lines(board, "HE@1,1") == [("neighbours", 2)]


def test_q6_sea_serpent_and_a_valkyrie_bookended_line() -> None:
    board = """
    origin 0,0
    VA
    SK
    VA
    HE
    """
    # Separated from the bookended line by the Hel: the Sea Serpent scores the column span (5).
    assert lines(board, "SS@0,4:col") == [("span", 5)]
    # Between two Valkyries on a connected line: the Valkyries hold it.
    assert points("VA\n.\nVA", "SS@0,1:col") == 0


def test_q7_dwarf_gets_no_niohoggr_bonus() -> None:
    # Niohoggr (7) and Skadi (3) next to the Dwarf: (7 + 3) / 2 = 5, no +2.
    assert lines("NI . SK", "DW@1,0") == [("neighbours", 5)]


def test_q8_raven_returns_booster_tokens_at_its_first_placement() -> None:
    state = make_state("TH+2 VA", ("RA", "LO"))
    assert state.supply[9] == 1
    play(state, 0, "RA@0,0")
    assert state.supply[9] == 2  # the token goes back at once
    play(state, 0, "RA@1,1")  # lifted to under the Valkyrie
    assert state.supply[9] == 2
    assert counts(state.discards) == {"TH": 1}  # the covered Thor stays out of the game
    assert board_text(state) == normalized(". VA\n. RA")


def test_q9_sea_serpent_gets_niohoggr_bonus() -> None:
    board = """
    origin 0,0
    LO
    NI
    HE
    """
    # The Sea Serpent below the Hel: column span LO NI HE SS (4) + 2 for the Niohoggr.
    assert lines(board, "SS@0,3:col") == [("span", 6)]


def test_q10_skadi_on_a_niohoggr_gets_no_bonus() -> None:
    # Skadi swaps the Niohoggr: it is not placed on top, no extra points.
    assert lines("VA NI", "SK@1,0") == [("row", 2)]
    # A Dragon on the same Niohoggr would get them.
    assert lines("VA NI", "DR@1,0") == [("row", 4)]
    assert step_points("VA NI", "SK@1,0") == [2]
