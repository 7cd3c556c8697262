"""Each page's predict-then-check questions, built from the page's state by the engine.

One module per page (named after it); each exposes `questions(...) -> tuple[Question, ...]`
taking the page's current state, so a question can follow what the learner is looking at
and its expected answer is always the engine's.
"""
