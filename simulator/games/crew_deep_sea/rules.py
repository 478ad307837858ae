"""Rule options of The Crew: Mission Deep Sea (docs/rules/crew-deep-sea.md maps each one)."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.contract.rules import RuleSet, option

from .board import DATA_FILES, EPILOGUE, check_data

NOTES = "reference notes.md"


@dataclass(frozen=True)
class Rules(RuleSet):
    game_id = "crew-deep-sea"
    # The task cards and the logbook (balance data crew-deep-sea; --data NAME=FILE).
    data_files = DATA_FILES

    mission: int = option(
        1,
        f"logbook mission to attempt (1-32); {EPILOGUE} plays the epilogue",
        "seed: Misiones; missions.csv",
        lo=1,
        hi=EPILOGUE,
        screen=False,
    )
    epilogue_difficulty: int = option(
        18,
        "task difficulty of the epilogue attempt (18, +1 per earlier success)",
        f"{NOTES} §3 epilogue",
        lo=1,
        hi=40,
        screen=False,
    )
    mission3_target: int = option(
        3, "difficulty of mission 3 (one transcription says 4)", f"{NOTES} §3 †", lo=3, hi=4
    )
    mission26_target: int = option(
        12,
        "difficulty of mission 26: 12 untimed (we play untimed), 10 with the 5:00 timer",
        f"{NOTES} §3 ‡ C07",
        lo=10,
        hi=12,
    )
    mission20_ones_rule: bool = option(
        False,
        "mission 20 also fails if one player has won 2 more colour 1s than another",
        f"{NOTES} §3 ‡ C06",
    )
    mission12_forbidden_lead: str = option(
        "failure",
        "mission 12: leading pink or a submarine fails the mission, or is an illegal lead",
        f"{NOTES} §3 ‡ C12",
        choices=("failure", "illegal"),
    )
    mission16_untimed: str = option(
        "no_communication",
        "mission 16 played without timer: no communication (logbook) or unknown terrain (VTT)",
        f"{NOTES} §3 mission 16 (EXPO C04)",
        choices=("no_communication", "terrain"),
    )
    hardest_tie: str = option(
        "first_drawn",
        "mission 19, several hardest tasks: the first drawn (VTT: leftmost) or captain chooses",
        f"{NOTES} §3 ‡ C08",
        choices=("first_drawn", "captain_chooses"),
    )
    pink9_yellow8_4p: int = option(
        3,
        "4-player value of task 'pink 9 and yellow 8' (BGG list and VTT say 2)",
        f"{NOTES} §2 disputed 1",
        lo=2,
        hi=3,
    )
    trick_sum_above: tuple[int, ...] = option(
        (23, 28, 31),
        "task 'trick total above X' thresholds for 3,4,5 players (only card lists give them)",
        f"{NOTES} §2 thresholds, C18",
        lo=0,
        hi=60,
    )
    trick_sum_below: tuple[int, ...] = option(
        (8, 12, 16),
        "task 'trick total below X' thresholds for 3,4,5 players (confirmed in the rulebook)",
        f"{NOTES} §2 thresholds, C18",
        lo=0,
        hi=60,
    )
    single_card_claim: str = option(
        "only",
        "a single card of a suit is declared 'only', or may also be called highest or lowest",
        f"{NOTES} §1 communication, C10",
        choices=("only", "any"),
    )
    redraw_policy: str = option(
        "redeal",
        "deal made impossible by a task (notes list them): redeal the cards (no attempt "
        "counted), redraw the tasks (seed wording), or play on and fail",
        f"seed: Misiones; {NOTES} §1 unavoidable impossibilities",
        choices=("redeal", "redraw_tasks", "none"),
    )
    forced_conflicts: bool = option(
        True,
        "two tasks forcing the same trick that must go to different players: replace the later "
        "drawn by one of equal difficulty",
        f"{NOTES} §1 unavoidable impossibilities",
    )
    distress: str = option(
        "policy",
        "distress signal: called when a policy asks, never, or always",
        "seed: Señal de socorro",
        choices=("policy", "never", "always"),
    )
    distress_direction: str = option(
        "agreed",
        "distress pass: in a direction the crew agrees on (each member states a preference, "
        "the majority decides, a tie goes left), or always left, or always right",
        "seed: Señal de socorro ('los jugadores pueden acordar la dirección')",
        choices=("agreed", "left", "right"),
    )
    two_player_dummy: bool = option(
        True,
        "2 players: a dummy crew member (7 cards face down under 7 face up) played by the "
        "captain, with 3-player task values; the only 2-player form, so it must stay on",
        f"{NOTES} §1 two players",
    )
    dummy_seat: str = option(
        "agreed",
        "2 players: where the dummy sits, agreed before the deal (seat 2, so it plays right "
        "after the captain in half the deals), or always right after or right before the captain",
        f"{NOTES} §1 two players (where the dummy sits is not in them: our reading)",
        choices=("agreed", "after_captain", "before_captain"),
    )
    volunteer_order: str = option(
        "ending_with_captain",
        "missions 14-16, 26: the captain asks each member in turn from its left, ending with "
        "itself; or starting with itself",
        "rulebook p20 (volunteers); missions.csv 14-16",
        choices=("ending_with_captain", "from_captain"),
    )
    mission10_recipient: str = option(
        "willing",
        "missions 10, 13: the captain gives every task to the first member from its left who "
        "agrees (nobody: its left neighbour), or to a member at random",
        "missions.csv 10 ('gives all to one crew member')",
        choices=("willing", "random"),
    )
    prediction_time: str = option(
        "before_distress",
        "task 'exactly X tricks' (X secret): X is fixed with the task, before a distress pass, "
        "or after it",
        "seed: Señal de socorro ('después de que se hayan asignado las cartas y las tareas')",
        choices=("before_distress", "after_distress"),
    )
    mission23_communication: str = option(
        "before_trick_2",
        "mission 23 'no communication before trick 2': the first sonar phase is the one before "
        "trick 2, or the one after it",
        "missions.csv 23",
        choices=("before_trick_2", "after_trick_2"),
    )
    rapture_several_per_phase: bool = option(
        True,
        "rapture of the deep: a member may take several tokens in one communication phase",
        "seed: Captura de las profundidades ('puede comunicarse varias veces (o simultáneamente)')",
    )
    campaign: bool = option(
        False,
        "play the logbook as one game: missions from 'mission' to 'campaign_last' in order, "
        "each attempted until it succeeds; length in attempts",
        f"seed: Misiones ('debe volver a jugarse para poder continuar'); {NOTES} §1",
        screen=False,
    )
    campaign_last: int = option(
        32,
        "campaign: the last logbook mission played",
        "missions.csv",
        lo=1,
        hi=32,
        screen=False,
    )
    campaign_attempt_cap: int = option(
        500,
        "campaign: attempts allowed at one mission before the campaign ends unfinished "
        "(end reason 'attempt_cap')",
        "ours: a run must end",
        lo=1,
        hi=100_000,
        screen=False,
    )
    campaign_distress_again: str = option(
        "may",
        "campaign: once a mission's distress signal is turned over, each later attempt of that "
        "mission 'may' pass again (the crew decides, at no further attempt), or 'must' pass",
        f"{NOTES} §1 ('The signal stays active for later attempts of that mission, and the pass "
        "may be repeated')",
        choices=("may", "must"),
    )
    campaign_used_tasks: str = option(
        "leave_deck",
        "campaign: task cards drawn for an attempt leave the deck until it runs low "
        "('leave_deck'), or every attempt draws from all 96 ('reshuffle')",
        f"{NOTES} §1 ('Used tasks go out of the deck until it runs low', a suggestion only)",
        choices=("leave_deck", "reshuffle"),
    )
    communication: str = option(
        "mission",
        "communication as the mission says, none at all, or normal sonar in every mission",
        "seed: Comunicación",
        choices=("mission", "none", "normal"),
    )

    def check(self) -> str | None:
        for name in ("trick_sum_above", "trick_sum_below"):
            if len(getattr(self, name)) != 3:
                return f"rule '{name}' needs three values (3, 4 and 5 players)"
        if self.campaign and self.mission > self.campaign_last:
            return (
                f"a campaign runs from rule 'mission' ({self.mission}) to 'campaign_last' "
                f"({self.campaign_last}): the first must not come after the last"
            )
        if self.data:
            return check_data(self)
        return None
