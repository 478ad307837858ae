"""The studies built from runs: compare, sweep and tournament, the skill ladder, explore, tune and
design."""
