"""Rules engines, one module per game, with an OpenSpiel-style state: chance points with exact
integer weights, decision points with legal actions, and ``apply_action`` for either."""

CHANCE = -1  # current_player() at a chance point: a card is drawn
TERMINAL = -2  # current_player() once the game is over
