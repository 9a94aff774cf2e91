// minesat serve's page, the Analyse tab: build or load a position; the analysis follows every edit.
import { Board, cellName, compile, COVERED, FLAG, keyBoards, moveIndex, percent, tileSelect } from "./board.js";
import { FORMAT_OF, META } from "./meta.js";
import { setTabState } from "./tabs.js";
import { $, api, download, extension, friendly, mbf, pack, plural, positionText, readFile, setText, unpack,
         wholeNumber } from "./util.js";
import { describeBest, describeCell } from "./words.js";

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
// What the boards show (set in Analyse, for Analyse's and Play's boards alike).
export function applyView() {
  const print = $("a-print").value;
  localStorage.setItem("minesat-print", print);
  for (const b of keyBoards) {
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
  setText($("a-load-status"), ""); // what the last file said is not about this board (load says it again)
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
  A.best = null; // the move for the board before: it would name a cell of this one (its own is asked anew)
  setText($("a-best"), "");
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
export async function analyseState() {
  const text = positionText(A.rows, A.cols, A.states, null).trimEnd().replace(/\n/g, "/");
  return (A.mines !== null ? "m=" + A.mines + "&" : "") + "b=" + (await pack(text));
}
export async function restoreAnalyse(params) {
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
  A.impossible = result.status === 422; // only a position no layout fits is impossible
  if (result.status === 200) {
    const a = result.data;
    A.raw = a;
    A.an = compile(a, A.rows, A.cols);
    setText($("a-status"), a.safe.length + " proven safe, " + a.mine.length + " proven mines, " + a.unknown.length +
      " uncertain" + (a.mines === null ? " (total unknown: no probabilities)" : "") +
      (a.exact ? "" : "; probabilities estimated, exact ones not coming (" + (a.why || "past a budget") + ")") +
      (a.consistent === null ? "; not settled whether any layout fits" : ""), "ok");
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
  setText($("a-best"), A.best && A.best.move ? "The automatic player would play " + A.best.move + ": " + describeBest(A.best)
    : A.best ? "The automatic player: " + A.best.reason : best.data.error ? "The automatic player: " + best.data.error : "");
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
    parts.push("Guesses no play can avoid: " + (groups.length ? groups.slice(0, 10).map((g) => g.map(([r, c]) => cellName(r, c)).join("–")).join(", ") +
      (groups.length > 10 ? " and " + (groups.length - 10) + " more" : "") : "none"));
  }
  if (an.safest.length) {
    parts.push("Safest guess" + (an.safest.length > 1 ? "es" : "") + " (" + percent(an.least, 2) + " mine): " +
      an.safest.slice(0, 12).map((i) => cellName(Math.floor(i / A.cols), i % A.cols)).join(" ") +
      (an.safest.length > 12 ? " and " + (an.safest.length - 12) + " more" : ""));
  }
  setText($("a-marks"), parts.filter(Boolean).join(". "), "small");
}
function setCell(i, state) {
  if (A.states[i] === state) return;
  A.states[i] = state;
  changed();
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
  const p = result.data;
  newBoard(p.rows, p.cols, p.cells, p.mines);
  setText($("a-load-status"), source ? "read " + source : "");
  return true;
}
$("a-load").addEventListener("click", () => load($("a-text").value, $("a-format").value));
export async function openBoardFile(file) {
  const ext = extension(file.name);
  const format = META.board_formats.includes(FORMAT_OF[ext]) ? FORMAT_OF[ext] : "text";
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
  if (A.failed) setText($("a-perfect"), A.impossible ? "Not for an impossible position." : "Not without an analysis.", "muted");
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
    " of " + d.layouts + " layouts)" + (d.states ? ", " + plural(d.states, "state") + " searched in " + d.seconds + " s" :
    ", no search needed"));
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

// A first board to look at: a beginner game part way through (puzzles/beginner-mid.txt).
const SAMPLE = "# mines: 10\n     2???\n     2???\n    12???\n    2????\n    2????\n  112????\n" +
  "  2??????\n112??????\n?????????\n";
export async function loadSample() {
  $("a-text").value = SAMPLE;
  await load(SAMPLE, "text");
}
export const hasBoard = () => A.rows > 0;
