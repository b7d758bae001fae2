"""Odds: every die of a run enumerated (branching over positions, the chance graph) or sampled, the
decisions inside a run taken by a policy, and the answer as a rules lawyer reads it."""
