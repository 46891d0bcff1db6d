"""The documentation keeps up with the code: the generated parts of docs/ are what docs/generate.py
writes now (each command's options, the catalogue's keys and limits, each game's schema, the layout
limits, the services' sizes), every help text names a page that exists, and the README stays short."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def generator():
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_parts_are_what_the_code_gives_now():
    stale = generator().stale()
    assert stale == [], f"run python docs/generate.py: {', '.join(str(page.relative_to(ROOT)) for page in stale)}"


def test_every_command_has_a_page_with_every_option():
    from toolkit.cli import main

    for name, command in main.commands.items():
        text = (ROOT / "docs" / "commands" / f"{name}.md").read_text(encoding="utf-8")
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert f"`{opt}`" in text, (name, opt)


@pytest.mark.parametrize("args, page", [(["--help"], "docs/index.md"), ([], "docs/index.md")]
                         + [([name, "--help"], f"docs/commands/{name}.md") for name in (
                             "catalogue", "art", "print-cards", "export-cards", "preflight", "rulebook", "simulate",
                             "odds", "analyse", "sweep", "studio")])
def test_help_names_its_docs_page(run, args, page):
    result = run(*args)
    assert result.exit_code == 0
    assert re.search(rf"^Docs: {re.escape(page)}", result.stdout, re.M), result.stdout[-300:]
    assert (ROOT / page).is_file()


def test_readme_is_short_and_its_links_lead_somewhere():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), target
