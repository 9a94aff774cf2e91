// minesat serve: the page. Three tabs over the JSON API (docs/commands/serve.md); no library, no build.
//
// The board is a canvas (board.js). What is on screen lives in the URL's fragment (#analyse?...,
// #play?..., #review): reload and Back restore it, and Share turns it into a link.
import { Board, cellName, compile, COVERED, FLAG, keyBoards, moveIndex, percent, tileSelect } from "./board.js";
import { api, base64, download, extension, friendly, mbf, pack, plural, positionText, readFile, setText, sleep,
         unpack, wholeNumber } from "./util.js";

const $ = (id) => document.getElementById(id);

// --- tabs and the URL ---------------------------------------------------------------------
// The fragment says the tab and its state: #analyse?m=10&b=<packed board>, #play?..., #review.
const TABS = ["analyse", "play", "review"];
const tabState = { analyse: "", play: "", review: "" };
let currentTab = "analyse";
function parseHash(hash) {
  const text = hash.replace(/^#/, "");
  const q = text.indexOf("?");
  const tab = q < 0 ? text : text.slice(0, q);
  const params = new Map();
  if (q >= 0) {
    for (const part of text.slice(q + 1).split("&")) {
      const eq = part.indexOf("=");
      if (eq > 0) params.set(part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
    }
  }
  return { tab: TABS.includes(tab) ? tab : "analyse", params: params, state: q < 0 ? "" : text.slice(q + 1) };
}
const hashOf = (tab) => "#" + tab + (tabState[tab] ? "?" + tabState[tab] : "");
function showTab(name) {
  currentTab = name;
  for (const t of document.querySelectorAll(".tabs button")) t.setAttribute("aria-selected", String(t.dataset.tab === name));
  for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== name;
  $("share-link").value = "";
  $("share-note").textContent = "";
}
function goTab(name) {
  if (name === currentTab) return;
  showTab(name);
  history.pushState(null, "", hashOf(name));
}
// A tab's state changed: the URL follows (replacing, so Back goes to the previous tab, not move).
function setTabState(tab, state) {
  tabState[tab] = state;
  if (tab === currentTab && location.hash !== hashOf(tab)) history.replaceState(null, "", hashOf(tab));
}
for (const t of document.querySelectorAll(".tabs button")) t.addEventListener("click", () => goTab(t.dataset.tab));
window.addEventListener("popstate", () => restore(parseHash(location.hash), false));
async function restore(where, first) {
  showTab(where.tab);
  if (where.tab === "analyse" && where.state !== tabState.analyse && where.params.has("b")) await restoreAnalyse(where.params);
  else if (where.tab === "play" && where.state !== tabState.play && where.params.has("n")) await restorePlay(where.params);
  if (first && !A.rows) await loadSample();
}

$("share").addEventListener("click", async () => {
  let state = tabState[currentTab];
  if (currentTab === "analyse") state = await analyseState();
  else if (currentTab === "play") state = await playState();
  const link = location.origin + location.pathname + "#" + currentTab + (state ? "?" + state : "");
  const input = $("share-link");
  input.value = link;
  input.focus();
  input.select();
  let note = currentTab === "analyse" ? "a link to this position and its analysis" :
    currentTab === "play" ? (G.game ? "a link to this game so far (options, seed, moves)" : "a link to the Play tab") :
    "a link to the Review tab (a replay file is not in the link: share the file)";
  try { await navigator.clipboard.writeText(link); note += ", copied"; } catch (err) { /* selected: Ctrl-C copies it */ }
  $("share-note").textContent = note;
});

// --- analyse ----------------------------------------------------------------------------
const A = { rows: 0, cols: 0, mines: null, states: new Int8Array(0), version: 0, raw: null, an: null, best: null,
            hover: -1, proof: null, bad: -1, pointed: -1, pinned: -1, whyCell: -1, tool: "cycle", failed: false, perfectBusy: false, explainTimer: null };
const aBoard = new Board($("a-board"), {
  hover: (i) => aHover(i),
  act: (i, how) => {
    if (how === "right" || how === "long") setCell(i, A.states[i] === FLAG ? COVERED : FLAG);
    else if (how === "left") applyTool(i);
  },
  key: (key, i) => {
    if (key >= "0" && key <= "8" && key.length === 1) setCell(i, Number(key));
    else if (key === "f" || key === "F" || key === "*") setCell(i, A.states[i] === FLAG ? COVERED : FLAG);
    else if (key === " " || key === "?" || key === "Backspace" || key === "Delete") setCell(i, COVERED);
    else return false;
    return true;
  },
});
keyBoards.push(aBoard);
tileSelect($("a-tile"), aBoard, "minesat-tile-analyse");
$("a-print").value = localStorage.getItem("minesat-print") || "mine";
function applyView() {
  const print = $("a-print").value;
  localStorage.setItem("minesat-print", print);
  for (const b of [aBoard, pBoard]) {
    if (!b) continue;
    b.print = print;
    b.show = { dead: $("a-mark-dead").checked, fifty: $("a-mark-fifty").checked, safest: $("a-mark-safest").checked };
    b.draw();
  }
  $("a-scale-end").textContent = print === "safe" ? "100 % chance of a mine (the number on a cell: its chance to be safe)" :
    print === "mine" ? "100 % chance of a mine (the number on a cell)" : "100 % chance of a mine";
}
for (const id of ["a-print", "a-mark-dead", "a-mark-fifty", "a-mark-safest"]) $(id).addEventListener("change", applyView);
for (const b of $("a-tools").querySelectorAll("button")) {
  b.addEventListener("click", () => {
    A.tool = b.dataset.tool;
    for (const o of $("a-tools").querySelectorAll("button")) o.classList.toggle("on", o === b);
  });
}
function applyTool(i) {
  const t = A.tool, s = A.states[i];
  if (t === "cycle") setCell(i, s === COVERED || s === FLAG ? 1 : s >= 8 ? COVERED : s + 1);
  else if (t === "flag") setCell(i, s === FLAG ? COVERED : FLAG);
  else if (t === "covered") setCell(i, COVERED);
  else setCell(i, Number(t));
}

function request() {
  const body = { board: positionText(A.rows, A.cols, A.states, null) };
  if (A.mines !== null) body.mines = A.mines;
  return body;
}
function newBoard(rows, cols, states, mines) {
  A.rows = rows; A.cols = cols; A.mines = mines;
  // The old board's analysis, proof, pointed cell and best move would mislead on the new one.
  A.raw = null; A.an = null; A.best = null; A.hover = -1; A.bad = -1;
  $("a-rows").value = rows; $("a-cols").value = cols; $("a-mines").value = mines === null ? "" : mines;
  A.states = states ? Int8Array.from(states) : new Int8Array(rows * cols).fill(COVERED);
  aBoard.setSize(rows, cols);
  aBoard.states = A.states;
  setText($("a-hover"), "Point at a cell to see its chance of being a mine.", "hover");
  changed();
}
let analyseTimer = null;
function changed() {
  A.version++;
  $("a-board").dataset.version = String(A.version);
  A.proof = null; A.bad = -1; A.pointed = A.pinned = -1;
  setText($("a-why"), "Point at a proven cell: the fewest numbers that force it are outlined.", "muted");
  $("a-why-go").hidden = true;
  A.whyCell = -1;
  redraw();
  clearTimeout(analyseTimer);
  analyseTimer = setTimeout(analyse, 120);
  $("a-perfect-go").disabled = true;
  updateAnalyseUrl();
}
let urlTimer = null;
function updateAnalyseUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(async () => setTabState("analyse", await analyseState()), 250);
}
async function analyseState() {
  const text = positionText(A.rows, A.cols, A.states, null).trimEnd().replace(/\n/g, "/");
  return (A.mines !== null ? "m=" + A.mines + "&" : "") + "b=" + (await pack(text));
}
async function restoreAnalyse(params) {
  let text;
  try { text = await unpack(params.get("b")); } catch (err) {
    setText($("a-load-status"), "The link's position could not be read (" + err.message + ")", "error");
    return;
  }
  const mines = params.has("m") && /^\d+$/.test(params.get("m")) ? Number(params.get("m")) : null;
  const lines = text.split("/");
  const result = await api("/api/position", { board: lines.join("\n") + "\n" });
  if (result.status !== 200) { setText($("a-load-status"), "The link's position: " + friendly(result.data.error, false), "error"); return; }
  const p = result.data;
  $("a-text").value = (mines !== null ? "# mines: " + mines + "\n" : "") + lines.join("\n") + "\n";
  newBoard(p.rows, p.cols, p.cells, mines);
}
function redraw() {
  aBoard.an = A.an;
  aBoard.extra = { best: A.best && A.best.move ? moveIndex(A.best.move, A.cols) : -1, proof: A.proof, bad: A.bad,
                   pointed: A.pointed };
  aBoard.draw();
}
// A list of cell names, summarised past a screenful: the first ones and how many more.
const LIST_SHOWN = 40;
function cellList(el, label, cells) {
  el.innerHTML = "";
  const names = (k) => cells.slice(0, k).map(([r, c]) => cellName(r, c)).join(" ");
  el.appendChild(document.createTextNode(label + ": " + (cells.length ? "" : "–")));
  if (!cells.length) return;
  const body = document.createElement("span");
  body.textContent = names(LIST_SHOWN);
  el.appendChild(body);
  if (cells.length > LIST_SHOWN) {
    const more = document.createElement("button");
    more.className = "linkish";
    more.textContent = "… and " + (cells.length - LIST_SHOWN).toLocaleString("en") + " more (show all)";
    more.addEventListener("click", () => { body.textContent = names(cells.length); more.remove(); });
    el.appendChild(document.createTextNode(" "));
    el.appendChild(more);
  }
}
// Boards of more cells than this are analysed first without the marks (they add seconds to a
// 300x300 analysis), and the marks follow once the analysis and the best move are on screen.
const MARKS_LATER = 10000;
async function analyse() {
  const version = A.version, later = A.rows * A.cols > MARKS_LATER;
  setText($("a-status"), "analysing…", "muted");
  const t0 = performance.now();
  const result = await api("/api/analyze", Object.assign(request(), { marks: !later }));
  if (version !== A.version) return; // edited meanwhile: a newer answer is coming
  const arrived = performance.now();
  A.failed = result.status !== 200;
  if (result.status === 200) {
    const a = result.data;
    A.raw = a;
    A.an = compile(a, A.rows, A.cols);
    setText($("a-status"), a.safe.length + " proven safe, " + a.mine.length + " proven mines, " + a.unknown.length +
      " uncertain" + (a.mines === null ? " (total unknown: no probabilities)" : "") +
      (a.exact ? "" : "; probabilities estimated"), "ok");
    cellList($("a-safe"), "Safe", a.safe);
    cellList($("a-mine"), "Mines", a.mine);
    showMarks();
  } else {
    A.raw = null; A.an = null; A.best = null;
    const what = result.status === 422 ? "Impossible position: " : result.status === 400 ? "Bad board: " : "";
    const message = friendly(result.data.error.replace(/^inconsistent position: /, ""), true);
    setText($("a-status"), what + message, "error");
    for (const id of ["a-safe", "a-mine", "a-best", "a-marks"]) setText($(id), "");
    // The cell the message names is outlined on the board.
    const named = result.data.cell || (/^([A-Z]+[0-9]+)\b/.exec(message) || [])[1];
    A.bad = named ? moveIndex(named, A.cols) : -1;
  }
  redraw();
  // Said on the board, for whoever waits for the analysis of what is shown (the browser tests).
  $("a-board").dataset.analysed = String(version);
  $("a-board").dataset.shownMs = String(Math.round(performance.now() - t0));
  $("a-board").dataset.paintMs = String(Math.round(performance.now() - arrived));
  if (A.hover >= 0) aHover(A.hover);
  autoPerfect();
  // The move best makes, asked once the analysis is on screen: on a big board it takes a while,
  // and asked beside the analysis it would share the cores with it.
  if (A.failed) return;
  const best = await api("/api/best", request());
  if (version !== A.version || A.failed) return;
  A.best = best.status === 200 ? best.data : null;
  setText($("a-best"), A.best && A.best.move ? "best plays " + A.best.move + ": " + describeBest(A.best)
    : A.best ? "best: " + A.best.reason : best.data.error ? "best: " + best.data.error : "");
  redraw();
  if (!later) return;
  setText($("a-marks"), "Dead cells and unavoidable guesses: being found…", "small muted");
  const marked = await api("/api/analyze", Object.assign(request(), { marks: true }));
  if (version !== A.version || marked.status !== 200) return;
  A.raw = marked.data;
  A.an = compile(marked.data, A.rows, A.cols);
  showMarks();
  redraw();
  $("a-board").dataset.marked = String(version);
}
function showMarks() {
  const an = A.an, parts = [];
  if (!an) return;
  if (an.hasMarks) {
    const dead = an.dead, groups = an.fifty;
    parts.push("Dead: " + (dead.length ? dead.slice(0, 20).map(([r, c]) => cellName(r, c)).join(" ") +
      (dead.length > 20 ? " and " + (dead.length - 20) + " more" : "") : "none") +
      (an.complete ? "" : " (not all found on a board this big)"));
    parts.push("No play tells apart: " + (groups.length ? groups.slice(0, 10).map((g) => g.map(([r, c]) => cellName(r, c)).join("–")).join(", ") +
      (groups.length > 10 ? " and " + (groups.length - 10) + " more" : "") : "none"));
  }
  if (an.safest.length) {
    parts.push("Safest guess" + (an.safest.length > 1 ? "es" : "") + " (" + percent(an.least, 2) + " mine): " +
      an.safest.slice(0, 12).map((i) => cellName(Math.floor(i / A.cols), i % A.cols)).join(" ") +
      (an.safest.length > 12 ? " and " + (an.safest.length - 12) + " more" : ""));
  }
  setText($("a-marks"), parts.filter(Boolean).join(". "), "small");
}
function describeBest(best) {
  if (best.reason === "guess") return "a guess, mine probability " + percent(best.probability, 2);
  return best.reason;
}
function setCell(i, state) {
  if (A.states[i] === state) return;
  A.states[i] = state;
  changed();
}
// What the analysis says of one cell, in words (the line under the board).
function describeCell(an, states, cols, i, extra) {
  const r = Math.floor(i / cols), c = i % cols, name = cellName(r, c), s = states[i];
  extra = extra || {};
  if (s >= 0) return name + ": " + (s ? "the number " + s : "an empty cell (0)");
  if (extra.exploded === i) return name + ": the mine that went off";
  if (s === FLAG) {
    if (extra.mines) return name + (extra.mines.has(i) ? ": a flag on a mine" : ": a flag, but no mine here");
    return name + ": a flag (counted as a mine)";
  }
  if (extra.mines && extra.mines.has(i)) return name + ": a mine";
  if (extra.mines) return name + ": covered, no mine";
  if (!an) return name + ": covered";
  const notes = [];
  if (an.marks[i] & 1) notes.push("dead: its number cannot matter");
  if (an.marks[i] & 2) notes.push("no play can tell it from " + groupOf(an, i, cols));
  if (an.marks[i] & 4) notes.push("a safest guess");
  const tail = notes.length ? " (" + notes.join("; ") + ")" : "";
  if (an.kind[i] === 1) return name + ": proven safe" + tail;
  if (an.kind[i] === 2) return name + ": proven mine" + tail;
  const p = an.prob[i];
  if (p !== p) return name + ": uncertain (give the total number of mines for its probability)";
  return name + ": mine probability " + percent(p, 2) + " (safe " + percent(1 - p, 2) + ")" + (an.exact ? "" : ", estimated") + tail;
}
function groupOf(an, i, cols) {
  const g = an.groups.get(i), names = [];
  for (const [j, h] of an.groups) if (h === g && j !== i) names.push(cellName(Math.floor(j / cols), j % cols));
  return names.join(", ");
}
function aHover(i) {
  A.hover = i;
  if (i < 0) {
    setText($("a-hover"), "Point at a cell to see its chance of being a mine.", "hover");
    return;
  }
  setText($("a-hover"), describeCell(A.an, A.states, A.cols, i), "hover");
  const proven = A.an && A.an.kind[i] && A.states[i] === COVERED;
  if (!proven) {
    if (A.proof) { A.proof = null; redraw(); }
    return;
  }
  if (A.rows * A.cols > EXPLAIN_BY_ITSELF) {
    // Each proof is a search over the whole board: on a big one, asked for, not at every move.
    A.whyCell = i;
    $("a-why-go").textContent = "Why is " + cellName(Math.floor(i / A.cols), i % A.cols) + " " +
      (A.an.kind[i] === 1 ? "safe" : "a mine") + "?";
    $("a-why-go").hidden = false;
    return;
  }
  clearTimeout(A.explainTimer);
  A.explainTimer = setTimeout(() => explain(i, false), 60);
}
// Proofs come by themselves on boards of up to this many cells (pointing is enough).
const EXPLAIN_BY_ITSELF = 2500;
async function explain(i, asked) {
  const version = A.version, name = cellName(Math.floor(i / A.cols), i % A.cols);
  if (asked) setText($("a-why"), "finding the numbers that force " + name + "…", "muted");
  const result = await api("/api/explain", Object.assign(request(), { cell: name }));
  if (version !== A.version || (!asked && A.hover !== i)) return;
  if (result.status !== 200) { setText($("a-why"), friendly(result.data.error, true), "error"); return; }
  const e = result.data;
  const because = e.numbers.slice();
  if (e.uses_total) because.push("the total number of mines");
  setText($("a-why"), e.cell + " is " + (e.mine ? "a mine" : "safe") + " because of " + because.join(", "));
  A.proof = new Set(e.numbers.map((n) => moveIndex(n, A.cols)));
  redraw();
}
$("a-why-go").addEventListener("click", () => { if (A.whyCell >= 0) explain(A.whyCell, true); });
$("a-new").addEventListener("click", () => {
  const rows = wholeNumber($("a-rows"), "rows", 1, 1000);
  const cols = wholeNumber($("a-cols"), "columns", 1, 1000);
  const cells = rows.value && cols.value ? rows.value * cols.value : null;
  const mines = wholeNumber($("a-mines"), "mines", 0, cells, true);
  const error = rows.error || cols.error || mines.error;
  if (error) { setText($("a-size-status"), error, "error"); return; }
  setText($("a-size-status"), "");
  newBoard(rows.value, cols.value, null, mines.value);
});
$("a-mines").addEventListener("change", () => {
  const mines = wholeNumber($("a-mines"), "mines", 0, A.rows * A.cols, true);
  if (mines.error) { setText($("a-size-status"), mines.error + " (the analysis keeps " +
    (A.mines === null ? "no total" : A.mines) + ")", "error"); return; }
  setText($("a-size-status"), "");
  A.mines = mines.value;
  changed();
});
async function load(text, format, source) {
  const version = A.version;
  setText($("a-load-status"), "reading…", "muted");
  const result = await api("/api/position", { board: text, format: format });
  if (version !== A.version) return; // the board was changed meanwhile: that change wins
  if (result.status !== 200) {
    // Said where the text is; the board and its analysis stay as they were, and say so.
    setText($("a-load-status"), (source ? source + ": " : "") + friendly(result.data.error, false) +
      " (the board shown is still the one before)", "error");
    return false;
  }
  setText($("a-load-status"), source ? "read " + source : "");
  const p = result.data;
  newBoard(p.rows, p.cols, p.cells, p.mines);
  return true;
}
$("a-load").addEventListener("click", () => load($("a-text").value, $("a-format").value));
async function openBoardFile(file) {
  const ext = extension(file.name);
  const format = ext === "mine" ? "mine" : ext === "json" ? "json" : "text";
  $("a-format").value = format;
  const text = await readFile(file, false);
  $("a-text").value = text;
  await load(text, format, file.name);
}
$("a-file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (file) await openBoardFile(file);
  ev.target.value = "";
});
$("a-save-text").addEventListener("click", () => {
  download("position.txt", positionText(A.rows, A.cols, A.states, A.mines), "text/plain");
  setText($("a-save-status"), "position.txt: " + A.rows + "x" + A.cols + (A.mines === null ? "" : ", " + A.mines + " mines"), "small muted");
});
$("a-save-mbf").addEventListener("click", () => {
  const mines = [];
  for (let i = 0; i < A.states.length; i++) if (A.states[i] === FLAG || (A.an && A.an.kind[i] === 2 && A.states[i] === COVERED)) mines.push(i);
  const why = A.mines === null ? "give the total number of mines" :
    mines.length !== A.mines ? "MBF holds a layout: every mine must be flagged or proven (" + mines.length + " of " + A.mines + " known)" :
    A.rows > 255 || A.cols > 255 ? "MBF holds boards up to 255x255" : "";
  if (why) { setText($("a-save-status"), why, "small error"); return; }
  download("layout.mbf", mbf(A.rows, A.cols, mines), "application/octet-stream");
  setText($("a-save-status"), "layout.mbf: the " + mines.length + " mines", "small muted");
});

// Perfect play: on request, or by itself when few cells are covered. Compute is off while it runs
// and where it cannot run (an impossible position, the total unknown).
const PERFECT_BY_ITSELF = 12;
function autoPerfect() {
  const covered = A.states.reduce((n, s) => n + (s === COVERED), 0);
  $("a-ranking").innerHTML = "";
  $("a-perfect-go").disabled = A.failed || A.mines === null || !covered || A.perfectBusy;
  if (A.failed) setText($("a-perfect"), "Not for an impossible position.", "muted");
  else if (A.an && A.mines !== null && covered > 0 && covered <= PERFECT_BY_ITSELF) perfect();
  else setText($("a-perfect"), A.mines === null ? "Needs the total number of mines." : !covered ? "Nothing is covered." :
    "Press Compute: every move's exact chance to win (it stops after 25 s on big positions).", "muted");
}
async function perfect() {
  const version = A.version;
  A.perfectBusy = true;
  $("a-perfect-go").disabled = true;
  setText($("a-perfect"), "searching…", "muted");
  $("a-ranking").innerHTML = "";
  const result = await api("/api/perfect", request());
  A.perfectBusy = false;
  if (version !== A.version) return;
  $("a-perfect-go").disabled = false;
  if (result.status !== 200) { setText($("a-perfect"), friendly(result.data.error, true), "error"); return; }
  const d = result.data;
  setText($("a-perfect"), "Chance to win with perfect play: " + percent(d.win_probability, 2) + " (" + d.wins +
    " of " + d.layouts + " layouts), " + d.states + " states in " + d.seconds + " s");
  const table = $("a-ranking");
  if (d.ranking && d.ranking.length) {
    // Best first; every move that keeps the whole chance is starred, so ties read as ties.
    table.innerHTML = "<caption>All " + d.ranking.length + " moves, best first; ★ keeps the whole chance. " +
      "Point at one to see it on the board, click it to scroll to it.</caption>" +
      "<thead><tr><th>move</th><th>chance to win</th><th>layouts won</th></tr></thead>";
    const body = table.createTBody();
    for (const m of d.ranking) {
      const tr = body.insertRow();
      tr.dataset.i = String(moveIndex(m.cell, A.cols));
      tr.title = m.cell + ": " + m.wins + " of " + d.layouts + " layouts won, then playing perfectly";
      const best = m.wins === d.wins;
      if (best) tr.className = "top";
      for (const v of [(best ? "★ " : "") + m.cell, percent(m.win_probability, 2), String(m.wins)]) {
        tr.insertCell().textContent = v;
      }
    }
  } else {
    const row = table.insertRow(), td = row.insertCell();
    td.style.textAlign = "left";
    td.textContent = "Moves that keep this chance: " + (d.moves.join(" ") || "–");
  }
}
$("a-perfect-go").addEventListener("click", () => { if (!A.perfectBusy) perfect(); });
// Pointing at a ranked move outlines its cell on the board; where the cell is out of view the row
// says so, and a click on the row brings the cell into view.
$("a-ranking").addEventListener("mouseover", (ev) => {
  const tr = ev.target.closest("tr[data-i]");
  if (!tr) return;
  A.pointed = Number(tr.dataset.i);
  redraw();
  const away = !aBoard.inView(A.pointed);
  tr.classList.toggle("away", away);
});
$("a-ranking").addEventListener("mouseout", () => { A.pointed = A.pinned; redraw(); });
$("a-ranking").addEventListener("click", (ev) => {
  const tr = ev.target.closest("tr[data-i]");
  if (!tr) return;
  A.pointed = A.pinned = Number(tr.dataset.i);
  aBoard.host.scrollIntoView({ block: "nearest", behavior: "instant" });
  aBoard.reveal(A.pointed);
  redraw();
  tr.classList.remove("away");
});

// --- play -------------------------------------------------------------------------------
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
applyView();

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
function setLayoutFile(file) {
  G.layoutFile = file;
  $("p-layout-name").textContent = file ? "playing " + file.name + " (as it is, no first-click rule)" : "";
  $("p-layout-clear").hidden = !file;
}
$("p-layout").addEventListener("change", (ev) => { setLayoutFile(ev.target.files[0] || null); ev.target.value = ""; });
$("p-layout-clear").addEventListener("click", () => setLayoutFile(null));

// A new game: the form's options (or the link's), then the game's first state.
async function newGame(given) {
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
async function playState() {
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
async function restorePlay(params) {
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

// --- review -----------------------------------------------------------------------------
// A viewer page in its frame, as tall as its content (no scrolling inside a scrolling page).
// step: the step to show first (the viewer's #step=N), when a page replaces another.
function showViewer(frame, html, step) {
  frame.onload = () => {
    const doc = frame.contentDocument;
    if (!doc) return;
    const fit = () => { frame.style.height = Math.max(300, doc.documentElement.scrollHeight + 4) + "px"; };
    fit();
    new ResizeObserver(fit).observe(doc.documentElement);
    // The viewer's own slider: it shows the step it is set to (once the viewer has shown its first).
    const slider = doc.getElementById("slider");
    if (step > 1 && slider) {
      setTimeout(() => { slider.value = String(step); slider.dispatchEvent(new Event("input")); }, 50);
    }
  };
  frame.srcdoc = html;
}
// The step a viewer shows (its slider's), or 0.
function viewerStep(frame) {
  const slider = frame.contentDocument && frame.contentDocument.getElementById("slider");
  return slider ? Number(slider.value) : 0;
}
const R = { data: null, name: "", job: null };
const REPLAYS = ["avf", "rmv", "mvf", "evf"];
async function openReplay(file) {
  const ext = extension(file.name);
  const bytes = await readFile(file, true);
  R.data = bytes; R.name = file.name; R.job = null;
  setText($("r-progress"), "");
  $("r-games-box").hidden = true;
  $("r-review").hidden = true;
  if (bytes.byteLength > 1 << 20) {
    setText($("r-status"), file.name + " is " + (bytes.byteLength / 1048576).toFixed(1) + " MB: the page takes files up to 1 MB " +
      "(minesat replay " + file.name + " --html review.html reviews it on the command line)", "error");
    return;
  }
  setText($("r-status"), "reading " + file.name + "…", "muted");
  if (REPLAYS.includes(ext)) {
    const result = await api("/api/replay?name=" + encodeURIComponent(file.name), undefined, bytes);
    if (result.status !== 200) { setText($("r-status"), result.data.error, "error"); return; }
    setText($("r-status"), result.data.title, "ok");
    showViewer($("r-viewer"), result.data.page);
    $("r-review").hidden = false;
    $("r-review").dataset.analysed = result.data.done === false ? "no" : "yes";
    if (result.data.done === false) await follow(result.data.job, result.data.moves);
    return;
  }
  const result = await api("/api/store?name=" + encodeURIComponent(file.name), undefined, bytes);
  if (result.status !== 200) { setText($("r-status"), result.data.error, "error"); return; }
  const d = result.data;
  if (!d.replayable) { setText($("r-status"), d.run + ": a run over a board set; its games cannot be replayed from the database", "error"); return; }
  const select = $("r-games");
  select.innerHTML = "";
  for (const g of d.games) {
    const option = document.createElement("option");
    option.value = String(g.game);
    option.textContent = "game " + g.game + ": " + (g.won ? "won" : "lost") + ", " + g.guesses + " guesses";
    select.appendChild(option);
  }
  const lost = d.games.find((g) => !g.won);
  if (lost) select.value = String(lost.game);
  setText($("r-status"), d.run + ": " + d.stored + " games" + (d.games.length < d.stored ? " (the first " + d.games.length + " listed)" : ""), "ok");
  $("r-games-box").hidden = false;
}
// A long game's moves are shown at once; each move's analysis follows, and then replaces the page,
// at the step the player is looking at.
async function follow(job, moves) {
  R.job = job;
  const t0 = performance.now();
  const progress = (judged, total) => setText($("r-progress"), "Each move is being analysed: " +
    (total ? judged + " of " + total + " judged, " : "") + ((performance.now() - t0) / 1000).toFixed(0) +
    " s. Step through the moves meanwhile; the analysis appears here when it is done.", "small muted");
  progress(0, moves);
  while (R.job === job) {
    await sleep(1000);
    const result = await api("/api/replay/" + job, undefined, undefined, "GET");
    if (R.job !== job) return;
    if (result.status !== 200) { setText($("r-progress"), result.data.error, "small error"); return; }
    const d = result.data;
    if (!d.done) { progress(d.judged || 0, d.moves || moves); continue; }
    showViewer($("r-viewer"), d.page, viewerStep($("r-viewer")));
    setText($("r-status"), d.title, "ok");
    setText($("r-progress"), "Every move analysed in " + ((performance.now() - t0) / 1000).toFixed(0) + " s.", "small muted");
    $("r-review").dataset.analysed = "yes";
    return;
  }
}
async function showStored() {
  setText($("r-status"), "replaying game " + $("r-games").value + "…", "muted");
  const path = "/api/store?name=" + encodeURIComponent(R.name) + "&game=" + $("r-games").value;
  const result = await api(path, undefined, R.data);
  if (result.status !== 200) { setText($("r-status"), result.data.error, "error"); return; }
  setText($("r-status"), result.data.title, "ok");
  showViewer($("r-viewer"), result.data.page);
  $("r-review").hidden = false;
}
$("r-show").addEventListener("click", showStored);
$("r-file").addEventListener("change", (ev) => {
  if (ev.target.files[0]) openReplay(ev.target.files[0]);
  ev.target.value = "";
});

// --- a file dropped anywhere: to the tab that reads it; the browser never navigates to it ----
const BOARD_FILES = ["txt", "dat", "mine", "json"];
const STORES = ["sqlite", "db", "sqlite3"];
let dragDepth = 0;
window.addEventListener("dragenter", (ev) => { ev.preventDefault(); dragDepth++; document.body.classList.add("dragging"); });
window.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; document.body.classList.remove("dragging"); } });
window.addEventListener("dragover", (ev) => { ev.preventDefault(); if (ev.dataTransfer) ev.dataTransfer.dropEffect = "copy"; });
window.addEventListener("drop", (ev) => {
  ev.preventDefault();
  dragDepth = 0;
  document.body.classList.remove("dragging");
  const file = ev.dataTransfer && ev.dataTransfer.files[0];
  if (file) openDropped(file);
});
async function openDropped(file) {
  const ext = extension(file.name), note = $("drop-note");
  note.hidden = true;
  if (REPLAYS.includes(ext) || STORES.includes(ext)) { goTab("review"); await openReplay(file); }
  else if (ext === "mbf") { goTab("play"); setLayoutFile(file); await newGame(); }
  else if (BOARD_FILES.includes(ext)) { goTab("analyse"); await openBoardFile(file); }
  else {
    note.textContent = file.name + ": not a file the page reads (boards .txt .dat .mine .json go to Analyse, a layout " +
      ".mbf to Play, replays .avf .rmv .mvf .evf and databases .sqlite to Review)";
    note.hidden = false;
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

// A first board to look at: a beginner game part way through (puzzles/beginner-mid.txt).
const SAMPLE = "# mines: 10\n     2???\n     2???\n    12???\n    2????\n    2????\n  112????\n" +
  "  2??????\n112??????\n?????????\n";
async function loadSample() {
  $("a-text").value = SAMPLE;
  await load(SAMPLE, "text");
}
const where = parseHash(location.hash);
if (!location.hash) history.replaceState(null, "", "#analyse");
restore(where, true);
