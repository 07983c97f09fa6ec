// Kurier's page: play against the engine, watch and study played games,
// read piece-value reports. Everything comes from this page's server;
// the rules (legal moves, check, the end of a game) are the engine's.
"use strict";

const $ = (id) => document.getElementById(id);

// Calls the server; an error answer becomes an Error with its message.
async function api(method, path, body, contentType) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = body;
    options.headers["Content-Type"] = contentType || "application/json";
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = { error: text };
  }
  if (!response.ok) {
    throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  }
  return data;
}

function say(id, text, kind) {
  const node = $(id);
  node.textContent = text || "";
  node.classList.toggle("error", kind === "error");
}

function capitalised(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

// "+0.35", "-1.20", "M3" (White mates in 3), "-M2".
function scoreText(score) {
  if (!score) return "";
  if ("cp" in score) {
    const pawns = score.cp / 100;
    return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
  }
  return (score.mate < 0 ? "-" : "") + "M" + Math.abs(score.mate);
}

function clockText(ms) {
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor(tenths / 10) % 60;
  const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
  return ms < 10000 ? `${text}.${tenths % 10}` : text;
}

function endText(over) {
  const reason = over.termination;
  return over.winner ? `${capitalised(over.winner)} wins: ${reason}` : `Draw: ${reason}`;
}

// A move list: numbered pairs of SAN moves, each a clickable span with
// what its mover reported.
function fillMoves(list, moves, startsWhite, firstNumber, current, onPick) {
  list.replaceChildren();
  let item = null;
  moves.forEach((move, index) => {
    const whiteMove = (index % 2 === 0) === startsWhite;
    if (whiteMove || item === null) {
      item = document.createElement("li");
      const number = firstNumber + Math.floor((index + (startsWhite ? 0 : 1)) / 2);
      item.value = number;
      if (!whiteMove) item.appendChild(document.createTextNode("… "));
      list.appendChild(item);
    }
    const span = document.createElement("span");
    span.className = "move";
    span.dataset.ply = String(index + 1);
    span.textContent = move.san;
    const details = [];
    if (move.score) details.push(`${scoreText(move.score)}/${move.depth}`);
    if (move.ms) details.push(`${(move.ms / 1000).toFixed(1)}s`);
    span.title = `${move.uci}${details.length ? " " + details.join(" ") : ""}`;
    if (current === index + 1) span.classList.add("current");
    if (onPick) span.addEventListener("click", () => onPick(index + 1));
    item.appendChild(span);
    if (move.score) {
      const note = document.createElement("small");
      note.textContent = scoreText(move.score);
      item.appendChild(note);
    }
  });
  const now = list.querySelector(".current");
  if (now) now.scrollIntoView({ block: "nearest" });
}

function fullmoveOf(fen) {
  const fields = fen.split(" ");
  return { white: fields[1] !== "b", number: Number(fields[5]) || 1 };
}

// ---------------------------------------------------------------- Play

const play = {
  variants: [],
  view: null,
  events: null,
  selected: null,
  pending: null,
  receivedAt: 0,
  flagAsked: false,
  board: null,
};

function humanIsWhite() {
  return play.view && play.view.human === "white";
}

function renderPlay() {
  const view = play.view;
  if (!view) return;
  const last = view.moves.length ? view.moves[view.moves.length - 1] : null;
  const targets = play.selected
    ? view.legal.filter((m) => m.from === play.selected).map((m) => ({
      to: m.to,
      capture: KurierBoard.pieceAt(view.position.board, squareIndex(m.to)) !== null,
    }))
    : [];
  play.board.draw({
    variant: view.variant,
    board: view.position.board,
    lastMove: last ? { from: last.from, to: last.to } : null,
    check: view.position.check,
    selected: play.selected,
    targets,
  });
  let status;
  if (view.over) status = endText(view.over);
  else if (view.thinking) status = "Kurier is thinking…";
  else if (view.position.side_to_move === view.human) status = `Your move (${capitalised(view.human)})`;
  else status = "Kurier's move";
  say("status", status);
  $("status").dataset.state = view.over ? "over" : view.thinking ? "thinking" : "waiting";
  const start = fullmoveOf(view.start_fen);
  fillMoves($("move-list"), view.moves, start.white, start.number, null, null);
  $("take-back").disabled = !view.can_take_back;
  $("download-pgn").href = `/api/games/${view.id}/pgn`;
  renderClocks();
}

function squareIndex(name) {
  const { file, rank } = KurierBoard.parseSquare(name);
  return rank * play.view.variant.files + file;
}

function renderClocks() {
  const view = play.view;
  const top = $("clock-top");
  const bottom = $("clock-bottom");
  if (!view || !view.clock) {
    top.textContent = "";
    bottom.textContent = "";
    return;
  }
  const spent = performance.now() - play.receivedAt;
  const left = (side) => {
    const ms = view.clock[`${side}_ms`];
    return view.clock.running === side ? Math.max(0, ms - spent) : ms;
  };
  const [upper, lower] = play.board.flipped ? ["white", "black"] : ["black", "white"];
  top.textContent = `${capitalised(upper)} ${clockText(left(upper))}`;
  bottom.textContent = `${capitalised(lower)} ${clockText(left(lower))}`;
  top.classList.toggle("running", view.clock.running === upper);
  bottom.classList.toggle("running", view.clock.running === lower);
  // The person's time ran out here: the server says so when asked.
  const running = view.clock.running;
  if (running && running === view.human && left(running) === 0 && !play.flagAsked) {
    play.flagAsked = true;
    api("GET", `/api/games/${view.id}`).then(showGame).catch((e) => say("message", e.message, "error"));
  }
}

function showGame(view) {
  if (play.view && view.id === play.view.id && view.version < play.view.version) return;
  const changed = !play.view || view.id !== play.view.id || view.version !== play.view.version;
  play.view = view;
  play.receivedAt = performance.now();
  play.flagAsked = false;
  if (changed && !view.legal.some((m) => m.from === play.selected)) play.selected = null;
  renderPlay();
}

function showThinking(thinking) {
  const pv = thinking.pv.join(" ");
  const bound = thinking.bound === "exact" ? "" : ` (${thinking.bound} bound)`;
  $("thinking").textContent =
    `depth ${thinking.depth}/${thinking.seldepth}  score ${scoreText(thinking.score)}${bound}  ` +
    `${thinking.nodes.toLocaleString("en")} nodes  ${Math.round(thinking.nps / 1000)} kn/s  pv ${pv}`;
}

function listen(id) {
  if (play.events) play.events.close();
  const events = new EventSource(`/api/games/${id}/events`);
  events.addEventListener("state", (event) => showGame(JSON.parse(event.data)));
  events.addEventListener("thinking", (event) => showThinking(JSON.parse(event.data)));
  events.addEventListener("error", () => {
    // A closed stream is not retried: the game is gone (server restarted,
    // or too many games since this one was used).
    if (events.readyState === EventSource.CLOSED && play.events === events) {
      say("message", "This game is no longer on the server: start a new game.", "error");
    }
  });
  play.events = events;
}

function fillVariants(selected) {
  const select = $("variant");
  select.replaceChildren();
  for (const variant of play.variants) {
    const option = document.createElement("option");
    option.value = variant.name;
    option.textContent = `${variant.name} (${variant.files}x${variant.ranks})`;
    option.title = variant.description;
    select.appendChild(option);
  }
  if (selected) select.value = selected;
}

function limitOfForm() {
  const kind = document.querySelector("input[name=limit]:checked").value;
  if (kind === "nodes") {
    return { kind: "nodes", nodes: Math.round(Number($("nodes").value)) };
  }
  return {
    kind: "clock",
    base_ms: Math.round(Number($("base-minutes").value) * 60000),
    increment_ms: Math.round(Number($("increment-seconds").value) * 1000),
  };
}

async function newGame() {
  say("message", "");
  $("thinking").textContent = "";
  const request = {
    variant: $("variant").value,
    human: document.querySelector("input[name=side]:checked").value,
    limit: limitOfForm(),
  };
  const fen = $("fen").value.trim();
  if (fen) request.fen = fen;
  try {
    const view = await api("POST", "/api/games", JSON.stringify(request));
    const old = play.view;
    play.view = null;
    play.selected = null;
    play.board.flipped = view.human === "black";
    showGame(view);
    listen(view.id);
    if (old) api("DELETE", `/api/games/${old.id}`).catch(() => {});
  } catch (error) {
    say("message", error.message, "error");
  }
}

async function sendMove(uci) {
  play.selected = null;
  // The engine's reports of its answer may come before this request's.
  $("thinking").textContent = "";
  try {
    showGame(await api("POST", `/api/games/${play.view.id}/move`, JSON.stringify({ uci })));
    say("message", "");
  } catch (error) {
    say("message", error.message, "error");
    renderPlay();
  }
}

function ownPieceOn(name) {
  const piece = KurierBoard.pieceAt(play.view.position.board, squareIndex(name));
  return piece !== null && piece.white === humanIsWhite();
}

function choosePromotion(moves) {
  const box = $("promotion-choices");
  box.replaceChildren();
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.promotion = move.promotion;
    const info = play.view.variant.pieces.find((p) => p.letter === move.promotion);
    button.appendChild(KurierBoard.glyphSvg(play.view.variant, move.promotion, humanIsWhite()));
    button.appendChild(document.createTextNode(info ? info.name : move.promotion));
    button.addEventListener("click", () => {
      $("promotion").classList.add("hidden");
      sendMove(move.uci);
    });
    box.appendChild(button);
  }
  $("promotion").classList.remove("hidden");
}

function clickSquare(name) {
  const view = play.view;
  if (!view) return;
  if (view.over) {
    say("message", `The game is over (${endText(view.over)}): take back or start a new game.`, "error");
    return;
  }
  if (view.legal.length === 0) {
    say("message", "Wait for Kurier's move.", "error");
    return;
  }
  const candidates = play.selected === null
    ? []
    : view.legal.filter((m) => m.from === play.selected && m.to === name);
  if (play.selected === null || name === play.selected || (ownPieceOn(name) && candidates.length === 0)) {
    // Pick a piece, put it down, or pick another.
    play.selected = name === play.selected || !ownPieceOn(name) ? null : name;
    say("message", play.selected === null && !ownPieceOn(name) ? "Pick one of your pieces." : "");
    renderPlay();
    return;
  }
  if (candidates.length > 1) {
    choosePromotion(candidates);
  } else if (candidates.length === 1) {
    sendMove(candidates[0].uci);
  } else {
    // Not a legal move: the server says why.
    sendMove(play.selected + name);
  }
}

async function takeBack() {
  $("thinking").textContent = "";
  try {
    showGame(await api("POST", `/api/games/${play.view.id}/takeback`));
    say("message", "");
  } catch (error) {
    say("message", error.message, "error");
  }
}

async function loadVariantFile(file) {
  try {
    const text = await file.text();
    const variant = await api("POST", `/api/variants?name=${encodeURIComponent(file.name)}`, text, "text/plain");
    play.variants = await api("GET", "/api/variants");
    fillVariants(variant.name);
    say("message", `Loaded ${variant.name} (${variant.files}x${variant.ranks}) from ${file.name}.`);
  } catch (error) {
    say("message", error.message, "error");
  }
}

// --------------------------------------------------------------- Study

const study = { document: null, game: null, ply: 0, board: null };

function renderStudy() {
  const game = study.game;
  if (!game) return;
  const ply = study.ply;
  const shown = ply === 0 ? game.start : game.plies[ply - 1].after;
  const move = ply === 0 ? null : game.plies[ply - 1].move;
  study.board.draw({
    variant: game.variant,
    board: shown.board,
    lastMove: move ? { from: move.from, to: move.to } : null,
    check: shown.check,
    selected: null,
    targets: [],
  });
  const start = fullmoveOf(game.start.fen);
  fillMoves($("study-moves"), game.plies.map((p) => p.move), start.white, start.number, ply, (p) => {
    study.ply = p;
    renderStudy();
  });
  const detail = move && move.score ? `, ${scoreText(move.score)}/${move.depth}` : "";
  $("study-ply").textContent = `${ply} / ${game.plies.length}${move ? ` ${move.san}${detail}` : ""}`;
  KurierBoard.drawGraph($("study-graph"), game.plies, ply, (p) => {
    study.ply = p;
    renderStudy();
  });
}

function stepStudy(to) {
  if (!study.game) return;
  study.ply = Math.max(0, Math.min(study.game.plies.length, to));
  renderStudy();
}

async function openStudyGame(index) {
  try {
    const game = await api("GET", `/api/study/${study.document.id}/games/${index}`);
    study.game = game;
    study.ply = 0;
    for (const row of $("study-games").tBodies[0].rows) {
      row.classList.toggle("current", Number(row.dataset.index) === index);
    }
    const tag = (name) => (game.tags.find(([key]) => key === name) || [name, "?"])[1];
    $("study-game-title").textContent =
      `${tag("White")} - ${tag("Black")} ${game.result}` +
      (tag("Termination") !== "?" ? ` (${tag("Termination")})` : "") + `, ${game.variant.name}`;
    say("study-message", game.error ? `The game stops early: ${game.error}` : "", game.error ? "error" : "");
    renderStudy();
  } catch (error) {
    say("study-message", error.message, "error");
  }
}

function showDocument(document_) {
  study.document = document_;
  $("study-title").textContent = document_.title;
  const body = $("study-games").tBodies[0];
  body.replaceChildren();
  for (const game of document_.games) {
    const row = body.insertRow();
    row.dataset.index = String(game.index);
    for (const cell of [game.index + 1, game.round, game.white, game.black, game.result, game.termination, game.plies]) {
      row.insertCell().textContent = String(cell);
    }
    row.addEventListener("click", () => openStudyGame(game.index));
  }
  say("study-message", "");
  if (document_.games.length > 0) openStudyGame(0);
}

async function openStudyFile(file, endpoint) {
  try {
    const text = await file.text();
    showDocument(await api("POST", `${endpoint}?name=${encodeURIComponent(file.name)}`, text, "text/plain"));
  } catch (error) {
    say("study-message", error.message, "error");
  }
}

function openRunFolder(files) {
  const named = (name) => Array.from(files).find((f) => f.name === name);
  const journal = named("journal.jsonl");
  const pgn = named("games.pgn");
  if (journal) openStudyFile(journal, "/api/study/journal");
  else if (pgn) openStudyFile(pgn, "/api/study/pgn");
  else say("study-message", "That folder has no journal.jsonl or games.pgn: it is not a kurier-tune run folder.", "error");
}

// -------------------------------------------------------------- Report

// A table's head and body, every cell as text.
function fillTable(table, header, rows) {
  const head = document.createElement("tr");
  for (const cell of header) {
    const th = document.createElement("th");
    th.textContent = cell;
    head.appendChild(th);
  }
  table.tHead.replaceChildren(head);
  table.tBodies[0].replaceChildren();
  for (const row of rows) {
    const tr = table.tBodies[0].insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
}

// One paragraph per note, as text (the report's `**` marks dropped).
function fillNotes(box, notes) {
  box.replaceChildren();
  for (const note of notes) {
    const line = document.createElement("p");
    line.textContent = note.replaceAll("**", "");
    box.appendChild(line);
  }
}

async function openReport(file) {
  try {
    const text = await file.text();
    const report = await api("POST", `/api/report?name=${encodeURIComponent(file.name)}`, text, "text/plain");
    say("report-message", "");
    $("report-title").textContent = report.title;
    fillTable($("report-verdicts"), report.verdict_header, report.verdict_rows);
    fillNotes($("report-verdict-notes"), report.verdict_notes);
    fillTable($("report-table"), report.header, report.rows);
    fillNotes($("report-notes"), report.notes);
    const plots = $("report-plots");
    plots.replaceChildren();
    for (const svg of report.plots) {
      // As an image, a plot's text can never run as script.
      const image = document.createElement("img");
      image.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
      image.alt = "piece-value plot";
      plots.appendChild(image);
    }
  } catch (error) {
    say("report-message", error.message, "error");
  }
}

// ---------------------------------------------------------------- Page

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.panel === name);
  }
  for (const panel of document.querySelectorAll(".panel")) {
    panel.classList.toggle("active", panel.id === name);
  }
}

async function start() {
  play.board = new KurierBoard.Board($("play-board"), clickSquare);
  study.board = new KurierBoard.Board($("study-board"), null);
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  }
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  $("take-back").addEventListener("click", takeBack);
  $("flip").addEventListener("click", () => {
    play.board.flipped = !play.board.flipped;
    renderPlay();
  });
  $("promotion-cancel").addEventListener("click", () => $("promotion").classList.add("hidden"));
  $("variant-file").addEventListener("change", (event) => {
    if (event.target.files[0]) loadVariantFile(event.target.files[0]);
    event.target.value = "";
  });
  $("pgn-file").addEventListener("change", (event) => {
    if (event.target.files[0]) openStudyFile(event.target.files[0], "/api/study/pgn");
  });
  $("run-folder").addEventListener("change", (event) => openRunFolder(event.target.files));
  $("report-file").addEventListener("change", (event) => {
    if (event.target.files[0]) openReport(event.target.files[0]);
  });
  $("study-first").addEventListener("click", () => stepStudy(0));
  $("study-prev").addEventListener("click", () => stepStudy(study.ply - 1));
  $("study-next").addEventListener("click", () => stepStudy(study.ply + 1));
  $("study-last").addEventListener("click", () => stepStudy(Infinity));
  document.addEventListener("keydown", (event) => {
    if (!$("study").classList.contains("active") || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: study.ply - 1, ArrowRight: study.ply + 1, Home: 0, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      stepStudy(moves[event.key]);
    }
  });
  setInterval(renderClocks, 100);
  try {
    play.variants = await api("GET", "/api/variants");
    fillVariants("courier-moderno");
    await newGame();
  } catch (error) {
    say("message", error.message, "error");
  }
}

start();
