"""Execution: the IR lowered to closures and generated code, the machine whose progress is data, the
engine that runs them on the state, the built-ins, dice, cups and the calendar."""
