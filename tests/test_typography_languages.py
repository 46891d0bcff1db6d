"""Every language a deck uses gets its typography: French narrow no-break spaces, Polish and Czech
one-letter words, and the book's own words in the deck's language (or a note naming what is missing)."""

from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

import pypdf
import pytest

from toolkit.catalogue.words import BUILT_IN, COUNTED_WORDS, WORD_KEYS
from toolkit.plurals import plural_forms
from toolkit.typeset.breaks import NBSP, NNBSP, bind, drawn

WEATHERVANE = Path(__file__).resolve().parent.parent / "examples" / "weathervane"


@pytest.mark.parametrize("text, expected", [
    ("Attention : la carte !", f"Attention{NNBSP}: la carte{NNBSP}!"),
    ("Qui gagne? Vraiment ; oui", f"Qui gagne{NNBSP}? Vraiment{NNBSP}; oui"),  # put in where none is written
    ("On dit « girouette » et «non»", f"On dit «{NNBSP}girouette{NNBSP}» et «{NNBSP}non{NNBSP}»"),
    ("Dès 10:30, pose :storm: ici", "Dès 10:30, pose :storm: ici"),  # a time and an icon's colons stay
    ("Ah?! Le mot: la suite", f"Ah{NNBSP}?! Le mot{NNBSP}: la suite"),
])
def test_french_narrow_no_break_spaces(text, expected):
    assert bind(text, "fr") == expected


def test_french_in_reportlab_markup_keeps_the_tags_and_entities():
    assert bind("<b>Attention</b>! Tom &amp; Léa ; fin", "fr", markup=True) == \
        f"<b>Attention</b>{NNBSP}! Tom &amp; Léa{NNBSP}; fin"
    # the fonts have no U+202F: set as a smaller no-break space in markup, a no-break space elsewhere
    assert drawn(f"mot{NNBSP}!", markup=True) == f'mot<font size="-3.5">{NBSP}</font>!'
    assert drawn(f"mot{NNBSP}!") == f"mot{NBSP}!"
    assert bind("Attention : go!", "en") == "Attention : go!"  # English is left alone


def test_no_line_of_a_french_card_text_starts_with_punctuation():
    from toolkit.typeset.breaks import breakable

    words = breakable(bind("Pioche une carte ; le joueur suivant passe son tour ! Qui gagne ?", "fr"))
    assert not any(word[0] in ";:!?»" for word in words)


@pytest.mark.parametrize("lang, text, expected", [
    ("pl", "Idę w las i o tym wiem. Z nim a u mnie", "Idę w~las i~o~tym wiem. Z~nim a~u~mnie"),
    ("cs", "Jdu k lesu s tebou v noci a u nás z domu", "Jdu k~lesu s~tebou v~noci a~u~nás z~domu"),
    ("pl", "karta k s v", "karta k s v"),   # Czech's k s v are no Polish words
    ("cs", "karta w", "karta w"),           # nor is Polish's w Czech
])
def test_polish_and_czech_one_letter_words_stay_with_the_next(lang, text, expected):
    assert bind(text, lang).replace(NBSP, "~") == expected


@pytest.mark.parametrize("lang", ["fr", "pl", "cs"])
def test_the_toolkit_has_its_own_words_in_the_language(lang):
    assert set(BUILT_IN[lang]) == set(WORD_KEYS)
    for key in COUNTED_WORDS:
        assert len(BUILT_IN[lang][key].split("|")) == len(plural_forms(lang)), key
    assert BUILT_IN[lang]["ages"].count("{age}") == 1


def french_deck(folder: Path, lang: str = "fr") -> Path:
    """A small deck of Weathervane's cards in one language only (``lang``), with a rulebook and an aid."""
    root = folder / "girouette"
    shutil.copytree(WEATHERVANE, root)
    names = {"Weathervane": "Girouette", "Sun": "Soleil", "Rain": "Pluie", "Wind": "Vent", "Snow": "Neige"}
    toml = root / "weathervane.toml"
    text = toml.read_text(encoding="utf-8").replace('langs = ["en", "ru"]', f'langs = ["{lang}"]')
    text = re.sub(r"(?m)^rulebook = .*$", f'rulebook = {{ {lang} = "texts/rules.{lang}.md" }}', text)
    text = re.sub(r"(?m)^aid = .*$", f'aid = {{ {lang} = "texts/aid.{lang}.md" }}', text)
    text = re.sub(r'\{ en = "([^"]*)", ru = "[^"]*" \}', lambda m: f'{{ {lang} = "{names[m.group(1)]}" }}', text)
    toml.write_text(text, encoding="utf-8")
    with (root / "cards.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    with (root / "cards.csv").open("w", encoding="utf-8", newline="") as file:
        out = csv.writer(file)
        out.writerow(["id", f"name_{lang}", "copies", "colour", "value", f"text_{lang}"])
        for row in rows:
            name = row["name_en"]
            for en, fr in names.items():
                name = name.replace(en, fr)
            out.writerow([row["id"], name, row["copies"], row["colour"], row["value"],
                          "Le joueur suivant pioche une carte !" if row["text_en"] else ""])
    forms = "|".join(["carte", "cartes", "cartes", "cartes"][:len(plural_forms(lang))])
    (root / "texts" / f"rules.{lang}.md").write_text(f"""\
# Girouette

## Le but du jeu
Soyez le premier à vider votre main ! Qui gagne ? Celui qui pose sa dernière carte : la partie s'arrête.

## Mise en place
{{components}}

- Mélangez les cartes ; distribuez-en {{rule:hand_size|{forms}}} à chaque joueur.
- On dit « girouette » à voix haute.

{{cards}}
""", encoding="utf-8")
    (root / "texts" / f"aid.{lang}.md").write_text("title: Votre tour\n## Poser une carte\n1. Posez une carte.\n",
                                                  encoding="utf-8")
    return toml


def pdf_text(path: Path) -> str:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def test_a_french_book(run, tmp_path):
    out = tmp_path / "regles.pdf"
    result = run("rulebook", "--catalogue", str(french_deck(tmp_path)), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "note" not in result.stderr  # every word the book prints is French
    text = pdf_text(out)
    # the narrow space is set as a (smaller) no-break space the fonts have: pypdf reads it as a space
    assert "main ! Qui gagne ? Celui qui pose sa dernière carte : la partie" in text
    assert "« girouette »" in text and "cartes ; distribuez-en" in text
    assert "40 cartes : Soleil" in text                        # the book's own {components} line
    assert "2–4 joueurs · dès 6 ans · 10–20 minutes" in text   # the deck's facts in French
    assert "Girouette : règles du jeu" in text                 # the footer
    assert "Soleil 1 ×1" in text and "Soleil 5" not in text   # a sample of the 40 cards (Story.shown_cards)
    for english in ("continued", "players", "rules of play", "cards"):
        assert english not in text


def test_a_language_without_the_toolkits_words_gets_english_with_a_note(run, tmp_path):
    out = tmp_path / "regeln.pdf"
    result = run("rulebook", "--catalogue", str(french_deck(tmp_path, "de")), "--out", str(out))
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if "[words.de]" in line]
    assert len(notes) == 1 and "English is printed instead" in notes[0], result.stderr
    assert "players" in pdf_text(out)
