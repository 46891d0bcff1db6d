"""What the strategy search tries in Diamoniak: the stopping rules over every value that can matter.

The candidates at a seat (``STRATEGY.screen``): the stopping rules stop-after-K, risk-H and odds-P
over the whole range where each kind can matter for the deck (``stopping_ranges``: up to where the
rule never stops), first on a coarse grid, then every value between the best grid value's
neighbours; then stop-on-castle and the combinations (stop as soon as any part says stop) of the
best rule of each kind. ``toolkit.analysis.strategy`` reaches it through ``Game.strategy()``.
"""

from __future__ import annotations

from toolkit.analysis.strategy import Strategy, coarse_grid, neighbours, rule_value, screen_names

KINDS = ("stop-after", "risk", "odds")  # the numbered stopping rules, in the order they combine

# What the search tried, in the words of the balance report: with risk-H, and without (a witch takes nothing).
SEARCHED = {
    "en": {
        "searched": "Stopping rules tried over their whole range: stop after K cards, K from 1 to {stop}; stop "
                    "when a witch would take more than H cards, H from 0 to {risk}; stop when a witch is P% likely, "
                    "P from 1 to 100; and the best of each kind together.",
        "searched_norisk": "Stopping rules tried over their whole range: stop after K cards, K from 1 to {stop}; "
                           "stop when a witch is P% likely, P from 1 to 100; and the best of each kind together.",
    },
    "ru": {
        "searched": "Правила остановки испытаны во всём их диапазоне: остановиться после K карт, K от 1 до {stop}; "
                    "остановиться, если ведьма отнимет больше H карт, H от 0 до {risk}; остановиться при шансе "
                    "ведьмы P%, P от 1 до 100; и лучшие каждого вида вместе.",
        "searched_norisk": "Правила остановки испытаны во всём их диапазоне: остановиться после K карт, K от 1 до "
                           "{stop}; остановиться при шансе ведьмы P%, P от 1 до 100; и лучшие каждого вида вместе.",
    },
}


def stopping_ranges(catalogue) -> dict[str, tuple[int, int]]:
    """The values of each numbered stopping rule that can matter for the deck, lowest to highest:
    stop-after-K up to the cards that are not witches (more never stops: a turn ends at a witch
    before), risk-H up to what a witch takes minus one (from there on the rule never stops), odds-P
    up to 100 (a sure witch)."""
    witches = sum(card.count for card in catalogue.cards if card.kind == "witch")
    others = sum(card.count for card in catalogue.cards) - witches
    ranges = {"stop-after": (1, max(1, others)), "odds": (1, 100)}
    if catalogue.rules["witch_takes"] >= 1:
        ranges["risk"] = (0, catalogue.rules["witch_takes"] - 1)
    return ranges


def singles(catalogue) -> list[str]:
    """The single stopping rules of the first screen (coarse grids of every kind and stop-on-castle)."""
    names = [f"{kind}-{v}" for kind, (low, high) in stopping_ranges(catalogue).items()
             for v in coarse_grid(low, high)]
    return names + ["stop-on-castle"]


def combinations(best: dict[str, str]) -> list[str]:
    """The combined stopping rules of the best rule of each kind: every pair and the triple."""
    kinds = [best[kind] for kind in KINDS if kind in best]
    out = []
    for i in range(len(kinds)):
        for j in range(i + 1, len(kinds)):
            out.append(f"{kinds[i]},{kinds[j]}")
    if len(kinds) == 3:
        out.append(",".join(kinds))
    return out


class StoppingRules(Strategy):
    default = "until-witch"
    named = ("until-witch", "stop-on-castle", "stop-after-2", "stop-after-4", "risk-1", "risk-2", "odds-15", "odds-30")
    words = {
        "en": {
            "until-witch": "draws until a witch ends the turn", "stop-on-castle": "stops after a castle card",
            "stop-after": "stops after {n} {cards}", "risk": "stops when a witch would take more than {n} {cards}",
            "risk-0": "stops as soon as a witch would take a card",
            "odds": "stops when a witch is {n}% likely", "fairy-first": "", "buy-most": "",
            "keep-diamonds": "keeps diamonds from the witch", "save-fairy": "saves the fairy",
            "never-buy": "never buys",
        },
        "ru": {
            "until-witch": "тянет, пока ведьма не закончит ход", "stop-on-castle": "останавливается после карты замка",
            "stop-after": "останавливается после {n} {cards}",
            "risk": "останавливается, если ведьма отнимет больше {n} {cards}",
            "risk-0": "останавливается, как только ведьма может отнять карту",
            "odds": "останавливается при шансе ведьмы {n}%", "fairy-first": "", "buy-most": "",
            "keep-diamonds": "бережёт бриллианты от ведьмы", "save-fairy": "бережёт фею",
            "never-buy": "никогда не покупает",
        },
    }
    stop_rules = ("until-witch", "stop-on-castle", "stop-after", "risk", "odds")

    def ranges(self, catalogue):
        return stopping_ranges(catalogue)

    def screen(self, catalogue, game, parse, seats, seat, seed, games, tick, played):
        """Wins of every screened candidate at ``seat``, and of the best value of each kind's neighbours."""
        ranges = stopping_ranges(catalogue)
        wins = screen_names(game, parse, seats, seat, singles(catalogue), seed, games, tick, played)
        best: dict[str, str] = {}
        for kind, (low, high) in ranges.items():
            grid = coarse_grid(low, high)
            top = max(grid, key=lambda v: (wins[f"{kind}-{v}"], -v))  # the lower value wins a tie: deterministic
            more = [f"{kind}-{v}" for v in neighbours(grid, top)]
            wins.update(screen_names(game, parse, seats, seat, more, seed, games, tick, played))
            values = sorted([*grid, *map(rule_value, more)])
            best[kind] = f"{kind}-{max(values, key=lambda v: (wins[f'{kind}-{v}'], -v))}"
        wins.update(screen_names(game, parse, seats, seat, combinations(best), seed, games, tick, played))
        return wins

    def screened(self):
        # as for the default deck: the grids of stop-after (1..47), odds (1..100) and risk (3 values),
        # stop-on-castle, the 4 combinations and about 12 neighbours
        return len(coarse_grid(1, 47)) + len(coarse_grid(1, 100)) + 3 + 1 + 4 + 12

    def searched_words(self, searched, lang):
        if "stop-after" not in searched:
            return None
        key = "searched" if "risk" in searched else "searched_norisk"
        return SEARCHED[lang][key].format(stop=searched["stop-after"][1], risk=searched.get("risk", [0, 0])[1])

    def tip(self, k):
        return f"stop-after-{k}", "until-witch"


STRATEGY = StoppingRules()
