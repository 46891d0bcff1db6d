"""Rules engines, one module per game, with an OpenSpiel-style state: chance points with exact
integer weights, decision points with legal actions, and ``apply_action`` for either."""

CHANCE = -1  # current_player() at a chance point: a card is drawn
TERMINAL = -2  # current_player() once the game is over


def check_setup(catalogue, game_id: str, title: str, players: int, variants, known: dict[str, str]) -> None:
    """The checks every engine makes before a game: the right catalogue, known variants, 1-4 players."""
    from toolkit.errors import UserError

    if catalogue.game != game_id:
        raise UserError(f"{catalogue.source.name}: game.id: expected a {game_id} catalogue, got '{catalogue.game}'")
    unknown = sorted(set(variants) - set(known))
    if unknown:
        raise UserError(f"--variant {unknown[0]}: unknown {title} variant (choose from {', '.join(known)})")
    if not 1 <= players <= 4:
        raise UserError(f"--players {players}: {title} takes 1 to 4 players")
