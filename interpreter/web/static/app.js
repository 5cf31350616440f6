// The cardrules web table: plays a game from one seat and steps through
// replays. Everything it shows comes from the server's JSON (app.py); the
// table's id is kept in the address (#table=ID) so a reload finds the game.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// pause between the opponent's moves, so they appear one by one (?delay=0 in tests)
const DELAY = Number(params.get("delay") ?? 400);
let games = [];
let view = null;          // the table as last shown
let replay = null;        // {key, steps, step}
let driving = false;

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function api(method, url, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.body = typeof body === "string" ? body : JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
  if (!response.ok) {
    showError(data.error || `the server answered ${response.status}`);
    throw new Error(data.error);
  }
  showError("");
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// ---- the board (a table's or a replay step's)

function counterText(counters) {
  return Object.entries(counters).map(([name, value]) =>
    `${name} ${value === null ? "?" : value}`).join(", ");
}

function cardNode(card, game) {
  if (!card.face_up && card.name === "a face-down card") {
    return el("span", {class: "card down"}, "face down");
  }
  const stats = Object.entries(card.stats).filter(([, v]) => typeof v === "number")
    .map(([k, v]) => `${k} ${v}`).join(" ");
  const marks = [...card.statuses,
    ...Object.entries(card.counters).map(([k, v]) => `${k} ${v}`)].join(", ");
  const node = el("span", {class: "card", "data-name": card.name}, card.name);
  if (stats) node.append(" ", el("span", {class: "stats"}, stats));
  if (marks) node.append(" ", el("span", {class: "statuses"}, `(${marks})`));
  node.addEventListener("click", () => showCard(game, card.name));
  node.addEventListener("mouseenter", async () => {
    if (node.title) return;
    const data = await fetch(`/api/cards/${encodeURIComponent(game)}/${encodeURIComponent(card.name)}`)
      .then((r) => r.ok ? r.json() : null);
    if (data) node.title = data.lines.join("\n");
  }, {once: true});
  return node;
}

async function showCard(game, name) {
  const data = await api("GET", `/api/cards/${encodeURIComponent(game)}/${encodeURIComponent(name)}`);
  $("card-text").textContent = data.lines.join("\n");
  $("card").hidden = false;
}

function zoneNode(zone, game) {
  const node = el("div", {class: "zone", "data-zone": zone.key},
    el("span", {class: "zone-name"}, `${zone.name} (${zone.count})`));
  if (zone.cards) {
    for (const card of zone.cards) node.append(cardNode(card, game));
  } else {
    node.append(el("span", {class: "hidden"}, `${zone.count} hidden`));
  }
  return node;
}

function drawBoard(target, v, game, you) {
  target.replaceChildren();
  const order = [];
  for (let p = 0; p < v.players; p++) if (p !== you) order.push(p);
  if (you !== null && you !== undefined) order.push(you);
  for (const p of order) {
    const mine = p === you;
    const block = el("div", {class: "player" + (mine ? " you" : ""), "data-player": p + 1},
      el("div", {class: "counters", "data-counters": p + 1},
        `Player ${p + 1}${mine ? " (you)" : ""}${v.turn_player === p ? " — their turn" : ""}: `
        + counterText(v.counters[p])));
    for (const zone of v.zones) if (zone.owner === p) block.append(zoneNode(zone, game));
    target.append(block);
  }
  const shared = v.zones.filter((z) => z.owner === null);
  if (shared.length) {
    const block = el("div", {class: "player shared"});
    for (const zone of shared) block.append(zoneNode(zone, game));
    target.append(block);
  }
  const stack = el("div", {id: target.id + "-stack", class: "stack"},
    v.stack && v.stack.length ? `Stack (top last): ${v.stack.map((e) => `${e.source} (player ${e.controller + 1})`
      + (e.nullified ? " — nullified" : "")).join(" | ")}`
      : "Stack: empty");
  target.append(el("div", {}, `Turn ${v.turn}, ${v.period.phase || ""} ${v.period.step || ""}`), stack);
  const events = el("div", {id: target.id + "-events", class: "events"});
  events.textContent = v.events.join("\n");
  target.append(events);
  events.scrollTop = events.scrollHeight;
  if (v.result) target.append(el("div", {id: target.id + "-result", class: "result"}, v.result));
}

// ---- playing

function drawTable(v) {
  view = v;
  $("setup").hidden = true;
  $("table").hidden = false;
  drawBoard($("board"), v, v.game, v.you);
  $("undo").disabled = !v.can_undo;
  $("save").href = `/api/tables/${v.table}/save`;
  const decision = $("decision");
  decision.replaceChildren();
  if (v.result) {
    $("status").textContent = v.result;
  } else if (v.waiting) {
    $("status").textContent = `Player ${v.to_move + 1} is playing…`;
  } else if (v.decision) {
    $("status").textContent = "Your decision";
    decision.append(el("div", {class: "prompt"}, `Player ${v.you + 1}: ${v.decision.heading}`));
    v.decision.options.forEach((label, index) => decision.append(
      el("button", {class: "option", "data-index": index, onclick: () => choose(index)},
        `${index + 1}. ${label}`)));
  }
}

async function drive() {
  // the opponent's moves, one request (and one redraw) each
  if (driving) return;
  driving = true;
  try {
    while (view && view.waiting && !view.result) {
      if (DELAY) await new Promise((r) => setTimeout(r, DELAY));
      drawTable(await api("POST", `/api/tables/${view.table}/advance`));
    }
  } finally {
    driving = false;
  }
}

async function choose(index) {
  for (const button of document.querySelectorAll("button.option")) button.disabled = true;
  try {
    drawTable(await api("POST", `/api/tables/${view.table}/choose`,
      {option: index, version: view.version}));
  } catch (err) {
    if (view) drawTable(await api("GET", `/api/tables/${view.table}`));
  }
  await drive();
}

async function open(v) {
  location.hash = `table=${v.table}`;
  drawTable(v);
  await drive();
}

function fillDecks() {
  const game = games.find((g) => g.id === $("game").value);
  for (const id of ["deck-you", "deck-them"]) {
    $(id).replaceChildren(...game.decks.map((d) => el("option", {value: d}, d)));
  }
  if (game.decks.length > 1) $("deck-them").selectedIndex = 1;
}

async function start(event) {
  event.preventDefault();
  const seat = Number($("seat").value);
  const decks = seat === 1 ? [$("deck-you").value, $("deck-them").value]
    : [$("deck-them").value, $("deck-you").value];
  const budget = $("budget").value.trim();
  const opponent = $("opponent").value + (budget ? `:${budget}` : "");
  await open(await api("POST", "/api/tables", {
    game: $("game").value, decks, seat, opponent, seed: Number($("seed").value || 0)}));
}

// ---- replays

async function openReplay() {
  const file = $("replay-file").files[0];
  if (!file) return;
  const seed = $("replay-seed").value;
  const data = await api("POST", "/api/replays" + (seed ? `?seed=${seed}` : ""), await file.text());
  replay = {key: data.replay, steps: data.steps, step: 0, game: data.game};
  $("replay").hidden = false;
  await drawStep();
}

async function drawStep() {
  const viewer = $("replay-viewer").value;
  const v = await api("GET", `/api/replays/${replay.key}/${replay.step}?viewer=${viewer}`);
  $("replay-step").textContent = `step ${v.step} of ${v.steps}`;
  drawBoard($("replay-board"), v, replay.game, viewer === "all" ? null : Number(viewer) - 1);
}

async function stepTo(step) {
  if (!replay) return;
  replay.step = Math.max(0, Math.min(replay.steps, step));
  await drawStep();
}

// ---- wiring

function showTab(name) {
  $("play").hidden = name !== "play";
  $("replays").hidden = name !== "replays";
}

async function main() {
  for (const tab of document.querySelectorAll("button.tab")) {
    tab.addEventListener("click", () => showTab(tab.dataset.tab));
  }
  const data = await api("GET", "/api/games");
  games = data.games;
  $("game").replaceChildren(...games.map((g) => el("option", {value: g.id}, g.title)));
  $("opponent").replaceChildren(...data.agents.map((a) => el("option", {value: a}, a)));
  $("game").addEventListener("change", fillDecks);
  fillDecks();
  $("setup").addEventListener("submit", (e) => start(e).catch(() => {}));
  $("undo").addEventListener("click", async () =>
    drawTable(await api("POST", `/api/tables/${view.table}/undo`)));
  $("new").addEventListener("click", () => {
    view = null; location.hash = ""; $("table").hidden = true; $("setup").hidden = false;
  });
  $("load").addEventListener("change", async () => {
    const file = $("load").files[0];
    if (file) await open(await api("POST", "/api/tables/load", await file.text())).catch(() => {});
  });
  $("card-close").addEventListener("click", () => { $("card").hidden = true; });
  $("replay-file").addEventListener("change", () => openReplay().catch(() => {}));
  $("replay-viewer").addEventListener("change", () => replay && drawStep());
  $("replay-first").addEventListener("click", () => stepTo(0));
  $("replay-back").addEventListener("click", () => stepTo(replay.step - 1));
  $("replay-forward").addEventListener("click", () => stepTo(replay.step + 1));
  $("replay-last").addEventListener("click", () => stepTo(replay.steps));
  const found = location.hash.match(/table=([\w-]+)/);
  if (found) {
    try {
      await open(await api("GET", `/api/tables/${found[1]}`));
    } catch (err) {
      location.hash = "";
    }
  }
}

main().catch((err) => showError(String(err.message || err)));
