// toolkit studio: the deck as it prints, redrawn after every save without reloading the page.
"use strict";

const settings = JSON.parse(document.getElementById("settings").textContent);
window.studioStarted = Date.now();  // stays as long as the page is not reloaded
window.studioSwaps = [];  // {id, at}: each card picture replaced after a save, once shown

const $ = (id) => document.getElementById(id);
let deck = null;  // the last answer of /api/deck
let shown = "";  // the cards in the grid, in order, and the view they were drawn for

function lang() {
  return $("lang").value || settings.lang || "";
}

function size() {
  return $("size").value === "other" ? ($("size-mm").value.trim() || settings.size) : $("size").value;
}

async function call(name, params = {}, method = "GET") {
  const headers = {"X-Studio-Token": settings.token};
  let url = "/api/" + name;
  let body;
  if (method === "GET") {
    url += "?" + new URLSearchParams(params);
  } else {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(params);
  }
  const answer = await fetch(url, {method, headers, body});
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || answer.statusText);
  return data;
}

function picture(card, side) {
  const digest = side === "back" ? card.back : card.front;
  return `/card/${encodeURIComponent(size())}/${encodeURIComponent(deck.lang)}/${side}/` +
         `${encodeURIComponent(card.id)}.png?v=${digest}`;
}

function element(tag, attributes = {}, text = "") {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  if (text) made.textContent = text;
  return made;
}

function showAlert(line) {
  $("alert").textContent = line || "";
  $("alert").hidden = !line;
}

function drawCards() {
  const side = $("backs").checked ? "back" : "front";
  const printed = deck.cards.filter((card) => card.count > 0);
  const order = deck.view + "|" + printed.map((card) => card.id).join(",");
  const width = deck.card_mm[0] * 3 + "px";
  if (order !== shown) {
    shown = order;
    $("cards").replaceChildren(...printed.map((card) => {
      const box = element("figure", {"data-card": card.id, title: card.name, class: "card"});
      const img = element("img", {alt: card.name, src: picture(card, side)});
      img.style.width = width;
      box.append(img, element("figcaption", {}, `${card.count} × ${card.name}`));
      return box;
    }));
    return;
  }
  for (const card of printed) {  // the same cards: replace only the pictures that changed
    const box = $("cards").querySelector(`[data-card="${CSS.escape(card.id)}"]`);
    box.title = card.name;
    box.querySelector("figcaption").textContent = `${card.count} × ${card.name}`;
    const img = box.querySelector("img");
    img.alt = card.name;
    const src = picture(card, side);
    if (img.getAttribute("src") !== src) {
      img.addEventListener("load", () => window.studioSwaps.push({id: card.id, at: Date.now()}), {once: true});
      img.src = src;
    }
  }
}

function drawTable() {
  const head = ["id", "kind", "colour", "count", "name", "text", ...deck.fields];
  const row = (cells, tag = "td") => {
    const tr = element("tr");
    tr.append(...cells.map((cell) => element(tag, {}, String(cell))));
    return tr;
  };
  $("table").tHead.replaceChildren(row(head, "th"));
  $("table").tBodies[0].replaceChildren(...deck.cards.map((card) =>
    row([card.id, card.kind, card.colour, card.count, card.name, card.text, ...deck.fields.map((f) => card.fields[f])])));
  const kinds = Object.entries(deck.kinds).map(([kind, count]) => `${count} ${kind}`).join(", ");
  const foot = row(["total", "", "", deck.total, `${deck.cards.length} kinds of card: ${kinds}`, ""]);
  $("table").tFoot.replaceChildren(foot);
}

function fillChoices(select, values, chosen) {
  if (select.options.length) return;
  select.replaceChildren(...values.map((value) => element("option", {value}, value)));
  select.value = chosen;
}

async function refresh() {
  let answer;
  try {
    answer = await call("deck", {size: size(), lang: lang()});
  } catch (err) {
    showAlert(err.message);
    return;
  }
  deck = answer;
  showAlert(deck.error);
  $("title").textContent = deck.title;
  $("source").textContent = deck.source;
  document.title = `${deck.title}: toolkit studio`;
  fillChoices($("lang"), deck.langs, deck.lang);
  fillChoices($("target"), deck.targets, "png");
  $("play").hidden = !deck.playable;
  drawCards();
  drawTable();
}

async function ask(out, name, params = {}, method = "GET") {
  out.textContent = "Working…";
  out.classList.remove("failed");
  try {
    const answer = await call(name, params, method);
    out.textContent = answer.lines.join("\n");
    return answer;
  } catch (err) {
    out.textContent = err.message;
    out.classList.add("failed");
    return null;
  }
}

function summary() {
  ask($("summary-out"), "summary", {lang: lang()});
}

function start() {
  const presets = ["poker", "bridge", "mini", "tarot"];
  const first = presets.includes(settings.size) ? settings.size : "other";
  $("size").replaceChildren(...[...presets, "other"].map((value) =>
    element("option", {value}, value === "other" ? "other size" : value)));
  $("size").value = first;
  if (first === "other") $("size-mm").value = settings.size;
  $("other-size").hidden = first !== "other";
  $("size").addEventListener("change", () => {
    $("other-size").hidden = $("size").value !== "other";
    refresh();
  });
  $("size-mm").addEventListener("change", refresh);
  $("lang").addEventListener("change", () => { refresh(); summary(); });
  $("backs").addEventListener("change", () => { shown = ""; drawCards(); });
  $("view").addEventListener("submit", (event) => event.preventDefault());
  $("hand-form").addEventListener("submit", (event) => {
    event.preventDefault();
    ask($("hand-out"), "hand", {hand: $("hand").value, where: $("where").value, at_least: $("at-least").value});
  });
  $("figures-button").addEventListener("click", () => ask($("play-out"), "figures"));
  $("simulate-button").addEventListener("click", () => ask($("play-out"), "simulate"));
  const what = () => ({size: size(), lang: lang()});
  $("sheets-button").addEventListener("click", () => ask($("print-out"), "sheets", what(), "POST"));
  $("export-button").addEventListener("click", () =>
    ask($("print-out"), "export", {...what(), target: $("target").value}, "POST"));
  $("rulebook-button").addEventListener("click", async () => {
    $("rulebook-pages").replaceChildren();
    const answer = await ask($("print-out"), "rulebook", {lang: lang()}, "POST");
    if (answer) {
      $("rulebook-pages").replaceChildren(...answer.pages.map((src, n) =>
        element("img", {src, alt: `rulebook page ${n + 1}`})));
    }
  });
  const events = new EventSource("/events");
  events.addEventListener("deck", (event) => {
    const change = JSON.parse(event.data);
    if (change.error) {
      showAlert(change.error);
    } else {
      refresh();
      summary();
    }
  });
  let opened = false;
  events.addEventListener("open", () => {  // a studio started again: catch up
    if (opened) refresh();
    opened = true;
  });
  refresh();
  summary();
}

start();
