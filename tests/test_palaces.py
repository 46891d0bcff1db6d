"""Palaces' rules, each on a hand-built state, plus invariants under random play and the policies: every
test on the product's state (the kernel's steps) and players, and on the oracle engine and players
(tests/oracles), with the same assertions."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games import CHANCE, TERMINAL
from toolkit.games.palaces.engine import NO_RUINS, VARIANT_SEATS, VARIANTS, PalacesGame
from toolkit.games.palaces.policies import NAMES, parse
from toolkit.sim.runner import play, sample_outcome

from oracles import palaces_engine, palaces_policies

CAT = load("palaces", require_art=False)


@pytest.fixture(autouse=True, scope="module", params=["product", "oracle"])
def engine(request):
    """Every test plays the product's engine and players, then the oracle's (module-wide, for hypothesis)."""
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "oracle":
            patch.setattr(sys.modules[__name__], "PalacesGame", palaces_engine.PalacesGame)
            patch.setattr(sys.modules[__name__], "parse", palaces_policies.parse)
        yield request.param


def game(players=2, variants=(), overrides=()):
    cat = load("palaces", overrides=overrides, require_art=False) if overrides else CAT
    return PalacesGame.from_catalogue(cat, players=players, variants=variants)


def fitting(variants, players):
    """The variants that are meant for this number of players."""
    return [v for v in variants if players in VARIANT_SEATS.get(v, (players,))]


def idx(g, card_id):
    return g.names.index(card_id)


def table(g, hands=None, palaces=None, site=None, discard=(), tokens=None, player=0, rest="pile"):
    """A state at ``player``'s turn with the given cards (ids); every other card goes to ``rest``
    ("pile", "discard", or None: out of the game). A palace is (foundation, [floors], ruins or None)."""
    s = g.new_initial_state()
    n = len(g.names)
    used = [0] * n
    # each field is built here and then assigned whole (a state's fields may be copies, not its own lists)
    in_hands = [[0] * n for _ in range(g.players)]
    for p, cards in (hands or {}).items():
        for c in cards:
            in_hands[p][idx(g, c)] += 1
            used[idx(g, c)] += 1
    s.hands = in_hands
    built = [[] for _ in range(g.players)]
    for p, pals in (palaces or {}).items():
        for foundation, floors, ruins in pals:
            cards = [foundation, *floors] + ([ruins] if ruins else [])
            for c in cards:
                used[idx(g, c)] += 1
            built[p].append((idx(g, foundation), tuple(sorted(idx(g, c) for c in floors)),
                             idx(g, ruins) if ruins else NO_RUINS))
        built[p].sort()
    s.palaces = built
    sites = [NO_RUINS] * g.players
    for p, ruins in (site or {}).items():
        sites[p] = idx(g, ruins)
        used[idx(g, ruins)] += 1
    s.site = sites
    discarded = [0] * n
    for c in discard:
        discarded[idx(g, c)] += 1
        used[idx(g, c)] += 1
    left = [total - u for total, u in zip(g.counts, used)]
    assert min(left) >= 0, "more cards on the table than in the deck"
    s.pile = left if rest == "pile" else [0] * n
    s.discard = [a + b for a, b in zip(discarded, left)] if rest == "discard" else discarded
    s.tokens = list(tokens or [0] * g.players)
    s.player, s.phase, s.turns = player, "turn", 1
    return s


def slot_of(s, p, foundation_id):
    return next(k for k, pal in enumerate(s.palaces[p]) if s.game.names[pal[0]] == foundation_id)


def refill(s, rng=None):
    """Resolve chance draws (deterministically: the first outcome) until a decision or the end."""
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        s.apply_action(sample_outcome(outcomes, rng) if rng else outcomes[0][0])


def total_cards(s):
    """Cards per type wherever they are: pile, discard, hands, palaces, ruins, set aside in exchanges."""
    counts = [a + b for a, b in zip(s.pile, s.discard)]
    for hand in s.hands:
        counts = [a + b for a, b in zip(counts, hand)]
    for pals in s.palaces:
        for foundation, floors, ruins in pals:
            for c in (foundation, *floors) + ((ruins,) if ruins != NO_RUINS else ()):
                counts[c] += 1
    for r in s.site:
        if r != NO_RUINS:
            counts[r] += 1
    for c in (*s.handing, *(c for cards in s.giving for c in cards)):
        counts[c] += 1
    return counts


# --- the game and the deal --------------------------------------------------------------------------

def test_the_deck_and_rules_come_from_the_catalogue():
    g = game(overrides=["tower=10"])
    assert sum(g.counts) == 72 and g.counts[idx(g, "tower")] == 10
    assert (g.hand_size, g.max_palaces, g.goal, g.goal_two_players, g.exchange_cards) == (5, 3, 10, 7, 2)
    assert g.palette == ("red", "blue", "green", "yellow") and g.completable == set(g.palette)


def test_unknown_variant_wrong_players_and_wrong_game_are_one_line_user_errors():
    with pytest.raises(UserError, match="unknown Palaces variant") as err:
        game(variants=["no-such"])
    assert "\n" not in str(err.value)
    for players in (0, 5):
        with pytest.raises(UserError, match="1 to 4 players"):
            game(players=players)
    with pytest.raises(UserError, match="expected a palaces catalogue"):
        PalacesGame.from_catalogue(load("diamoniak", require_art=False))
    assert game(players=1).players == 1  # solo is allowed for the solver


def test_the_opening_hands_are_dealt_by_chance_draws():
    g = game(players=3)
    s = g.new_initial_state()
    assert s.current_player() == CHANCE and s.is_chance_node()
    assert sorted(s.chance_outcomes()) == [(i, n) for i, n in enumerate(g.counts) if n]
    draws = 0
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
        draws += 1
    assert draws == 15 and [sum(h) for h in s.hands] == [5, 5, 5]
    assert sum(s.pile) == 70 - 15 and s.current_player() == 0 and s.turns == 1 and s.phase == "turn"


# --- palace elements --------------------------------------------------------------------------------

def test_a_foundation_starts_a_palace_but_not_a_fourth_one():
    g = game()
    pals = [("foundation-red", [], None), ("foundation-blue", [], None)]
    s = table(g, hands={0: ["foundation-green", "foundation-yellow"]}, palaces={0: pals})
    assert ("build", idx(g, "foundation-green"), None) in s.legal_actions()
    s.apply_action(("build", idx(g, "foundation-green"), None))
    assert len(s.palaces[0]) == 3 and s.counters()["foundations_laid"] == 1
    s = table(g, hands={0: ["foundation-yellow"]}, palaces={0: pals + [("foundation-green", [], None)]})
    assert not any(a[0] == "build" for a in s.legal_actions())
    with pytest.raises(ValueError):
        s.apply_action(("build", idx(g, "foundation-yellow"), None))


def test_a_floor_goes_only_on_a_palace_of_its_colour():
    g = game()
    s = table(g, hands={0: ["floor-red"]}, palaces={0: [("foundation-blue", [], None), ("foundation-red", [], None)]})
    red, blue = slot_of(s, 0, "foundation-red"), slot_of(s, 0, "foundation-blue")
    builds = [a for a in s.legal_actions() if a[0] == "build"]
    assert builds == [("build", idx(g, "floor-red"), red)]
    with pytest.raises(ValueError):
        s.apply_action(("build", idx(g, "floor-red"), blue))
    s.apply_action(builds[0])
    assert s.palaces[0][slot_of(s, 0, "foundation-red")][1] == (idx(g, "floor-red"),)


def test_a_floor_needs_a_palace_of_ones_own():
    g = game()
    s = table(g, hands={0: ["floor-red"]}, palaces={1: [("foundation-red", [], None)]})
    assert not any(a[0] == "build" for a in s.legal_actions())


def test_a_tower_counts_as_a_floor_of_any_colour():
    g = game()
    s = table(g, hands={0: ["tower", "roof-green"]},
              palaces={0: [("foundation-blue", [], None), ("foundation-green", [], None)]})
    tower = idx(g, "tower")
    assert {a for a in s.legal_actions() if a[0] == "build"} == {("build", tower, 0), ("build", tower, 1)}
    s.apply_action(("build", tower, slot_of(s, 0, "foundation-green")))
    refill(s)
    s.player, s.phase = 0, "turn"
    assert ("build", idx(g, "roof-green"), slot_of(s, 0, "foundation-green")) in s.legal_actions()


def test_a_roof_needs_a_floor_and_its_colour():
    g = game()
    s = table(g, hands={0: ["roof-red"]},
              palaces={0: [("foundation-red", [], None), ("foundation-blue", ["floor-blue"], None)]})
    assert not any(a[0] == "build" for a in s.legal_actions())
    s = table(g, hands={0: ["roof-red"]}, palaces={0: [("foundation-red", ["floor-red"], None)]})
    assert ("build", idx(g, "roof-red"), 0) in s.legal_actions()


def test_a_roof_completes_the_palace_one_token_per_card_cards_to_the_discard():
    g = game()
    s = table(g, hands={0: ["roof-red"]}, palaces={0: [("foundation-red", ["floor-red", "tower"], None)]},
              tokens=[2, 0])
    s.apply_action(("build", idx(g, "roof-red"), 0))
    assert s.tokens == [6, 0] and s.palaces[0] == [] and not s.is_terminal()
    for card in ("foundation-red", "floor-red", "tower", "roof-red"):
        assert s.discard[idx(g, card)] == 1
    assert s.counters()["palaces_completed"] == 1 and s.counters()["tokens_scored"] == 4


def test_reaching_the_goal_wins_at_once():
    g = game(players=3)
    s = table(g, hands={1: ["roof-red"]}, palaces={1: [("foundation-red", ["floor-red"], None)]},
              tokens=[9, 7, 0], player=1)
    s.apply_action(("build", idx(g, "roof-red"), 0))
    assert s.tokens[1] == 10 and s.winner == 1 and s.is_terminal() and s.current_player() == TERMINAL
    assert s.legal_actions() == [] and not s.stalled


def test_one_short_of_the_goal_plays_on():
    g = game()
    s = table(g, hands={0: ["roof-red"]}, palaces={0: [("foundation-red", ["floor-red"], None)]}, tokens=[6, 0])
    s.apply_action(("build", idx(g, "roof-red"), 0))
    assert s.tokens[0] == 9 and s.winner is None and not s.is_terminal()


# --- turns, refills, reshuffles ---------------------------------------------------------------------

def test_exactly_one_action_then_the_hand_is_refilled_to_five():
    g = game()
    s = table(g, hands={0: ["foundation-red", "floor-red", "floor-red", "tower", "roof-red"]})
    s.apply_action(("build", idx(g, "foundation-red"), None))
    assert s.current_player() == CHANCE and s.phase == "refill" and sum(s.hands[0]) == 4
    assert s.chance_outcomes() == [(i, n) for i, n in enumerate(s.pile) if n]
    s.apply_action(s.chance_outcomes()[0][0])
    assert sum(s.hands[0]) == 5 and s.current_player() == 1 and s.turns == 2


def test_discarding_draws_as_many_cards():
    g = game()
    s = table(g, hands={0: ["flood", "flood", "exchange", "tower", "roof-red"]})
    s.apply_action(("discard", (idx(g, "exchange"), idx(g, "flood"), idx(g, "flood"))))
    assert s.discard[idx(g, "flood")] == 2 and s.discard[idx(g, "exchange")] == 1
    draws = 0
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
        draws += 1
    assert draws == 3 and sum(s.hands[0]) == 5 and s.current_player() == 1
    assert s.counters()["discards"] == 1 and s.counters()["cards_discarded"] == 3


def test_discard_needs_at_least_one_held_card():
    g = game()
    s = table(g, hands={0: ["tower"]})
    for bad in (("discard", ()), ("discard", (idx(g, "flood"),)), ("discard", (idx(g, "tower"),) * 2)):
        with pytest.raises(ValueError):
            s.apply_action(bad)
    assert s.hands[0][idx(g, "tower")] == 1  # nothing changed


def test_an_empty_pile_is_replaced_by_the_discard_pile():
    g = game()
    s = table(g, hands={0: ["foundation-red"]}, rest="discard")
    before = s.discard[:]
    s.apply_action(("build", idx(g, "foundation-red"), None))
    assert s.counters()["reshuffles"] == 1 and s.pile == before and sum(s.discard) == 0
    assert s.is_chance_node()


def test_with_no_cards_anywhere_a_player_just_does_not_draw():
    g = game()
    s = table(g, hands={0: ["foundation-red"], 1: ["tower"]}, rest=None)
    s.apply_action(("build", idx(g, "foundation-red"), None))
    assert s.current_player() == 1 and sum(s.hands[0]) == 0 and s.counters()["reshuffles"] == 0


def test_an_empty_hand_passes_and_everybody_passing_stalls_the_game():
    g = game()
    s = table(g, rest=None)
    assert s.legal_actions() == [("pass",)]
    s.apply_action(("pass",))
    assert s.current_player() == 1 and not s.is_terminal()
    s.apply_action(("pass",))
    assert s.is_terminal() and s.stalled and s.winner is None


def test_a_player_with_cards_cannot_pass_but_can_always_discard():
    g = game()
    s = table(g, hands={0: ["roof-red"]})
    assert s.legal_actions() == [("discard", (idx(g, "roof-red"),))]
    with pytest.raises(ValueError):
        s.apply_action(("pass",))


# --- special cards ----------------------------------------------------------------------------------

def test_a_blind_exchange_takes_cards_by_chance_from_the_victims_hand():
    g = game(players=3)
    ex, tower, flood = idx(g, "exchange"), idx(g, "tower"), idx(g, "flood")
    s = table(g, hands={0: ["exchange", "tower", "tower", "floor-red", "floor-red"],
                        2: ["flood", "flood", "roof-red"]})
    actions = [a for a in s.legal_actions() if a[0] == "special"]
    assert ("special", ex, 2, (tower, tower)) in actions
    assert all(a[2] != 1 for a in actions)  # player 2 (seat 1) holds no card to swap
    s.apply_action(("special", ex, 2, (tower, tower)))
    assert s.is_chance_node() and s.current_player() == CHANCE and s.phase == "steal"
    assert s.chance_outcomes() == [(idx(g, "roof-red"), 1), (flood, 2)]  # the given towers are not in it
    s.apply_action(flood)
    assert s.chance_outcomes() == [(idx(g, "roof-red"), 1), (flood, 1)]
    s.apply_action(idx(g, "roof-red"))
    assert s.hands[2][tower] == 2 and s.hands[2][flood] == 1 and sum(s.hands[2]) == 3
    assert s.hands[0][flood] == 1 and s.hands[0][idx(g, "roof-red")] == 1 and s.hands[0][tower] == 0
    assert s.discard[ex] == 1 and s.counters()["exchanges"] == 1 and s.phase == "refill"


def test_a_face_up_exchange_is_the_players_choice():
    g = game(variants=["exchange-face-up"])
    ex, tower, flood, roof = idx(g, "exchange"), idx(g, "tower"), idx(g, "flood"), idx(g, "roof-red")
    s = table(g, hands={0: ["exchange", "tower", "tower"], 1: ["flood", "roof-red", "roof-red"]})
    actions = [a for a in s.legal_actions() if a[0] == "special"]
    assert ("special", ex, 1, (tower, tower), (roof, roof)) in actions
    assert ("special", ex, 1, (tower, tower), (roof, flood)) in actions
    assert all(len(a) == 5 for a in actions)
    s.apply_action(("special", ex, 1, (tower, tower), (roof, roof)))
    assert s.phase != "steal" and s.hands[0][roof] == 2 and s.hands[1][tower] == 2 and s.hands[1][flood] == 1


def test_an_exchange_needs_another_player_with_cards():
    g = game()
    ex = idx(g, "exchange")
    s = table(g, hands={0: ["exchange", "tower"]})
    assert not any(a[0] == "special" for a in s.legal_actions())
    with pytest.raises(ValueError):
        s.apply_action(("special", ex, 0, (idx(g, "tower"),)))
    s = table(g, hands={0: ["exchange", "tower", "tower", "tower"], 1: ["flood"]})
    assert [a for a in s.legal_actions() if a[0] == "special"] == [("special", ex, 1, (idx(g, "tower"),))]


def test_a_general_exchange_passes_two_cards_to_the_next_player_clockwise():
    g = game(players=3)
    ge = idx(g, "general-exchange")
    tower, flood, roof, floor = idx(g, "tower"), idx(g, "flood"), idx(g, "roof-red"), idx(g, "floor-blue")
    s = table(g, hands={0: ["general-exchange", "tower", "tower", "tower"],
                        1: ["flood", "flood", "flood"], 2: ["roof-red", "roof-red", "floor-blue"]}, player=0)
    s.apply_action(("special", ge))
    assert s.phase == "give" and s.current_player() == 0 and s.discard[ge] == 1
    assert s.legal_actions() == [("give", (tower, tower))]
    s.apply_action(("give", (tower, tower)))
    assert s.current_player() == 1 and s.player == 0
    s.apply_action(("give", (flood, flood)))
    assert s.current_player() == 2
    assert ("give", (roof, floor)) in s.legal_actions() and ("give", (roof, roof)) in s.legal_actions()
    s.apply_action(("give", (roof, roof)))
    assert s.hands[1][tower] == 2 and s.hands[1][flood] == 1
    assert s.hands[2][flood] == 2 and s.hands[2][floor] == 1
    assert s.hands[0][roof] == 2 and s.hands[0][tower] == 1
    assert s.counters()["general_exchanges"] == 1 and s.phase == "refill" and s.drawer == 0


def test_a_general_exchange_skips_empty_hands_and_needs_two_players():
    g = game(players=3)
    ge, tower = idx(g, "general-exchange"), idx(g, "tower")
    s = table(g, hands={0: ["general-exchange"], 1: ["tower"], 2: []})
    s.apply_action(("special", ge))
    assert s.current_player() == 1 and s.legal_actions() == [("give", (tower,))]
    s.apply_action(("give", (tower,)))
    assert s.hands[2][tower] == 1 and sum(s.hands[1]) == 0
    solo = table(game(players=1), hands={0: ["general-exchange", "exchange", "flood", "ruins"]})
    assert all(a[0] == "discard" for a in solo.legal_actions())


def test_a_flood_sends_an_opponents_palace_to_the_discard_pile():
    g = game()
    fl = idx(g, "flood")
    s = table(g, hands={0: ["flood"]}, palaces={0: [("foundation-blue", [], None)],
                                                 1: [("foundation-red", ["floor-red", "tower"], "ruins")]})
    actions = [a for a in s.legal_actions() if a[0] == "special"]
    assert actions == [("special", fl, 1, 0)]  # never one's own
    with pytest.raises(ValueError):
        s.apply_action(("special", fl, 0, 0))
    s.apply_action(("special", fl, 1, 0))
    assert s.palaces[1] == [] and s.counters()["floods"] == 1
    for card in ("flood", "foundation-red", "floor-red", "tower", "ruins"):
        assert s.discard[idx(g, card)] == 1


# --- ruins ------------------------------------------------------------------------------------------

def test_ruins_on_a_palace_stop_it_growing_and_being_finished():
    g = game()
    s = table(g, hands={1: ["floor-red", "tower", "roof-red"]},
              palaces={1: [("foundation-red", ["floor-red"], "ruins")]}, player=1)
    assert not any(a[0] == "build" for a in s.legal_actions())
    s = table(g, hands={1: ["floor-red", "tower", "roof-red"]},
              palaces={1: [("foundation-red", ["floor-red"], None)]}, player=1)
    assert len([a for a in s.legal_actions() if a[0] == "build"]) == 3


def test_laying_ruins_on_an_opponents_palace():
    g = game()
    r = idx(g, "ruins")
    s = table(g, hands={0: ["ruins"]}, palaces={0: [("foundation-blue", [], None)], 1: [("foundation-red", [], None)]})
    ruins_actions = [a for a in s.legal_actions() if a[0] == "ruins"]
    assert set(ruins_actions) == {("ruins", r, 1, 0), ("ruins", r, 1, None)}  # not on one's own
    s.apply_action(("ruins", r, 1, 0))
    assert s.palaces[1][0][2] == r and s.counters()["ruins_laid"] == 1 and s.hands[0][r] == 0
    s2 = table(g, hands={0: ["ruins"]}, palaces={1: [("foundation-red", [], "ruins")]})
    assert ("ruins", r, 1, 0) not in s2.legal_actions()  # ruins already lie there


def test_ruins_on_the_empty_building_place_block_the_next_foundation():
    g = game()
    r, found = idx(g, "ruins"), idx(g, "foundation-red")
    s = table(g, hands={0: ["ruins"], 1: ["foundation-red"]})
    s.apply_action(("ruins", r, 1, None))
    assert s.site[1] == r
    refill(s)
    assert s.current_player() == 1 and ("build", found, None) not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(("build", found, None))
    # only with a free place: three palaces leave no empty building place
    full = [("foundation-blue", [], None), ("foundation-green", [], None), ("foundation-yellow", [], None)]
    s = table(g, hands={0: ["ruins"]}, palaces={1: full})
    assert ("ruins", r, 1, None) not in s.legal_actions()


def test_clearing_ones_own_ruins_is_an_action_that_takes_no_card():
    g = game()
    r = idx(g, "ruins")
    s = table(g, hands={0: ["foundation-blue"]},
              palaces={0: [("foundation-red", ["floor-red"], "ruins")]}, site={0: "ruins"})
    acts = [a for a in s.legal_actions() if a[0] == "ruins" and a[2] == 0]
    assert set(acts) == {("ruins", None, 0, 0), ("ruins", None, 0, None)}
    s.apply_action(("ruins", None, 0, None))
    assert s.site[0] == NO_RUINS and s.discard[r] == 1 and s.counters()["ruins_removed"] == 1
    assert s.hands[0][idx(g, "foundation-blue")] == 1 and s.phase == "refill"  # the turn was the whole cost
    s = table(g, hands={0: ["ruins", "floor-red"]}, palaces={0: [("foundation-red", ["floor-red"], "ruins")]})
    assert ("ruins", r, 0, 0) not in s.legal_actions()  # a ruins card is not spent on one's own ruins
    s.apply_action(("ruins", None, 0, 0))
    assert s.palaces[0][0][2] == NO_RUINS and s.discard[r] == 1 and s.hands[0][r] == 1
    with pytest.raises(ValueError):
        table(g, hands={0: ["ruins"]}, site={0: "ruins"}).apply_action(("ruins", r, 0, None))


def test_variant_clearing_ruins_takes_a_ruins_card_and_discards_both():
    g = game(variants=["ruins-card-to-clear"])
    r, found = idx(g, "ruins"), idx(g, "foundation-blue")
    s = table(g, hands={0: ["ruins", "foundation-blue"]},
              palaces={0: [("foundation-red", ["floor-red"], "ruins")]}, site={0: "ruins"})
    acts = [a for a in s.legal_actions() if a[0] == "ruins" and a[2] == 0]
    assert set(acts) == {("ruins", r, 0, 0), ("ruins", r, 0, None)}
    s.apply_action(("ruins", r, 0, None))
    assert s.site[0] == NO_RUINS and s.discard[r] == 2 and s.counters()["ruins_removed"] == 1
    s = table(g, hands={0: ["foundation-blue"]}, site={0: "ruins"})
    assert ("build", found, None) not in s.legal_actions()  # no ruins card: no way to clear them
    assert not any(a[0] == "ruins" for a in s.legal_actions())


# --- variants ---------------------------------------------------------------------------------------

def test_variant_completed_and_flooded_palaces_go_into_the_pile():
    g = game(variants=["palaces-to-pile"])
    s = table(g, hands={0: ["roof-red"]}, palaces={0: [("foundation-red", ["floor-red"], None)]}, rest=None)
    s.apply_action(("build", idx(g, "roof-red"), 0))
    assert sum(s.discard) == 0 and s.counters()["reshuffles"] == 0
    assert s.pile[idx(g, "foundation-red")] + s.hands[0][idx(g, "foundation-red")] == 1
    assert sum(s.pile) + sum(s.hands[0]) == 3
    s = table(g, hands={0: ["flood"]}, palaces={1: [("foundation-red", ["tower"], None)]}, rest=None)
    s.apply_action(("special", idx(g, "flood"), 1, 0))
    assert s.discard[idx(g, "flood")] == 1 and sum(s.discard) == 1  # the used flood is discarded
    assert sum(s.pile) + sum(s.hands[0]) == 2


def test_variant_one_palace_per_colour():
    pals = {0: [("foundation-red", [], None)]}
    found_red, found_blue = idx(game(), "foundation-red"), idx(game(), "foundation-blue")
    s = table(game(), hands={0: ["foundation-red", "foundation-blue"]}, palaces=pals)
    assert ("build", found_red, None) in s.legal_actions()
    s = table(game(variants=["one-per-colour"]), hands={0: ["foundation-red", "foundation-blue"]}, palaces=pals)
    assert ("build", found_red, None) not in s.legal_actions()
    assert ("build", found_blue, None) in s.legal_actions()


@pytest.mark.parametrize("players,variants,goal", [(2, (), 10), (2, ("short-two-player",), 7), (3, (), 10)])
def test_variant_short_two_player_game(players, variants, goal):
    g = game(players=players, variants=variants)
    assert g.to_win == goal
    s = table(g, hands={0: ["roof-red"]}, palaces={0: [("foundation-red", ["floor-red"], None)]},
              tokens=[goal - 3] + [0] * (players - 1))
    s.apply_action(("build", idx(g, "roof-red"), 0))
    assert s.winner == 0
    s = table(g, hands={0: ["roof-red"]}, palaces={0: [("foundation-red", ["floor-red"], None)]},
              tokens=[goal - 4] + [0] * (players - 1))
    s.apply_action(("build", idx(g, "roof-red"), 0))
    assert s.winner is None


def test_a_variant_for_another_player_count_and_a_deal_the_deck_cannot_make_are_refused():
    for players in (1, 3, 4):
        with pytest.raises(UserError, match="--variant short-two-player: the variant is for 2 players") as err:
            game(players=players, variants=["short-two-player"])
        assert "\n" not in str(err.value)
    few = [f"{card.id}=0" for card in CAT.cards if card.id != "tower"] + ["tower=9"]
    assert game(players=1, overrides=few).hand_size == 5  # one hand of 5 from 9 cards is dealt
    with pytest.raises(UserError, match=r"--set foundation-red=0 .*--set tower=9 .*: 2 opening hands need 10 "
                                        r"cards, but the deck has only 9"):  # the deck is small by --set: named so
        game(players=2, overrides=few)


# --- games that cannot end --------------------------------------------------------------------------

@pytest.mark.parametrize("overrides", [
    ["roof-red=0", "roof-blue=0", "roof-green=0", "roof-yellow=0"],
    ["foundation-red=0", "foundation-blue=0", "foundation-green=0", "foundation-yellow=0"],
    ["floor-red=0", "floor-blue=0", "floor-green=0", "floor-yellow=0", "tower=0"],
])
def test_a_deck_that_cannot_finish_a_palace_stalls_at_once(overrides):
    s = game(overrides=overrides).new_initial_state()
    assert s.is_terminal() and s.stalled and s.winner is None and s.current_player() == TERMINAL


def test_a_colour_without_roofs_is_not_enough_to_stall():
    g = game(overrides=["roof-red=0", "roof-blue=0", "roof-green=0"])
    assert g.completable == {"yellow"}
    assert not g.new_initial_state().is_terminal()


def test_ruins_that_can_never_be_cleared_stall_the_game():
    g = game(overrides=["ruins=2"], variants=["ruins-card-to-clear"])
    r = idx(g, "ruins")
    s = table(g, hands={0: ["ruins"]}, site={0: "ruins"})
    s.apply_action(("ruins", r, 1, None))  # both ruins cards now lie on building places
    assert s.is_terminal() and s.stalled
    g = game(variants=["ruins-card-to-clear"])  # with 4 ruins, two can still come back to clear them
    s = table(g, hands={0: ["ruins"]}, site={0: "ruins"})
    s.apply_action(("ruins", r, 1, None))
    assert not s.is_terminal()
    g = game(overrides=["ruins=2"])  # by default everybody can clear their own ruins
    s = table(g, hands={0: ["ruins"]}, site={0: "ruins"})
    s.apply_action(("ruins", r, 1, None))
    assert not s.is_terminal()


# --- the state interface ----------------------------------------------------------------------------

def test_clone_is_independent_and_key_is_canonical():
    g = game()
    red, blue = idx(g, "foundation-red"), idx(g, "foundation-blue")
    a = table(g, hands={0: ["foundation-red", "foundation-blue"]}, rest=None)
    b = a.clone()
    a.apply_action(("build", red, None))
    assert b.hands[0][red] == 1 and b.palaces[0] == [] and a.key() != b.key()
    a.player = 0
    a.apply_action(("build", blue, None))
    b.apply_action(("build", blue, None))
    b.player = 0
    b.apply_action(("build", red, None))
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())


def offered(s) -> list:
    """What the state offers: its chance outcomes, else its legal actions (none at the end)."""
    if s.is_terminal():
        return []
    return s.chance_outcomes() if s.is_chance_node() else s.legal_actions()


def random_walk(g, seed, steps):
    """Play random legal actions and seeded chance; yield the state after every step with what it offers
    (``offered``): the very list the next step draws from, asked of the engine once."""
    rng = random.Random(seed)
    s = g.new_initial_state()
    options = offered(s)
    for _ in range(steps):
        if s.is_terminal():
            return
        if s.is_chance_node():
            s.apply_action(sample_outcome(options, rng))
        else:
            s.apply_action(rng.choice(options))
        options = offered(s)
        yield s, options


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4),
       variants=st.sets(st.sampled_from(sorted(VARIANTS))))
def test_random_play_keeps_every_card_and_the_hand_limit(seed, players, variants):
    g = game(players=players, variants=fitting(variants, players))
    turn = None
    for s, options in random_walk(g, seed, 400):
        assert total_cards(s) == list(g.counts)
        assert min(s.pile) >= 0 and min(s.discard) >= 0 and all(min(h) >= 0 for h in s.hands)
        assert all(len(pals) <= g.max_palaces for pals in s.palaces)
        if s.phase == "turn" and s.turns != turn:  # the start of a turn
            turn = s.turns
            assert all(sum(h) <= g.hand_size for h in s.hands)
        if s.is_chance_node():
            assert options and all(isinstance(w, int) and w > 0 for _, w in options)  # the chance outcomes
        elif not s.is_terminal():
            assert options  # the legal actions
        hash(s.key())


def test_the_same_seed_plays_the_same_game():
    g = game(players=3, variants=["exchange-face-up"])
    runs = []
    for _ in range(2):
        keys = [s.key() for s, _ in random_walk(g, 7, 300)]
        runs.append(keys)
    assert runs[0] == runs[1] and len(set(runs[0])) > 100
    results = []
    for _ in range(2):
        s = g.new_initial_state()
        play(s, [parse("default")] * 3, random.Random(11))
        results.append((s.key(), s.turns, s.counters()))
    assert results[0] == results[1]


# --- policies ---------------------------------------------------------------------------------------

def test_policy_names_parse_and_unknown_ones_are_one_line_errors():
    assert parse("default").name == "builder,give-worst"
    assert parse("aggressive,give-random").name == "aggressive,give-random"
    assert parse("random-3").name == "random-3,give-random-3"
    assert parse("no-attack").name == "no-attack,give-worst"
    for bad in ("nonsense", "builder,aggressive", "random-x"):
        with pytest.raises(UserError) as err:
            parse(bad)
        assert "\n" not in str(err.value)
    assert "builder" in NAMES and "random-S" in NAMES


@pytest.mark.parametrize("name", ["default", "no-attack", "aggressive", "random", "default,give-random"])
@pytest.mark.parametrize("variant", [None, *sorted(VARIANTS)])
def test_every_policy_acts_legally(name, variant):
    players = 2 if variant in VARIANT_SEATS else 3
    g = game(players=players, variants=[variant] if variant else [])
    policy = parse(name)
    rng = random.Random(3)
    s = g.new_initial_state()
    for _ in range(400):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(sample_outcome(s.chance_outcomes(), rng))
            continue
        action = policy.act(s)
        assert action in s.legal_actions()
        s.apply_action(action)


def test_the_builder_completes_first_and_attacks_only_when_it_hurts():
    g = game()
    builder, aggressive, peaceful = parse("default"), parse("aggressive"), parse("no-attack")
    roof, flood = idx(g, "roof-red"), idx(g, "flood")
    s = table(g, hands={0: ["roof-red", "flood"]}, palaces={0: [("foundation-red", ["floor-red"], None)],
                                                          1: [("foundation-blue", ["floor-blue", "tower"], None)]})
    assert builder.act(s) == ("build", roof, 0) and aggressive.act(s) == ("build", roof, 0)
    s = table(g, hands={0: ["flood", "tower"]}, palaces={0: [("foundation-red", [], None)],
                                                       1: [("foundation-blue", ["floor-blue", "tower"], None)]})
    assert builder.act(s) == ("special", flood, 1, 0)
    assert peaceful.act(s) == ("build", idx(g, "tower"), 0)
    s = table(g, hands={0: ["flood", "tower"]}, palaces={0: [("foundation-red", [], None)],
                                                       1: [("foundation-blue", ["floor-blue"], None)]})
    assert builder.act(s) == ("build", idx(g, "tower"), 0)  # a small palace is not worth a flood
    assert aggressive.act(s) == ("special", flood, 1, 0)  # the aggressive player attacks first


def test_the_builder_gives_away_its_worst_cards():
    g = game(players=2)
    s = table(g, hands={0: ["general-exchange", "roof-red", "floor-red", "tower", "foundation-blue"],
                        1: ["flood"]}, palaces={0: [("foundation-red", ["floor-red"], None)]})
    s.apply_action(("special", idx(g, "general-exchange")))
    # the roof, floor and tower fit the red palace; the blue foundation is kept too (a free place)
    assert parse("default").act(s) == ("give", tuple(sorted((idx(g, "foundation-blue"), idx(g, "floor-red")))))


def test_the_builder_plays_a_general_exchange_rather_than_discard_dead_cards():
    g = game(players=2)
    builder, ge = parse("default"), idx(g, "general-exchange")
    # nothing to build: three dead cards besides the general exchange, two of them are passed on
    s = table(g, hands={0: ["general-exchange", "roof-blue", "floor-green", "tower", "floor-red"], 1: ["flood"]})
    assert builder.act(s) == ("special", ge)
    # one dead card only: passing two would give a live one away, so the dead ones are discarded
    s = table(g, hands={0: ["general-exchange", "roof-blue", "tower", "tower", "ruins"], 1: ["flood"]})
    assert builder.act(s) == ("discard", tuple(sorted((ge, idx(g, "roof-blue")))))
    assert parse("default").act(table(game(players=1), hands={0: ["general-exchange", "roof-blue", "floor-green",
                                                                  "floor-red"]}))[0] == "discard"  # alone


def test_the_builder_plays_general_exchanges_in_most_default_games():
    from toolkit.sim.play import engine_batch

    for players in (2, 3, 4):
        records = engine_batch(game(players=players), [parse("default")] * players, 1, 0, 12)
        assert (records["general_exchanges"] > 0).mean() > 0.5 and (records["winner"] >= 0).all()


def test_seeded_rules_restart_with_every_game_and_differ_by_seat():
    g = game(players=3)
    hands = [["roof-blue", "floor-green", "tower", "floor-red", "flood"], ["ruins"], ["tower"]]

    def seen_from(seat):
        """The same position with every seat's cards moved ``seat`` places on, ``seat`` to move: the same legal
        actions in the same order, whichever seat plays them."""
        return table(g, hands={(p + seat) % 3: cards for p, cards in enumerate(hands)},
                     palaces={(1 + seat) % 3: [("foundation-red", ["floor-red"], None)]}, player=seat)

    policy = parse("random-3")
    runs = []
    for seat in (0, 0, 1):
        s = seen_from(seat)
        policy.start_game(42, seat)
        actions = s.legal_actions()
        turns = [actions.index(policy.act(s)) for _ in range(6)]  # the turn rule's stream (legal: index finds it)
        s.phase, s.giver = "give", seat
        runs.append(turns + [policy.act(s) for _ in range(6)])  # the give rule's stream
    assert runs[0] == runs[1] != runs[2]
    fresh = parse("random-3")  # before any start_game: the streams of game seed 0
    fresh.start_game(0, 0)
    other = parse("random-3")
    s = seen_from(0)
    assert [fresh.act(s) for _ in range(4)] == [other.act(s) for _ in range(4)]


def test_no_attack_players_never_flood_or_lay_ruins():
    g = game(players=3)
    for seed in range(5):
        s = g.new_initial_state()
        play(s, [parse("no-attack")] * 3, random.Random(seed))
        assert s.counters()["floods"] == 0 and s.counters()["ruins_laid"] == 0 and s.winner is not None


SEATINGS = {
    "default": lambda n: ["default"] * n,
    "no-attack": lambda n: ["no-attack"] * n,
    "aggressive": lambda n: ["aggressive"] * n,
    "give-random": lambda n: ["default,give-random"] * n,
    # uniformly random play rarely builds: with more players it is seated among builders
    "random": lambda n: ["random"] if n == 1 else ["random-1"] + ["default"] * (n - 1),
}


@pytest.mark.parametrize("seating", sorted(SEATINGS))
@pytest.mark.parametrize("variant", [None, *sorted(VARIANTS)])
def test_games_end_for_every_policy_and_variant(seating, variant):
    rng = random.Random(2024)
    for k in range(20):
        players = (2, 3, 4, 1)[k % 4]
        g = game(players=players, variants=fitting([variant] if variant else [], players))
        s = g.new_initial_state()
        play(s, [parse(name) for name in SEATINGS[seating](players)], rng, max_turns=5_000)
        assert s.is_terminal() and (s.winner is not None or s.stalled)


def test_default_games_are_short():
    g = game(players=4)
    rng = random.Random(1)
    rounds = []
    for _ in range(30):
        s = g.new_initial_state()
        play(s, [parse("default")] * 4, rng)
        assert s.winner is not None
        rounds.append(s.turns / 4)
    assert sum(rounds) / len(rounds) < 60 and max(rounds) < 150
