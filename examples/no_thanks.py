"""No Thanks!: take the card face up, or pay a chip to pass it on; the fewest points win.

A card game for 3 to 5 in one plain-Python file (see docs/own-game.md), from the published rules:
cards 3 to 35, nine of them removed unseen, 11 chips each. On your turn you take the card face
up with the chips on it, or put one of your chips on it and pass (with no chip left you must
take). Whoever takes a card turns up the next one and goes again. When the deck is out, each run
of consecutive cards counts only its lowest card, each chip counts one point off, and the lowest
score wins; tied seats share the win.

The deck is never shuffled into the state: each card is drawn when it is turned up, from the
cards not yet seen (`chance_outcomes`), and the game ends after the 24th. That is the same game
as removing nine cards unseen first, and no search can read a card before it shows. Chips are
kept in the open here (the published rules hide them; a variant with `observe` could).
"""

title = "No Thanks!"
players = (3, 5)
length_unit = "turns"
lowest_score_wins = True
options = {
    "removed": {"default": 9, "min": 0, "max": 30, "meaning": "cards removed unseen"},
    "chips": {"default": 11, "min": 1, "max": 50, "meaning": "chips each seat starts with"},
}
end_reasons = ("deck out",)
measure_notes = {"passes": "chips paid in the game"}
LOWEST, HIGHEST = 3, 35
search_rollout = "thrifty"


def start(players, rules):
    return {
        "hands": [[] for _ in range(players)],
        "chips": [rules["chips"]] * players,
        "unseen": tuple(range(LOWEST, HIGHEST + 1)),  # cards not yet turned up
        "deck": HIGHEST - LOWEST + 1 - rules["removed"],  # cards that will be turned up
        "turned": 0,
        "card": None,  # the card face up
        "pot": 0,  # chips on it
        "seat": 0,
        "turn": 1,
        "passes": 0,
    }


def to_move(state):
    if state["card"] is None:
        return "chance" if state["turned"] < state["deck"] else None
    return state["seat"]


def legal_actions(state):
    return ["take", "pass"] if state["chips"][state["seat"]] > 0 else ["take"]


def chance_outcomes(state):
    unseen = state["unseen"]
    p = 1 / len(unseen)
    return [(c, p) for c in unseen]


def apply(state, action):
    seat = state["seat"]
    if action == "take":
        state["hands"][seat] = state["hands"][seat] + [state["card"]]
        state["chips"] = list(state["chips"])
        state["chips"][seat] += state["pot"]
        state["card"], state["pot"] = None, 0
    elif action == "pass":
        state["chips"] = list(state["chips"])
        state["chips"][seat] -= 1
        state["pot"] += 1
        state["passes"] += 1
        state["seat"] = (seat + 1) % len(state["chips"])
        state["turn"] += 1
    else:  # a card turned up
        state["card"] = action
        unseen = state["unseen"]
        i = unseen.index(action)
        state["unseen"] = unseen[:i] + unseen[i + 1 :]
        state["turned"] += 1
    return state


def _points(cards):
    """Cards count only the lowest of each run of consecutive cards."""
    held = set(cards)
    return sum(c for c in held if c - 1 not in held)


def scores(state):
    return [_points(h) - chips for h, chips in zip(state["hands"], state["chips"], strict=True)]


def winners(state):
    points = scores(state)
    low = min(points)
    return [s for s, p in enumerate(points) if p == low]


def end_reason(state):
    return "deck out"


def turn(state):
    return state["turn"]


def measures(state):
    return {"passes": state["passes"]}


def describe(state, action):
    if state["card"] is None:
        return f"turned up {action}"
    pot = state["pot"]
    if action == "take":
        chips = f" and {pot} chips" if pot else ""
        return f"seat {state['seat'] + 1} takes {state['card']}{chips}"
    return f"seat {state['seat'] + 1} pays a chip on {state['card']}"


def clone(state):
    return {**state, "hands": list(state["hands"])}


def thrifty(state, seat, actions, rng, at=10):
    """Take a card that joins a run of one's own, or whose points less its chips are at most
    `at`; otherwise pay while chips last."""
    if len(actions) == 1:
        return "take"
    card, hand = state["card"], state["hands"][seat]
    if card - 1 in hand or card + 1 in hand:
        return "take"
    return "take" if card - state["pot"] <= at else "pass"


policies = {"thrifty": thrifty}
