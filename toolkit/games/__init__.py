"""Rules engines, one module per game, with an OpenSpiel-style state: chance points with exact
integer weights, decision points with legal actions, and ``apply_action`` for either. At a chance
point the optional ``draws_from_pile()`` tells a draw from the pile (``state.pile``) from any other
chance (without it, every chance point is a draw from the pile). ``CHANCE`` and ``TERMINAL`` are the contract's
(:mod:`toolkit.game.contract`, OpenSpiel's -1 and -4), named here too for the engines and outside games."""

from toolkit.game.contract import CHANCE, TERMINAL  # current_player() at a chance point, once the game is over

__all__ = ["CHANCE", "TERMINAL", "check_deal", "check_setup"]


def check_setup(catalogue, game_id: str, title: str, players: int, variants, known: dict[str, str],
                seats: dict[str, tuple[int, ...]] | None = None, hand_size: int | None = None) -> None:
    """The checks every engine makes before a game: the right catalogue, known variants, 1-4 players.

    ``seats`` names the player counts a variant is for (absent: any); ``hand_size`` asks that every
    player's opening hand can be dealt from the deck.
    """
    from toolkit.errors import UserError

    if catalogue.game != game_id:
        raise UserError(f"{catalogue.source.name}: game.id: expected a {game_id} catalogue, got '{catalogue.game}'")
    unknown = sorted(set(variants) - set(known))
    if unknown:
        raise UserError(f"--variant {unknown[0]}: unknown {title} variant (choose from {', '.join(known)})")
    if not 1 <= players <= 4:
        raise UserError(f"--players {players}: {title} takes 1 to 4 players")
    for variant in sorted(set(variants)):
        allowed = (seats or {}).get(variant)
        if allowed is not None and players not in allowed:
            counts = " or ".join(str(n) for n in allowed)
            raise UserError(f"--variant {variant}: the variant is for {counts} players, not {players}")
    if hand_size is not None:
        check_deal(catalogue, hand_size, players)


def check_deal(catalogue, hand_size: int, players: int) -> None:
    """Refuse a deal the deck cannot make: ``players`` opening hands of ``hand_size`` cards."""
    from toolkit.catalogue.origin import changed_by_set
    from toolkit.errors import UserError

    need = hand_size * players
    if catalogue.total < need:
        hands = "one opening hand needs" if players == 1 else f"{players} opening hands need"
        changed = changed_by_set(catalogue)  # a deck made small by --set is named by those options
        where = (" ".join(f"--set {card_id}={catalogue.card(card_id).count}" for card_id in changed) if changed
                 else f"{catalogue.source.name}: rules.hand_size = {hand_size}")
        raise UserError(f"{where}: {hands} {need} cards, but the deck has only {catalogue.total}")
