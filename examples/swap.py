"""Swap: one hidden card each; keep it or swap it for the top card of the deck. Higher wins.

A card game with hidden information in one plain-Python file (see docs/own-game.md), small
enough that the best play can be computed exactly: each seat knows the cards it has held and
whether the other swapped, never the other's card, so the file says what a seat knows
(`observe`) and deals what it cannot see (`determinize`). Seat 1 decides first, then seat 2;
a swap takes the next card of the deck, and the old card leaves the game face down.
"""

title = "Swap"
players = (2, 2)
length_unit = "decisions"
options = {
    "cards": {"default": 5, "min": 4, "max": 13, "meaning": "cards in the deck, valued 1 up"},
}
end_reasons = ("showdown",)
measure_notes = {"swaps": "cards swapped in the game"}


def start(players, rules):
    # slots: 0 and 1 the seats' first cards, 2 and 3 the deck's top two cards
    return {"cards": rules["cards"], "slots": None, "swapped": []}


def to_move(state):
    if state["slots"] is None:
        return "chance"
    return len(state["swapped"]) if len(state["swapped"]) < 2 else None


def legal_actions(state):
    return ["keep", "swap"]


def chance_outcomes(state):
    n = state["cards"]
    deals = [
        (a, b, c, d)
        for a in range(1, n + 1)
        for b in range(1, n + 1)
        for c in range(1, n + 1)
        for d in range(1, n + 1)
        if len({a, b, c, d}) == 4
    ]
    return [(deal, 1 / len(deals)) for deal in deals]


def apply(state, action):
    if state["slots"] is None:
        state["slots"] = action
    else:
        state["swapped"] = state["swapped"] + [action == "swap"]
    return state


def _hand_slot(state, seat):
    """Where `seat`'s card lies now: its own slot, or the deck card it swapped for."""
    swapped = state["swapped"]
    if seat < len(swapped) and swapped[seat]:
        return 2 + sum(swapped[:seat])  # the first swap takes slot 2, a second slot 3
    return seat


def _seen(state, seat):
    """The slots `seat` has seen: its first card, and the card it swapped for."""
    return sorted({seat, _hand_slot(state, seat)})


def hand(state, seat):
    return state["slots"][_hand_slot(state, seat)]


def winners(state):
    return [0] if hand(state, 0) > hand(state, 1) else [1]


def turn(state):
    return len(state["swapped"])


def measures(state):
    return {"swaps": sum(state["swapped"])}


def end_reason(state):
    return "showdown"


def observe(state, seat):
    if state["slots"] is None:
        return (seat, None, ())
    seen = tuple(state["slots"][s] for s in _seen(state, seat))
    over = to_move(state) is None
    return (seat, seen, tuple(state["swapped"]), winners(state) if over else None)


def determinize(state, seat, rng):
    if state["slots"] is None:
        return clone(state)
    seen = _seen(state, seat)
    known = {state["slots"][s] for s in seen}
    pool = [c for c in range(1, state["cards"] + 1) if c not in known]
    dealt = [pool[i] for i in rng.permutation(len(pool))]
    slots = [state["slots"][s] if s in seen else dealt.pop() for s in range(4)]
    return {**state, "slots": tuple(slots), "swapped": list(state["swapped"])}


def describe(state, action):
    if state["slots"] is None:
        return "the cards are dealt face down"
    seat = len(state["swapped"])
    return f"seat {seat + 1} {action}s its {hand(state, seat)}"


def clone(state):
    return {**state, "swapped": list(state["swapped"])}


def threshold(state, seat, actions, rng, below=3):
    """Swap a card lower than `below`, keep the others."""
    return "swap" if hand(state, seat) < below else "keep"


policies = {"threshold": threshold}
policy_ranges = {"threshold": {"below": (1, 14)}}
