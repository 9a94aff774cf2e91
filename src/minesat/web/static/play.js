// minesat serve's page, the Play tab: a game whose mines stay on the server until it ends, the
// automatic player, hints, the end of a game and its review, statistics kept in this browser.
import { Board, cellName, compile, COVERED, FLAG, keyBoards, moveIndex, percent, tileSelect } from "./board.js";
import { showViewer } from "./review.js";
import { currentTab, setTabState } from "./tabs.js";
import { $, api, base64, download, extension, mbf, pack, plural, positionText, readFile, setText, sleep,
         unpack, wholeNumber } from "./util.js";
import { describeBest, describeCell } from "./words.js";

const G = { game: null, hint: null, hover: -1, busy: false, moves: [], flagMode: false,
            auto: false, autoUsed: false, started: 0, clock: null,
            counted: true, layoutFile: null, options: null, madeSaid: false };
const pBoard = new Board($("p-board"), {
  hover: (i) => pHover(i),
  act: (i, how) => pAct(i, how),
  key: (key, i) => {
    if (!G.game) return false;
    if (key === " ") pAct(i, "space");
    else if (key === "e" || key === "E") pAct(i, "key");
    else if (key === "w" || key === "W" || key === "f" || key === "F") pAct(i, "right");
    else if (key === "n" || key === "N" || key === "F2") newGame();
    else return false;
    return true;
  },
});
keyBoards.push(pBoard);
tileSelect($("p-tile"), pBoard, "minesat-tile-play");
// The player's move on cell i (how: left, right, middle, space, long, key): it stops the automatic
// player, whose move on its way is answered first. Flag mode turns a click into a flag.
async function pAct(i, how) {
  takeOver();
  while (G.busy) await sleep(15);
  if (how === "long" || (how === "left" && G.flagMode)) moveAt(i, "right");
  else moveAt(i, how === "key" ? "left" : how);
}

$("p-preset").addEventListener("change", () => { $("p-custom").hidden = $("p-preset").value !== "custom"; });
const PRESETS = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [16, 30, 99] };
// The options of the form, checked: {body} (the request) or {error}.
function gameOptions() {
  const body = { first_click: $("p-rule").value };
  if ($("p-preset").value === "custom") {
    const r = wholeNumber($("p-rows"), "rows", 1, 100), c = wholeNumber($("p-cols"), "columns", 1, 100);
    const m = wholeNumber($("p-mines"), "mines", 0, r.value && c.value ? r.value * c.value : null);
    const error = r.error || c.error || m.error;
    if (error) return { error: error };
    body.rows = r.value; body.cols = c.value; body.mines = m.value;
  } else {
    body.preset = $("p-preset").value;
  }
  const seed = $("p-seed").value.trim();
  $("p-seed").classList.remove("bad");
  if (seed !== "") {
    if (!/^\d+$/.test(seed)) { $("p-seed").classList.add("bad"); return { error: "the seed is a whole number >= 0 (or empty: a random one)" }; }
    body.seed = seed; // a string: past 2^53 a JavaScript number would round it
  }
  if ($("p-noguess").checked) body.no_guess = true;
  return { body: body };
}
async function layoutBody(file) {
  const ext = extension(file.name);
  if (ext === "mbf") return { layout: base64(new Uint8Array(await readFile(file, true))), layout_format: "mbf" };
  return { layout: await readFile(file, false), layout_format: ext === "mine" ? "mine" : ext === "json" ? "json" : "text" };
}
export function setLayoutFile(file) {
  G.layoutFile = file;
  $("p-layout-name").textContent = file ? "playing " + file.name + " (as it is, no first-click rule)" : "";
  $("p-layout-clear").hidden = !file;
}
$("p-layout").addEventListener("change", (ev) => { setLayoutFile(ev.target.files[0] || null); ev.target.value = ""; });
$("p-layout-clear").addEventListener("click", () => setLayoutFile(null));

// A new game: the form's options (or the link's), then the game's first state.
export async function newGame(given) {
  stopAuto();
  let body;
  if (given) body = given;
  else if (G.layoutFile) body = await layoutBody(G.layoutFile);
  else {
    const options = gameOptions();
    if (options.error) { setText($("p-new-status"), options.error, "error"); return false; }
    body = options.body;
  }
  setText($("p-new-status"), "");
  $("p-new").disabled = true;
  const result = await api("/api/game", body);
  $("p-new").disabled = false;
  if (result.status !== 200) { setText($("p-new-status"), result.data.error, "error"); return false; }
  G.options = body;
  startGame(result.data);
  return true;
}
function startGame(state) {
  G.game = state; G.hint = null; G.moves = []; G.autoUsed = false; G.counted = true; G.madeSaid = false;
  G.started = 0;
  clearInterval(G.clock);
  pBoard.setSize(state.rows, state.cols);
  pBoard.states = state.cells;
  $("p-review").hidden = true;
  $("p-end").hidden = true;
  $("p-log").innerHTML = "";
  $("p-log-empty").hidden = false;
  const start = state.start ? " Start at " + state.start + " (outlined in green): the board is won from there by proof alone." :
    state.no_guess ? " No guess: the board is made from the cell you click first, won from there by proof alone." : "";
  setText($("p-last"), "Click any cell to start." + start + (state.seed !== null && state.seed !== undefined ? " Seed " + state.seed + "." : ""), "muted");
  setText($("p-best"), "");
  showGame();
  updatePlayUrl();
}
function flagsOf(cells) { let n = 0; for (const s of cells) if (s === FLAG) n++; return n; }
function showGame() {
  const g = G.game;
  const over = g.status !== "playing";
  const flags = flagsOf(g.cells);
  $("p-left").textContent = String(g.status === "won" ? 0 : g.mines - flags);
  const state = $("p-state");
  state.textContent = g.status === "playing" ? (g.moves ? "playing" : "ready") : g.status;
  state.className = "badge" + (g.status === "won" ? " v-won" : g.status === "lost" ? " v-lost" : "");
  const mines = over && g.mine_cells ? new Set(g.mine_cells.map((n) => moveIndex(n, g.cols))) : null;
  const hint = !over && $("p-hint").checked ? G.hint : null;
  pBoard.states = g.cells;
  pBoard.an = hint ? hint.an : null;
  pBoard.extra = {
    mines: mines, won: g.status === "won", exploded: g.exploded ? moveIndex(g.exploded, g.cols) : -1,
    best: hint && hint.best && hint.best.move ? moveIndex(hint.best.move, g.cols) : -1,
    start: !g.moves && g.start ? moveIndex(g.start, g.cols) : -1,
  };
  pBoard.draw();
  setText($("p-best"), hint && hint.best && hint.best.move ? "Hint: best plays " + hint.best.move + " (" +
    describeBest(hint.best) + ")" : "", "hintline");
  const list = $("p-guesses");
  list.innerHTML = "";
  for (const guess of g.guesses) {
    const li = document.createElement("li");
    li.textContent = guess.move + ": " + guess.text;
    if (/hit a mine/.test(guess.text)) li.className = "loss";
    list.appendChild(li);
  }
  list.hidden = !g.guesses.length;
  $("p-guess-none").hidden = g.guesses.length > 0;
  $("p-guess-none").textContent = over ? "No guesses: every move was proven safe." :
    "None yet: each guess is listed here with its chance of a mine.";
  if (G.hover >= 0) pHover(G.hover);
  $("p-board").dataset.moves = String(g.moves);
  $("p-board").dataset.game = g.id;
  $("p-board").dataset.status = g.status;
}
function pHover(i) {
  G.hover = i;
  if (!G.game) return;
  if (i < 0) { setText($("p-hover"), "", "hover"); return; }
  setText($("p-hover"), describeCell(pBoard.an, G.game.cells, G.game.cols, i, pBoard.extra), "hover");
}
async function refreshHint() {
  const g = G.game;
  if (!g || !$("p-hint").checked || g.status !== "playing" || !g.moves) { if (g) showGame(); return; }
  const id = g.id, moves = g.moves;
  const result = await api("/api/game/" + id + "/hint", { marks: true });
  if (!G.game || G.game.id !== id || G.game.moves !== moves) return;
  if (result.status === 200) {
    G.hint = { best: result.data.best, an: compile(result.data.analysis, g.rows, g.cols) };
  } else {
    G.hint = null;
    setText($("p-best"), "Hint: " + result.data.error, "hintline error");
  }
  showGame();
}
function startClock() {
  G.started = performance.now();
  clearInterval(G.clock);
  G.clock = setInterval(() => { $("p-time").textContent = String(Math.floor((performance.now() - G.started) / 1000)); }, 200);
  $("p-time").textContent = "0";
}
// One move sent; the answer shown and logged. how: "auto" for the automatic player's.
async function play(move, auto, reason) {
  const g = G.game;
  if (!g || g.status !== "playing" || G.busy) return null;
  G.busy = true;
  const first = g.moves === 0 && !/[*+-]$/.test(move);
  if (first && !G.started) startClock();
  const t0 = performance.now();
  const result = await making(g, first, api("/api/game/" + g.id + "/move", { move: move }));
  G.busy = false;
  if (!G.game || G.game.id !== g.id) return null;
  if (result.status !== 200) {
    if (first) { clearInterval(G.clock); G.started = 0; $("p-time").textContent = "0"; }
    setText($("p-last"), move + ": " + result.data.error, "error");
    return null;
  }
  afterMove(result.data, auto, reason);
  $("p-board").dataset.moveMs = String(Math.round(performance.now() - t0));
  return result.data;
}
// While the first uncover of a no-guess game makes its board: how long, how many layouts tried.
async function making(g, first, request) {
  if (!first || !g.no_guess) return request;
  let done = false;
  const t0 = performance.now();
  (async () => {
    while (!done) {
      await sleep(500);
      if (done) break;
      const state = await api("/api/game/" + g.id, undefined, undefined, "GET");
      const tried = state.status === 200 && state.data.making ? ", " + plural(state.data.making.tries, "layout") + " tried" : "";
      if (!done) setText($("p-new-status"), "making a no-guess board… " + ((performance.now() - t0) / 1000).toFixed(0) + " s" + tried, "muted");
    }
  })();
  const result = await request;
  done = true;
  if (result.status !== 200) setText($("p-new-status"), "No no-guess board: " + result.data.error, "error");
  return result;
}
function afterMove(state, auto, reason) {
  G.game = state; G.hint = null;
  const last = state.last;
  if (state.made && !G.madeSaid) {
    G.madeSaid = true;
    setText($("p-new-status"), "No-guess board made from " + state.start + ": " +
      plural(state.made.tries, "layout") + " tried in " + state.made.seconds.toFixed(1) + " s (" + state.made.method + ")", "muted");
  }
  if (state.auto) {
    // The automatic player's moves, each with its reason.
    for (const step of state.auto) {
      G.moves.push(step.move);
      logMove(step.text || step.move + ": " + step.reason, true, step === state.auto[state.auto.length - 1] &&
        state.status === "lost" ? "loss" : step.reason);
    }
    const step = state.auto[state.auto.length - 1];
    if (step) setText($("p-last"), "autoplay " + (step.text || step.move + ": " + step.reason), state.status === "lost" ? "error" : "");
  } else if (last) {
    G.moves.push(last.move);
    // The automatic player's reason (proven safe, a guess and its risk), else the move judged.
    const text = reason && !/^[A-Z]+[0-9]+[*+-]?: /.test(reason) ? last.move + ": " + reason :
      reason || last.move + ": " + last.text;
    setText($("p-last"), (auto ? "autoplay " : "") + text, last.verdict === "loss" ? "error" : "");
    logMove(text, auto, last.verdict);
  }
  showGame();
  updatePlayUrl();
  if (state.status !== "playing") finish();
  else refreshHint();
}
function logMove(text, auto, verdict) {
  const li = document.createElement("li");
  li.textContent = text;
  li.className = (auto ? "auto " : "") + (verdict === "loss" ? "loss" : verdict === "guess" || verdict === "needless guess" ? "guess" : "");
  const log = $("p-log");
  log.insertBefore(li, log.firstChild);
  while (log.children.length > 300) log.lastChild.remove();
  $("p-log-empty").hidden = true;
}
function moveAt(i, button) {
  const g = G.game;
  if (!g || g.status !== "playing") return;
  const r = Math.floor(i / g.cols), c = i % g.cols, name = cellName(r, c), s = g.cells[i];
  if (button === "left") {
    if (s === COVERED) play(name);
    else if (s > 0) play(name + "+");
  } else if (button === "right" || button === "space") {
    if (s === COVERED) play(name + "*");
    else if (s === FLAG) play(name + "-");
    else if (s > 0) play(name + "+");
  } else if (s > 0) play(name + "+");
}
$("p-new").addEventListener("click", () => newGame());
$("p-end-again").addEventListener("click", () => newGame());
$("p-hint").addEventListener("change", refreshHint);
$("p-flagmode").addEventListener("click", () => {
  G.flagMode = !G.flagMode;
  $("p-flagmode").setAttribute("aria-pressed", String(G.flagMode));
  $("p-flagmode").classList.toggle("on", G.flagMode);
});

// The end: the clock stops, the panel says how it went, the statistics count it, the review comes.
function finish() {
  const g = G.game;
  clearInterval(G.clock);
  stopAuto();
  // The server's clock (first uncover to last move); the page's when it has none.
  const seconds = typeof g.seconds === "number" ? g.seconds : G.started ? (performance.now() - G.started) / 1000 : 0;
  $("p-time").textContent = seconds.toFixed(seconds < 100 ? 2 : 1);
  const bbbv = g.bbbv;
  const survive = g.guesses.reduce((p, x) => p * (1 - (x.probability || 0)), 1);
  const won = g.status === "won";
  $("p-end").className = "endpanel " + (won ? "won" : "lost");
  $("p-end-head").textContent = won ? "Won" + (G.autoUsed ? " (with the automatic player)" : "") + "!" :
    "Lost: " + (g.exploded ? g.exploded + " was a mine" : "a mine went off");
  const figures = [["time", seconds.toFixed(2) + " s"], ["3BV", String(bbbv)],
    ["3BV/s", seconds > 0 ? (bbbv / seconds).toFixed(2) : "–"],
    ["guesses", g.guesses.length ? g.guesses.length + ", all survived: " + percent(survive, 1) + " chance" : "none: every move proven"]];
  if (g.guesses.length) {
    const risky = g.guesses.reduce((a, b) => ((b.probability || 0) > (a.probability || 0) ? b : a));
    figures.push(["riskiest", risky.move + " (" + percent(risky.probability || 0, 1) + " mine)"]);
  }
  const dl = $("p-end-figures");
  dl.innerHTML = "";
  for (const [k, v] of figures) {
    const div = document.createElement("div"), dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = k; dd.textContent = v;
    div.append(dt, dd); dl.appendChild(div);
  }
  $("p-end").hidden = false;
  record(g, won, seconds);
  review();
}
async function review() {
  const g = G.game;
  const result = await api("/api/game/" + g.id + "/review");
  if (G.game !== g) return;
  if (result.status !== 200) { setText($("p-last"), "The review: " + result.data.error, "error"); return; }
  // The viewer page heads itself with the review's summary: the game, the result, the guesses.
  showViewer($("p-viewer"), result.data.page);
  $("p-review").hidden = false;
}
$("p-end-review").addEventListener("click", () => $("p-review").scrollIntoView({ behavior: "smooth", block: "start" }));
$("p-save-text").addEventListener("click", () => {
  const g = G.game;
  if (g) download("game.txt", positionText(g.rows, g.cols, g.cells, g.mines), "text/plain");
});
$("p-save-mbf").addEventListener("click", () => {
  const g = G.game;
  if (!g || !g.mine_cells) return;
  const data = mbf(g.rows, g.cols, g.mine_cells.map((n) => moveIndex(n, g.cols)));
  if (data) download("layout.mbf", data, "application/octet-stream");
});

// Statistics across games, in this browser: games, wins and the best time per board.
const STATS_KEY = "minesat-stats";
function statsKey(g) {
  const size = g.rows + "x" + g.cols + "/" + g.mines;
  const name = Object.keys(PRESETS).find((k) => PRESETS[k].join() === [g.rows, g.cols, g.mines].join());
  return (name || size) + (G.options && G.options.no_guess ? " no-guess" : "") + (G.options && G.options.layout ? " (layout file)" : "");
}
function readStats() {
  try { return JSON.parse(localStorage.getItem(STATS_KEY)) || {}; } catch (err) { return {}; }
}
function record(g, won, seconds) {
  if (G.autoUsed || !G.counted) { showStats(); return; }
  G.counted = false;
  const stats = readStats(), key = statsKey(g);
  const s = stats[key] || { games: 0, wins: 0, best: null };
  s.games++;
  if (won) { s.wins++; if (s.best === null || seconds < s.best) s.best = Math.round(seconds * 100) / 100; }
  stats[key] = s;
  localStorage.setItem(STATS_KEY, JSON.stringify(stats));
  showStats();
}
function showStats() {
  const stats = readStats(), keys = Object.keys(stats);
  const box = $("p-stats");
  if (!keys.length) { box.innerHTML = '<p class="muted">No game finished yet.</p>'; return; }
  let html = '<table class="stats"><thead><tr><th>board</th><th>games</th><th>won</th><th>best</th></tr></thead><tbody>';
  for (const k of keys) {
    const s = stats[k];
    html += "<tr><td></td><td>" + s.games + "</td><td>" + s.wins + " (" + Math.round(100 * s.wins / s.games) + " %)</td><td>" +
      (s.best === null ? "–" : s.best.toFixed(2) + " s") + "</td></tr>";
  }
  box.innerHTML = html + "</tbody></table>";
  box.querySelectorAll("tbody tr").forEach((tr, k) => { tr.cells[0].textContent = keys[k]; });
}
$("p-stats-reset").addEventListener("click", () => { localStorage.removeItem(STATS_KEY); showStats(); });
showStats();

// The automatic player: one move at a time, at the chosen speed; a click on the board takes over.
async function autoMove() {
  const g = G.game;
  if (!g || g.status !== "playing") return false;
  G.autoUsed = true;
  G.busy = true;
  if (!g.moves && !G.started) startClock();
  // At full speed several moves a request; the board shows where they lead.
  const moves = Number($("p-speed").value) ? 1 : 20;
  const t0 = performance.now();
  const result = await making(g, !g.moves, api("/api/game/" + g.id + "/auto", { moves: moves }));
  G.busy = false;
  if (G.game !== g) return false;
  if (result.status !== 200) { setText($("p-last"), "autoplay: " + result.data.error, "error"); return false; }
  afterMove(result.data, true);
  $("p-board").dataset.moveMs = String(Math.round(performance.now() - t0));
  return true;
}
async function runAuto() {
  if (G.auto) return;
  if (!G.game || G.game.status !== "playing") {
    if (!(await newGame())) return;
  }
  G.auto = true;
  $("p-auto").textContent = "⏸ pause";
  $("p-auto").classList.add("on");
  while (G.auto && G.game && G.game.status === "playing") {
    if (!(await autoMove())) break;
    const delay = Number($("p-speed").value);
    if (delay) await sleep(delay); else await sleep(0);
  }
  stopAuto();
}
function stopAuto() {
  G.auto = false;
  $("p-auto").textContent = "▶ autoplay";
  $("p-auto").classList.remove("on");
}
function takeOver() { if (G.auto) { stopAuto(); setText($("p-auto-note"), "You have taken over: autoplay paused.", "small muted"); } }
$("p-auto").addEventListener("click", () => { if (G.auto) stopAuto(); else runAuto(); });
$("p-step").addEventListener("click", async () => {
  stopAuto();
  if (!G.game || G.game.status !== "playing") { if (!(await newGame())) return; }
  if (!G.busy) await autoMove();
});

// The game in the URL: its options (or its layout), the seed and the moves so far.
let playUrlTimer = null;
function updatePlayUrl() {
  clearTimeout(playUrlTimer);
  playUrlTimer = setTimeout(async () => setTabState("play", await playState()), 200);
}
export async function playState() {
  const g = G.game, o = G.options;
  if (!g || !o) return "";
  const parts = [];
  if (o.layout) parts.push("lf=" + o.layout_format, "l=" + (await pack(o.layout)));
  else {
    parts.push("n=" + g.rows + "x" + g.cols + "x" + g.mines, "r=" + g.rule);
    if (o.no_guess) parts.push("ng=1");
    parts.push("s=" + g.seed);
  }
  if (G.moves.length) parts.push("mv=" + (await pack(G.moves.join(","))));
  if (o.layout) parts.unshift("n=file");
  return parts.join("&");
}
export async function restorePlay(params) {
  let body;
  try {
    if (params.get("n") === "file") {
      body = { layout: await unpack(params.get("l")), layout_format: params.get("lf") || "text" };
    } else {
      const size = /^(\d+)x(\d+)x(\d+)$/.exec(params.get("n"));
      if (!size) throw new Error("no board size");
      const [rows, cols, mines] = size.slice(1).map(Number);
      const preset = Object.keys(PRESETS).find((k) => PRESETS[k].join() === [rows, cols, mines].join());
      $("p-preset").value = preset || "custom";
      $("p-custom").hidden = !!preset;
      $("p-rows").value = rows; $("p-cols").value = cols; $("p-mines").value = mines;
      $("p-rule").value = params.get("r") || "opening";
      $("p-noguess").checked = params.get("ng") === "1";
      $("p-seed").value = params.get("s") || "";
      body = preset ? { preset: preset } : { rows: rows, cols: cols, mines: mines };
      body.first_click = $("p-rule").value;
      if (params.get("s")) body.seed = params.get("s");
      if (params.get("ng") === "1") body.no_guess = true;
    }
  } catch (err) {
    setText($("p-new-status"), "The link's game could not be read (" + err.message + ")", "error");
    return;
  }
  const moves = params.has("mv") ? (await unpack(params.get("mv"))).split(",").filter(Boolean) : [];
  if (moves.length) body.moves = moves; // played by the server as the game is made
  if (!(await newGame(body))) return;
  G.moves = moves.slice();
  G.counted = moves.length === 0;
  if (moves.length) {
    setText($("p-last"), "The game of the link, " + plural(moves.length, "move") + " in" +
      (G.game.status === "playing" ? ": your turn." : "."), "muted");
    if (G.game.status !== "playing") finish();
  }
}

// F2 starts a new game in Play, unless a text field has the keys.
window.addEventListener("keydown", (ev) => {
  if (ev.key !== "F2" || currentTab !== "play") return;
  const t = ev.target.tagName;
  if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
  ev.preventDefault();
  newGame();
});
export const currentGame = () => G.game;
