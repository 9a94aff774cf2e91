// minesat serve: the page. Three tabs over the JSON API (docs/commands/serve.md); no library, no build.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const COVERED = -1, FLAG = -2;

  // --- shared ---------------------------------------------------------------------------
  async function api(path, body, raw) {
    const init = { method: "POST" };
    if (raw !== undefined) init.body = raw;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { "Content-Type": "application/json" };
    }
    try {
      const response = await fetch(path, init);
      const data = await response.json();
      return { status: response.status, data: data };
    } catch (err) {
      return { status: 0, data: { error: "no answer from the server (" + err.message + ")" } };
    }
  }
  function rowName(r) {
    let s = "";
    for (r += 1; r > 0; r = Math.floor((r - 1) / 26)) s = String.fromCharCode(65 + ((r - 1) % 26)) + s;
    return s;
  }
  const cellName = (r, c) => rowName(r) + String(c + 1);
  function parseName(name) {
    const m = /^([A-Z]+)([0-9]+)$/.exec(name);
    let r = 0;
    for (const ch of m[1]) r = r * 26 + (ch.charCodeAt(0) - 64);
    return [r - 1, Number(m[2]) - 1];
  }
  // Green at 0, yellow at 0.5, red at 1: the scale of minesat's pictures and viewer.
  function shade(p) {
    const a = p <= 0.5 ? [0x4c, 0xaf, 0x50] : [0xff, 0xeb, 0x3b];
    const b = p <= 0.5 ? [0xff, 0xeb, 0x3b] : [0xe5, 0x39, 0x35];
    const t = p <= 0.5 ? p / 0.5 : (p - 0.5) / 0.5;
    return "rgb(" + a.map((x, j) => Math.round(x + (b[j] - x) * t)).join(",") + ")";
  }
  // As minesat prints probabilities: never 0 % or 100 % unless exact.
  function percent(p, digits) {
    if (p > 0 && p < 0.001) return "<0.1%";
    if (p > 0.999 && p < 1) return ">99.9%";
    return (p * 100).toFixed(digits === undefined ? 1 : digits) + "%";
  }
  // On the board: a whole percentage with its sign, so that it cannot be read as a number.
  const shortPercent = (p) => String(Math.min(99, Math.max(1, Math.round(p * 100)))) + "%";
  function setText(el, text, cls) {
    el.textContent = text;
    el.className = cls || "";
  }
  function readFile(file, asBytes) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => reject(reader.error);
      if (asBytes) reader.readAsArrayBuffer(file); else reader.readAsText(file);
    });
  }
  const extension = (name) => (name.match(/\.([^.]+)$/) || ["", ""])[1].toLowerCase();

  // A board of rows x cols cells with row letters and column numbers; returns the cell elements.
  function buildGrid(el, rows, cols) {
    el.innerHTML = "";
    // As large as the column allows (a hidden tab has no width yet: then by the window's), 16 to 36 px.
    const room = el.parentElement.clientWidth || window.innerWidth - 680;
    const size = Math.max(16, Math.min(36, Math.floor(room / (cols + 1.5))));
    el.style.setProperty("--s", size + "px");
    el.style.gridTemplateColumns = "auto repeat(" + cols + ", var(--s))";
    el.appendChild(document.createElement("span"));
    for (let c = 0; c < cols; c++) {
      const lab = document.createElement("span");
      lab.className = "lab";
      lab.textContent = (c + 1) % 5 === 0 || c === 0 || cols <= 16 ? String(c + 1) : "";
      el.appendChild(lab);
    }
    const cells = [];
    for (let r = 0; r < rows; r++) {
      const lab = document.createElement("span");
      lab.className = "lab r";
      lab.textContent = rowName(r);
      el.appendChild(lab);
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        cell.dataset.i = String(r * cols + c);
        el.appendChild(cell);
        cells.push(cell);
      }
    }
    return cells;
  }

  // Draw cell i: its state, and over a covered cell what the analysis says of it.
  // analysis: the API's object (or null); extra: {best, proof, mines, exploded}.
  function paint(cells, cols, states, analysis, extra) {
    const safe = new Set(), mine = new Set();
    if (analysis) {
      for (const [r, c] of analysis.safe) safe.add(r * cols + c);
      for (const [r, c] of analysis.mine) mine.add(r * cols + c);
    }
    for (let i = 0; i < cells.length; i++) {
      const s = states[i], r = Math.floor(i / cols), c = i % cols;
      let cls = "c", text = "", bg = "", title = cellName(r, c);
      if (s >= 0) {
        cls += " open" + (s ? " n" + s : "");
        text = s ? String(s) : "";
      } else if (extra.exploded === i) {
        cls += " boom";
        title += ": the mine that went off";
      } else if (s === FLAG) {
        const wrong = extra.mines && !extra.mines.has(i);
        cls += " cov flag" + (wrong ? " wrong" : "");
        title += wrong ? ": flag, not a mine" : ": flag";
      } else if (extra.mines && extra.mines.has(i)) {
        cls += " cov lm";
        title += ": mine";
      } else if (safe.has(i)) {
        cls += " safe";
        title += ": proven safe";
      } else if (mine.has(i)) {
        cls += " mine";
        title += ": proven mine";
      } else if (analysis && analysis.probability[r][c] !== null) {
        const p = analysis.probability[r][c];
        cls += " heat";
        bg = shade(p);
        text = shortPercent(p);
        title += ": mine probability " + percent(p, 2);
      } else {
        cls += " cov";
      }
      if (r === 0) cls += " top";
      if (c === 0) cls += " left";
      if (extra.best === i) cls += " best";
      if (extra.proof && extra.proof.has(i)) cls += " proof";
      const el = cells[i];
      if (el.className !== cls) el.className = cls;
      if (el.textContent !== text) el.textContent = text;
      el.style.background = bg;
      el.title = title;
    }
  }

  // What the analysis says of one cell, in words (the line under the board).
  function describeCell(analysis, states, cols, i) {
    const r = Math.floor(i / cols), c = i % cols, name = cellName(r, c), s = states[i];
    if (s >= 0) return name + ": " + (s ? "the number " + s : "an empty cell (0)");
    if (s === FLAG) return name + ": a flag (counted as a mine)";
    if (!analysis) return name + ": covered";
    if (analysis.safe.some(([a, b]) => a === r && b === c)) return name + ": proven safe";
    if (analysis.mine.some(([a, b]) => a === r && b === c)) return name + ": proven mine";
    const p = analysis.probability[r][c];
    if (p === null) return name + ": uncertain (give the total number of mines for its probability)";
    return name + ": mine probability " + percent(p, 2) + (analysis.exact ? "" : " (estimated)");
  }

  // --- tabs -------------------------------------------------------------------------------
  const tabs = document.querySelectorAll(".tabs button");
  function showTab(name) {
    for (const t of tabs) t.setAttribute("aria-selected", String(t.dataset.tab === name));
    for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== name;
  }
  for (const t of tabs) t.addEventListener("click", () => showTab(t.dataset.tab));

  // --- analyse ----------------------------------------------------------------------------
  const A = { rows: 9, cols: 9, mines: 10, states: [], cells: [], analysis: null, best: null,
              version: 0, hover: -1, proof: null };

  function boardText() {
    const lines = [];
    for (let r = 0; r < A.rows; r++) {
      let line = "";
      for (let c = 0; c < A.cols; c++) {
        const s = A.states[r * A.cols + c];
        line += s === COVERED ? "?" : s === FLAG ? "*" : s === 0 ? "." : String(s);
      }
      lines.push(line);
    }
    return lines.join("\n") + "\n";
  }
  function request() {
    const body = { board: boardText() };
    if (A.mines !== null) body.mines = A.mines;
    return body;
  }
  function totalFromInput() {
    const v = $("a-mines").value.trim();
    return v === "" ? null : Math.max(0, Math.floor(Number(v)));
  }
  function newBoard(rows, cols, states, mines) {
    A.rows = rows; A.cols = cols; A.mines = mines;
    A.analysis = null; A.best = null; A.hover = -1; // the old board's: drawn on the new one they mislead
    $("a-rows").value = rows; $("a-cols").value = cols; $("a-mines").value = mines === null ? "" : mines;
    A.states = states || new Array(rows * cols).fill(COVERED);
    A.cells = buildGrid($("a-board"), rows, cols);
    changed();
  }
  let timer = null;
  function changed() {
    A.version++;
    $("a-board").dataset.version = String(A.version);
    A.proof = null;
    redraw();
    clearTimeout(timer);
    timer = setTimeout(analyse, 150);
  }
  function redraw() {
    const best = A.best && A.best.move ? parseName(A.best.move.replace(/[*+-]$/, "")) : null;
    paint(A.cells, A.cols, A.states, A.analysis, {
      best: best ? best[0] * A.cols + best[1] : -1, proof: A.proof,
    });
  }
  async function analyse() {
    const version = A.version;
    setText($("a-status"), "analysing…", "muted");
    const [result, best] = await Promise.all([api("/api/analyze", request()), api("/api/best", request())]);
    if (version !== A.version) return; // edited meanwhile: a newer answer is coming
    A.analysis = result.status === 200 ? result.data : null;
    A.best = best.status === 200 ? best.data : null;
    if (result.status === 200) {
      const a = result.data;
      const unknown = a.unknown.length;
      setText($("a-status"), a.safe.length + " proven safe, " + a.mine.length + " proven mines, " + unknown +
        " uncertain" + (a.mines === null ? " (total unknown: no probabilities)" : "") +
        (a.exact ? "" : "; probabilities estimated"), "ok");
      setText($("a-safe"), "Safe: " + (a.safe.map(([r, c]) => cellName(r, c)).join(" ") || "–"));
      setText($("a-mine"), "Mines: " + (a.mine.map(([r, c]) => cellName(r, c)).join(" ") || "–"));
      setText($("a-best"), A.best && A.best.move ? "best plays " + A.best.move + ": " + describeBest(A.best)
        : A.best ? "best: " + A.best.reason : "");
    } else {
      const what = result.status === 422 ? "Impossible position: " : result.status === 400 ? "Bad board: " : "";
      setText($("a-status"), what + result.data.error.replace(/^inconsistent position: /, ""), "error");
      for (const id of ["a-safe", "a-mine", "a-best"]) setText($(id), "");
    }
    redraw();
    // Said on the board, for whoever waits for the analysis of what is shown (the browser tests).
    $("a-board").dataset.analysed = String(version);
    if (A.hover >= 0) hover(A.hover);
    autoPerfect();
  }
  function describeBest(best) {
    if (best.reason === "guess") return "a guess, mine probability " + percent(best.probability, 2);
    return best.reason;
  }
  function setCell(i, state) {
    A.states[i] = state;
    changed();
  }
  function cycle(i) {
    const s = A.states[i];
    setCell(i, s === COVERED || s === FLAG ? 1 : s >= 8 ? COVERED : s + 1);
  }
  async function hover(i) {
    A.hover = i;
    setText($("a-hover"), describeCell(A.analysis, A.states, A.cols, i), "hover");
    const a = A.analysis, r = Math.floor(i / A.cols), c = i % A.cols;
    const proven = a && (a.safe.some(([x, y]) => x === r && y === c) || a.mine.some(([x, y]) => x === r && y === c));
    if (!proven) {
      if (A.proof) { A.proof = null; redraw(); }
      return;
    }
    const version = A.version;
    const result = await api("/api/explain", Object.assign(request(), { cell: cellName(r, c) }));
    if (version !== A.version || A.hover !== i) return;
    if (result.status !== 200) { setText($("a-why"), result.data.error, "error"); return; }
    const e = result.data;
    const because = e.numbers.slice();
    if (e.uses_total) because.push("the total number of mines");
    setText($("a-why"), e.cell + " is " + (e.mine ? "a mine" : "safe") + " because of " + because.join(", "));
    A.proof = new Set(e.numbers.map((n) => { const [x, y] = parseName(n); return x * A.cols + y; }));
    redraw();
  }
  const aBoard = $("a-board");
  aBoard.addEventListener("click", (ev) => {
    const i = ev.target.dataset.i;
    if (i !== undefined) cycle(Number(i));
  });
  aBoard.addEventListener("contextmenu", (ev) => {
    ev.preventDefault();
    const i = ev.target.dataset.i;
    if (i !== undefined) setCell(Number(i), A.states[Number(i)] === FLAG ? COVERED : FLAG);
  });
  aBoard.addEventListener("mouseover", (ev) => {
    const i = ev.target.dataset.i;
    if (i !== undefined && Number(i) !== A.hover) hover(Number(i));
  });
  document.addEventListener("keydown", (ev) => {
    if ($("analyse").hidden || A.hover < 0 || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (ev.key >= "0" && ev.key <= "8") setCell(A.hover, Number(ev.key));
    else if (ev.key === "f" || ev.key === "F" || ev.key === "*") setCell(A.hover, FLAG);
    else if (ev.key === " " || ev.key === "?" || ev.key === "Backspace" || ev.key === "Delete") setCell(A.hover, COVERED);
    else return;
    ev.preventDefault();
  });
  $("a-new").addEventListener("click", () => {
    const rows = Math.max(1, Math.min(100, Number($("a-rows").value) || 9));
    const cols = Math.max(1, Math.min(100, Number($("a-cols").value) || 9));
    newBoard(rows, cols, null, totalFromInput());
  });
  $("a-mines").addEventListener("change", () => { A.mines = totalFromInput(); changed(); });
  async function load(text, format) {
    const version = A.version;
    const result = await api("/api/position", { board: text, format: format });
    if (version !== A.version) return; // the board was changed meanwhile: that change wins
    if (result.status !== 200) {
      setText($("a-status"), "Bad board: " + result.data.error, "error");
      return;
    }
    const p = result.data;
    newBoard(p.rows, p.cols, p.cells, p.mines);
  }
  $("a-load").addEventListener("click", () => load($("a-text").value, $("a-format").value));
  $("a-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const ext = extension(file.name);
    const format = ext === "mine" ? "mine" : ext === "json" ? "json" : "text";
    $("a-format").value = format;
    const text = await readFile(file, false);
    $("a-text").value = text;
    load(text, format);
    ev.target.value = "";
  });

  // Perfect play: on request, or by itself when few cells are covered.
  const PERFECT_BY_ITSELF = 12;
  function autoPerfect() {
    const covered = A.states.filter((s) => s === COVERED).length;
    $("a-ranking").innerHTML = "";
    if (A.analysis && A.mines !== null && covered > 0 && covered <= PERFECT_BY_ITSELF) perfect();
    else setText($("a-perfect"), A.mines === null ? "Needs the total number of mines." :
      "Press Compute: every move's exact chance to win (cut off after 25 s on big positions).", "muted");
  }
  async function perfect() {
    const version = A.version;
    setText($("a-perfect"), "searching…", "muted");
    $("a-ranking").innerHTML = "";
    const result = await api("/api/perfect", request());
    if (version !== A.version) return;
    if (result.status !== 200) { setText($("a-perfect"), result.data.error, "error"); return; }
    const d = result.data;
    setText($("a-perfect"), "Chance to win with perfect play: " + percent(d.win_probability, 2) + " (" + d.wins +
      " of " + d.layouts + " layouts), " + d.states + " states in " + d.seconds + " s");
    const table = $("a-ranking");
    if (d.ranking && d.ranking.length) {
      // Best first; every move that keeps the whole chance is starred, so ties read as ties.
      table.innerHTML = "<caption>All " + d.ranking.length + " moves, best first; ★ keeps the whole chance. " +
        "Point at one to see it on the board.</caption>" +
        "<thead><tr><th>move</th><th>chance to win</th><th>layouts won</th></tr></thead>";
      const body = table.createTBody();
      for (const m of d.ranking) {
        const tr = body.insertRow();
        const [r, c] = parseName(m.cell);
        tr.dataset.i = String(r * A.cols + c);
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
  $("a-perfect-go").addEventListener("click", perfect);
  // Pointing at a ranked move outlines its cell on the board.
  function pointRanked(ev, on) {
    const tr = ev.target.closest("tr[data-i]");
    if (tr && A.cells[Number(tr.dataset.i)]) A.cells[Number(tr.dataset.i)].classList.toggle("pointed", on);
  }
  $("a-ranking").addEventListener("mouseover", (ev) => pointRanked(ev, true));
  $("a-ranking").addEventListener("mouseout", (ev) => pointRanked(ev, false));

  // --- play -------------------------------------------------------------------------------
  const G = { game: null, cells: [], hint: null, hover: -1, busy: false };
  $("p-preset").addEventListener("change", () => { $("p-custom").hidden = $("p-preset").value !== "custom"; });
  async function newGame() {
    const body = { first_click: $("p-rule").value };
    const file = $("p-layout").files[0];
    if (file) {
      const ext = extension(file.name);
      if (ext === "mbf") {
        const bytes = new Uint8Array(await readFile(file, true));
        let s = "";
        for (const b of bytes) s += String.fromCharCode(b);
        body.layout = btoa(s);
        body.layout_format = "mbf";
      } else {
        body.layout = await readFile(file, false);
        body.layout_format = ext === "mine" ? "mine" : ext === "json" ? "json" : "text";
      }
    } else if ($("p-preset").value === "custom") {
      body.rows = Number($("p-rows").value); body.cols = Number($("p-cols").value);
      body.mines = Number($("p-mines").value);
    } else body.preset = $("p-preset").value;
    const seed = $("p-seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    const result = await api("/api/game", body);
    $("p-layout").value = "";
    if (result.status !== 200) { setText($("p-last"), result.data.error, "error"); return; }
    G.game = result.data; G.hint = null;
    G.cells = buildGrid($("p-board"), G.game.rows, G.game.cols);
    $("p-review").hidden = true;
    $("p-guesses").innerHTML = "";
    setText($("p-last"), "Click any cell to start" + (G.game.seed !== null ? " (seed " + G.game.seed + ")" : ""), "muted");
    $("p-best").textContent = "";
    showGame();
  }
  function showGame() {
    const g = G.game;
    const flags = g.cells.filter((s) => s === FLAG).length;
    $("p-left").textContent = "mines left: " + (g.mines - flags);
    const state = $("p-state");
    state.textContent = g.status === "playing" ? (g.moves ? "playing" : "first click") : g.status === "won" ? "won!" : "lost";
    state.className = "badge" + (g.status === "won" ? " v-won" : g.status === "lost" ? " v-lost" : "");
    const over = g.status !== "playing";
    const mines = over && g.mine_cells ? new Set(g.mine_cells.map((n) => { const [r, c] = parseName(n); return r * g.cols + c; })) : null;
    let exploded = -1;
    if (g.exploded) { const [r, c] = parseName(g.exploded); exploded = r * g.cols + c; }
    const hint = !over && $("p-hint").checked ? G.hint : null;
    let best = -1;
    if (hint && hint.best && hint.best.move) { const [r, c] = parseName(hint.best.move.replace(/[*+-]$/, "")); best = r * g.cols + c; }
    paint(G.cells, g.cols, g.cells, hint ? hint.analysis : null, { mines: mines, exploded: exploded, best: best });
    $("p-best").textContent = hint && hint.best && hint.best.move ? "Hint: best plays " + hint.best.move + " (" +
      describeBest(hint.best) + ")" : "";
    const list = $("p-guesses");
    list.innerHTML = "";
    for (const guess of g.guesses) {
      const li = document.createElement("li");
      li.textContent = guess.move + ": " + guess.text;
      if (/hit a mine/.test(guess.text)) li.className = "loss";
      list.appendChild(li);
    }
    list.hidden = !g.guesses.length;
    $("p-noguess").hidden = g.guesses.length > 0;
    if (G.hover >= 0) setText($("p-hover"), describeCell(hint ? hint.analysis : null, g.cells, g.cols, G.hover), "hover");
  }
  async function refreshHint() {
    if (!G.game || !$("p-hint").checked || G.game.status !== "playing" || !G.game.moves) { showGame(); return; }
    const id = G.game.id, moves = G.game.moves;
    const result = await api("/api/game/" + id + "/hint");
    if (!G.game || G.game.id !== id || G.game.moves !== moves) return;
    G.hint = result.status === 200 ? result.data : null;
    showGame();
  }
  async function play(move) {
    if (!G.game || G.game.status !== "playing" || G.busy) return;
    G.busy = true;
    const result = await api("/api/game/" + G.game.id + "/move", { move: move });
    G.busy = false;
    if (result.status !== 200) { setText($("p-last"), result.data.error, "error"); return; }
    G.game = result.data; G.hint = null;
    const last = G.game.last;
    setText($("p-last"), last.move + ": " + last.text, last.verdict === "loss" ? "error" : "");
    showGame();
    if (G.game.status !== "playing") review();
    else refreshHint();
  }
  async function review() {
    const result = await api("/api/game/" + G.game.id + "/review");
    if (result.status !== 200) { setText($("p-last"), result.data.error, "error"); return; }
    // The viewer page heads itself with the review's summary: the game, the result, the guesses.
    $("p-viewer").srcdoc = result.data.page;
    $("p-review").hidden = false;
  }
  function moveAt(i, button) {
    const g = G.game;
    if (!g) return;
    const r = Math.floor(i / g.cols), c = i % g.cols, name = cellName(r, c), s = g.cells[i];
    if (button === "left") {
      if (s === COVERED) play(name);
      else if (s > 0) play(name + "+");
    } else if (button === "right") {
      if (s === COVERED) play(name + "*");
      else if (s === FLAG) play(name + "-");
      else if (s > 0) play(name + "+");
    } else if (s > 0) play(name + "+");
  }
  const pBoard = $("p-board");
  pBoard.addEventListener("click", (ev) => {
    if (ev.target.dataset.i !== undefined) moveAt(Number(ev.target.dataset.i), "left");
  });
  pBoard.addEventListener("auxclick", (ev) => {
    if (ev.button === 1 && ev.target.dataset.i !== undefined) moveAt(Number(ev.target.dataset.i), "middle");
  });
  pBoard.addEventListener("contextmenu", (ev) => {
    ev.preventDefault();
    if (ev.target.dataset.i !== undefined) moveAt(Number(ev.target.dataset.i), "right");
  });
  pBoard.addEventListener("mouseover", (ev) => {
    const i = ev.target.dataset.i;
    if (i === undefined || !G.game) return;
    G.hover = Number(i);
    const hint = $("p-hint").checked && G.hint ? G.hint.analysis : null;
    setText($("p-hover"), describeCell(hint, G.game.cells, G.game.cols, G.hover), "hover");
  });
  pBoard.addEventListener("mouseleave", () => { G.hover = -1; });
  document.addEventListener("keydown", (ev) => {
    if ($("play").hidden || G.hover < 0 || ev.key !== " " || ev.target.tagName === "INPUT") return;
    ev.preventDefault();
    moveAt(G.hover, "right");
  });
  $("p-new").addEventListener("click", newGame);
  $("p-hint").addEventListener("change", refreshHint);

  // --- review -----------------------------------------------------------------------------
  const R = { data: null, name: "" };
  const REPLAYS = ["avf", "rmv", "mvf", "evf"];
  async function openFile(file) {
    const ext = extension(file.name);
    const bytes = await readFile(file, true);
    R.data = bytes; R.name = file.name;
    $("r-games-box").hidden = true;
    $("r-review").hidden = true;
    setText($("r-status"), "reading " + file.name + "…", "muted");
    if (REPLAYS.includes(ext)) {
      const result = await api("/api/replay?name=" + encodeURIComponent(file.name), undefined, bytes);
      if (result.status !== 200) { setText($("r-status"), result.data.error, "error"); return; }
      setText($("r-status"), result.data.title, "ok");
      $("r-viewer").srcdoc = result.data.page;
      $("r-review").hidden = false;
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
  async function showStored() {
    setText($("r-status"), "replaying game " + $("r-games").value + "…", "muted");
    const path = "/api/store?name=" + encodeURIComponent(R.name) + "&game=" + $("r-games").value;
    const result = await api(path, undefined, R.data);
    if (result.status !== 200) { setText($("r-status"), result.data.error, "error"); return; }
    setText($("r-status"), result.data.title, "ok");
    $("r-viewer").srcdoc = result.data.page;
    $("r-review").hidden = false;
  }
  $("r-show").addEventListener("click", showStored);
  $("r-file").addEventListener("change", (ev) => {
    if (ev.target.files[0]) openFile(ev.target.files[0]);
    ev.target.value = "";
  });
  const drop = $("r-drop");
  drop.addEventListener("dragover", (ev) => { ev.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.classList.remove("over");
    if (ev.dataTransfer.files[0]) openFile(ev.dataTransfer.files[0]);
  });

  // A first board to look at: a beginner game part way through (puzzles/beginner-mid.txt).
  const SAMPLE = "# mines: 10\n     2???\n     2???\n    12???\n    2????\n    2????\n  112????\n" +
    "  2??????\n112??????\n?????????\n";
  $("a-text").value = SAMPLE;
  load(SAMPLE, "text");
})();
