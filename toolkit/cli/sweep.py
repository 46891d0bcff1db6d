"""`toolkit sweep`: every configuration of a grid of compositions, player counts, variants and policies.

The command parses the grid (``toolkit.analysis.sweep``), plays its configurations on Dask
(``sweep_cluster``), stores each finished row as it comes (``sweep_store``), and writes the rows as
CSV and JSON (``sweep_output``), with an optional ranking by goals (``sweep_target``) and a heatmap
(``heatmap``). Heavy modules are imported inside the command, so `toolkit --help` stays quick.
"""

import click

from toolkit.cli.options import (CATALOGUE_HELP, GameChoice, LazyHelpOption, Progress, ToolkitCommand, Whole,
                                 assets_option, check_numba_environment, deck_source, game_help, refuse_given,
                                 rules_options, say, setup_inputs)

DEFAULT_METRICS = "completion,mean_rounds,balance,first_player_advantage"
SHOWN_ROWS = 40  # rows printed on standard output (all of them are in the files)
SHOWN_RANKS = 10


@click.command("sweep", cls=ToolkitCommand)
@click.option("--game", cls=LazyHelpOption, type=GameChoice(), help_text=game_help)
@click.option("--catalogue", "catalogue_path", type=click.Path(dir_okay=False),
              help=CATALOGUE_HELP)
@assets_option
@click.option("--set", "sets", multiple=True, metavar="ID=VALUES",
              help="An axis of card counts (repeatable): ID=N, ID=A..B, ID=A,B,C or a mix, e.g. witch=5..9.")
@rules_options
@click.option("--grid", "grids", multiple=True, metavar="NAME=VALUES",
              help="An axis of a --rules game's constructor parameter (repeatable), e.g. goal=20,50,100 or "
                   "goal=10..14.")
@click.option("--players", metavar="VALUES", help="Player counts (1-4), e.g. 2..4 or 2,4 [default: the box's range].")
@click.option("--variants", "variants", multiple=True, metavar="SET",
              help="One value of the variants axis (repeatable): none, or variant names joined by +, "
                   "e.g. --variants none --variants free-colour.")
@click.option("--policy", "policies", multiple=True, metavar="[SEAT=]NAME|NAME",
              help="An axis of one seat's player (repeatable): SEAT=NAME|NAME tries each on seat SEAT (from 1); "
                   "a bare NAME|NAME (or all=NAME|NAME) on every seat not named, e.g. 2=default|stop-after-3,never-buy "
                   "or hold-at-20|random.")
@click.option("--games", type=Whole(1, 100_000_000), default=10_000, show_default=True,
              help="Games per configuration.")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Seed of the sweep; each configuration's games are seeded from it and the configuration.")
@click.option("--metric", "metric_text", default=DEFAULT_METRICS, show_default=True, metavar="LIST",
              help="The figures to report, comma-separated, each with its 95% interval: completion, "
                   "stall_rate, mean_turns, mean_rounds, win_rate_1..4, first_player_advantage, balance, "
                   "lead_changes, comeback_rate (from the game's own threshold; none for a --rules game), "
                   "<event>_per_game... (a wrong name lists them all).")
@click.option("--target", "target_text", metavar="GOALS",
              help='Rank the configurations by closeness to goals, e.g. "mean_rounds=8,balance>=0.95": '
                   "distance = sum over goals of |figure - goal| / |goal| (for >= and <= only on the wrong "
                   "side). meets, from the 95% intervals: yes when the whole interval of every figure meets "
                   "its goal (for =: the goal lies within the interval), maybe when an interval straddles a "
                   "goal, no when an interval misses a goal entirely.")
@click.option("--out", metavar="BASE", help="Write BASE.csv and BASE.json [default: output/<game>-sweep].")
@click.option("--heatmap", "heatmap_path", metavar="PATH", help="Also draw a heatmap (.png or .pdf).")
@click.option("--heatmap-axes", metavar="X,Y", help="The two axes of the heatmap [default: the first two that vary].")
@click.option("--heatmap-metric", metavar="NAME", help="The figure of the heatmap [default: the first of --metric].")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play on this running Dask cluster, e.g. tcp://HOST:8786 [default: $DASK_SCHEDULER_ADDRESS, "
                   "else a local cluster]; its workers need the toolkit installed.")
@click.option("--workers", type=Whole(1, 256), metavar="N",
              help="Workers of the local cluster [default: one per core].")
@click.option("--in-process", is_flag=True, help="Play the configurations one by one in this process, without Dask.")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted sweep: the rows stored in BASE.parts/ are kept, the rest is played.")
def sweep_command(game, catalogue_path, assets, sets, rules_spec, params, grids, players, variants, policies, games, seed,
                  metric_text, target_text, out, heatmap_path, heatmap_axes, heatmap_metric, scheduler, workers,
                  in_process, resume):
    """Analyse every configuration of a grid (card counts, players, variants, policies) and write one
    row per configuration to CSV and JSON; the rows do not depend on the number of workers.

    Alone at the table (Diamoniak, one player, the solo model's player) the mean length is the exact
    expected value of the solo model where its solver reaches it. Each finished row is stored in
    BASE.parts/ as it ends, so Ctrl-C or a lost worker loses nothing: run again with --resume.
    """
    from toolkit.analysis import heatmap as maps
    from toolkit.errors import UserError
    from toolkit.files import check_out_path
    from toolkit.setup import game_setup, sweep_plan

    catalogue_path = deck_source(catalogue_path, assets)
    check_out_path(out)
    address, source = _cluster(in_process, scheduler, workers)
    heatmap_file = maps.check_path(heatmap_path) if heatmap_path is not None else None
    for given, name in ((heatmap_axes, "--heatmap-axes"), (heatmap_metric, "--heatmap-metric")):
        if given is not None and heatmap_file is None:
            raise UserError(f"{name}: not read without --heatmap")
    setup = game_setup(game, catalogue_path, (), rules_spec, params, what="sweep needs")
    plan = sweep_plan(setup, sets, grids, players, variants, policies, games, seed, params)
    metrics, goals = _figures(plan, metric_text, target_text)
    axes = [(axis.name, axis.values) for axis in plan.grid.axes]
    drawing = None
    if heatmap_file is not None:
        shown = heatmap_metric or metrics[0]
        if shown not in metrics:
            raise UserError(f"--heatmap-metric {shown}: not among the figures of --metric ({', '.join(metrics)})")
        drawing = (heatmap_file, shown, *maps.choose_axes(axes, heatmap_axes))
    stem = _stem(out, plan.game_id, setup_inputs(setup), heatmap_file)
    store, rows_by_key, todo = _store(stem, plan, games, seed, resume)
    _play(todo, store, rows_by_key, in_process, address, source, workers)
    rows = [{**configuration, **rows_by_key[job.key]} for configuration, job in zip(plan.grid.configurations(),
                                                                                     plan.jobs)]
    written = _write(stem, plan, rows, axes, metrics, goals, games, seed, drawing)
    store.discard()
    for path in written:
        say(str(path))
    where = ("in this process" if in_process else f"on the Dask cluster at {address}" if address
             else "on a local cluster")
    say(f"{plan.title}: {len(rows):,} configurations x {games:,} games (seed {seed}), played {where}")
    _say_rows(rows, axes, metrics, goals)


def _cluster(in_process: bool, scheduler, workers) -> tuple[str | None, str]:
    """Where the configurations are played: the address of a running Dask cluster and what named it, or
    (None, "") for a local one (or this process); options that contradict it are refused."""
    from toolkit.analysis import sweep_cluster
    from toolkit.errors import UserError

    if in_process:
        refuse_given(("scheduler", "workers"), "--in-process plays every configuration in this process")
    elif scheduler is not None:
        refuse_given(("workers",), "the cluster of --scheduler has its own workers")
    sweep_cluster.check_workers(workers)
    check_numba_environment()
    if in_process:
        return None, ""
    sweep_cluster.load_dask()
    address, source = sweep_cluster.scheduler_address(scheduler)
    if address is not None and workers is not None:
        raise UserError(f"--workers: not read: the cluster of {source} has its own workers")
    return address, source


def _figures(plan, metric_text: str, target_text: str | None) -> tuple[list[str], list]:
    """The figures the rows report (--metric, and any --target names besides) and the goals."""
    from toolkit.analysis import sweep_target
    from toolkit.analysis.metrics import METRICS
    from toolkit.errors import UserError

    known = [name for name in METRICS if name not in ("games", "median_rounds")
             and not (name == "comeback_rate" and plan.no_comeback)] + [f"{name}_per_game" for name in plan.counters]
    if plan.no_comeback and "comeback_rate" in [name.strip() for name in metric_text.split(",")]:
        raise UserError(f"--metric {metric_text}: comeback_rate: {plan.no_comeback}")
    metrics = _metric_list(metric_text, known)
    goals = sweep_target.parse_target(target_text, known) if target_text is not None else []
    for goal in goals:
        if goal.metric not in metrics:
            metrics.append(goal.metric)
    return metrics, goals


def _stem(out: str | None, game_id: str, inputs: dict, heatmap_file):
    """BASE of BASE.csv and BASE.json, checked with every output before the grid is played: none may be
    an input, another output or a folder."""
    import os
    from pathlib import Path

    from toolkit.errors import UserError
    from toolkit.files import check_outputs

    stem = Path(out) if out else Path("output") / f"{game_id}-sweep"
    if stem.suffix.lower() in (".csv", ".json"):
        stem = stem.with_suffix("")
    if os.path.exists(stem) and not (os.path.isfile(stem) or os.path.isdir(stem)):
        raise UserError(f"--out {out}: is a device, not a file: the sweep writes BASE.csv and BASE.json: name a "
                        "base in a folder, e.g. output/sweep")
    check_outputs([("--out", stem.with_suffix(".csv")), ("--out", stem.with_suffix(".json")),
                   ("--heatmap", heatmap_file)], inputs)
    return stem


def _store(stem, plan, games: int, seed: int, resume: bool):
    """The store of finished rows (BASE.parts/), the rows it holds and the jobs still to play."""
    import hashlib
    from pathlib import Path

    from toolkit.analysis import sweep
    from toolkit.analysis.sweep_store import SweepStore

    read = [path for path in plan.deck_files if path is not None]
    digest = hashlib.sha256(b"".join(hashlib.sha256(path.read_bytes()).digest() for path in read)).hexdigest() \
        if read else ""
    manifest = {"version": 1, "game": plan.game_id, "catalogue": digest,
                "grid": plan.grid.as_json()["axes"], "games": games, "seed": seed, "turn_limit": sweep.TURN_LIMIT}
    store = SweepStore(Path(f"{stem}.parts"), manifest)
    stored = store.open(resume, [job.key for job in plan.jobs])
    todo = [job for job in plan.jobs if job.key not in stored]
    if resume and stored:
        click.echo(f"toolkit: note: resuming: {len(stored):,} of {len(plan.jobs):,} configurations stored, "
                   f"{len(todo):,} to play", err=True)
    return store, dict(stored), todo


def _play(todo: list, store, rows_by_key: dict, in_process: bool, address, source: str, workers) -> None:
    """Play the jobs still to play, each finished row stored as it comes."""
    from toolkit.analysis import sweep_cluster

    progress = []

    def started():
        progress.append(Progress(len(todo), "sweeping", show_pos=True))

    def done(job, row):
        store.save(job.key, row)
        rows_by_key[job.key] = row
        progress[0](1)

    try:
        sweep_cluster.run_all(todo, done, in_process=in_process, address=address, source=source,
                              workers=workers, started=started)
    finally:
        if progress:
            progress[0].close()


def _write(stem, plan, rows: list, axes: list, metrics: list[str], goals: list, games: int, seed: int, drawing):
    """BASE.csv, BASE.json and the heatmap (``drawing``: its file, figure and axes), ranked by the goals."""
    from toolkit.analysis import heatmap as maps
    from toolkit.analysis import sweep, sweep_output, sweep_target
    from toolkit.analysis.metrics import describe
    from toolkit.files import write_atomic, write_many

    if goals:
        sweep_target.rank(rows, goals)
    names = sweep_output.columns([name for name, _ in axes], metrics, bool(goals))
    head = {"game": plan.game_id, **plan.given, "games_per_configuration": games, "seed": seed,
            "turn_limit": sweep.TURN_LIMIT, "configurations": len(rows),
            "axes": {name: list(values) for name, values in axes},
            "figures": {name: describe(name, plan.described) for name in ["games", *metrics]},
            "intervals": "NAME_low and NAME_high: the 95% interval of NAME (equal to it when NAME is exact)"}
    if goals:
        head["target"] = {"goals": [goal.as_text() for goal in goals], "definition": sweep_target.DEFINITION}
    written = write_many({stem.with_suffix(".csv"): sweep_output.csv_bytes(rows, names),
                          stem.with_suffix(".json"): sweep_output.json_bytes(head, rows, names)})
    if drawing is not None:
        path, shown, x, y, others = drawing
        picture = maps.heatmap(rows, axes, x, y, others, shown, describe(shown, plan.described),
                               path.suffix.lower()[1:])
        written.append(write_atomic(path, picture))
    return written


def _say_rows(rows: list, axes: list, metrics: list[str], goals: list) -> None:
    """The rows on standard output: the closest to the goals, else every row when they are few."""
    from toolkit.analysis import sweep_output, sweep_target

    axis_names = [name for name, values in axes if len(values) > 1] or [name for name, _ in axes[:1]]
    if goals:
        say(f"closest to {', '.join(goal.as_text() for goal in goals)} (distance: the sum of the figures' "
            f"shortfalls, each relative to its goal; {sweep_target.MEETS}):")
        for row in sorted(rows, key=lambda r: r["rank"])[:SHOWN_RANKS]:
            distance = "n/a" if row["distance"] is None else f"{row['distance']:.4g}"
            say(f"  {row['rank']}. distance {distance}, meets {row['meets'] or 'n/a'}: "
                f"{sweep_output.row_line(row, axis_names, [g.metric for g in goals])}")
    elif len(rows) <= SHOWN_ROWS:
        for row in rows:
            say("  " + sweep_output.row_line(row, axis_names, metrics))
    else:
        say(f"  {len(rows):,} rows: see the CSV or JSON")


def _metric_list(text: str, known: list[str]) -> list[str]:
    from toolkit.errors import UserError

    names = [name.strip() for name in text.split(",")]
    if "" in names:
        raise UserError(f"--metric {text}: a name is empty (separate the figures with commas)")
    for name in names:
        if name not in known:
            raise UserError(f"--metric {text}: unknown figure {name!r} (choose from {', '.join(known)})")
        if names.count(name) > 1:
            raise UserError(f"--metric {text}: {name} is named twice")
    return names
