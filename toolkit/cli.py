"""The command line: a thin click layer that parses options, calls one function and reports."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import time

import click

from toolkit.catalogue.model import LANGS
from toolkit.errors import UserError


class ToolkitGroup(click.Group):
    """Every error a user can cause ends as one line on stderr and exit status 2.

    Ctrl-C ends a run with one line and status 130 (``toolkit.entry`` does so for SIGTERM too, with
    143, in the console script). A report that cannot be written to
    standard output (a full device) is an error like any other; a reader that went away (``| head``)
    ends the run quietly.
    """

    def main(self, args=None, prog_name=None, **extra):
        extra["standalone_mode"] = False
        if sys.stdout is None:  # started with standard output closed (``>&-``)
            _fail("standard output is closed: give the command somewhere to write its report")
        try:
            result = super().main(args=args, prog_name=prog_name, **extra)
            sys.stdout.flush()
        except click.exceptions.NoArgsIsHelpError as err:
            try:
                say(err.ctx.get_help())
            except UserError as failed:
                _silence_stdout()
                _fail(str(failed))
            result = 0
        except UserError as err:
            _fail(str(err))
        except click.UsageError as err:
            _fail(_usage_message(err))
        except click.ClickException as err:
            _fail(err.format_message())
        except (KeyboardInterrupt, Interrupted, click.Abort):
            _stop("interrupted", 130)
        except BrokenPipeError:
            _silence_stdout()
            sys.exit(141)
        except OSError as err:
            if err.filename is not None:  # every file error of the toolkit's own is a UserError already
                raise
            _silence_stdout()  # click's help or version text could not be written
            _fail(f"cannot write to standard output: {err.strerror or err}")
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx):
        # click would answer Ctrl-C itself with an empty line on stderr: say it in one line instead
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None


class ToolkitCommand(click.Command):
    """A command whose options other than the repeatable ones may be given once: click would keep
    the last of two values without a word."""

    def parse_args(self, ctx, args):
        seen: dict[str, str] = {}
        names = {name: option for option in self.params if isinstance(option, click.Option)
                 and not option.multiple and not option.count for name in option.opts + option.secondary_opts}
        for arg in args:
            if arg == "--":
                break
            name = arg.split("=", 1)[0]
            option = names.get(name)
            if option is None:
                continue
            if option.name in seen:
                raise click.UsageError(f"{seen[option.name]} and {name}: give this option once", ctx=ctx)
            seen[option.name] = name
        return super().parse_args(ctx, args)


ToolkitGroup.command_class = ToolkitCommand


class Interrupted(BaseException):
    """Ctrl-C, carried past click's own handling of KeyboardInterrupt."""


def _usage_message(err: click.UsageError) -> str:
    """Click's message on one line, after the subcommand's name (not the program's: that is said once)."""
    message = " ".join(part.strip() for part in err.format_message().splitlines() if part.strip())
    path = err.ctx.command_path.split(" ", 1)[1] if err.ctx and " " in err.ctx.command_path else ""
    return f"{path}: {message}" if path else message


def say(text: str) -> None:
    """Print a line of the report on standard output; a full or broken device is a user's error."""
    try:
        click.echo(text)
    except BrokenPipeError:
        raise
    except OSError as err:
        raise UserError(f"cannot write to standard output: {err.strerror or err}") from None


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that Python's last flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _fail(message: str) -> None:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError:
        _silence_stdout()
    click.echo(f"toolkit: error: {message}", err=True)
    sys.exit(2)


def _stop(what: str, status: int) -> None:
    try:
        click.echo(f"toolkit: {what}", err=True)
    except OSError:
        pass
    sys.exit(status)


_ASCII_INT = re.compile(r"[+-]?[0-9]+")
_ASCII_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)")


class Whole(click.IntRange):
    """A whole number in ASCII digits (Python's int() would also take '٣' for 3) within a range."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not _ASCII_INT.fullmatch(value.strip()):
            self.fail(f"{value!r} is not a whole number in digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


EXPORT_TARGETS = ("tgc", "mpc", "drivethru", "tabletopia", "screentop", "tts", "png", "pdf-single")
PREFLIGHT_TARGETS = ("tgc", "mpc", "drivethru", "tabletopia", "screentop", "tts")


class Offset(click.ParamType):
    """Two lengths in millimetres, X,Y, each in ASCII digits with an optional sign, e.g. 1.5,-0.5."""

    name = "offset"
    LIMIT = 20.0  # mm: a printer that shifts its back side further than this needs repair, not an offset

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = str(value).split(",")
        if len(parts) != 2 or not all(_ASCII_NUMBER.fullmatch(part.strip()) for part in parts):
            self.fail(f"{value!r} is not X,Y in millimetres, e.g. 1.5,-0.5", param, ctx)
        x, y = (float(part) for part in parts)
        if max(abs(x), abs(y)) > self.LIMIT:
            self.fail(f"{value!r}: each part must be within {self.LIMIT:g} mm", param, ctx)
        return (x, y)


class Millimetres(click.ParamType):
    """A length in millimetres written in ASCII digits (no 'nan', 'inf' or other scripts' digits)."""

    name = "mm"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            return value
        if not _ASCII_NUMBER.fullmatch(str(value).strip()):
            self.fail(f"{value!r} is not a length in millimetres, e.g. 3 or 2.5", param, ctx)
        return float(value)


class GameChoice(click.Choice):
    """The registered games (``toolkit.games.registry``), looked up when first needed: ``toolkit
    --help`` and ``--version`` look up none. ``extra`` choices come first (e.g. ``all``)."""

    def __init__(self, *extra: str):
        self.extra = extra
        super().__init__(())

    @property
    def choices(self):
        from toolkit.games.registry import ids

        return (*self.extra, *ids())

    @choices.setter
    def choices(self, value) -> None:
        pass


class LazyHelpOption(click.Option):
    """An option whose help text is written when help is shown (it names the registered games)."""

    def __init__(self, *args, help_text=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.help_text = help_text

    def get_help_record(self, ctx):
        if self.help_text is not None:
            self.help = self.help_text()
        return super().get_help_record(ctx)


def _game_help() -> str:
    from toolkit.games.registry import default_id

    return f"Game whose built-in catalogue to use [default: {default_id()}]."


def catalogue_options(func):
    """--game, --catalogue and --set: the options of every command that reads the catalogue."""

    @click.option("--game", cls=LazyHelpOption, type=GameChoice(), help_text=_game_help)
    @click.option("--catalogue", "catalogue_path", type=click.Path(dir_okay=False),
                  help="Load this catalogue TOML file instead of a built-in game.")
    @click.option("--set", "overrides", multiple=True, metavar="ID=N",
                  help="Override one card count for this run (repeatable), e.g. --set witch=8.")
    @functools.wraps(func)
    def wrapper(game, catalogue_path, overrides, **kwargs):
        _one_source(catalogue_path)
        return func(game=game, catalogue_path=catalogue_path, overrides=overrides, **kwargs)

    return wrapper


def _one_source(catalogue_path: str | None) -> None:
    """--game and --catalogue name two catalogues: refuse both rather than ignore one."""
    if catalogue_path is None:
        return
    if not catalogue_path.strip():
        raise UserError("--catalogue: the path is empty")
    source = click.get_current_context().get_parameter_source("game")
    if source not in (None, click.core.ParameterSource.DEFAULT):
        raise UserError("--game and --catalogue: give one of them (the catalogue file names its game)")


lang_option = click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
                           help="Language of names and text.")


@click.group(cls=ToolkitGroup, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolkit", prog_name="toolkit")
def main():
    """Print-and-play sheets, rulebooks and exact odds for castle-building card games."""


@main.command("catalogue")
@catalogue_options
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def catalogue_command(game, catalogue_path, overrides, lang, as_json):
    """Show the deck: every card type with its kind, colour, count and name."""
    from toolkit.catalogue import load

    catalogue = load(game, catalogue_path, overrides)
    if as_json:
        say(json.dumps(catalogue.as_json(), ensure_ascii=False, indent=2))
        return
    from toolkit.catalogue.table import deck_table

    say(deck_table(catalogue, lang))


@main.command("art")
@click.option("--game", type=GameChoice("all"), default="all", show_default=True,
              help="Built-in game whose art to draw.")
@click.option("--catalogue", "catalogue_path", type=click.Path(dir_okay=False),
              help="Draw the art of this catalogue TOML file instead.")
@click.option("--set", "overrides", multiple=True, metavar="ID=N", help="Accepted like elsewhere; counts do not change art.")
@click.option("--out-dir", type=click.Path(file_okay=False), default="card_art", show_default=True,
              help="Folder to write into; each PNG goes to the path its catalogue names.")
def art_command(game, catalogue_path, overrides, out_dir):
    """Draw the original card art (faces and backs) as 300 DPI PNGs."""
    from pathlib import Path

    from toolkit.cards.art import CARD_PX, write_art
    from toolkit.catalogue import load
    from toolkit.files import check_out_path

    _one_source(catalogue_path)
    check_out_path(out_dir, "--out-dir")
    from toolkit.games.registry import ids

    games = [None] if catalogue_path else (ids() if game == "all" else [game])
    for name in games:
        catalogue = load(name, catalogue_path, overrides, require_art=False)
        written = write_art(catalogue, Path(out_dir))
        say(f"{catalogue.game}: {len(written)} images of {CARD_PX[0]} x {CARD_PX[1]} px in {out_dir}/")


card_option = click.option("--card", "card_size", default="poker", show_default=True, metavar="SIZE",
                           help="Card size: poker (63x88), bridge (57x89), mini (44x63), tarot (70x120) "
                                "or WxH in mm, e.g. 60x90.")


@main.command("print-cards")
@catalogue_options
@lang_option
@click.option("--paper", type=click.Choice(("a4", "letter"), case_sensitive=False), default="a4", show_default=True, help="Paper size.")
@card_option
@click.option("--bleed", type=Millimetres(), default=0.0, show_default=True, metavar="MM",
              help="Art printed this far past each cut line (cards then sit 2 x bleed apart).")
@click.option("--gutter", type=Millimetres(), default=0.0, show_default=True, metavar="MM", help="Space between cards.")
@click.option("--margin", type=Millimetres(), default=5.0, show_default=True, metavar="MM",
              help="Unprinted border of the paper; nothing is printed in it.")
@click.option("--duplex", type=click.Choice(("long", "short", "fold", "none")), default="long", show_default=True,
              help="Backs: each sheet's backs on the next page for a long- or short-edge flip; "
                   "fold: fronts and backs on one sheet either side of a fold line; none: fronts only.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True,
              help="Cut lines continued outside the cards.")
@click.option("--aids/--no-aids", default=True, show_default=True,
              help="A player aid (the turn and the cards in brief) for each player, after the cards.")
@click.option("--back-offset", type=Offset(), default="0,0", show_default=True, metavar="X,Y",
              help="Shift every back this far, in mm (right and down as seen on the back's side): "
                   "what --calibration measures for your printer.")
@click.option("--calibration", is_flag=True,
              help="Print a two-sided calibration sheet instead of the cards: its marks show how far "
                   "your printer shifts the back side (see the README).")
@click.option("--out", type=click.Path(dir_okay=False), help="PDF to write [default: output/<game>-cards-<lang>.pdf].")
def print_cards_command(game, catalogue_path, overrides, lang, paper, card_size, bleed, gutter, margin, duplex,
                        crop_marks, aids, back_offset, calibration, out):
    """Print-and-play PDF: every card at its exact size on A4 or Letter, backs and tokens."""
    from pathlib import Path

    from toolkit.cards.render import parse_card_size
    from toolkit.catalogue import load
    from toolkit.files import check_out_path, write_atomic
    from toolkit.print import print_cards

    check_out_path(out)
    if calibration:
        from toolkit.print.calibration import calibration_sheet

        _refuse_given(("game", "catalogue_path", "overrides", "card_size", "bleed", "gutter", "margin",
                       "crop_marks", "aids"), "--calibration prints the alignment sheet, no cards")
        result = calibration_sheet(paper=paper, duplex=duplex, back_offset=back_offset, lang=lang)
        path = write_atomic(Path(out) if out else Path("output") / f"calibration-{paper.lower()}-{lang}.pdf",
                            result.pdf)
        say(str(path))
        say(result.summary)
        return
    card_mm = parse_card_size(card_size)
    catalogue = load(game, catalogue_path, overrides)
    result = print_cards(catalogue, lang=lang, paper=paper, card_mm=card_mm, bleed=bleed, gutter=gutter,
                         margin=margin, duplex=duplex, crop=crop_marks, aids=aids, back_offset=back_offset)
    path = write_atomic(Path(out) if out else Path("output") / f"{catalogue.game}-cards-{lang}.pdf", result.pdf)
    say(str(path))
    say(result.summary())


@main.command("export-cards")
@catalogue_options
@lang_option
@click.option("--target", type=click.Choice(EXPORT_TARGETS), required=True,
              help="tgc, mpc, drivethru: the files The Game Crafter, MakePlayingCards or DriveThruCards "
                   "take, at their pixel sizes; tabletopia, screentop, tts: virtual tables; png: one 300 DPI "
                   "PNG per face and back + manifest.csv at the catalogue's size; pdf-single: one card per "
                   "page with TrimBox/BleedBox.")
@card_option
@click.option("--bleed", type=Millimetres(), metavar="MM",
              help="Art past the cut line, for png and pdf-single [default: 3]; the print services set "
                   "their own, and virtual tables cut at the trim.")
@click.option("--aids/--no-aids", default=True, show_default=True,
              help="Add the player aid: a PNG and a manifest row, a card of the TTS deck, pages at the end.")
@click.option("--base-url", metavar="URL",
              help="tts, screentop: where you will host the images (http:// or https://); the saved "
                   "object then names them there, so that every player of a multiplayer table sees them.")
@click.option("--saved-objects", is_flag=True,
              help="tts: write into Tabletop Simulator's Saved Objects folder on this computer "
                   "(instead of --out).")
@click.option("--cmyk-profile", type=click.Path(dir_okay=False), metavar="ICC",
              help="drivethru: the CMYK ICC profile of the printing condition to convert to "
                   "[default: the built-in generic coated profile].")
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write [default: output/<game>-<target>-<lang>/].")
def export_cards_command(game, catalogue_path, overrides, lang, target, card_size, bleed, aids, base_url,
                         saved_objects, cmyk_profile, out):
    """Card files for print services (tgc, mpc, drivethru, png, pdf-single) and virtual tables
    (tabletopia, screentop, tts)."""
    from toolkit.cards.render import parse_card_size
    from toolkit.catalogue import load
    from toolkit.files import check_out_path
    from toolkit.print.export import export_cards, export_folder

    check_out_path(out)
    card_mm = parse_card_size(card_size)
    catalogue = load(game, catalogue_path, overrides)
    folder = export_folder(catalogue, target, lang, out, saved_objects)
    result = export_cards(catalogue, target, folder, lang=lang, card_mm=card_mm, bleed=bleed, aids=aids,
                          card_size=card_size, base_url=base_url, cmyk_profile=cmyk_profile)
    say(f"{folder}/")
    say(result.summary)


@main.command("preflight")
@click.argument("path", type=click.Path(exists=False))
@click.option("--target", type=click.Choice(PREFLIGHT_TARGETS), required=True,
              help="The service or table whose rules to check the file or folder against.")
@click.option("--card", "card_size", metavar="SIZE",
              help="The card size the files should have [default: the one their pixels match].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of lines.")
def preflight_command(path, target, card_size, as_json):
    """Check a file or folder against a print service's or virtual table's rules: one line per
    check, exit status 1 if any fails."""
    from toolkit.print.preflight import preflight, report_lines, report_json

    result = preflight(path, target, card_size)
    if as_json:
        say(report_json(result))
    else:
        for line in report_lines(result):
            say(line)
    if not result.passed:
        raise SystemExit(1)


@main.command("rulebook")
@catalogue_options
@click.option("--lang", type=click.Choice(("ru", "en", "ru+en")), default="en", show_default=True,
              help="Language: ru, en, or ru+en (both, section by section, each block tagged).")
@click.option("--paper", type=click.Choice(("a4", "letter"), case_sensitive=False), default="a4", show_default=True,
              help="Paper size.")
@click.option("--booklet", is_flag=True,
              help="A5 (half-Letter) pages two-up in saddle-stitch order: print double-sided (short-edge flip), "
                   "fold the stack and staple it.")
@click.option("--out", type=click.Path(dir_okay=False), help="PDF to write [default: output/<game>-rules-<lang>.pdf].")
def rulebook_command(game, catalogue_path, overrides, lang, paper, booklet, out):
    """Printable rules from the catalogue and the odds solver: Russian, English or both."""
    from pathlib import Path

    from toolkit.catalogue import load
    from toolkit.files import check_out_path, write_atomic
    from toolkit.odds.report import progress_length
    from toolkit.rulebook import build_rulebook

    check_out_path(out)
    catalogue = load(game, catalogue_path, overrides)
    from toolkit.games.registry import get

    progress = _Progress(progress_length(catalogue, get(catalogue.game).rulebook_model, 1, 0), "solving")
    try:
        result = build_rulebook(catalogue, lang=lang, paper=paper.lower(), booklet=booklet, progress=progress)
    finally:
        progress.close()
    path = write_atomic(Path(out) if out else Path("output") / f"{catalogue.game}-rules-{lang}.pdf", result.pdf)
    say(str(path))
    say(result.summary())


class _Progress:
    """A progress bar on stderr, drawn only on a terminal and only once a run has taken more than a second.

    Anywhere else (a file, a pipe, a test) it draws no bar, whose label would be glued to the report:
    once a run has taken a few seconds it says in one whole line how far it has come instead. ``note`` says something on a line of its own and starts counting a new stage.
    """

    DELAY = 1.0  # seconds of work before a bar appears

    def __init__(self, total: int, label: str, enabled: bool | None = None, show_pos: bool = False):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.show_pos = show_pos  # the bar and the line also say "done of total"
        self._restart(total, label)

    def _restart(self, total: int, label: str) -> None:
        self.total, self.label = max(1, total), label
        self.done, self.bar, self.start, self.told = 0, None, time.monotonic(), False

    QUIET_DELAY = 3.0  # off a terminal: seconds of work before one line says how far it has come

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
            return
        took = time.monotonic() - self.start
        if self.enabled and took > self.DELAY:
            self.bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr, show_pos=self.show_pos)
            self.bar.__enter__()
            self.bar.update(self.done)
        elif not self.enabled and not self.told and took > self.QUIET_DELAY:
            self.told = True  # a whole line, once: nothing to glue to the report
            share = min(self.done / self.total, 1.0)
            left = f", about {took * (1 - share) / share:,.0f} s to go" if share > 0.01 else ""
            count = f" ({self.done:,} of {self.total:,})" if self.show_pos else ""
            click.echo(f"toolkit: note: {self.label}: {100 * share:.0f}% done{count} after {took:.0f} s{left}", err=True)

    def note(self, text: str, total: int, label: str = "simulating") -> None:
        """Print ``toolkit: note: TEXT`` (after ending a bar's line), then count ``total`` ticks afresh."""
        self.close()
        click.echo(f"toolkit: note: {text}", err=True)
        self._restart(total, label)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)  # on a terminal this ends the bar's line
            self.bar = None


def _seat_choices(values: tuple[str, ...]) -> dict[int, str]:
    """``--policy SEAT=NAME`` options as {seat: name}: the seat in ASCII digits, each seat once."""
    choices = {}
    for value in values:
        seat, sep, name = value.partition("=")
        seat = seat.strip()
        if not sep or not re.fullmatch(r"[0-9]+", seat) or not name.strip():
            raise UserError(f"--policy {value}: expected SEAT=NAME, e.g. --policy 2=stop-after-3")
        if len(seat) > 3:
            raise UserError(f"--policy {value}: seat {seat} does not exist (seats count from 1 to 4)")
        if int(seat) in choices:
            raise UserError(f"--policy {value}: seat {int(seat)} has a policy already (give each seat one)")
        choices[int(seat)] = name.strip()
    return choices


@main.command("simulate")
@catalogue_options
@click.option("--players", type=Whole(1, 4), help="Players at the table (default: the game's minimum).")
@click.option("--games", type=Whole(1, 100_000_000), default=10_000, show_default=True,
              help="Games to play (at most 100,000,000).")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Random seed, 0 to 2**63-1: the same seed gives the same result.")
@click.option("--policy", "policies", multiple=True, metavar="SEAT=NAME",
              help="A seat's policy, e.g. 2=stop-after-3 or 1=risk-1,never-buy (repeatable; seats count from 1).")
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="A named rule variant (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(game, catalogue_path, overrides, players, games, seed, policies, variants, as_json):
    """Play many seeded games and report their length, win rates and events."""
    from toolkit.catalogue import load
    from toolkit.sim.report import text_report
    from toolkit.sim.simulate import simulate

    catalogue = load(game, catalogue_path, overrides, require_art=False)
    players = players or catalogue.players[0]
    choices = _seat_choices(policies)
    twice = sorted({variant for variant in variants if variants.count(variant) > 1})
    if twice:
        raise UserError(f"--variant {twice[0]}: given twice")
    progress = _Progress(games, "simulating")
    try:
        summary = simulate(catalogue, players=players, games=games, seed=seed, policies=choices,
                           variants=variants, progress=progress)
    finally:
        progress.close()
    if as_json:
        say(json.dumps(summary.as_json(), indent=2))
    else:
        say(text_report(summary, catalogue.title["en"]))


# The options of `toolkit odds` that only some models read: parameter name -> option.
_ODDS_OPTIONS = {"players": "--players", "pile": "--pile", "policy": "--policy", "max_states": "--max-states",
                 "games": "--games", "seed": "--seed", "plot_path": "--plot"}


def _refuse_given(names: tuple[str, ...], why: str) -> None:
    """Refuse any of these parameters given on the command line (not left at its default): ``why``
    says what the command does instead, so the option would be silently ignored."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    for param in ctx.command.params:
        if param.name in names and ctx.get_parameter_source(param.name) not in (
                None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
            raise click.UsageError(f"{param.opts[-1] if param.opts[-1].startswith('--') else param.opts[0]}: "
                                   f"not read: {why}", ctx=ctx)


def _refuse_unused_options(game_id: str, model: str) -> None:
    """An option the model does not read, given on the command line, is a usage error (not ignored)."""
    from click.core import ParameterSource

    from toolkit.games.registry import get
    from toolkit.odds.report import MODEL_OPTIONS

    ctx = click.get_current_context()
    for name, option in _ODDS_OPTIONS.items():
        if name in MODEL_OPTIONS[model] or ctx.get_parameter_source(name) in (
                None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
            continue
        if name == "plot_path":
            raise click.UsageError(f"--plot: the {model} model has no distribution to draw", ctx=ctx)
        users = [m for m in get(game_id).odds_models if name in MODEL_OPTIONS[m]]
        which = f"the {users[0]} model reads it" if len(users) == 1 else f"the {' and '.join(users)} models read it"
        raise click.UsageError(f"{option}: the {model} model does not use it (only {which})", ctx=ctx)


@main.command("odds")
@catalogue_options
@click.option("--model", cls=LazyHelpOption, help_text=lambda: _models_help())
@click.option("--players", type=Whole(2, 4), help="Players for --model multi (default 2).")
@click.option("--pile", metavar="ID=N,...", help="For --model draws: the pile, e.g. witch=3,diamond=5 (default: the whole deck).")
@click.option("--policy", default="default", show_default=True, help="Every seat's policy for first-palace and multi.")
@click.option("--max-states", type=Whole(1, 1_000_000), default=100_000, show_default=True,
              help="Largest chain solved exactly (at most 1,000,000); beyond it the answer is simulated.")
@click.option("--games", type=Whole(2, 100_000_000), default=20_000, show_default=True,
              help="Games when simulating instead.")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Seed when simulating instead (0 to 2**63-1).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (fractions as \"P/Q\" strings).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the distribution as a .png or .pdf chart.")
@click.option("--export-chain", "chain_path", type=click.Path(dir_okay=False),
              help="Also write the chain behind the exact answer in Storm's explicit DRN format (solo, first-palace, multi).")
def odds_command(game, catalogue_path, overrides, model, players, pile, policy, max_states, games, seed, as_json, plot_path,
                 chain_path):
    """Exact odds from the rules engine's Markov chain: expected turns, distributions, draws."""
    from toolkit.catalogue import load
    from toolkit.files import check_out_path, write_atomic
    from toolkit.odds.report import answer, model_of, progress_length

    check_out_path(chain_path, "--export-chain")
    if plot_path is not None:
        from toolkit.odds import plot  # matplotlib and the card fonts only for a chart

        plot.check_path(plot_path)
    catalogue = load(game, catalogue_path, overrides, require_art=False)
    model = model_of(catalogue, model)
    _refuse_unused_options(catalogue.game, model)
    progress = _Progress(progress_length(catalogue, model, max_states, games), "solving")
    try:
        report = answer(catalogue, model, players=players, pile=pile, policy=policy, max_states=max_states,
                        games=games, seed=seed, progress=progress, note=progress.note,
                        export_chain=chain_path is not None)
    finally:
        progress.close()
    if plot_path is not None:
        if report.chart is None:
            raise UserError(f"--plot: {report.no_chart or f'the {model} model has no distribution to draw'}")
        plot.write_chart(plot_path, **report.chart)
    if chain_path is not None:
        write_atomic(chain_path, report.chain[0])
    if as_json:
        say(json.dumps(report.data, indent=2, ensure_ascii=False))
    else:
        say("\n".join(report.lines))
        if plot_path is not None:
            say(f"chart: {plot_path}")
        if chain_path is not None:
            say(f"exported chain: {chain_path} ({report.chain[1]:,} states, Storm explicit DRN)")


def _models_help() -> str:
    from toolkit.games.registry import games

    each = "; ".join(f"{game.id}: {', '.join(game.odds_models)}" for game in games().values() if game.odds_models)
    return f"The question, by game (each game's first is its default): {each}."


def _bench_commands() -> None:
    """The designer's bench: `analyse` and `sweep` live in toolkit.analysis, with their own options."""
    from toolkit.analysis.command import analyse_command
    from toolkit.analysis.sweep_command import sweep_command

    main.add_command(analyse_command)
    main.add_command(sweep_command)


_bench_commands()
