"""`toolkit analyse`: the figures against hand-computed records, the precision rule, the report from outside."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from conftest import write_catalogue
from toolkit.analysis.analyse import games_for, games_needed, parse_players, shortfall
from toolkit.analysis.metrics import METRICS, Accumulator, describe
from toolkit.analysis.report_texts import describe_policy
from toolkit.analysis.strategy import Gain
from toolkit.errors import UserError
from toolkit.sim.stats import Z95, wilson

COARSE = ("--precision", "0.05", "--players", "2")
GOLDEN = Path(__file__).parent / "golden"



def _records(**fields):
    return {name: np.array(values, dtype=np.int64) for name, values in fields.items()}


HAND = _records(winner=[0, 1, 0, -1], turns=[5, 6, 7, 40], stalled=[0, 0, 0, 1], lead_changes=[0, 2, 1, 0],
                winner_deficit=[0, 3, 4, 0], witch_strikes=[1, 2, 3, 4])


def test_metrics_of_hand_computed_records():
    acc = Accumulator(2, comeback=3)
    acc.add(HAND)
    m = acc.metrics()
    assert m["games"] == 4
    assert m["completion"] == 0.75 and m["stall_rate"] == 0.25 and m["over_limit_rate"] == 0.0
    assert m["mean_turns"] == 6.0
    assert m["mean_rounds"] == pytest.approx(10 / 3)  # ceil(5/2), ceil(6/2), ceil(7/2): 3, 3, 4
    assert m["median_rounds"] == 3
    assert m["win_rate_1"] == 0.5 and m["win_rate_2"] == 0.25 and m["win_rate_3"] is None
    assert m["first_player_advantage"] == pytest.approx(2 / 3 - 1 / 2)  # 2 of the 3 won games, fair share 1/2
    assert m["balance"] == pytest.approx(1 - (2 - 1) / 3)  # shares of the 3 won games: 2/3 and 1/3
    assert m["lead_changes"] == 0.75
    assert m["comeback_rate"] == pytest.approx(2 / 3)  # deficits 3 and 4 of the three winners
    assert m["witch_strikes_per_game"] == 2.5
    assert (m["win_rate_1_low"], m["win_rate_1_high"]) == pytest.approx(wilson(2, 4))
    # turns 5, 6, 7: sample standard deviation 1
    assert acc.half_width("mean_turns") == pytest.approx(Z95 / math.sqrt(3))
    # witch strikes 1..4: sample variance 5/3
    assert acc.half_width("witch_strikes_per_game") == pytest.approx(Z95 * math.sqrt(5 / 3 / 4))
    # balance: the gaps the seats' intervals of their shares of the won games allow
    (l1, h1), (l2, h2) = wilson(2, 3), wilson(1, 3)
    assert acc.half_width("balance") == pytest.approx(((h1 - l2) - (l1 - h2)) / 2)
    assert acc.interval("balance") == pytest.approx((max(0, 1 - (h1 - l2)), 1 - max(0, l1 - h2)))
    assert acc.percentiles("turns") == {"10": 5, "25": 5, "50": 6, "75": 7, "90": 7, "99": 7}


@pytest.mark.parametrize("threshold, share", [(1, 2 / 3), (4, 1 / 3), (5, 0.0), (None, None)])
def test_the_comeback_share_counts_from_the_game_threshold(threshold, share):
    """Winners' deficits 0, 3 and 4: the share of comebacks is the share of those at or above the
    threshold; without a threshold there is no comeback figure (nor an interval)."""
    acc = Accumulator(2, comeback=threshold)
    acc.add(HAND)
    m = acc.metrics()
    assert m["comeback_rate"] == (None if share is None else pytest.approx(share))
    if share is None:
        assert m["comeback_rate_low"] is None and acc.half_width("comeback_rate") is None
    else:
        assert m["comeback_rate_low"] <= share <= m["comeback_rate_high"]
    assert m["win_rate_1"] == 0.5  # nothing else moves


def test_every_named_metric_is_there_and_described():
    acc = Accumulator(4)
    acc.add(HAND)
    m = acc.metrics()
    assert set(METRICS) <= set(m)
    for name in m:
        assert describe(name)


def test_batching_and_merging_give_the_same_figures():
    rng = np.random.default_rng(5)
    n = 3000
    winner = rng.integers(-1, 3, n)
    recs = _records(winner=winner, turns=rng.integers(3, 60, n), stalled=(winner < 0) & (rng.integers(0, 2, n) > 0),
                    lead_changes=rng.integers(0, 5, n), winner_deficit=rng.integers(0, 6, n),
                    floods=rng.integers(0, 9, n))
    whole = Accumulator(3, comeback=3)
    whole.add(recs)
    parts = [Accumulator(3, comeback=3) for _ in range(3)]
    for i, (a, b) in enumerate(((0, 1000), (1000, 1001), (1001, n))):
        parts[i].add({k: v[a:b] for k, v in recs.items()})
    parts[0].merge(parts[1])
    parts[0].merge(parts[2])
    assert parts[0].metrics() == whole.metrics()
    with pytest.raises(ValueError):
        whole.merge(Accumulator(2, comeback=3))
    with pytest.raises(ValueError):  # comebacks counted from another threshold
        whole.merge(Accumulator(3, comeback=4))


def test_the_precision_rule_asks_for_more_games_until_the_intervals_fit():
    acc = Accumulator(2)
    acc.add(_records(winner=[0, 1] * 50, turns=[10, 12] * 50, stalled=[0] * 100, lead_changes=[1] * 100,
                     winner_deficit=[0] * 100))
    # a share of 1/2 from 100 games is known to about ±0.1; ±0.01 asks for about 100 x (0.1 / 0.01)^2
    need = games_needed(acc, 0.01)
    assert 9_000 <= need <= 11_000
    assert "win_rate_1" in shortfall(acc, 0.01)
    assert games_needed(acc, 0.2) == 100 and shortfall(acc, 0.2) == {}
    assert games_for(0.005) == math.ceil(Z95**2 / 4 / 0.005**2)


def test_players_option():
    assert parse_players(None, 2, 4) == [2, 3, 4]
    assert parse_players(None, 1, 4) == [2, 3, 4]
    assert parse_players(None, 1, 1) == [1]
    assert parse_players("3", 2, 4) == [3]
    assert parse_players("2..3", 2, 4) == [2, 3]
    for bad in ("5", "1..2", "4..2", "two", "2-4"):
        with pytest.raises(UserError):
            parse_players(bad, 2, 4)


def test_policies_in_plain_words():
    assert describe_policy("until-witch,fairy-first,buy-most", "en", "diamoniak") == "draws until a witch ends the turn"
    assert describe_policy("stop-after-3,risk-2", "en", "diamoniak") == \
        "stops after 3 cards, or when a witch would take more than 2 cards"
    assert describe_policy("stop-after-1", "en", "diamoniak") == "stops after 1 card"
    assert describe_policy("stop-after-1", "ru", "diamoniak") == "останавливается после 1 карты"
    assert describe_policy("stop-after-5", "ru", "diamoniak") == "останавливается после 5 карт"
    assert "0" not in describe_policy("risk-0", "en", "diamoniak")
    assert "0" not in describe_policy("risk-0", "ru", "diamoniak")
    assert describe_policy("until-witch", "ru", "diamoniak") == "тянет, пока ведьма не закончит ход"
    assert describe_policy("aggressive,give-random", "ru", "palaces") == "сначала нападает, отдаёт карты наугад"


def test_text_report_and_its_precision(run):
    result = run("analyse", *COARSE, "--no-strategy", "--seed", "4")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "2 players" in out and "seat 1 wins" in out and "first-player advantage" in out and "balance" in out
    assert "playing time at 30 s a turn" in out and "the box says 15-20 min" in out
    assert "witch strikes" in out and "fairies spent" in out


def test_json_report_meets_the_precision_and_repeats_byte_for_byte(run):
    args = ("analyse", "--game", "palaces", *COARSE, "--no-strategy", "--json")
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    assert run(*args).stdout == first.stdout
    data = json.loads(first.stdout)
    (count,) = data["player_counts"]
    m = count["metrics"]
    assert m["games"] >= 200 and count["wider_than_asked"] == {}
    for name in ("win_rate_1", "win_rate_2", "completion", "comeback_rate"):
        assert (m[f"{name}_high"] - m[f"{name}_low"]) / 2 <= 0.05 + 1e-12
    assert (m["mean_rounds_high"] - m["mean_rounds_low"]) / 2 <= 0.05 * m["mean_rounds"]
    assert m["win_rate_1"] + m["win_rate_2"] == pytest.approx(m["completion"])
    assert sum(count["rounds_distribution"]) == round(m["completion"] * m["games"])
    assert {"exchanges_per_game", "floods_per_game", "ruins_laid_per_game", "ruins_removed_per_game"} <= set(m)
    other = json.loads(run(*args[:-1], "--seed", "9", "--json").stdout)
    assert other["player_counts"][0]["metrics"] != m


def _winners_deficits(game_id: str, count: dict) -> np.ndarray:
    """The winners' deficits of the games one player count of an ``analyse --json`` played: the same run
    seed, the same games, replayed from outside."""
    from toolkit.analysis.analyse import MAX_TURNS
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game
    from toolkit.sim.records import play_records
    from toolkit.seats import builtin_players

    players = count["players"]
    records = play_records(make_game(load(game_id, require_art=False), players), builtin_players(game_id, players),
                           count["run_seed"], 0, count["metrics"]["games"], MAX_TURNS)
    return records["winner_deficit"][records["winner"] >= 0]


def test_each_game_counts_comebacks_from_its_own_threshold(run, monkeypatch):
    """Palaces counts a comeback from 6 points behind (two palaces): its report's share is the share of
    the played games' winners who once trailed by 6 or more, said in its points. The same games counted
    from another threshold (3, one palace) give another share; a game that sets none has no comeback figure."""
    from toolkit.games.registry import get

    args = ("analyse", "--game", "palaces", *COARSE, "--no-strategy")

    def share_and_deficits():
        (count,) = json.loads(run(*args, "--json").stdout)["player_counts"]
        return count["metrics"]["comeback_rate"], _winners_deficits("palaces", count)

    share, deficits = share_and_deficits()
    assert share == pytest.approx(np.mean(deficits >= 6))
    assert "comebacks (the winner once trailed by 6 or more points): " in run(*args).stdout
    monkeypatch.setattr(get("palaces"), "comeback_points", 3)
    share_3, deficits = share_and_deficits()
    assert share_3 == pytest.approx(np.mean(deficits >= 3)) and share_3 > share + 0.2
    assert "comebacks (the winner once trailed by 3 or more points): " in run(*args).stdout
    monkeypatch.setattr(get("palaces"), "comeback_points", None)
    assert share_and_deficits()[0] is None and "comebacks" not in run(*args).stdout


def test_diamoniak_report_is_unchanged_byte_for_byte(run, tmp_path):
    """Diamoniak keeps its comeback threshold of 3: its text and JSON reports are, byte for byte, what
    the toolkit wrote before the threshold became each game's own (tests/golden, written at c26ea83;
    the text written again when its intervals' ends were rounded outward and its figures half up, as
    the PDF's are, and its first line's title became the game's own "Castles and Witches": issue 37),
    and its PDF's row says "3+" with no unit, in both languages."""
    args = ("analyse", "--game", "diamoniak", "--precision", "0.05", "--players", "2..4", "--no-strategy")
    assert run(*args).stdout == (GOLDEN / "diamoniak-analyse.txt").read_text()
    assert run(*args, "--json").stdout == (GOLDEN / "diamoniak-analyse.json").read_text()
    for lang, row in (("en", "comebacks (winner was 3+ behind)"), ("ru", "отыгрыши (победитель отставал на 3+)")):
        path = tmp_path / f"{lang}.pdf"
        assert run(*args, "--report", str(path), "--lang", lang).exit_code == 0
        text = PdfReader(path).pages[0].extract_text()
        assert f"{row} " in text or f"{row}\n" in text, text


def test_strategy_search_and_tournament(run):
    result = run("analyse", "--precision", "0.2", "--players", "2", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    rows = data["strategy"]
    assert [(r["players"], r["seat"]) for r in rows] == [(2, 1), (2, 2)]
    for row in rows:
        best = row["challenger"]
        assert best["gain"] == pytest.approx(best["win_rate"] - best["default_win_rate"])
        assert row["beaten"] == (best["gain_low"] > 0)
        assert row["best_policy"] == (best["policy"] if row["beaten"] else "until-witch")
        racing = [r for r in row["refined"] if r["behind"] is None]
        assert best in racing and best["gain"] == max(r["gain"] for r in racing)
        for r in row["refined"]:  # a candidate that stopped short names one still racing
            assert r["behind"] is None or r["behind"] in [x["policy"] for x in racing]
        assert row["searched"] == {"stop-after": [1, 47], "odds": [1, 100], "risk": [0, 2]}
    table = data["tournament"]
    names = table["policies"]
    assert "until-witch" in names and len(names) == len(set(names))
    for a in names:
        for b in names:
            if a != b:
                assert table["table"][a][b] + table["table"][b][a] <= 1 + 1e-12
                low, high = table["intervals"][a][b]
                assert table["table"][a][b] - table["half_width"] <= low <= high <= table["table"][a][b] + table["half_width"]


@pytest.mark.parametrize("lang, players, words", [
    ("en", "2..3", ("Castles and Witches: balance and strategy", "seat 1 wins", "seat 3 wins", "Two-player")),
    ("ru", "2", ("Замки и ведьмы: баланс и стратегия", "побеждает место 1", "Турнир", "тянет, пока ведьма не закончит ход",
                 "На каждом месте игрок играет обычно")),
])
def test_pdf_report_in_both_languages(run, tmp_path, lang, players, words):
    path = tmp_path / f"report-{lang}.pdf"
    result = run("analyse", "--precision", "0.2", "--players", players, "--report", str(path), "--lang", lang)
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    assert 1 <= len(reader.pages) <= 2
    text = " ".join(page.extract_text() for page in reader.pages)
    for word in words:
        assert word in text
    for word in ("toolkit", "simulat", "policy"):
        assert word not in text.lower()
    again = tmp_path / "again.pdf"
    run("analyse", "--precision", "0.2", "--players", players, "--report", str(again), "--lang", lang)
    assert again.read_bytes() == path.read_bytes()  # same inputs, same bytes


@pytest.mark.parametrize("args, message", [
    (("--precision", "0"), "--precision 0: choose from 0.001 to 0.25"),
    (("--precision", "nan"), "--precision nan: expected a number"),
    (("--players", "5"), "--players 5: this game is for 2 to 4 players"),
    (("--players", "4..2"), "the range runs backwards"),
    (("--report", "out.png"), "name a .pdf file"),
    (("--lang", "ru"), "--lang: only the PDF report has a language"),
    (("--strategy", "--policy", "1=stop-after-3"), "leave out --strategy"),
    (("--policy", "1=bogus"), "unknown Diamoniak policy"),
    (("--strategy", "--policy", "1=bogus"), "unknown Diamoniak policy"),
    (("--no-strategy", "--players", "2..3", "--policy", "3=risk-1"), "seat 3 does not exist with 2 players"),
    (("--no-strategy", "--players", "2", "--policy", "1=fly"), "unknown Diamoniak policy"),
])
def test_bad_input_is_one_error_line(run, args, message):
    result = run("analyse", *args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_catalogue_time_per_turn_is_optional_and_checked(run, tmp_path, doc):
    del doc["game"]["seconds_per_turn"]
    path = write_catalogue(tmp_path, doc)
    result = run("analyse", "--catalogue", str(path), *COARSE, "--no-strategy")
    assert result.exit_code == 0, result.stderr
    assert "playing time" not in result.stdout and "seat 1 wins" in result.stdout
    doc["game"]["seconds_per_turn"] = 0
    path = write_catalogue(tmp_path, doc, "bad.toml")
    result = run("analyse", "--catalogue", str(path), *COARSE, "--no-strategy")
    assert result.exit_code == 2
    assert "bad.toml" in result.stderr and "game.seconds_per_turn" in result.stderr
    assert result.stderr.count("\n") == 1


def test_rulebook_tip_is_the_tournament_figure_in_players_words(run):
    from toolkit.analysis.strategy import tournament
    from toolkit.analysis.tip import stop_after_tip
    from toolkit.catalogue import load

    cat = load("diamoniak", require_art=False)
    tip = stop_after_tip(cat, k=2, precision=0.2, seed=3)
    table = tournament(cat, (), 3, 0.2)
    assert tip["share"] == table["table"]["stop-after-2"]["until-witch"]  # the same card orders, both seatings
    assert tip["games"] == table["games_per_pair"] and 0 <= tip["low"] <= tip["share"] <= tip["high"] <= 1
    assert (tip["low_games"], tip["high_games"]) == (math.floor(100 * tip["low"]), math.ceil(100 * tip["high"]))


def test_search_ranges_cover_every_value_that_can_stop():
    from toolkit.analysis.strategy import coarse_grid, edges, neighbours
    from toolkit.catalogue import load
    from toolkit.games.diamoniak.strategy import stopping_ranges as diamoniak_ranges

    cat = load("diamoniak", require_art=False)
    ranges = diamoniak_ranges(cat)
    assert ranges == {"stop-after": (1, 47), "odds": (1, 100), "risk": (0, 2)}  # 54 cards, 7 witches, takes 3
    grid = coarse_grid(1, 100)
    assert grid[0] == 1 and grid[-1] == 100 and coarse_grid(0, 2) == [0, 1, 2]
    assert neighbours(grid, 60) == [56, 57, 58, 59, 61, 62, 63, 64]
    assert edges("odds-100", ranges) == [{"rule": "odds-100", "kind": "odds", "range": [1, 100], "end": "high"}]
    assert edges("stop-after-3,risk-0", ranges)[0]["end"] == "low" and edges("odds-55", ranges) == []


def test_balance_is_read_from_the_won_games_and_never_collapses():
    # few games end, and seat 1 wins all that do: not balanced, however even the shares of all games look
    acc = Accumulator(2)
    acc.add(_records(winner=[0] * 5 + [-1] * 95, turns=[9] * 100, stalled=[0] * 100, lead_changes=[0] * 100,
                     winner_deficit=[0] * 100))
    m = acc.metrics()
    assert m["balance"] == 0.0 and m["first_player_advantage"] == 0.5
    assert m["balance_low"] == 0.0 and m["balance_high"] > 0.3  # 5 games leave much open
    # every game won by seat 1: balance 0, its interval as wide as the seats' intervals allow
    acc = Accumulator(2)
    acc.add(_records(winner=[0] * 400, turns=[9] * 400, stalled=[0] * 400, lead_changes=[0] * 400,
                     winner_deficit=[0] * 400))
    m = acc.metrics()
    assert m["balance"] == 0.0 and m["balance_high"] == pytest.approx(wilson(0, 400)[1] * 2) and m["balance_high"] > 0


def test_the_pdf_says_who_plays_what_and_promises_nothing_absent(run, tmp_path):
    path = tmp_path / "mix.pdf"
    result = run("analyse", "--precision", "0.1", "--players", "2", "--policy", "2=stop-after-1", "--report", str(path))
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    assert len(reader.pages) == 1  # --policy: no strategy search
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "the player at seat 1 draws until a witch ends the turn; the player at seat 2 stops after 1 card" in text
    assert "Castles and Witches: balance" in text and "strategy" not in text.lower()
    assert "bars" not in text and "whiskers" in text


def test_numbers_round_half_up_and_bounds_show_their_sign():
    from toolkit.analysis.report_pdf import _num
    from toolkit.analysis.rounding import sign_digits
    from toolkit.analysis.report_text import _gain_interval

    assert _num(3.5, 0, "en") == "4" and _num(10.5, 0, "en") == "11" and _num(5.5, 0, "en", "down") == "5"
    assert _num(17.5, 0, "en", "up") == "18" and _num(0.02, 1, "en", "down") == "0.0"
    assert sign_digits(0.02, 2.0) == 2
    text = _gain_interval(0.02, 0.0002, 0.039)
    assert "+0.02 points to" in text and "+0.0 points" not in text


def test_a_paired_gain_from_games_that_never_differed_is_not_known_exactly():
    """Four paired games with the same winner each time: the gain is 0, but not known to be 0 (the editor's
    read found "+0.0 (+0.0-+0.0)" printed from 4 games); the interval is Wilson's for 0 of 4 each side."""
    from toolkit.sim.stats import wilson

    same = Gain("stop-after-3", games=4, wins=3, default_wins=3, diff_squares=0)
    low, high = same.gain_bounds()
    assert same.gain_half_width() == 0
    assert (low, high) == pytest.approx((-wilson(0, 4)[1], wilson(0, 4)[1]))
    assert same.as_json()["gain_low"] == low < 0 < high == same.as_json()["gain_high"]
    # many games that differ often: the paired normal interval, which is the wider there, stands
    often = Gain("stop-after-3", games=100_000, wins=52_000, default_wins=50_000, diff_squares=30_000)
    assert often.gain_bounds() == pytest.approx((often.gain - often.gain_half_width(),
                                                 often.gain + often.gain_half_width()))


def test_a_refined_gain_stops_within_100_games_of_the_precision_and_reuses_the_screen(monkeypatch):
    """A candidate racing alone plays on beside the default until its paired gain is within the
    precision, and stops within 100 games of the fewest that give that (no margin past the estimate);
    its screened games are kept, not played again."""
    from toolkit.analysis import analyse, strategy
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game, policy_module

    cat = load("palaces", require_art=False)
    game = make_game(cat, 2)
    parse = policy_module("palaces").parse
    seats = [parse("default"), parse("default")]
    seed, precision, name, screened = analyse.run_seed(1, 2), 0.02, "aggressive", 600
    played, games = analyse.Played(), []
    play = analyse.play_records
    monkeypatch.setattr(analyse, "play_records", lambda *args: games.append(args[4]) or play(*args))
    wins = strategy.screen_names(game, parse, seats, 0, [name], seed, screened, None, played)
    assert sum(games) == screened
    [gain] = strategy.refine(game, parse, seats, 0, [name], seed, precision, 10**6, screened, None, played)
    assert sum(games) == 2 * gain.games  # each side's games played once, the screened ones too
    mine = played.winners(game, [parse(name), seats[1]], seed, gain.games) == 0
    theirs = played.winners(game, seats, seed, gain.games) == 0
    assert int(mine[:screened].sum()) == wins[name] and int(mine[:gain.games].sum()) == gain.wins

    def paired(n: int) -> strategy.Gain:
        d = mine[:n].astype(int) - theirs[:n].astype(int)
        return strategy.Gain(name, n, int(mine[:n].sum()), int(theirs[:n].sum()), int((d * d).sum()))

    assert gain.gain_half_width() <= precision < paired(gain.games - 100).gain_half_width()
    assert gain.games > games_for(2 * precision)  # past the first stage: the estimate's stop


def _race(names, precision, screened=2401):
    """The strategy's refinement race at two-player Palaces seat 1 after a screen of ``names``; the
    gains, the played games and how many games were played."""
    from toolkit.analysis import analyse, strategy
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game, policy_module

    game = make_game(load("palaces", require_art=False), 2)
    parse = policy_module("palaces").parse
    seats = [parse("default"), parse("default")]
    seed, played = analyse.run_seed(1, 2), analyse.Played()
    strategy.screen_names(game, parse, seats, 0, names, seed, screened, None, played)
    gains = strategy.refine(game, parse, seats, 0, names, seed, precision, 10**6, screened, None, played)

    def won(name, n):
        return (played.winners(game, [parse(name), seats[1]], seed, n)[:n] == 0).astype(int)

    return gains, won


def test_a_candidate_plainly_behind_another_stops_at_the_screen():
    """Random play against the aggressive player, both beside the default: on the screen's games the
    random player's wins minus the aggressive one's, paired game by game, are plainly below 0, so it
    stops there with its screened gain, and only the aggressive player plays on to the precision."""
    screened, precision = 2401, 0.02
    (strong, weak), won = _race(["aggressive", "random"], precision, screened)
    assert (strong.behind, weak.behind) == (None, "aggressive")
    assert weak.games == screened and strong.games > screened
    assert strong.gain_half_width() <= precision < weak.gain_half_width()
    d = won("random", screened) - won("aggressive", screened)
    low, high = Gain("random", screened, int(won("random", screened).sum()), int(won("aggressive", screened).sum()),
                     int((d * d).sum())).gain_bounds()
    assert high < 0  # plainly behind, not only within the precision
    assert weak.wins == int(won("random", screened).sum())


def test_two_candidates_within_the_precision_of_each_other_race_until_one_cannot_beat_the_other():
    """Two ways of giving at the same aggressive play: each stops either at the precision or where, on
    the games both played, its paired wins minus the other's have a 95% upper bound below the
    precision and it had not won more; the other, still racing, ends at the precision, and the stopped
    one had played fewer games."""
    precision = 0.01
    gains, won = _race(["aggressive,give-worst", "aggressive,give-random"], precision)
    stopped = [g for g in gains if g.behind is not None]
    [kept] = [g for g in gains if g.behind is None]
    assert len(stopped) == 1 and stopped[0].behind == kept.policy
    [loser] = stopped
    assert kept.gain_half_width() <= precision and loser.games < kept.games
    n = loser.games
    d = won(loser.policy, n) - won(kept.policy, n)
    paired = Gain(loser.policy, n, int(won(loser.policy, n).sum()), int(won(kept.policy, n).sum()), int((d * d).sum()))
    assert paired.gain <= 0 and paired.gain_bounds()[1] < precision


def test_a_screened_candidate_plainly_behind_two_others_stops_after_a_quarter_of_the_games():
    """The screen of a list (Palaces' ways to play): random play is plainly behind both others after a
    quarter of the games, paired game by game, so it plays no more; the others' wins are those of a
    screen without stopping, and random play's are those of its quarter."""
    from toolkit.analysis import analyse, strategy
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game, policy_module

    game = make_game(load("palaces", require_art=False), 2)
    parse = policy_module("palaces").parse
    seats = [parse("default"), parse("default")]
    seed, games, names = analyse.run_seed(1, 2), 2401, ["aggressive", "builder,give-random", "random"]
    played = analyse.Played()
    wins = strategy.screen_names(game, parse, seats, 0, names, seed, games, None, played, stop_behind=True)
    whole = strategy.screen_names(game, parse, seats, 0, names, seed, games, None, analyse.Played())

    def won(name, n):
        return played.winners(game, [parse(name), seats[1]], seed, n)[:n] == 0

    quarter = games // 4
    assert played.winners(game, [parse("random"), seats[1]], seed, 0).size == quarter  # played no further
    for other in ("aggressive", "builder,give-random"):
        assert strategy.paired("random", won("random", quarter), won(other, quarter)).gain_bounds()[1] < 0
        assert wins[other] == whole[other] == int(won(other, games).sum())
    assert wins["random"] == int(won("random", quarter).sum()) <= whole["random"]
    assert sorted(wins, key=lambda name: -wins[name])[:2] == sorted(whole, key=lambda name: -whole[name])[:2]


def test_each_tournament_pairing_plays_until_both_shares_are_within_the_precision():
    """Palaces' round-robin at precision 0.02: every pairing plays both seatings on the same card orders
    until both shares' 95% intervals reach no further than 0.02, at most 1,201 games a seating. Random
    play, which never wins, is settled long before that, and a pairing near one half plays on; each cell
    is the row's wins over both seatings, counted here from the kept games, and the overall column is the
    mean of the row's cells."""
    from toolkit.analysis import analyse, strategy
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game, policy_module

    cat, precision = load("palaces", require_art=False), 0.02
    played = analyse.Played()
    table = strategy.tournament(cat, (), 1, precision, played=played)
    parse = policy_module("palaces").parse
    game, seed = make_game(cat, 2, ()), analyse.run_seed(1, 2)
    names, most = table["policies"], strategy.seating_games(precision)
    assert most == 1201 and table["half_width"] <= precision
    for a in names:
        for b in names:
            if a == b:
                continue
            games = table["games"][a][b]
            assert games == table["games"][b][a] and games % 2 == 0 and games <= 2 * most
            n = games // 2
            first = played.winners(game, [parse(a), parse(b)], seed, n)[:n]
            second = played.winners(game, [parse(b), parse(a)], seed, n)[:n]
            wins = int((first == 0).sum() + (second == 1).sum())
            assert table["table"][a][b] == wins / games
            low, high = wilson(wins, games)
            assert table["intervals"][a][b] == [low, high] and max(wins / games - low, high - wins / games) <= precision
        cells = [table["table"][a][b] for b in names if b != a]
        assert table["overall"][a] == pytest.approx(sum(cells) / len(cells))
    assert max(table["games"]["random"].values()) < 2 * most / 4  # a share of 0 is soon known
    assert table["games"]["builder"]["aggressive"] == table["games_per_pair"] == max(
        g for row in table["games"].values() for g in row.values())
    assert table["games_per_pair"] > 2 * most * 3 / 4  # near one half: close to the most
