"""Sealed bids: each round a prize is shown, every seat bids in secret, then the bids are revealed.

Simultaneous choices in one plain-Python file (see docs/own-game.md, "Sealed bids"): the file
hands the move to one seat at a time, as every game file does, and keeps each bid out of what
the other seats observe (`observe`) until all have bid and the bids are revealed together. The
search deals the hidden bids anew (`determinize`), so the last seat to bid knows no more than
the first: the order of bidding is a seat's name, not an advantage.

Each seat starts with coins. A prize worth 1 to `top` points comes up; every seat bids 0 to its
coins; the highest bid alone wins the prize and pays its bid (a tie: nobody wins it, nobody
pays). After the last round a seat's score is its prizes' points plus the coins it kept; the
highest score wins, and seats level at the top share the win.
"""

title = "Sealed bids"
players = (2, 4)
length_unit = "rounds"
options = {
    "rounds": {"default": 3, "min": 1, "max": 10, "meaning": "prizes auctioned"},
    "coins": {"default": 10, "min": 1, "max": 30, "meaning": "coins each seat starts with"},
    "top": {"default": 10, "min": 1, "max": 30, "meaning": "the most a prize is worth"},
}
measure_notes = {"ties": "rounds no one won (the top bids tied)", "paid": "coins bid and paid"}


def start(players, rules):
    return {
        "rounds": rules["rounds"],
        "top": rules["top"],
        "coins": [rules["coins"]] * players,
        "points": [0] * players,
        "round": 0,
        "prize": None,  # the prize up for bids (None: the next one is still to be drawn)
        "bids": [None] * players,  # this round's sealed bids
        "bidder": 0,  # the seat whose bid is awaited
        "revealed": [],  # (prize, bids) of the rounds done: every seat has seen these
        "ties": 0,
        "paid": 0,
    }


def to_move(state):
    if state["round"] == state["rounds"]:
        return None
    return "chance" if state["prize"] is None else state["bidder"]


def legal_actions(state):
    return list(range(state["coins"][state["bidder"]] + 1))


def chance_outcomes(state):
    top = state["top"]
    return [(value, 1 / top) for value in range(1, top + 1)]


def apply(state, action):
    if state["prize"] is None:
        state["prize"] = action
        return state
    state["bids"][state["bidder"]] = action
    state["bidder"] += 1
    if state["bidder"] == len(state["bids"]):  # the last bid is in: reveal them together
        bids = state["bids"]
        best = max(bids)
        if bids.count(best) == 1:
            winner = bids.index(best)
            state["coins"][winner] -= best
            state["points"][winner] += state["prize"]
            state["paid"] += best
        else:
            state["ties"] += 1
        state["revealed"].append((state["prize"], tuple(bids)))
        state["bids"] = [None] * len(bids)
        state["bidder"] = 0
        state["prize"] = None
        state["round"] += 1
    return state


def scores(state):
    return [p + c for p, c in zip(state["points"], state["coins"], strict=True)]


def winners(state):
    totals = scores(state)
    return [s for s, total in enumerate(totals) if total == max(totals)]


def turn(state):
    return state["round"]


def measures(state):
    return {"ties": state["ties"], "paid": state["paid"]}


def observe(state, seat):
    """What `seat` knows: everything but the bids of this round other than its own."""
    return (
        seat,
        state["round"],
        state["prize"],
        tuple(state["coins"]),
        tuple(state["points"]),
        tuple(state["revealed"]),
        state["bidder"],  # how many have bid, never what
        state["bids"][seat],
    )


def determinize(state, seat, rng):
    """The bids sealed before `seat`'s turn, dealt anew: any bid their coins allow."""
    new = clone(state)
    for other in range(state["bidder"]):
        if other != seat:
            new["bids"][other] = int(rng.integers(state["coins"][other] + 1))
    return new


def clone(state):
    return {
        **state,
        "coins": list(state["coins"]),
        "points": list(state["points"]),
        "bids": list(state["bids"]),
        "revealed": list(state["revealed"]),
    }


def describe(state, action):
    if state["prize"] is None:
        return f"a prize worth {action} is up"
    seat = state["bidder"]
    text = f"seat {seat + 1} bids {action} (sealed)"
    if seat == len(state["bids"]) - 1:
        bids = [*state["bids"][:-1], action]
        best = max(bids)
        shown = ", ".join(str(b) for b in bids)
        if bids.count(best) == 1:
            text += f"; revealed {shown}: seat {bids.index(best) + 1} wins it for {best}"
        else:
            text += f"; revealed {shown}: a tie, nobody wins it"
    return text


def value(state, seat, actions, rng, share=0.5):
    """Bid `share` of the prize's worth (what the seat can see: the prize and its coins)."""
    return min(actions[-1], round(state["prize"] * share))


policies = {"value": value}
