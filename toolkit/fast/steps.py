"""Step functions written once, run interpreted or compiled.

A rule is a plain Python function marked ``@step(...)`` (the marker keeps numba's options and returns
the function unchanged): imported normally it runs interpreted, with no numba loaded. ``compiled(module)``
imports numba and gives the same module compiled: every marked function of the module cloned (same code,
same file, same name) into one namespace whose globals are the clones' dispatchers, so a compiled step
calls compiled steps, and numba's ``uint64``, ``uint32`` and ``tuple_setitem`` in place of the plain twins
below. A step whose body only numba runs as meant (64-bit unsigned arithmetic that wraps, which numpy's
scalars warn about) names a plain twin, ``@step(python=twin)``: the module's name is then the twin (same
answers, in Python's integers) and ``compiled`` compiles the body.

numba caches a clone under its file and name, as it would the decorated function, and checks only that
file when it loads the cache: a loop and every step it inlines stay in one file.
"""

from __future__ import annotations

import functools
import importlib
import types

import numpy as np

_OPTIONS = "__step_options__"
_BODY = "__step_body__"  # the body ``compiled`` compiles, when the plain step is a twin

uint64 = np.uint64  # numba's ``uint64`` in compiled code
uint32 = int  # numba's ``uint32`` in compiled code, for numbers never negative (an index without its sign check)


def tuple_setitem(values: tuple | list, at: int, value) -> tuple | list:
    """``values`` with item ``at`` replaced (numba's ``tuple_setitem`` in compiled code). A list, such as the
    numbers an interpreted state keeps, is changed in place and returned (its owner keeps no older copy)."""
    if type(values) is list:
        values[at] = value
        return values
    changed = list(values)
    changed[at] = value
    return tuple(changed)


def step(python=None, **options):
    """Mark a function as a step of its module, compiled by ``compiled`` with numba's ``options``
    (``cache``, ``inline``, ``_nrt``...). ``python``: the plain twin run in its place when interpreted
    (given the step's name; the function itself is what ``compiled`` compiles)."""

    def mark(function):
        plain = function
        if python is not None:
            plain = types.FunctionType(python.__code__, python.__globals__, function.__name__, python.__defaults__,
                                       python.__closure__)
            plain.__qualname__, plain.__doc__ = function.__qualname__, function.__doc__
            setattr(plain, _BODY, function)
        setattr(plain, _OPTIONS, options)
        return plain

    return mark


@functools.cache
def compiled(name: str) -> types.SimpleNamespace:
    """Module ``name`` with its marked functions compiled: its globals, marked functions as numba dispatchers."""
    import numba
    from numba.cpython.unsafe.tuple import tuple_setitem as numba_tuple_setitem

    module = importlib.import_module(name)
    space = dict(vars(module))
    space.update(uint64=numba.uint64, uint32=numba.uint32, tuple_setitem=numba_tuple_setitem)
    for key, value in vars(module).items():
        options = getattr(value, _OPTIONS, None)
        if options is None or not isinstance(value, types.FunctionType):
            continue
        if value.__module__ != name:  # a step imported from another module: that module's compiled one
            space[key] = getattr(compiled(value.__module__), value.__name__)
            continue
        body = getattr(value, _BODY, value)
        clone = types.FunctionType(body.__code__, space, value.__name__, body.__defaults__, body.__closure__)
        clone.__qualname__, clone.__module__, clone.__doc__ = body.__qualname__, name, body.__doc__
        space[key] = numba.njit(**options)(clone)
    return types.SimpleNamespace(**space)
