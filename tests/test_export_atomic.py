"""export-cards writes its folder whole: a re-export replaces the earlier one (no stray file stays), a
run that fails half-way leaves the earlier folder as it was and nothing beside it, and a bad --out or an
empty deck ends with one line before anything is written. Card faces are drawn once per card type,
so a 1,000-card deck costs what its few card types cost."""

from __future__ import annotations

import dataclasses
import gc
import json
import weakref
from pathlib import Path

import pytest

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.layout.engine import Look
from toolkit.print import export, sheets, tts
from toolkit.print.export import export_cards

WRITERS = (export, tts)  # the modules that write an export's files

TARGETS = ("png", "tts", "pdf-single")
ONLY_RED = ["castle-blue=0", "castle-green=0", "castle-yellow=0", "diamond=0", "witch=0", "fairy=0"]


@pytest.fixture(scope="module")
def small():
    """Two card types (red castle, fairy): quick to export."""
    return load("diamoniak", overrides=ONLY_RED[:-1] + ["fairy=1"])


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith(".toolkit-"))


@pytest.mark.parametrize("target", TARGETS)
def test_a_re_export_replaces_the_folder_whole(tmp_path, small, target):
    out = tmp_path / "cards"
    first = export_cards(small, target, out)
    (out / "stray.png").write_bytes(b"from an earlier export")
    with open(out / export.MARK, "a", encoding="utf-8") as mark:  # which named it in its mark
        mark.write("stray.png\n")
    again = export_cards(small, target, out)
    assert sorted(p.name for p in out.iterdir()) == sorted([export.MARK] + [p.name for p in again.files])
    assert again.files == first.files and all(path.parent == out for path in again.files)
    assert leftovers(tmp_path) == []


def test_tts_uris_name_the_final_folder(tmp_path, small):
    result = export_cards(small, "tts", tmp_path / "tts")
    saved = json.loads((tmp_path / "tts" / "diamoniak-en.json").read_text(encoding="utf-8"))
    (entry,) = saved["ObjectStates"][0]["CustomDeck"].values()
    assert entry["FaceURL"] == (tmp_path / "tts" / "diamoniak-en-deck-1.png").resolve().as_uri()
    assert entry["BackURL"] == (tmp_path / "tts" / "diamoniak-en-back.png").resolve().as_uri()
    assert all(path.is_file() for path in result.files)


@pytest.mark.parametrize("target", TARGETS)
def test_a_failure_half_way_leaves_the_earlier_folder_untouched(tmp_path, small, monkeypatch, target):
    out = tmp_path / "cards"
    export_cards(small, target, out)
    before = listing(out)
    writes = []

    def failing(path, data):
        writes.append(path)
        if len(writes) == 2 or target == "pdf-single":
            raise RuntimeError("interrupted")
        return real(path, data)

    real = export.write_atomic
    for module in WRITERS:
        monkeypatch.setattr(module, "write_atomic", failing)
    with pytest.raises(RuntimeError):
        export_cards(small, target, out, lang="ru")
    assert listing(out) == before
    assert leftovers(tmp_path) == []


def test_a_failed_first_export_leaves_nothing(tmp_path, small, monkeypatch):
    def full_disk(path, data):
        raise UserError(f"{path}: cannot write here: No space left on device")

    for module in WRITERS:
        monkeypatch.setattr(module, "write_atomic", full_disk)
    with pytest.raises(UserError, match="No space left"):
        export_cards(small, "png", tmp_path / "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_cli_out_with_a_name_too_long_is_one_line(run, tmp_path):
    out = tmp_path / ("x" * 300)
    result = run("export-cards", "--target", "png", "--set", ONLY_RED[0], "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("toolkit: error: ")
    assert "too long" in result.stderr
    assert sorted(tmp_path.iterdir()) == []


def test_cli_out_inside_a_file_is_one_line(run, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run("export-cards", "--target", "tts", "--out", str(blocker / "deck"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "cannot write here" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("command", [("export-cards", "--target", "png"), ("export-cards", "--target", "tts"),
                                     ("print-cards",)])
def test_an_empty_deck_names_the_set_options(run, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = run(*command, "--set", "castle-red=0", *(f"--set={s}" for s in ONLY_RED))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("toolkit: error: --set castle-red=0 --set castle-blue=0 ")
    assert "the deck has no cards" in result.stderr and "diamoniak.toml" not in result.stderr
    assert sorted(tmp_path.iterdir()) == []


def test_a_long_id_is_refused_before_anything_is_written(tmp_path, small):
    long_id = dataclasses.replace(small.cards[0], id="c" * 260)
    catalogue = dataclasses.replace(small, cards=(long_id,) + small.cards[1:])
    with pytest.raises(UserError, match="the id is too long"):
        export_cards(catalogue, "png", tmp_path / "out")
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["print", *TARGETS])
def test_a_thousand_card_deck_draws_each_card_type_once(tmp_path, monkeypatch, target):
    deck = load("diamoniak", overrides=["castle-red=500", "castle-blue=500", *ONLY_RED[1:]])
    assert deck.total == 1000
    drawn = []
    real = Look.face

    def counting(look, card):
        drawn.append(card.id)
        return real(look, card)

    monkeypatch.setattr(Look, "face", counting)
    if target == "print":
        result = sheets.print_cards(deck, duplex="none")
        assert result.cards == 1000
    else:
        export_cards(deck, target, tmp_path / target)
    assert sorted(drawn) == ["castle-blue", "castle-red"]


@pytest.mark.parametrize("target", ["print", *TARGETS])
def test_faces_are_let_go_once_drawn(tmp_path, monkeypatch, target):
    """Each card type's 300 DPI face is drawn, written and let go: holding them all would take
    gigabytes for a deck of hundreds of card types."""
    deck = load("diamoniak")
    alive = []
    real = Look.face

    def tracking(look, card):
        gc.collect()
        alive.append(sum(ref() is not None for ref in faces))
        face = real(look, card)
        faces.append(weakref.ref(face))
        return face

    faces: list[weakref.ref] = []
    monkeypatch.setattr(Look, "face", tracking)
    if target == "print":
        sheets.print_cards(deck)
    else:
        export_cards(deck, target, tmp_path / target)
    assert len(alive) == len(deck.cards) and max(alive) <= 1
