"""export-cards --target tts and screentop: the saved object and manifests read back against the
images (every card id lands on a cell holding that card, the hidden slot is the back, the sheet
limits hold for a deck of 150 faces), --base-url, --saved-objects, the victory-token bags, and the
Screentop grid."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import pytest
from PIL import Image, ImageChops, ImageStat

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.print.export import MARK, export_cards
from toolkit.print.tts import saved_objects_folder

COLOURS = 150


def _colour(i: int) -> tuple[int, int, int]:
    """A colour of its own for each of 150 cards, far from white and from its neighbours."""
    return (40 + (i * 37) % 180, 40 + (i * 71) % 180, 40 + (i * 113) % 180)


def big_deck(folder: Path):
    """150 card types, one copy each, each with a small plain picture of its own colour: a deck
    of more faces than two TTS sheets hold (small pictures keep the test fast)."""
    diamoniak = load("diamoniak")
    cards = []
    for i in range(COLOURS):
        art = folder / f"{i}.png"
        Image.new("RGB", (63, 88), _colour(i)).save(art)
        cards.append(dataclasses.replace(diamoniak.cards[i % len(diamoniak.cards)], id=f"card-{i}", count=1,
                                         name={"en": f"Card {i}", "ru": f"Карта {i}"}, text={"en": "", "ru": ""},
                                         art_path=art))  # no rules text: it would not fit a 25 x 35 mm card
    return dataclasses.replace(diamoniak, cards=tuple(cards))


@pytest.fixture(scope="module")
def big_tts(shared):
    """The big deck's TTS export at 25 x 35 mm, made once per session."""

    def build(folder: Path) -> None:
        (folder / "art").mkdir()
        export_cards(big_deck(folder / "art"), "tts", folder / "big", card_mm=(25, 35), card_size="25x35")

    out = shared.folder_of(("tts big deck", COLOURS), build) / "big"
    return out, json.loads((out / "diamoniak-en.json").read_text(encoding="utf-8"))


def _file(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file"
    return Path(url2pathname(parts.path))


def _cell(sheet: Image.Image, entry: dict, index: int) -> Image.Image:
    w, h = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
    x, y = index % entry["NumWidth"], index // entry["NumWidth"]
    return sheet.crop((x * w, y * h, (x + 1) * w, (y + 1) * h))


def _same(a: Image.Image, b: Image.Image) -> float:
    """Mean difference per channel, 0 to 255."""
    b = b.convert("RGB").resize(a.size, Image.Resampling.LANCZOS)
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b)).mean) / 3


def test_every_card_id_shows_its_own_face_and_sheets_keep_tts_limits(big_tts):
    out, saved = big_tts
    (deck,) = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(deck["CustomDeck"]) == 3  # 69 + 69 + 12 faces
    sheets = {}
    for key, entry in deck["CustomDeck"].items():
        with Image.open(_file(entry["FaceURL"])) as sheet:
            sheets[key] = sheet.convert("RGB")
        sheet = sheets[key]
        assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7 and max(sheet.size) <= 4096
        assert sheet.width % entry["NumWidth"] == 0 and sheet.height % entry["NumHeight"] == 0
        assert entry["BackIsHidden"] is True and _file(entry["BackURL"]) == out.resolve() / "diamoniak-en-back.png"
    assert deck["DeckIDs"] == [card["CardID"] for card in deck["ContainedObjects"]]
    seen = set()
    for card in deck["ContainedObjects"]:
        number = card["CardID"] // 100
        entry = deck["CustomDeck"][str(number)]
        assert card["CustomDeck"] == {str(number): entry}
        index = card["CardID"] % 100
        assert index < entry["NumWidth"] * entry["NumHeight"] - 1  # never the hidden slot
        i = int(card["Nickname"].split()[1])
        cell = _cell(sheets[str(number)], entry, index)
        assert cell.getpixel((cell.width // 2, cell.height // 6)) == pytest.approx(_colour(i), abs=3)
        seen.add(i)
    assert seen == set(range(COLOURS))
    with Image.open(out / "diamoniak-en-back.png") as back:
        for key, entry in deck["CustomDeck"].items():
            hidden = _cell(sheets[key], entry, entry["NumWidth"] * entry["NumHeight"] - 1)
            assert _same(hidden, back) < 4
            assert _same(_cell(sheets[key], entry, 0), back) > 20  # a face is not the back


@pytest.fixture(scope="module")
def palaces_tts(shared):
    out = shared.folder_of(("tts palaces en aids",),
                           lambda folder: export_cards(load("palaces"), "tts", folder, lang="en", aids=True))
    return out, json.loads((out / "palaces-en.json").read_text(encoding="utf-8"))


def test_the_deck_counts_are_the_catalogues_and_the_hidden_slot_is_the_back(palaces_tts):
    tmp_path, saved = palaces_tts
    palaces = load("palaces")
    deck, aids = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    counts = {}
    for card in deck["ContainedObjects"]:
        counts[card["Nickname"]] = counts.get(card["Nickname"], 0) + 1
    assert counts == {card.name["en"]: card.count for card in palaces.cards if card.count}
    (entry,) = aids["CustomDeck"].values()
    assert len(aids["ContainedObjects"]) == 4 and {c["CardID"] for c in aids["ContainedObjects"]} == {200}
    # the aids' hidden slot and back are the aid's own back, never the deck's (or it would shuffle in)
    assert entry["BackURL"].endswith("/palaces-en-player_aid_back.png")
    with Image.open(_file(entry["FaceURL"])) as sheet, Image.open(tmp_path / "palaces-en-back.png") as back, \
            Image.open(_file(entry["BackURL"])) as aid_back:
        assert _same(_cell(sheet, entry, entry["NumWidth"] * entry["NumHeight"] - 1), aid_back) < 4
        assert _same(aid_back, back) > 20
    (deck_entry,) = deck["CustomDeck"].values()
    assert deck_entry["BackURL"].endswith("/palaces-en-back.png")
    # The thumbnail TTS's Saved Objects browser shows, beside the JSON under the same name.
    with Image.open(tmp_path / "palaces-en.png") as thumb:
        assert thumb.size == (256, 256) and thumb.mode == "RGBA"
        assert thumb.getpixel((0, 0))[3] == 0 and thumb.getpixel((128, 128))[3] == 255


def test_palaces_victory_tokens_come_in_bags_with_the_catalogues_counts(palaces_tts):
    _, saved = palaces_tts
    palaces = load("palaces")
    bags = [o for o in saved["ObjectStates"] if o["Name"] == "Bag"]
    assert {bag["Nickname"]: len(bag["ContainedObjects"]) for bag in bags} == {
        token.name["en"]: token.count for token in palaces.tokens}
    for bag in bags:
        (tile,) = {json.dumps(t["CustomImage"]) for t in bag["ContainedObjects"]}  # one image per kind
        tile = json.loads(tile)
        assert {t["Name"] for t in bag["ContainedObjects"]} == {"Custom_Tile"}
        assert tile["CustomTile"]["Type"] == 2  # a circle
        with Image.open(_file(tile["ImageURL"])) as image:
            assert image.width == image.height > 250  # 25 mm at 300 DPI
            assert image.getpixel((image.width // 2, image.height // 10)) != (255, 255, 255)
    guids = [o["GUID"] for o in saved["ObjectStates"]] + [
        t["GUID"] for o in saved["ObjectStates"] for t in o.get("ContainedObjects", [])]
    assert len(guids) == len(set(guids))


def test_diamoniak_has_no_tokens(tmp_path):
    one = load("diamoniak", overrides=[f"{c.id}=0" for c in load("diamoniak").cards if c.id != "witch"])
    export_cards(one, "tts", tmp_path, lang="en")
    saved = json.loads((tmp_path / "diamoniak-en.json").read_text(encoding="utf-8"))
    assert [o["Name"] for o in saved["ObjectStates"]] == ["DeckCustom"]
    assert not list(tmp_path.glob("token_*"))


def _urls(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key.endswith("URL") and isinstance(item, str):
                yield item
            yield from _urls(item)
    elif isinstance(value, list):
        for item in value:
            yield from _urls(item)


def test_base_url_names_the_hosted_files(run, tmp_path):
    one = [f"--set={card.id}=0" for card in load("palaces").cards if card.id != "tower"]
    result = run("export-cards", "--game", "palaces", "--target", "tts", "--base-url", "https://example.com/my%20cards",
                 "--out", str(tmp_path / "out"), *one)
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "out/palaces-en.json").read_text(encoding="utf-8"))
    urls = set(_urls(saved))
    assert urls and all(url.startswith("https://example.com/my%20cards/") for url in urls)
    names = {unquote(url.rsplit("/", 1)[1]) for url in urls}
    assert names == {p.name for p in (tmp_path / "out").iterdir()} - {"palaces-en.json", "palaces-en.png", MARK}
    assert "file:" not in (tmp_path / "out/palaces-en.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("url", ["ftp://example.com/cards/", "example.com/cards", "https:///cards", "file:///tmp/cards",
                                 "https://example.com/cards?x=1", "https://example.com/#top", "https://exa mple.com/",
                                 "https://example.com:port/", "https://example.com/\ncards"])
def test_refused_base_urls(run, tmp_path, url):
    result = run("export-cards", "--target", "tts", "--base-url", url, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: --base-url ")
    assert "http:// or https://" in lines[0]
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []


def test_saved_objects_writes_into_ttss_folder(run, tmp_path, monkeypatch):
    chest = tmp_path / "Saved Objects"
    chest.mkdir()
    monkeypatch.setenv("TTS_SAVED_OBJECTS", str(chest))
    monkeypatch.chdir(tmp_path)
    one = [f"--set={card.id}=0" for card in load("diamoniak").cards if card.id != "witch"]
    result = run("export-cards", "--target", "tts", "--saved-objects", "--lang", "ru", *one)
    assert result.exit_code == 0, result.output
    folder = chest / "diamoniak-ru"
    assert result.output.splitlines()[0] == f"{folder}/"
    assert (folder / "diamoniak-ru.json").is_file() and (folder / "diamoniak-ru.png").is_file()
    saved = json.loads((folder / "diamoniak-ru.json").read_text(encoding="utf-8"))
    assert all(_file(url).parent == folder.resolve() and _file(url).is_file() for url in _urls(saved))
    assert not Path("output").exists()


def test_saved_objects_folder_missing_is_one_line(run, tmp_path, monkeypatch):
    monkeypatch.setenv("TTS_SAVED_OBJECTS", str(tmp_path / "nowhere"))
    result = run("export-cards", "--target", "tts", "--saved-objects")
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert str(tmp_path / "nowhere") in line and "TTS_SAVED_OBJECTS" in line
    monkeypatch.delenv("TTS_SAVED_OBJECTS")
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(UserError, match="Saves/Saved Objects.*start Tabletop Simulator once"):
        saved_objects_folder()
    for platform, where in [("linux", ".local/share"), ("darwin", "Library"), ("win32", "Documents/My Games")]:
        monkeypatch.setattr(sys, "platform", platform)
        default = tmp_path / where / "Tabletop Simulator/Saves/Saved Objects"
        with pytest.raises(UserError, match=re.escape(str(default))):
            saved_objects_folder()
        default.mkdir(parents=True)
        assert saved_objects_folder() == default


def test_same_inputs_same_bytes(tmp_path):
    one = load("palaces", overrides=[f"{c.id}=0" for c in load("palaces").cards if c.id != "tower"])
    export_cards(one, "tts", tmp_path / "a")
    export_cards(one, "tts", tmp_path / "a2")
    a, b = sorted((tmp_path / "a").iterdir()), sorted((tmp_path / "a2").iterdir())
    assert [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b):
        if x.suffix == ".json":  # the file:/// addresses name each folder
            assert x.read_text().replace("/a/", "/a2/") == y.read_text()
        elif x.name == MARK:  # it names the same files; its digests of the JSON files differ with them
            assert [line.split("\t")[0] for line in x.read_text().splitlines()] == \
                [line.split("\t")[0] for line in y.read_text().splitlines()]
        else:
            assert x.read_bytes() == y.read_bytes()


# --- Screentop ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def screentop(shared):
    out = shared.folder_of(("screentop palaces en aids",), lambda folder: export_cards(
        load("palaces"), "screentop", folder / "out", lang="en", aids=True, base_url="https://example.com/st")) / "out"
    return out, json.loads((out / "screentop.json").read_text(encoding="utf-8"))


def test_screentop_grid_cells_hold_the_cards_the_manifest_names(screentop):
    out, manifest = screentop
    palaces = load("palaces")
    (sheet_entry,) = manifest["sheets"]
    with Image.open(out / sheet_entry["file"]) as sheet:
        sheet = sheet.convert("RGB")
    assert sheet_entry["columns"] <= 10 and max(sheet.size) <= 4096
    assert list(sheet.size) == [sheet_entry["columns"] * sheet_entry["cell_px"][0],
                                sheet_entry["rows"] * sheet_entry["cell_px"][1]]
    rows = list(csv.DictReader(io.StringIO((out / "manifest.csv").read_text(encoding="utf-8"))))
    cards = [r for r in rows if r["column"]]
    assert {r["id"]: int(r["count"]) for r in cards} == {c.id: c.count for c in palaces.cards if c.count}
    assert {r["back"] for r in cards} == {"palaces-en-back.png"} and {r["side"] for r in cards} == {"face"}
    w, h = sheet_entry["cell_px"]
    with Image.open(out / "palaces-en-back.png") as back:
        cells = {}
        for r in cards:
            x, y = int(r["column"]) - 1, int(r["row"]) - 1
            cell = sheet.crop((x * w, y * h, (x + 1) * w, (y + 1) * h))
            assert _same(cell, back) > 20
            cells[r["id"]] = cell
    # Two cards of one colour differ in their picture: each cell is its own card.
    assert _same(cells["foundation-red"], cells["roof-red"]) > 5
    # Every image says what it is: a square card and a token look alike by their pixels.
    assert {r["id"]: (int(r["count"]), r["side"], r["back"]) for r in rows if not r["column"]} == {
        "back": (70, "back", ""), "player_aid": (4, "face", "palaces-en-player_aid_reverse.png"),
        "player_aid_back": (4, "back", ""),
        **{t.id: (t.count, "token", f"palaces-en-{t.id}.png") for t in palaces.tokens}}
    assert manifest["sheets"][0]["url"] == "https://example.com/st/palaces-en-faces-1.png"
    assert manifest["back"]["url"] == "https://example.com/st/palaces-en-back.png"


def test_screentop_tokens_are_round(screentop):
    out, manifest = screentop
    tokens = [e for e in manifest["extras"] if e["kind"] == "token"]
    assert len(tokens) == 2
    for token in tokens:
        with Image.open(out / token["file"]) as image:
            assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0
            assert image.getpixel((image.width // 2, image.height // 2))[3] == 255


def test_exports_hosted_together_share_no_image_name_and_no_guid(tmp_path):
    """TTS caches an image by its address, and one --base-url may hold every game and language:
    no two exports of a target name an image alike, and two saved objects at one table share no GUID."""
    names, guids = {"tts": {}, "screentop": {}}, {}
    for game, keep in (("palaces", "tower"), ("diamoniak", "witch")):
        catalogue = load(game, overrides=[f"{c.id}=0" for c in load(game).cards if c.id != keep])
        for lang in ("en", "ru"):
            for target in ("tts", "screentop"):
                out = tmp_path / f"{game}-{target}-{lang}"
                export_cards(catalogue, target, out, lang=lang)
                images = {p.name for p in out.iterdir() if p.suffix == ".png"}
                assert all(name.startswith(f"{game}-{lang}") for name in images), images
                for name in images:
                    assert name not in names[target], (name, names[target].get(name), out.name)
                    names[target][name] = out.name
            saved = json.loads((tmp_path / f"{game}-tts-{lang}" / f"{game}-{lang}.json").read_text("utf-8"))
            ids = {o["GUID"] for o in saved["ObjectStates"]} | {
                t["GUID"] for o in saved["ObjectStates"] for t in o.get("ContainedObjects", [])}
            assert not ids & set(guids), (game, lang)
            guids.update(dict.fromkeys(ids, (game, lang)))
    assert "palaces-en-token-1.png" in names["tts"] and "diamoniak-ru-deck-1.png" in names["tts"]
    assert "palaces-ru-faces-1.png" in names["screentop"]



@pytest.mark.parametrize("target", ["tts", "screentop", "tgc", "png", "pdf-single"])
def test_summaries_say_one_and_many_in_the_right_number(tmp_path, target):
    one = load("palaces", overrides=[f"{c.id}=0" for c in load("palaces").cards if c.id != "tower"] + ["tower=1"])
    summary = export_cards(one, target, tmp_path / "out", card_mm=(44, 63), card_size="mini").summary
    assert "(s)" not in summary and "1 cards" not in summary and "1 faces" not in summary, summary
    assert re.search(r"\b1 (card|face)\b", summary), summary
    assert re.search(r"\b2 (kinds of token|token images|bags|token cards)\b", summary) or target == "pdf-single"
    if target in ("tts", "screentop"):
        assert re.search(r"\b1 (deck|grid) sheet of\b", summary), summary
