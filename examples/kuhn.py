"""Kuhn poker: three cards, one card each, one round of betting.

A game with hidden information in one plain-Python file (see docs/own-game.md): each seat sees
its own card only, so the file says what a seat knows (`observe`) and deals what it cannot see
(`determinize`). Both seats put 1 chip in the pot and get one card of Jack, Queen and King. Seat
1 checks or bets 1; facing a bet, a seat calls or folds; after two checks or a call, the higher
card takes the pot.

The hand's winner takes the pot (`winners`); `returns` says how many chips each seat won or
lost, so reports give each seat's mean chips a hand beside its share of hands won.
"""

title = "Kuhn poker"
players = (2, 2)
length_unit = "actions"
options = {
    "ante": {"default": 1, "min": 1, "max": 5, "meaning": "chips each seat puts in first"},
    "bet": {"default": 1, "min": 1, "max": 5, "meaning": "chips a bet or a call adds"},
}
end_reasons = ("showdown", "fold")
scores_during_play = False  # no chips change hands before the end
CARDS = "JQK"
DEALS = [(a, b) for a in range(3) for b in range(3) if a != b]


def start(players, rules):
    return {"cards": None, "history": "", "ante": rules["ante"], "bet": rules["bet"]}


def to_move(state):
    if state["cards"] is None:
        return "chance"
    h = state["history"]
    if h in ("cc", "bc", "cbc") or h.endswith("f"):
        return None
    return len(h) % 2


def legal_actions(state):
    facing_bet = state["history"].endswith("b")
    return ["c", "f"] if facing_bet else ["c", "b"]


def chance_outcomes(state):
    return [(deal, 1 / len(DEALS)) for deal in DEALS]


def apply(state, action):
    if state["cards"] is None:
        state["cards"] = action
    else:
        state["history"] += action
    return state


def _paid(state, seat):
    """Chips `seat` has put in the pot."""
    h = state["history"]
    bets = sum(
        1 for i, a in enumerate(h) if i % 2 == seat and (a == "b" or (a == "c" and "b" in h[:i]))
    )
    return state["ante"] + bets * state["bet"]


def winners(state):
    h = state["history"]
    if h.endswith("f"):
        return [1 - (len(h) - 1) % 2]
    a, b = state["cards"]
    return [0 if a > b else 1]


def scores(state):
    """Chips won or lost: nothing changes hands until the pot is taken."""
    if to_move(state) is not None:
        return [0, 0]
    paid = [_paid(state, 0), _paid(state, 1)]
    (w,) = winners(state)
    return [paid[1 - w] if s == w else -paid[s] for s in range(2)]


def returns(state):
    """Each seat's chips won or lost in the hand: the payoff a player plays for."""
    return scores(state)


def measures(state):
    return {"pot": _paid(state, 0) + _paid(state, 1)}


def end_reason(state):
    return "fold" if state["history"].endswith("f") else "showdown"


def turn(state):
    return len(state["history"])


def observe(state, seat):
    own = None if state["cards"] is None else state["cards"][seat]
    shown = state["cards"] if to_move(state) is None and end_reason(state) == "showdown" else None
    return (seat, own, state["history"], shown)


def determinize(state, seat, rng):
    if state["cards"] is None:
        return clone(state)
    own = state["cards"][seat]
    others = [c for c in range(3) if c != own]
    other = others[int(rng.integers(len(others)))]
    new = clone(state)
    new["cards"] = (own, other) if seat == 0 else (other, own)
    return new


def describe(state, action):
    if state["cards"] is None:
        return f"dealt {CARDS[action[0]]} to seat 1 and {CARDS[action[1]]} to seat 2"
    facing = state["history"].endswith("b")
    word = {"c": "calls" if facing else "checks", "b": "bets", "f": "folds"}[action]
    return f"seat {len(state['history']) % 2 + 1} {word}"


def clone(state):
    return dict(state)


def by_card(state, seat, actions, rng, bluff=0.0):
    """Bet or call with a King, check or fold with a Jack (bluffing with probability `bluff`),
    check and call with a Queen."""
    card = state["cards"][seat]
    if "b" in actions:  # may bet
        if card == 2 or (card == 0 and rng.random() < bluff):
            return "b"
        return "c"
    return "c" if card >= 1 else "f"


policies = {"by_card": by_card}
