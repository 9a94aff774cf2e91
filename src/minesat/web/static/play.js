// minesat serve's page, the Play tab: a game whose mines stay on the server until it ends (and
// whose seed, when the server drew it, too), the automatic player, hints that come with each move,
// and the game in the URL: a reload or a link reopens it by its id, its moves and clock going on.
import { Board, cellName, compile, COVERED, FLAG, keyBoards, moveIndex, tileSelect } from "./board.js";
import { FORMAT_OF, PRESETS } from "./meta.js";
import { record, showEnd, showReview, showStats, statsKey } from "./playend.js";
import { currentTab, setTabState } from "./tabs.js";
import { $, api, base64, download, extension, mbf, pack, plural, positionText, readFile, setText, sleep,
         unpack, wholeNumber } from "./util.js";
import { describeCell, hintText } from "./words.js";

const G = { game: null, hint: null, hintError: "", hover: -1, busy: false, moves: [], flagMode: false,
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
  if (FORMAT_OF[ext] === "mbf") return { layout: base64(new Uint8Array(await readFile(file, true))), layout_format: "mbf" };
  return { layout: await readFile(file, false), layout_format: FORMAT_OF[ext] || "text" };
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
const known = (seed) => seed !== null && seed !== undefined;
function startGame(state) {
  G.game = state; G.hint = null; G.hintError = ""; G.moves = []; G.autoUsed = false; G.counted = true; G.madeSaid = false;
  G.started = 0;
  clearInterval(G.clock);
  $("p-time").textContent = "0";
  pBoard.setSize(state.rows, state.cols);
  pBoard.states = state.cells;
  $("p-review").hidden = true;
  $("p-end").hidden = true;
  $("p-log").innerHTML = "";
  $("p-log-empty").hidden = false;
  const start = state.start ? " Start at " + state.start + " (outlined in green): the board is won from there by proof alone." :
    state.no_guess ? " No guess: the board is made from the cell you click first, won from there by proof alone." : "";
  // A seed the server drew is kept from the page until the game ends: with it the board is known.
  setText($("p-last"), "Click any cell to start." + start + (known(state.seed) ? " Seed " + state.seed + "." : ""), "muted");
  setText($("p-best"), "");
  showGame();
  updatePlayUrl();
}
// A game reopened by its id (a reload, a link): its moves logged as they were said, its clock going on.
// Whose it is the server says (own): the player's own game is counted in the statistics when it
// ends (unless it has already ended, or it is a copy of someone's game, begun by them).
function reopen(state, options) {
  G.options = options;
  startGame(state);
  for (const entry of state.log) { G.moves.push(entry.move); logMove(entry.text, entry.auto, entry.verdict); }
  G.autoUsed = state.log.some((entry) => entry.auto);
  G.counted = state.own && !state.copy_of && state.status === "playing";
  if (state.status === "playing" && state.elapsed !== null && state.elapsed !== undefined) startClock(state.elapsed);
  if (state.log.length) {
    const whose = !state.copy_of ? "The game " + (state.own ? "you were playing" : "of the link") :
      "A copy of the link's game (theirs stays as it was): the same position, what is hidden drawn afresh" +
      (options && options.no_guess && !state.no_guess ? ", no longer promised to need no guess" : "");
    setText($("p-last"), whose + ", " + plural(state.log.length, "move") + " in" +
      (state.status === "playing" ? ": your turn." : "."), "muted");
  }
  if (state.status !== "playing") finish();
  else refreshHint();
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
  const hint = !over && hintsOn() ? G.hint : null;
  pBoard.states = g.cells;
  pBoard.an = hint ? hint.an : null;
  pBoard.extra = {
    mines: mines, won: g.status === "won", exploded: g.exploded ? moveIndex(g.exploded, g.cols) : -1,
    best: hint && hint.best && hint.best.move ? moveIndex(hint.best.move, g.cols) : -1,
    start: !g.moves && g.start ? moveIndex(g.start, g.cols) : -1,
  };
  pBoard.draw();
  if (hint && hint.best) setText($("p-best"), hintText(hint.best), "hintline");
  else setText($("p-best"), !over && hintsOn() && G.hintError ? "Hint: " + G.hintError : "", "hintline error");
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
// Hints: ticked, each move is asked with its hint (the answer brings both); the choice is kept.
const hintsOn = () => $("p-hint").checked;
$("p-hint").checked = localStorage.getItem("minesat-hints") === "1";
const withHint = (body) => (hintsOn() ? Object.assign(body, { hint: true, marks: true }) : body);
// A hint as the board draws it; marks.complete false: the dead cells were not all looked for in
// the time a move's hint has, and the rest are asked for (completeMarks).
function takeHint(data, g) {
  G.hint = null; G.hintError = "";
  if (!data) return;
  if (data.error) { G.hintError = data.error; return; }
  const marks = data.analysis.marks;
  G.hint = { best: data.best, an: compile(data.analysis, g.rows, g.cols), complete: !marks || marks.complete !== false };
  $("p-board").dataset.hinted = String(g.moves);
}
async function refreshHint() {
  const g = G.game;
  if (!g || !hintsOn() || g.status !== "playing" || !g.moves) { if (g) showGame(); return; }
  const id = g.id, moves = g.moves;
  const result = await api("/api/game/" + id + "/hint", { marks: true });
  if (!G.game || G.game.id !== id || G.game.moves !== moves) return;
  takeHint(result.status === 200 ? result.data : { error: result.data.error }, g);
  showGame();
}
// The marks a move's hint left out, asked once it is shown; one request at a time, for the latest move.
let marksBusy = false;
async function completeMarks() {
  if (marksBusy) return; // the request on its way asks again for the latest move when it is back
  marksBusy = true;
  try {
    for (;;) {
      const g = G.game;
      if (!g || !hintsOn() || g.status !== "playing" || !G.hint || G.hint.complete) return;
      const result = await api("/api/game/" + g.id + "/hint", { marks: true });
      if (G.game && G.game.id === g.id && G.game.moves === g.moves) {
        if (result.status === 200) { takeHint(result.data, g); showGame(); }
        return;
      }
    }
  } finally {
    marksBusy = false;
  }
}
// The clock: seconds since the first uncover (from = where a reopened game's clock stands).
function startClock(from) {
  G.started = performance.now() - (from || 0) * 1000;
  clearInterval(G.clock);
  const tick = () => { $("p-time").textContent = String(Math.floor((performance.now() - G.started) / 1000)); };
  G.clock = setInterval(tick, 200);
  tick();
}
// One move sent (with the hint when hints are on); the answer shown and logged.
async function play(move) {
  const g = G.game;
  if (!g || g.status !== "playing" || G.busy) return null;
  G.busy = true;
  const first = g.moves === 0 && !/[*+-]$/.test(move);
  if (first && !G.started) startClock();
  const t0 = performance.now();
  const result = await making(g, first, api("/api/game/" + g.id + "/move", withHint({ move: move })));
  G.busy = false;
  if (!G.game || G.game.id !== g.id) return null;
  if (result.status !== 200) {
    if (first) { clearInterval(G.clock); G.started = 0; $("p-time").textContent = "0"; }
    setText($("p-last"), move + ": " + result.data.error, "error");
    return null;
  }
  afterMove(result.data);
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
function afterMove(state) {
  G.game = state;
  takeHint(state.hint, state);
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
    const text = last.move + ": " + last.text; // the move judged on what the player could see
    setText($("p-last"), text, last.verdict === "loss" ? "error" : "");
    logMove(text, false, last.verdict);
  }
  showGame();
  updatePlayUrl();
  if (state.status !== "playing") finish();
  else if (hintsOn() && !state.hint) refreshHint();
  else if (G.hint && !G.hint.complete) completeMarks();
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
$("p-hint").addEventListener("change", () => {
  localStorage.setItem("minesat-hints", hintsOn() ? "1" : "0");
  refreshHint();
});
$("p-flagmode").addEventListener("click", () => {
  G.flagMode = !G.flagMode;
  $("p-flagmode").setAttribute("aria-pressed", String(G.flagMode));
  $("p-flagmode").classList.toggle("on", G.flagMode);
});

// The end: the clock stops at the server's time, the panel says how it went, the statistics count
// it (a game of this browser's player, without the automatic player), the review comes.
function finish() {
  const g = G.game;
  clearInterval(G.clock);
  stopAuto();
  const seconds = typeof g.seconds === "number" ? g.seconds : null;
  $("p-time").textContent = seconds === null ? "0" : seconds.toFixed(seconds < 100 ? 2 : 1);
  showEnd(g, seconds, G.autoUsed ? "the automatic player" : g.hinted ? "hints" : "");
  if (!G.autoUsed && G.counted) record(statsKey(g, G.options) + (g.hinted ? ", hints" : ""), g.status === "won", seconds);
  else showStats();
  G.counted = false;
  showReview(g, () => G.game === g);
}
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
  const asked = withHint({ moves: moves, strategy: $("p-strategy").value });
  const result = await making(g, !g.moves, api("/api/game/" + g.id + "/auto", asked));
  G.busy = false;
  if (G.game !== g) return false;
  if (result.status !== 200) { setText($("p-last"), "autoplay: " + result.data.error, "error"); return false; }
  afterMove(result.data);
  $("p-board").dataset.moveMs = String(Math.round(performance.now() - t0));
  return true;
}
async function runAuto() {
  if (G.auto) return;
  if (!G.game || G.game.status !== "playing") {
    if (!(await newGame())) return;
  }
  G.auto = true;
  setText($("p-auto-note"), AUTO_NOTE, "small muted");
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
const AUTO_NOTE = $("p-auto-note").textContent;
function takeOver() { if (G.auto) { stopAuto(); setText($("p-auto-note"), "You have taken over: autoplay paused.", "small muted"); } }
$("p-auto").addEventListener("click", () => { if (G.auto) stopAuto(); else runAuto(); });
$("p-step").addEventListener("click", async () => {
  stopAuto();
  if (!G.game || G.game.status !== "playing") { if (!(await newGame())) return; }
  if (!G.busy) await autoMove();
});

// The game in the URL: its id (a reload or a link reopens it while the server holds it), its options
// (or its layout), a seed the player gave, or the server's once the game is over, and then the
// moves, which make the game again where the server no longer holds it.
let playUrlTimer = null;
function updatePlayUrl() {
  clearTimeout(playUrlTimer);
  playUrlTimer = setTimeout(async () => setTabState("play", await playState()), 200);
}
export async function playState() {
  const g = G.game, o = G.options;
  if (!g || !o) return "";
  const parts = [];
  if (g.copy_of) {
    // A copy is reopened by its id alone: its hidden cells were drawn when it was made, not from a seed.
    parts.push("n=" + g.rows + "x" + g.cols + "x" + g.mines, "r=" + g.rule, "g=" + g.id);
    return parts.join("&");
  }
  if (o.layout) parts.push("n=file", "lf=" + o.layout_format, "l=" + (await pack(o.layout)));
  else {
    parts.push("n=" + g.rows + "x" + g.cols + "x" + g.mines, "r=" + g.rule);
    if (o.no_guess) parts.push("ng=1");
    if (known(g.seed)) parts.push((g.seed_drawn ? "ds=" : "s=") + g.seed);
  }
  if (G.moves.length && (o.layout || known(g.seed))) parts.push("mv=" + (await pack(G.moves.join(","))));
  parts.push("g=" + g.id);
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
      // The seed box holds only a seed the player gave: New game then deals a new board.
      $("p-seed").value = params.get("s") || "";
      body = preset ? { preset: preset } : { rows: rows, cols: cols, mines: mines };
      body.first_click = $("p-rule").value;
      const seed = params.get("s") || params.get("ds");
      if (seed) body.seed = seed;
      if (params.get("ng") === "1") body.no_guess = true;
    }
  } catch (err) {
    setText($("p-new-status"), "The link's game could not be read (" + err.message + ")", "error");
    return;
  }
  const id = params.get("g");
  if (id && G.game && G.game.id === id) { showGame(); return; } // Back to the game on screen: as it is now
  if (id) {
    const result = await api("/api/game/" + encodeURIComponent(id), undefined, undefined, "GET");
    if (result.status === 200) {
      if (!result.data.own && result.data.status === "playing") {
        // Someone's game in progress: played on in a copy, their game left as it is.
        const copy = await api("/api/game/" + encodeURIComponent(id) + "/fork", {});
        if (copy.status === 200) { reopen(copy.data, body); return; }
        setText($("p-new-status"), "The link's game could not be copied: " + copy.data.error, "error");
      }
      reopen(result.data, body);
      return;
    }
  }
  if (!body.layout && !body.seed) {
    setText($("p-new-status"), "The game of the link is no longer on the server: New game deals a new board " +
      "with its options.", "error");
    return;
  }
  const moves = params.has("mv") ? (await unpack(params.get("mv"))).split(",").filter(Boolean) : [];
  if (moves.length) body.moves = moves; // played by the server as the game is made again
  if (!(await newGame(body))) return;
  reopen(G.game, body);
  if (moves.length) G.counted = false; // a game made again from a link's moves is not the player's to count
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
