"""What the commands of the command line share: the group and command classes that make every
error one line, the option types, the catalogue and language options, the report's output and the
progress bar. Every command module imports from here (and nothing below the command line imports it)."""

from __future__ import annotations

import functools
import os
import re
import sys
import time

import click

from toolkit.errors import UserError
from toolkit.rules.contain import DEFAULT_TIMEOUT, set_timeout


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

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        docs_line(formatter, f"{DOCS}/index.md (each command: {DOCS}/commands/<command>.md)")

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

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        docs_line(formatter, command_page(self.name))


ToolkitGroup.command_class = ToolkitCommand

# Where the documentation lives (in the repository, and as the site ``mkdocs build`` makes of it): every
# help text ends with the page it has, ``toolkit --help`` with the index.
DOCS = "docs"


def command_page(name: str) -> str:
    """The docs page of a command: ``docs/commands/<name>.md``."""
    return f"{DOCS}/commands/{name}.md"


def docs_line(formatter, page: str) -> None:
    formatter.write_paragraph()
    formatter.write_text(f"Docs: {page}")


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


def game_help() -> str:
    from toolkit.games.registry import default_id

    return f"Game whose built-in catalogue to use [default: {default_id()}]."


CATALOGUE_HELP = (f"Load this catalogue instead of a built-in game: a TOML file, a CSV, XLSX or ODS sheet, or the "
                  f"http(s) URL of one, fetched and cached (its keys and limits: {DOCS}/catalogue.md).")
ASSETS_HELP = ("With a --catalogue URL: the local folder its art, backs, sheet, layout, icons, fonts and texts are "
               "read from [default: none: its cards are drawn without pictures].")
assets_option = click.option("--assets", type=click.Path(file_okay=False, exists=True), metavar="DIR",
                             help=ASSETS_HELP)


def catalogue_options(func):
    """--game, --catalogue, --assets and --set: the options of every command that reads the catalogue."""

    @click.option("--game", cls=LazyHelpOption, type=GameChoice(), help_text=game_help)
    @click.option("--catalogue", "catalogue_path", type=click.Path(dir_okay=False),
                  help=CATALOGUE_HELP)
    @assets_option
    @click.option("--set", "overrides", multiple=True, metavar="ID=N",
                  help="Override one card count for this run (repeatable), e.g. --set witch=8.")
    @functools.wraps(func)
    def wrapper(game, catalogue_path, assets, overrides, **kwargs):
        catalogue_path = deck_source(catalogue_path, assets)
        return func(game=game, catalogue_path=catalogue_path, overrides=overrides, **kwargs)

    return wrapper


def deck_source(catalogue_path: str | None, assets: str | None) -> str | None:
    """``--catalogue`` as the loader reads it: a path as given; a URL fetched (or confirmed, or taken
    from the cache when offline) by ``toolkit.catalogue.remote``, as its cached copy's path. ``--assets``
    names the local folder of a URL's deck, and is refused beside anything else."""
    from toolkit.catalogue.remote import is_url

    one_source(catalogue_path)
    if catalogue_path is None or not is_url(catalogue_path):
        if assets is not None:
            raise click.UsageError("--assets: only for a --catalogue URL (a local deck's files lie in its own "
                                   "folder)", ctx=click.get_current_context())
        return catalogue_path
    from pathlib import Path

    from toolkit.catalogue.remote import fetch

    return str(fetch(catalogue_path, Path(assets) if assets is not None else None))


RULES_HELP = (f"Play a game written in Python instead: PATH.py, PATH.py:Class, module:Class or a game's id "
              f"(see {DOCS}/rules-files.md).")


def rules_options(func):
    """--rules and --param: a rules game (toolkit.rules) and its constructor's parameters."""

    @click.option("--rules", "rules_spec", metavar="SPEC", help=RULES_HELP)
    @click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
                  help="A parameter of the --rules game's constructor, e.g. goal=50 (repeatable).")
    @click.option("--rules-timeout", "rules_timeout", metavar="SECONDS",
                  help=f"The longest one call of the --rules file's code may take before the run stops with an "
                       f"error (default {DEFAULT_TIMEOUT:g}; 0: no limit).")
    @functools.wraps(func)
    def wrapper(rules_spec, params, rules_timeout, **kwargs):
        if params and rules_spec is None:
            raise UserError(f"--param {params[0]}: parameters are for a --rules game: give --rules too")
        if rules_timeout is not None and rules_spec is None:
            raise UserError(f"--rules-timeout {rules_timeout}: the limit is for a --rules game: give --rules too")
        set_timeout(DEFAULT_TIMEOUT if rules_timeout is None else _seconds(rules_timeout))
        return func(rules_spec=rules_spec, params=rule_params(params), **kwargs)

    return wrapper


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 10**9:  # also refuses nan
        raise UserError(f"--rules-timeout {text}: expected a number of seconds, e.g. 10 (0: no limit)")
    return seconds


def rule_params(values: tuple[str, ...], option: str = "--param") -> dict:
    """``NAME=VALUE`` options as {name: value}: each value a Python literal (20, 0.5, 'text'), else its text."""
    from toolkit.rules.load import parse_value

    params = {}
    for value in values:
        name, sep, text = value.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier() or not text.strip():
            raise UserError(f"{option} {value}: expected NAME=VALUE, e.g. {option} goal=50")
        if name in params:
            raise UserError(f"{option} {value}: {name} is given twice")
        params[name] = parse_value(text)
    return params


def setup_inputs(setup) -> dict[str, object]:
    """The files a run of ``setup`` (toolkit.setup.Setup) reads: its deck's (``catalogue_inputs``) or its
    rules file."""
    if setup.catalogue is not None:
        return catalogue_inputs(setup.catalogue)
    path = getattr(setup.rules, "path", None)
    return {"the rules file": path} if path else {}


def catalogue_inputs(catalogue, texts: tuple[str, ...] = (), langs: tuple[str, ...] = ()) -> dict[str, object]:
    """The files a run reads, by what they are: the catalogue file, its sheet, the art and backs, the
    files it names for the game (layout, icons, fonts, rulebook texts), the layout the cards are drawn
    with and the files it names (its icons and font files, pictures a card's field names), and the
    game's own ``texts`` (``rules``, ``aid``) in ``langs`` that the run read. The one list of a run's inputs: no output may
    overwrite one (``check_outputs``) and ``--watch`` rebuilds when one changes, so a new kind of input
    joins both by being added here."""
    from toolkit.games.registry import get
    from toolkit.layout.names import layout_file, layout_files, picture_fields

    layout = layout_file(catalogue)
    inputs = {"the catalogue": catalogue.source, "the sheet": catalogue.sheet,
              "the art of the back": catalogue.back_art_path, "the layout": layout}
    inputs.update(layout_files(layout))
    if catalogue.folder is not None:
        inputs.update({f"the picture {card.fields[name]} of {card.id}": catalogue.folder / str(card.fields[name])
                       for name in picture_fields(layout) for card in catalogue.cards if card.fields.get(name)})
    inputs.update({f"the art of {card.id}": card.art_path for card in catalogue.cards})
    inputs.update({f"the back of {card.id}": card.back_art_path for card in catalogue.cards if card.back_art_path})
    inputs.update({f"the icon {name}": path for name, path in catalogue.icons.items()})
    inputs.update({f"the font {name}": path for name, path in catalogue.fonts.items()})
    inputs.update({f"the {lang} rulebook text": path for lang, path in catalogue.rulebook_texts.items()})
    inputs.update({f"the {lang} player aid": path for lang, path in catalogue.aid_texts.items()})
    game = get(catalogue.game)
    inputs.update({f"the {name} text ({lang})": game.text_file(name, lang) for name in texts for lang in langs
                   if game.has_text(name, lang)})
    return {what: path for what, path in inputs.items() if path is not None}


watch_option = click.option(
    "--watch", is_flag=True,
    help="Build, then build again whenever an input changes (the catalogue, its sheet, art, layout, icons, "
         "fonts and the texts read; a --catalogue URL is asked for again every 10 s), "
         "one line on stderr each time; a mistake in the inputs is said and the watch goes on. "
         "Ctrl-C ends it.")


def check_numba_environment() -> None:
    """Refuse, before any work, numba settings under which the compiled simulator and solvers cannot
    run: numba reads them with int(), fails on a thread count below 1 and prints a traceback as a
    warning for a value it cannot read; its pure-Python mode cannot run the kernels."""
    threads, jit_off = os.environ.get("NUMBA_NUM_THREADS"), os.environ.get("NUMBA_DISABLE_JIT")
    if threads is not None and (_whole(threads) or 0) < 1:
        raise UserError(f"NUMBA_NUM_THREADS={threads!r}: expected a number of threads from 1 (or unset it)")
    if jit_off is not None and _whole(jit_off) != 0:
        raise UserError(f"NUMBA_DISABLE_JIT={jit_off!r}: the simulator and the solvers run only compiled: unset it")


def _whole(text: str) -> int | None:
    """``text`` as numba reads it (``int()``), or None when it is no whole number."""
    try:
        return int(text)
    except ValueError:
        return None


def load_deck(read: dict, game, catalogue_path, overrides, lang: str | None, aids: bool | None):
    """The deck of a command that draws its cards: (catalogue, its language for ``lang``, whether with the
    player aids: ``--aids/--no-aids`` as given, else whether the game has one in that language). What it
    read goes into ``read`` (see ``run_build``)."""
    from toolkit.catalogue import load
    from toolkit.catalogue.words import deck_lang
    from toolkit.print.aids import has_aid

    catalogue = load(game, catalogue_path, overrides)
    code = deck_lang(catalogue, lang)
    wanted = aids if aids is not None else has_aid(catalogue, code)
    read.update(catalogue=catalogue, inputs=catalogue_inputs(catalogue, ("aid",) if wanted else (), (code,)))
    return catalogue, code, wanted


def run_build(build, watch: bool, game, catalogue_path) -> None:
    """``build(read)`` once, then say what it wrote and its summary; with ``--watch``, build again after
    every change of what it read, until Ctrl-C (``toolkit.cli.watch``)."""
    if watch:
        from toolkit.cli.watch import watch as watch_builds

        watch_builds(lambda read: build(read)[0], game, catalogue_path)
    written, summary = build({})
    say(str(written))
    say(summary)


def one_source(catalogue_path: str | None) -> None:
    """--game and --catalogue name two catalogues: refuse both rather than ignore one."""
    if catalogue_path is None:
        return
    if not catalogue_path.strip():
        raise UserError("--catalogue: the path is empty")
    source = click.get_current_context().get_parameter_source("game")
    if source not in (None, click.core.ParameterSource.DEFAULT):
        raise UserError("--game and --catalogue: give one of them (the catalogue file names its game)")


lang_option = click.option("--lang", metavar="LANG",
                           help="Language of names and text: one the deck has [default: the deck's first "
                                "language; en for the built-in games].")




card_option = click.option("--card", "card_size", default="poker", show_default=True, metavar="SIZE",
                           help="Card size: poker (63x88), bridge (57x89), mini (44x63), tarot (70x120), square (70x70) "
                                "or WxH in mm, e.g. 60x90.")


class Progress:
    """A progress bar on stderr, drawn only on a terminal and only once a run has taken more than a second.

    Anywhere else (a file, a pipe, a test) it draws no bar, whose label would be glued to the report:
    once a run has taken a few seconds it says in one whole line how far it has come instead. ``note`` says something on a line of its own and starts counting a new stage.

    With ``ceiling`` the total is only the most the work may take (a chain walk up to --max-states,
    which may end far sooner or give up and simulate: ``odds.report.progress_ceiling``): the line
    then says how long the work has run, not a share done or a time to go, which would be guesses.
    """

    DELAY = 1.0  # seconds of work before a bar appears

    def __init__(self, total: int, label: str, enabled: bool | None = None, show_pos: bool = False,
                 ceiling: bool = False):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.show_pos = show_pos  # the bar and the line also say "done of total"
        self.ceiling = ceiling
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
            if self.ceiling:
                click.echo(f"toolkit: note: {self.label}: still working after {took:.0f} s", err=True)
                return
            share = min(self.done / self.total, 1.0)
            left = f", about {took * (1 - share) / share:,.0f} s to go" if share > 0.01 else ""
            count = f" ({self.done:,} of {self.total:,})" if self.show_pos else ""
            click.echo(f"toolkit: note: {self.label}: {100 * share:.0f}% done{count} after {took:.0f} s{left}", err=True)

    def note(self, text: str, total: int, label: str = "simulating") -> None:
        """Print ``toolkit: note: TEXT`` (after ending a bar's line), then count ``total`` ticks afresh."""
        self.close()
        click.echo(f"toolkit: note: {text}", err=True)
        self.ceiling = False  # the next stage counts its own work
        self._restart(total, label)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)  # on a terminal this ends the bar's line
            self.bar = None


POLICY_HELP = ("A seat's player, SEAT=NAME (seats count from 1), or a bare NAME for every seat not named "
               "(repeatable), e.g. 2=stop-after-3,never-buy (one player, its rules combined) or hold-at-20.")


def policy_option(help_text: str = POLICY_HELP, name: str = "policies"):
    """``--policy [SEAT=]NAME``, repeatable: the one syntax of simulate, analyse, sweep and odds
    (``toolkit.seats.parse_policy`` reads it)."""
    return click.option("--policy", name, multiple=True, metavar="[SEAT=]NAME", help=help_text)


def refuse_given(names: tuple[str, ...], why: str) -> None:
    """Refuse any of these parameters given on the command line (not left at its default): ``why``
    says what the command does instead, so the option would be silently ignored."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    for param in ctx.command.params:
        if param.name in names and ctx.get_parameter_source(param.name) not in (
                None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
            raise click.UsageError(f"{param.opts[-1] if param.opts[-1].startswith('--') else param.opts[0]}: "
                                   f"not read: {why}", ctx=ctx)
