"""The live class poll (issue 36): rooms a lecturer opens, answers a class sends from phones.

Storage and room logic only, no Streamlit: `store` keeps rooms and answers (SQLite on one
machine, Redis for replicas), `rooms.Poll` is the room service that checks every input.
Standard library and `redis` only; `import lnviz` does not load this package.
"""
