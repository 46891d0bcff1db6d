"""The tables of when to stop (toolkit.rules.optimal) held to a plain reading of their definition, on
random decisions: for each setting of the key fields, the value of the counted field from which the
play takes the later action (None: never), or no table when a setting does not have that shape; with
exceptions, the values below it where the play takes the later action already, once per decision."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.rules import optimal


def plain_table(rows, f, keys, after, exceptions=False):
    groups: dict[tuple, list] = {}
    for names, values, action, legal in rows:
        groups.setdefault(tuple(values[i] for i in keys), []).append((values[f], action == after))
    table = []
    for key, cells in groups.items():
        if exceptions:
            # from the switch on, every decision takes ``after``; the switch is as low as that allows
            switch = None
            for v in sorted({v for v, _ in cells}, reverse=True):
                if all(takes for w, takes in cells if w >= v):
                    switch = v
            below = sorted(v for v, takes in cells if takes and (switch is None or v < switch))
            table.append((key, switch, tuple(below)))
            continue
        takes_at = [v for v, takes in cells if takes]
        switch = min(takes_at) if takes_at else None
        if switch is not None and any(not takes for v, takes in cells if v >= switch):
            return None
        table.append((key, switch))
    return sorted(table)


decisions = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["a", "b", "c"]), st.integers(-2, 6),
                               st.booleans(), st.sampled_from(["hold", "roll"])), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(decisions, st.lists(st.sampled_from([0, 1, 3]), unique=True), st.sampled_from(["hold", "roll"]),
       st.booleans())
def test_the_table_is_the_plain_reading_of_its_definition(cells, keys, after, exceptions):
    names = ("pile", "colour", "total", "flag")
    rows = [(names, (pile, colour, total, flag), action, ("hold", "roll"))
            for pile, colour, total, flag, action in cells]
    made = optimal._threshold_table(optimal._Decisions(rows), 2, keys, after, exceptions)
    assert made == plain_table(rows, 2, keys, after, exceptions)
