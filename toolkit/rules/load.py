"""Find a rules game by its spec: ``PATH.py`` (the file's one game class), ``PATH.py:Class``,
or ``module:Class`` (an importable module). ``params`` are the game's constructor parameters (``sweep
--grid``). A registered game's id never comes here: ``toolkit.setup`` makes it the built-in game itself.

A file is imported from its location as a fresh module of its own (``importlib``: unlike ``runpy``'s
namespace, the module stays registered while it is used, so dataclasses and pickling work in it), once
per process and path. A refusal is one line.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path

from toolkit.errors import UserError
from toolkit.rules import contain
from toolkit.rules.guard import RulesGame
from toolkit.rules.interface import REQUIRED_GAME

_FILE = re.compile(r"(?P<path>.+\.py)(?::(?P<cls>[A-Za-z_][A-Za-z0-9_]*))?")
_MODULE = re.compile(r"(?P<module>[A-Za-z_][A-Za-z0-9_.]*):(?P<cls>[A-Za-z_][A-Za-z0-9_]*)")


def load_rules(spec: str, params: dict | None = None, option: str = "--rules"):
    """The game of ``spec`` built with ``params``: a ``RulesGame``."""
    spec = spec.strip()
    params = dict(params or {})
    if spec.startswith("open_spiel:"):  # before module:Class, which the name would also match
        from toolkit.rules import open_spiel

        return open_spiel.load(spec, params, option)
    found = _FILE.fullmatch(spec)
    if found:
        path = Path(found.group("path"))
        module = _import_file(path, option)
        cls = _game_class(module, found.group("cls"), found.group("path"), option)
        return _build(cls, spec, found.group("path"), path.resolve(), params)
    found = _MODULE.fullmatch(spec)
    if found:
        name = found.group("module")
        try:
            origin = getattr(importlib.util.find_spec(name), "origin", None)
            if origin:
                contain.watch(origin)
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            raise UserError(f"{option} {spec}: no module named {err.name!r} to import") from None
        except BaseException as err:  # noqa: BLE001 - the module's own code failed: one line
            raise _load_failure(err, spec, option) from None
        source = getattr(module, "__file__", None)
        path = Path(source).resolve() if source else None
        cls = _game_class(module, found.group("cls"), name, option)
        return _build(cls, spec, name if path is None else str(path), path, params)
    from toolkit.games.registry import games

    raise UserError(f"{option} {spec}: not a file PATH.py, a module:Class or a game "
                    f"(the games: {', '.join(games()) or 'none'})")


_MODULES: dict[Path, object] = {}


def _import_file(path: Path, option: str):
    if not path.is_file():
        raise UserError(f"{option} {path}: no such file" if not path.exists() else f"{option} {path}: not a file")
    real = path.resolve()
    contain.watch(str(real))
    if real in _MODULES:
        return _MODULES[real]
    name = f"toolkit_rules_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}_{hashlib.sha1(str(real).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, real)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        del sys.modules[name]
        raise UserError(f"{path}:{err.lineno}: SyntaxError: {err.msg}") from None
    except BaseException as err:  # noqa: BLE001 - the file's own code failed: one line
        del sys.modules[name]
        raise _load_failure(err, str(path), option, real) from None
    _MODULES[real] = module
    return module


def _load_failure(err: BaseException, shown: str, option: str, real: Path | None = None) -> UserError:
    import traceback

    if isinstance(err, KeyboardInterrupt) and contain.real_interrupt():
        raise err
    frames = traceback.extract_tb(err.__traceback__)
    mine = [frame for frame in frames if real is not None and Path(frame.filename).resolve() == real]
    if mine:
        place = f"{shown}:{mine[-1].lineno}"
    elif frames:
        place = f"{frames[-1].filename}:{frames[-1].lineno}"
    else:
        place = shown
    message = contain.message(err) or f"{type(err).__name__}: {' '.join(str(err).split())}"
    return UserError(f"{place}: loading {option} {shown}: {message}")


def _is_game_class(value, module) -> bool:
    return (inspect.isclass(value) and value.__module__ == module.__name__
            and all(callable(getattr(value, name, None)) for name in REQUIRED_GAME))


def _game_class(module, wanted: str | None, shown: str, option: str):
    if wanted is not None:
        cls = getattr(module, wanted, None)
        if cls is None:
            raise UserError(f"{option} {shown}:{wanted}: {shown} has no class {wanted}")
        if not inspect.isclass(cls) or not all(callable(getattr(cls, name, None)) for name in REQUIRED_GAME):
            raise UserError(f"{option} {shown}:{wanted}: {wanted} is not a game class (it needs "
                            f"{' and '.join(name + '()' for name in REQUIRED_GAME)})")
        return cls
    classes = [value for value in vars(module).values() if _is_game_class(value, module)]
    if not classes:
        raise UserError(f"{option} {shown}: no game class in the file (a class with "
                        f"{' and '.join(name + '()' for name in REQUIRED_GAME)})")
    if len(classes) > 1:
        names = ", ".join(cls.__name__ for cls in classes)
        raise UserError(f"{option} {shown}: {len(classes)} game classes ({names}): name one, "
                        f"e.g. {option} {shown}:{classes[0].__name__}")
    return classes[0]


def _build(cls, spec: str, source: str, path: Path | None, params: dict) -> RulesGame:
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        accepted = [name for name, p in signature.parameters.items()
                    if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
        for name in params:
            if name not in accepted and not takes_any:
                offered = f"it takes {', '.join(accepted)}" if accepted else "it takes none"
                raise UserError(f"{source}: {cls.__name__}() has no parameter '{name}' ({offered})")
    guard = RulesGame.__new__(RulesGame)  # the guard of the constructor, before the game exists
    guard.path, guard.source, guard.cls = path, source, cls
    try:
        game = cls(**params)
    except BaseException as err:  # noqa: BLE001 - the user's constructor: one line
        raise guard.failure(None, "__init__", cls.__init__, err, tuple(_Shown(f"{k}={v!r}") for k, v in params.items())) \
            from None
    return RulesGame(game, cls, spec, source, path, params)


class _Shown(str):
    """An argument shown in a message as written (``goal=20``)."""

    def __repr__(self) -> str:
        return str(self)


def parse_value(text: str):
    """A parameter's value as given on the command line: a Python literal (20, 0.5, 'x', True), else the text."""
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        return text.strip()


def absolute(spec: str) -> str:
    """The spec with its file's path made absolute (a worker may run elsewhere); others as they are."""
    found = _FILE.fullmatch(spec.strip())
    if not found:
        return spec.strip()
    path = str(Path(found.group("path")).resolve())
    return path + (f":{found.group('cls')}" if found.group("cls") else "")
