"""``balance design``: search rule settings for ones that meet a designer's targets.

The search
- The designer names the options to search (``--param NAME=LO:HI``, or a list of values), or
  takes those a ``balance explore`` ranked highest for the targets' figures (``--explore DIR``).
- Optuna's TPE sampler, constrained: each target is a constraint (how far the candidate's
  estimate lies outside the target's range, in units of the target's scale: 10 points for a
  share, a tenth of the bound for a length or a mean), and among the settings that meet every
  constraint the objective is the smallest change from the rules the search starts from (each
  searched option's move as a share of its range; a different choice counts 1). So the search
  answers "what is the least I must change to get there?", and with no setting meeting every
  target, the closest one.
- The starting rules are the first candidate; every candidate is an ordinary run folder played on
  the same game seeds (common random numbers). Candidates are proposed ``BATCH`` at a time
  (constant liar), never as many as the workers, so the same seed proposes the same candidates on
  one machine or on a cluster.
- Adapted play (``--tune POLICY``): under each candidate, that seated policy is first tuned to the
  candidate's rules (``balance tune`` machinery) and the candidate's run seats the tuned setting.
  This multiplies the games of a candidate by about ``tune_trials``.
- The winner's curse: the search flatters the settings it ranks first, so the best few are played
  again, with the starting rules, on fresh seeds; each target's verdict (meets, misses, cannot
  tell yet) comes from that check only.

Files (everything under ``--out``)
- ``design.json``: the plan (a folder holding another design is refused) and, at the end, the
  results;
- ``trials/NNN/run/`` (with ``--rotate``, ``trials/NNN/rot-K/``, one per rotation of the
  lineup; with ``--tune``, ``trials/NNN/tune/`` too): the run folders of a candidate.
  Nothing else is state: a killed design run again replays the search from its folders (no game
  is played twice) and continues;
- ``check/start/<run>/``, ``check/setting-K/<run>/``: the check on fresh seeds;
- ``variants/setting-K.toml``: each setting reported, as a variant file ``--variant`` accepts.
"""

from .knobs import RuleKnob, parse_rule_knob, rotations
from .plan import DesignPlan, plan_design, rule_changes
from .search import DESIGN_FILE, design, design_summary, read_design, variant_text

__all__ = [
    "DESIGN_FILE",
    "DesignPlan",
    "RuleKnob",
    "design",
    "design_summary",
    "parse_rule_knob",
    "plan_design",
    "read_design",
    "rotations",
    "rule_changes",
    "variant_text",
]
