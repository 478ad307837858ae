"""Next card: guess whether the next card of a shuffled deck is higher or lower.

A one-seat game with hidden information written the fair way (see docs/own-game.md): the deck is
never shuffled into the state; each card is drawn when it is turned face up (`chance_outcomes`
over the cards not yet seen), so no seat, and no search, can know a card before it shows. The
best honest play counts the cards left above and below the one showing; a test computes its exact
rate and holds the search to it.
"""

title = "Next card"
players = (1, 1)
length_unit = "guesses"
objective = "return"  # the player maximises its right guesses
options = {
    "cards": {"default": 8, "min": 3, "max": 20, "meaning": "cards in the deck, valued 1 up"},
    "goal": {"default": 6, "min": 1, "max": 19, "meaning": "right guesses that win"},
}
end_reasons = ("deck out",)


def start(players, rules):
    return {"cards": rules["cards"], "goal": rules["goal"], "seen": [], "guess": None, "right": 0}


def to_move(state):
    if len(state["seen"]) == state["cards"]:
        return None
    if not state["seen"] or state["guess"] is not None:
        return "chance"  # the next card is turned face up
    return 0


def legal_actions(state):
    return ["higher", "lower"]


def chance_outcomes(state):
    left = [c for c in range(1, state["cards"] + 1) if c not in state["seen"]]
    return [(c, 1 / len(left)) for c in left]


def apply(state, action):
    if action in ("higher", "lower"):
        state["guess"] = action
        return state
    if state["guess"] is not None:
        higher = action > state["seen"][-1]
        state["right"] += (state["guess"] == "higher") == higher
    state["seen"] = state["seen"] + [action]
    state["guess"] = None
    return state


def winners(state):
    return [0] if state["right"] >= state["goal"] else []


def returns(state):
    return [state["right"]]


def scores(state):
    return [state["right"]]


def end_reason(state):
    return "deck out"


def clone(state):
    return dict(state)


def counting(state, seat, actions, rng):
    """Guess the side with more cards left."""
    showing = state["seen"][-1]
    left = [c for c in range(1, state["cards"] + 1) if c not in state["seen"]]
    above = sum(c > showing for c in left)
    return "higher" if 2 * above >= len(left) else "lower"


policies = {"counting": counting}
