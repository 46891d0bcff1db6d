"""What each seat knows: the game tree of a game of hidden information, grouped by information states.

A state that defines ``information_state_string(player)`` (OpenSpiel's name) says what the seat to
decide knows there. The walk here (``walk_tree``) plays the game from its start through every chance
outcome and every action, as a tree: a position reached by different moves is a different node, since
what the seats saw on the way may differ. Each decision node belongs to the information set of its
(seat, information state); the walk holds the file to what an information state means:

* every state of one information set has the same seat to act and the same legal actions, in the same
  order (else one line names the two states);
* the seat remembers its own moves (perfect recall): every state of one information set was reached
  after the same own information states and actions (else one line says the game forgets, which the
  equilibrium solvers do not take).

A game without ``information_state_string`` is taken to have perfect information, and optimal play
says so in the first line of every answer (``PERFECT``); with it, the perfect-information solver is not
used for its equilibrium.

The tree is kept in flat arrays, children of a node numbered together after their parent, so that a
pass from the last node to the first visits every child before its parent (what the solvers of
``toolkit.solve.extensive``, ``sequence_form`` and ``cfr`` read).
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE, TERMINAL

PERFECT = ("perfect information assumed: every seat sees the whole state (the game defines no "
           "information_state_string)")
HIDDEN = "hidden information: each seat knows only its information_state_string"


def hidden_information(game) -> bool:
    """Whether ``game`` (a guarded rules game) says what each seat knows."""
    return bool(getattr(game, "hidden_information", False))


def answer_head(game, model: str) -> dict:
    """What every answer of ``odds --rules`` says of the game first: its name, file, model and seats."""
    return {"game": game.name, "rules": game.source, "model": model, "players": game.num_players()}


def policy_export(information: str, answers: list) -> bytes:
    """The exported play: what the seats know on the first line, then every answer's play."""
    return (first_line_json({"information": information, "answers": answers}, 1) + "\n").encode("utf-8")


def first_line_json(data: dict, indent: int) -> str:
    """``data`` as JSON with its first member on the first line (``{"information": ...,``), the rest
    indented as ``json.dumps`` does: what the seats know is said in the first line of the file too."""
    if not data:
        return json.dumps(data)
    (name, value), *rest = data.items()
    head = "{" + json.dumps(name) + ": " + json.dumps(value, ensure_ascii=False)
    if not rest:
        return head + "}"
    body = json.dumps(dict(rest), indent=indent, ensure_ascii=False)
    return head + ",\n" + body[body.index("\n") + 1:]


@dataclass
class Infoset:
    """An information set: seat ``player`` knows ``key`` and may take ``actions``. ``slot`` numbers its
    first action among all the information sets' actions (a sequence of the seat: (set, action));
    ``parent`` is the slot of the seat's own move before it (-1: none), ``node`` its first state met,
    ``shown`` that state for people."""

    player: int
    key: str
    actions: tuple
    slot: int
    parent: int
    node: int
    shown: str
    depth: int  # the seat's own moves before it


@dataclass
class Tree:
    """A game walked as a tree (see the module's text). Per node ``n``: ``kind[n]`` the seat deciding,
    ``CHANCE`` or ``TERMINAL``; ``first[n]`` and ``count[n]`` its children ``first[n] .. first[n] +
    count[n] - 1`` (in the order of its actions or outcomes); ``weight[c]`` the whole weight of the edge
    into ``c`` (a chance outcome's, a named player's, else 1) over ``total[parent]``; ``infoset[n]``
    its information set (-1: none); ``end[n]`` an index into ``returns`` (-1: not an end). ``named[n]``
    is True where a named player's choice is recorded in the weights."""

    players: int
    kind: np.ndarray
    first: np.ndarray
    count: np.ndarray
    parent: np.ndarray
    weight: np.ndarray
    total: np.ndarray
    infoset: np.ndarray
    end: np.ndarray
    named: np.ndarray
    returns: list[tuple[Fraction, ...]]
    winners: list[int | None]
    infosets: list[Infoset]
    slots: int  # actions of all information sets together
    sequences: np.ndarray  # per node and seat: the slot of the seat's last own move on the way (-1: none)
    reads_hidden: dict[int, str] = field(default_factory=dict)  # seat -> a named player that reads hidden state

    def __len__(self) -> int:
        return len(self.kind)


def walk_tree(game, seats=None, max_nodes: int = 2_000_000, progress=None) -> Tree:
    """The tree of ``game`` (a guarded rules game with ``hidden_information``), every decision kept;
    ``seats[s]``, where given, is a named player of seat ``s`` whose choices are recorded as weights
    (``Policy.distribution``) for best replies to it. ``TooManyStates`` past ``max_nodes`` nodes."""
    from toolkit.walk.graph import TooManyStates
    from toolkit.rules.guard import describe

    players = game.num_players()
    seats = list(seats) if seats is not None else [None] * players
    # growable int64 columns (``array``: appends in C)
    kind, first, count, parent, weight, total, infoset, end, named = (array("q") for _ in range(9))
    sequences = array("q")
    infosets: list[Infoset] = []
    index: dict[str, int] = {}
    ends: dict[tuple, int] = {}
    returns: list[tuple[Fraction, ...]] = []
    winners: list[int | None] = []
    reads_hidden: dict[int, str] = {}
    named_play: dict[int, tuple] = {}  # information set -> the named player's weights at its first state
    slots = 0

    def new_node(up: int, w: int, own: tuple) -> int:
        node = len(kind)
        if node >= max_nodes:
            raise TooManyStates(max_nodes)
        kind.append(TERMINAL)
        first.append(-1)
        count.append(0)
        parent.append(up)
        weight.append(w)
        total.append(0)
        infoset.append(-1)
        end.append(-1)
        named.append(0)
        sequences.extend(own)
        return node

    start = game.new_initial_state()
    todo = [(new_node(-1, 1, (-1,) * players), start, (-1,) * players, (0,) * players)]
    while todo:
        node, state, own, depth = todo.pop()
        if progress and node % 1000 == 0:
            progress(1)
        who = state.current_player()
        if who == TERMINAL:
            outcome = (tuple(state.returns()), state.winner)
            code = ends.get(outcome)
            if code is None:
                code = ends[outcome] = len(returns)
                returns.append(outcome[0])
                winners.append(outcome[1])
            end[node] = code
            continue
        kind[node] = who
        if who == CHANCE:
            moves = state.chance_outcomes()
            child_own = [own] * len(moves)
            child_depth = depth
        else:
            legal = state.legal_actions()
            key = state.information_state(who)
            found = index.get(key)
            if found is None:
                found = index[key] = len(infosets)
                infosets.append(Infoset(who, key, tuple(legal), slots, own[who], node,
                                        describe(state.inner if hasattr(state, "inner") else state), depth[who]))
                slots += len(legal)
            else:
                _check_same(game, state, infosets[found], legal, own[who], who, describe)
            infoset[node] = found
            info = infosets[found]
            policy = seats[who]
            if policy is not None:
                chosen = dict(policy.distribution(state))
                ws = [int(chosen.get(action, 0)) for action in legal]
                named[node] = 1
                seen = named_play.setdefault(found, tuple(ws))
                if seen != tuple(ws) and who not in reads_hidden:
                    reads_hidden[who] = policy.name
            else:
                ws = [1] * len(legal)
            moves = list(zip(legal, ws))
            child_own = [own[:who] + (info.slot + a,) + own[who + 1:] for a in range(len(legal))]
            child_depth = depth[:who] + (depth[who] + 1,) + depth[who + 1:]
        first[node] = len(kind)
        count[node] = len(moves)
        total[node] = sum(w for _, w in moves)
        children = [new_node(node, w, child_own[i]) for i, (_, w) in enumerate(moves)]
        afters = [state.clone() for _ in range(len(moves) - 1)] + [state]
        for i in range(len(moves) - 1, -1, -1):  # the first child on top: the walk goes down first actions first
            afters[i].apply_action(moves[i][0], who != CHANCE)
            todo.append((children[i], afters[i], child_own[i], child_depth))
    tree = Tree(players, _np(kind, np.int8), _np(first), _np(count), _np(parent), _np(weight), _np(total),
                _np(infoset), _np(end), _np(named, np.bool_), returns, winners, infosets, slots,
                _np(sequences).reshape(-1, players), reads_hidden)
    return tree


def _np(column, dtype=np.int64) -> np.ndarray:
    return np.frombuffer(column, dtype=np.int64).astype(dtype) if len(column) else np.zeros(0, dtype)


def _check_same(game, state, info: Infoset, legal, own: int, who: int, describe) -> None:
    """One information set, two states: the same seat to act, the same actions, the same own past."""
    inner = state.inner if hasattr(state, "inner") else state
    fn = getattr(inner, "information_state_string", None)
    here = describe(inner)
    if who != info.player:
        what = f"seat {info.player + 1} acts at the one and seat {who + 1} at the other"
    elif tuple(legal) != info.actions:
        what = (f"the legal actions differ ({_short(info.actions)} and {_short(legal)}): a seat knows what it may "
                "do")
    elif own != info.parent:
        what = ("the seat reached them after different moves of its own: the game forgets (imperfect recall), "
                "which the equilibrium solvers do not take")
    else:
        return
    where = game.where(fn) if fn is not None and hasattr(game, "where") else game.source
    raise UserError(f"{where}: information_state_string({who}) gives {info.key!r} on state {info.shown} and on "
                    f"state {here}, but {what}")


def _short(actions) -> str:
    text = repr(list(actions))
    return text if len(text) <= 40 else text[:37] + "..."
