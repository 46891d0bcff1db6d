"""``toolkit studio``: the deck in a browser page that follows every save.

* ``deck``: which deck the studio shows (``find_deck``) and its state (``Deck``): the catalogue last
  loaded without a mistake, each card drawn at screen size by the renderer of the PNG exports, and
  which cards a save changed;
* ``actions``: the questions and the printing the page offers, each by the function its command calls;
* ``server``: the page, its assets, the card pictures and the JSON the page calls (Starlette, served by
  uvicorn on 127.0.0.1), and the server-sent events that tell the page what changed;
* ``static/``: the page itself, plain HTML, CSS and JavaScript.

``toolkit.cli.studio`` starts it, and follows the deck's inputs with ``toolkit.cli.watch.follow``.
"""
