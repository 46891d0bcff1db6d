"""The ``--policy`` option of ``simulate``, ``analyse``, ``sweep`` and ``odds``: which player each seat plays.

One syntax for every command and every game, built-in or a rules file: ``--policy [SEAT=]NAME``,
repeatable. ``SEAT=NAME`` gives seat SEAT (counted from 1) the player NAME; a bare ``NAME`` (also
written ``all=NAME``) gives it to every seat not named on its own; a seat named by neither plays the
game's default. NAME is one player of the game, and may itself hold commas: Diamoniak's
``stop-after-3,never-buy`` is one player (its rules combined). ``sweep`` alone tries several players
on one seat, ``SEAT=NAME|NAME``: an axis of its grid.

``parse_policy`` reads the options (the syntax alone, no game needed); ``seat_players`` turns them into
one player per seat of a game; ``builtin_players`` and ``rules_players`` do so for a built-in game and
for a rules game. A bare ``a,b`` that is not a player of the game while ``a`` and ``b`` are (the
one-player-per-seat list ``odds`` once took) is refused in one line naming the seats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, TypeVar

from toolkit.errors import UserError

P = TypeVar("P")
_SEAT = re.compile(r"[0-9]+")
MAX_SEAT_DIGITS = 3  # seat 999 at most: longer digits are refused before any number is made of them


@dataclass(frozen=True)
class Pick:
    """One ``--policy`` option: the players it names (one; several in a sweep) and the option as given."""

    names: tuple[str, ...]
    option: str


@dataclass(frozen=True)
class Policies:
    """The ``--policy`` options of a run: seat (from 1; None: every seat not named) -> its ``Pick``."""

    picks: dict[int | None, Pick] = field(default_factory=dict)

    @classmethod
    def of(cls, seats: dict[int, str] | None = None, every: str | None = None) -> Policies:
        """The options that name ``seats`` ({seat: name}) and ``every`` other seat, as if given so."""
        picks: dict[int | None, Pick] = {seat: Pick((name,), f"--policy {seat}={name}")
                                          for seat, name in sorted((seats or {}).items())}
        if every is not None:
            picks[None] = Pick((every,), f"--policy {every}")
        return cls(picks)

    def __bool__(self) -> bool:
        return bool(self.picks)

    @property
    def seats(self) -> list[int]:
        """The seats named on their own, in order."""
        return sorted(seat for seat in self.picks if seat is not None)

    def pick(self, seat: int) -> Pick | None:
        """What seat ``seat`` plays: its own pick, else the one for every seat, else None (the default)."""
        return self.picks.get(seat, self.picks.get(None))


def parse_policy(values: Iterable[str], *, several: bool = False) -> Policies:
    """``--policy [SEAT=]NAME`` options (``SEAT=NAME|NAME`` with ``several``, a sweep's axis), checked for
    their shape alone: a seat in ASCII digits (or ``all``), each seat once, one bare NAME, no empty name."""
    from toolkit.catalogue.checks import quote

    picks: dict[int | None, Pick] = {}
    for value in values:
        option = f"--policy {quote(value.strip(), '')}"
        seat_text, sep, names_text = value.partition("=")
        seat_text = seat_text.strip()
        if not sep:
            seat, names_text = None, value
        elif seat_text == "all":
            seat = None
        elif _SEAT.fullmatch(seat_text):
            if len(seat_text) > MAX_SEAT_DIGITS:
                raise UserError(f"{option}: seat {seat_text} does not exist (seats count from 1)")
            seat = int(seat_text)
        else:
            raise UserError(f"{option}: expected [SEAT=]NAME, a seat from 1 (or none: every seat), "
                            f"e.g. --policy 2=stop-after-3")
        names = tuple(name.strip() for name in names_text.split("|")) if several else (names_text.strip(),)
        if "" in names:
            raise UserError(f"{option}: a policy name is empty" + (" (separate the policies a seat tries with |)"
                                                                    if several else ""))
        if not several and "|" in names[0]:
            raise UserError(f"{option}: one player a seat (only sweep tries several: SEAT=NAME|NAME)")
        if seat in picks:
            given = picks[seat].option
            if seat is None:
                raise UserError(f"{option}: every seat not named has a policy already ({given}); name a seat "
                                "with SEAT=NAME, e.g. --policy 2=NAME")
            raise UserError(f"{option}: seat {seat} has a policy already ({given}): give each seat one"
                            + (" (list the policies it tries in one option, separated by |)" if several else ""))
        picks[seat] = Pick(names, option)
    return Policies(picks)


def player(name: str, option: str, parse: Callable[[str, str], P], every: bool = False) -> P:
    """The player ``parse`` makes of ``name``. A bare ``a,b`` (``every``) that is no player while each part
    is one, is the list of one player per seat that ``odds`` once read: refused, naming each seat."""
    try:
        return parse(name, option)
    except UserError:
        parts = [part.strip() for part in name.split(",")]
        if every and len(parts) > 1 and all(parts) and all(_parses(part, parse) for part in parts):
            seats = " ".join(f"--policy {seat}={part}" for seat, part in enumerate(parts, start=1))
            raise UserError(f"{option}: name each seat: {seats}") from None
        raise


def _parses(name: str, parse) -> bool:
    try:
        parse(name, name)
    except UserError:
        return False
    return True


def check_names(policies: Policies | None, parse: Callable[[str, str], P]) -> None:
    """Every player the options name, made once: a wrong name is an error before anything else is."""
    for seat, pick in (policies or Policies()).picks.items():
        for name in pick.names:
            player(name, pick.option, parse, every=seat is None)


def seat_players(policies: Policies | None, players: int, parse: Callable[[str, str], P], default: str) -> list[P]:
    """One player per seat of a game of ``players`` seats: what ``policies`` names (the first of a pick's
    names), ``default`` elsewhere; ``parse(name, option)`` makes a player or raises a one-line error."""
    policies = policies or Policies()
    for seat in policies.seats:
        if not 1 <= seat <= players:
            raise UserError(f"{policies.picks[seat].option}: seat {seat} does not exist with {players} player(s)")
    out = []
    for seat in range(1, players + 1):  # a player of its own per seat: a player may keep a seat's stream
        pick = policies.pick(seat)
        if pick is None:
            out.append(parse(default, f"--policy {seat}={default}"))
        else:
            out.append(player(pick.names[0], pick.option, parse, every=seat not in policies.picks))
    return out


def builtin_players(game_id: str, players: int, policies: Policies | None = None) -> list:
    """One policy per seat of a built-in game: what ``policies`` names, the game's ``default`` elsewhere."""
    from toolkit.games.registry import policy_module

    return seat_players(policies, players, policy_module(game_id).parse, "default")


def rules_default(rules) -> str:
    """The player of a seat no ``--policy`` names in a rules game: its first own player, else ``random``."""
    return next((name for name in rules.policies() if name not in ("random", "first")), "random")


def rules_parse(rules) -> Callable[[str, str], object]:
    """``parse(name, option)`` for a rules game: one of its players, ``default`` its default player."""
    default = rules_default(rules)

    def parse(name: str, option: str):
        return rules.policy(default if name == "default" and "default" not in rules.policies() else name, option)
    return parse


def rules_players(rules, policies: Policies | None = None) -> list:
    """One player per seat of a rules game (``RulesGame`` or a built-in one seen as one)."""
    return seat_players(policies, rules.num_players(), rules_parse(rules), rules_default(rules))
