"""What `balance board pirateer` and the registry see: the declared board and the columns."""

from simulator.contract.registry import get_game
from simulator.games.pirateer import board as B
from simulator.games.pirateer.rules import Rules


def test_board_declares_the_reference_counts():
    spec = get_game("pirateer")
    board = spec.board(Rules())
    counts = board.counts()
    assert sum(v for k, v in counts.items() if k != "island") == 232
    assert counts["trade_wind"] == 20 and counts["anchorage"] == 8 and counts["anchor"] == 4
    assert counts["strait"] == 2 and counts["start"] == 12 and counts["island"] == 4
    assert len(board.cells) == B.N_PICTURE


def test_board_drawing_is_the_physical_view():
    board = get_game("pirateer").board(Rules())
    tl = board.cells[int(B.ANCHOR[0])]
    br = board.cells[int(B.ANCHOR[2])]
    assert tl.x < 0 < br.x and tl.y < br.y  # top-left flag left and up of the bottom-right one
    winds = [c for c in board.cells if c.kind == "trade_wind"]
    assert len({c.y for c in winds}) == 2  # two horizontal rows, as on the board


def test_start_squares_follow_the_option():
    b = get_game("pirateer").board(Rules().with_values({"start_squares": "harbour_end"}))
    starts = {c.label for c in b.cells if c.kind == "start"}
    assert "(0, 10)" in starts and "(0, 12)" not in starts  # (0, 9) stays the anchor
