// The minesat game viewer. Reads the game from the JSON element #game-data (see
// minesat.viewer.page.encode_frames), draws one step at a time, and plays the game back on its
// clock (a replay's mouse drawn over the board). No network, no libraries.
// rowName and shade come from drawing.js, which the page holds just before this script.
(function () {
  "use strict";
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{|}~";
  const SAFE = 0, MINE = 1, UNKNOWN = 2, FIXED = 3;
  const COVERED = -1, FLAG = -2;
  const INTERESTING = new Set(["guess", "needless guess", "loss", "unproven flag"]);
  const TICK = { "guess": "#d9a400", "needless guess": "#e8710a", "loss": "#c62828", "unproven flag": "#e8710a" };
  const KIND = { uncover: "", flag: "*", unflag: "-", chord: "+" };

  const D = JSON.parse(document.getElementById("game-data").textContent);
  const R = D.rows, C = D.cols, F = D.frames, N = F.length;
  const layoutMines = D.layout ? new Set(D.layout) : null;
  const $ = (id) => document.getElementById(id);

  // Every frame's board, each built from the one before: stepping anywhere is a lookup.
  const boards = [];
  let prev = new Int8Array(R * C).fill(COVERED);
  for (const f of F) {
    const b = prev.slice();
    const d = f.d || [];
    for (let j = 0; j < d.length; j += 2) b[d[j]] = d[j + 1];
    boards.push(b);
    prev = b;
  }

  const cellName = (i) => rowName(Math.floor(i / C)) + String((i % C) + 1);

  // The analysis of frame k: per cell -1 (none), SAFE, MINE, UNKNOWN or FIXED + table index.
  function analysis(k) {
    const f = F[k];
    if (f.a === undefined) return null;
    const board = boards[k], w = f.w || 1, base = ALPHABET.length;
    const codes = new Int16Array(R * C).fill(-1);
    let cell = 0, pos = 0;
    const next = () => { while (cell < R * C && board[cell] !== COVERED) cell++; return cell++; };
    while (pos < f.a.length) {
      let code = 0;
      for (let j = 0; j < w; j++) code = code * base + ALPHABET.indexOf(f.a[pos++]);
      let digits = "";
      while (pos < f.a.length && f.a[pos] >= "0" && f.a[pos] <= "9") digits += f.a[pos++];
      for (let n = digits ? Number(digits) : 1; n > 0; n--) codes[next()] = code;
    }
    return codes;
  }

  function percent(p) {
    if (p > 0 && p < 0.0001) return "<0.01 %";
    if (p < 1 && p > 0.9999) return ">99.99 %";
    return (100 * p).toFixed(2) + " %";
  }
  function shortPercent(p) {
    if (p <= 0 || p >= 1) return String(Math.round(p * 100));
    return String(Math.min(99, Math.max(1, Math.round(p * 100))));
  }
  function moveName(m) { return cellName(m[0]) + KIND[m[1]]; }

  // --- the board's elements, made once --------------------------------------------------
  const board = $("board"), wrap = $("boardwrap");
  const cells = new Array(R * C);
  const shown = new Array(R * C).fill("");
  board.style.gridTemplateColumns = "auto repeat(" + C + ", var(--s))";
  board.appendChild(document.createElement("div"));
  for (let c = 0; c < C; c++) {
    const lab = document.createElement("div");
    lab.className = "lab";
    lab.textContent = String(c + 1);
    board.appendChild(lab);
  }
  for (let r = 0; r < R; r++) {
    const lab = document.createElement("div");
    lab.className = "lab r";
    lab.textContent = rowName(r);
    board.appendChild(lab);
    for (let c = 0; c < C; c++) {
      const el = document.createElement("div");
      el.dataset.i = String(r * C + c);
      board.appendChild(el);
      cells[r * C + c] = el;
    }
  }

  function fit() {
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    const byWidth = Math.floor((wrap.clientWidth - 34) / C);
    const byHeight = Math.floor((window.innerHeight - Math.min(top, 260) - 30) / (R + 1));
    const s = Math.max(14, Math.min(36, byWidth, Math.max(byHeight, 18)));
    document.documentElement.style.setProperty("--s", s + "px");
    return s;
  }
  let size = fit();

  // --- the clock: times of the moves, the game's span ----------------------------------------
  // Frame k shows the board after k moves: on the game's clock it stands from move k-1's time
  // to move k's. Without times (our own games) playback takes two moves a second.
  const timed = N > 1 && F.slice(0, N - 1).every((f) => typeof f.s === "number");
  const moveTimes = timed ? F.slice(0, N - 1).map((f) => f.s) : F.slice(0, N - 1).map((f, k) => (k + 1) / 2);
  const M = D.mouse ? decodeMouse(D.mouse) : null;
  const t0 = Math.min(0, M && M.t.length ? M.t[0] : 0);
  const tEnd = Math.max(moveTimes.length ? moveTimes[moveTimes.length - 1] : 0, M && M.t.length ? M.t[M.t.length - 1] : 0);
  let playing = false, clock = t0, speed = 1, lastTick = 0;
  let figures = null;  // the <dd> of each running figure, when the game has them

  function decodeMouse(m) {
    const n = m.t.length, t = new Float64Array(n), x = new Float64Array(n), y = new Float64Array(n);
    let a = 0, b = 0, c = 0;
    for (let j = 0; j < n; j++) {
      a += m.t[j]; b += m.x[j]; c += m.y[j];
      t[j] = a / 1000; x[j] = b / 16; y[j] = c / 16;
    }
    // The buttons held after each event: 1 left, 2 right, 4 middle.
    const held = new Uint8Array(n), bit = { l: 1, r: 2, m: 4 };
    let h = 0;
    for (let j = 0; j < n; j++) {
      const k = m.b[j];
      if (k === "c") h |= 3;
      else if (bit[k]) h |= bit[k];
      else if (bit[k.toLowerCase()]) h &= ~bit[k.toLowerCase()];
      held[j] = h;
    }
    return { t: t, x: x, y: y, held: held };
  }
  // The number of entries of the sorted array a that are <= v.
  function upTo(a, v) {
    let lo = 0, hi = a.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] <= v) lo = mid + 1; else hi = mid; }
    return lo;
  }
  const frameAt = (t) => Math.min(N - 1, upTo(moveTimes, t));
  // Where a paused step sits on the clock: the moment of its move (the end for the last step).
  const stepClock = (k) => (k < N - 1 ? moveTimes[k] : tEnd);

  // --- one step ------------------------------------------------------------------------
  let step = 0;
  const heat = $("heat"), peek = $("showmines");

  function draw(k) {
    const f = F[k], b = boards[k], codes = heat.checked ? analysis(k) : null;
    const table = f.p || [];
    const finalMines = f.x ? new Set(f.x) : null;
    const showPeek = layoutMines && peek.checked;
    const move = f.m ? f.m[0] : -1;
    const small = size >= 20;
    let covered = 0, safe = 0, mine = 0, flags = 0;
    for (let i = 0; i < R * C; i++) {
      const s = b[i];
      let cls = "c", text = "", title = cellName(i), bg = "";
      if (s >= 0) {
        cls += " open" + (s ? " n" + s : "");
        text = s ? String(s) : "";
        title += ": " + (s ? s : "empty");
      } else if (s === FLAG) {
        flags++;
        const wrong = finalMines && !finalMines.has(i);
        cls += " cov flag" + (wrong ? " wrong" : "");
        title += wrong ? ": flag, not a mine" : ": flag";
      } else {
        covered++;
        const code = codes ? codes[i] : -1;
        if (code === SAFE) safe++;
        if (code === MINE) mine++;
        if (f.e === i) {
          cls += " boom";
          title += ": the mine that went off";
        } else if (finalMines && finalMines.has(i)) {
          cls += " cov lm";
          title += ": mine";
        } else if (code === SAFE) {
          cls += " safe";
          title += ": proven safe";
        } else if (code === MINE) {
          cls += " mine";
          title += ": proven mine";
        } else if (code >= FIXED) {
          const p = table[code - FIXED];
          cls += " heat";
          bg = shade(p);
          if (small) text = shortPercent(p) + "%";
          title += ": mine probability " + percent(p);
        } else {
          cls += " cov";
          title += code === UNKNOWN ? ": mine probability unknown" : ": covered";
        }
        const known = (finalMines && finalMines.has(i)) || f.e === i || code === MINE;
        if (showPeek && layoutMines.has(i) && !known) cls += " peek";
      }
      if (i < C) cls += " top";
      if (i % C === 0) cls += " left";
      if (i === move && !playing) cls += " mv";
      const key = cls + "|" + text + "|" + bg + "|" + title;
      if (shown[i] !== key) {
        const el = cells[i];
        el.className = cls;
        el.textContent = text;
        el.style.background = bg;
        el.title = title;
        shown[i] = key;
      }
    }
    return { covered: covered, safe: safe, mine: mine, flags: flags };
  }

  function show(k, scroll) {
    step = Math.max(0, Math.min(N - 1, k));
    const f = F[step];
    const counts = draw(step);
    if (!playing) clock = stepClock(step);
    drawClock();
    $("slider").value = String(step + 1);
    $("counter").textContent = "step " + (step + 1) + " of " + N;
    $("movehead").textContent = f.m ? "Move " + (step + 1) + ": " + moveName(f.m) + " (" + f.m[1] + ")" : "End of the game";
    const v = $("verdict");
    v.textContent = f.v || "";
    v.hidden = !f.v;
    v.className = "badge v-" + (f.v || "").replace(/[^a-z]+/g, "-");
    $("text").textContent = f.t || "";
    $("time").textContent = typeof f.s === "number" ? "at " + f.s.toFixed(2) + " s" : "";
    let line = counts.covered + " covered";
    if (f.a !== undefined) line += ", " + counts.safe + " proven safe, " + counts.mine + " proven mines";
    if (D.mines !== null) line += "; mines left " + (D.mines - counts.flags);
    $("counts").textContent = line;
    if (figures) {
      const values = f.g || [];
      for (let j = 0; j < figures.length; j++) figures[j].textContent = values[j] === undefined ? "-" : values[j];
    }
    for (const el of document.querySelectorAll("#marks button")) el.classList.toggle("on", Number(el.dataset.k) === step);
    later(scroll);
  }

  // Scrolling the move into view forces a layout of the whole board, and browsers throttle
  // history updates: both wait for the next frame (or a pause), however fast the steps come.
  let scrollPending = false, wantScroll = false, hashTimer = 0;
  function later(scroll) {
    wantScroll = wantScroll || scroll;
    if (!scrollPending) {
      scrollPending = true;
      requestAnimationFrame(() => {
        const f = F[step];
        if (wantScroll && f.m) cells[f.m[0]].scrollIntoView({ block: "nearest", inline: "nearest" });
        scrollPending = wantScroll = false;
      });
    }
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      try { history.replaceState(null, "", "#step=" + (step + 1)); } catch (e) { /* some file:// pages refuse */ }
    }, 250);
  }

  // --- the guesses: ticks under the slider and buttons to jump to them ---------------------
  const marks = [];
  for (let k = 0; k < N; k++) if (INTERESTING.has(F[k].v)) marks.push(k);
  const ticks = $("ticks"), list = $("marks");
  for (const k of marks) {
    const f = F[k];
    const tick = document.createElement("i");
    tick.style.left = (N > 1 ? (100 * k) / (N - 1) : 0) + "%";
    tick.style.background = TICK[f.v] || "#888";
    tick.title = (k + 1) + ". " + moveName(f.m) + ": " + (f.t || f.v);
    tick.addEventListener("click", () => go(k, true));
    ticks.appendChild(tick);
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.k = String(k);
    btn.textContent = (k + 1) + ". " + moveName(f.m);
    btn.title = f.t || f.v;
    btn.style.borderLeft = "4px solid " + (TICK[f.v] || "#888");
    btn.addEventListener("click", () => go(k, true));
    list.appendChild(btn);
  }
  if (!marks.length) list.textContent = "none: every move was proven";
  const nextMark = (dir) => {
    const k = dir > 0 ? marks.find((m) => m > step) : [...marks].reverse().find((m) => m < step);
    if (k !== undefined) go(k, true);
  };

  // --- controls ------------------------------------------------------------------------
  // Moving by hand pauses the playback.
  const go = (k, scroll) => { if (playing) setPlaying(false); show(k, scroll); };
  $("first").addEventListener("click", () => go(0, true));
  $("prev").addEventListener("click", () => go(step - 1, true));
  $("next").addEventListener("click", () => go(step + 1, true));
  $("last").addEventListener("click", () => go(N - 1, true));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value) - 1, false));
  heat.addEventListener("change", () => show(step, false));
  if (layoutMines) {
    $("minesrow").hidden = false;
    peek.addEventListener("change", () => show(step, false));
  }
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {
      ArrowLeft: () => go(step - 1, true), ArrowRight: () => go(step + 1, true),
      Home: () => go(0, true), End: () => go(N - 1, true), " ": () => setPlaying(!playing),
      PageUp: () => nextMark(-1), PageDown: () => nextMark(1),
      h: () => { heat.checked = !heat.checked; show(step, false); },
      m: () => { if (layoutMines) { peek.checked = !peek.checked; show(step, false); } },
    };
    const action = keys[e.key] || keys[e.key.toLowerCase()];
    if (!action || (e.key === " " && ["INPUT", "BUTTON", "SELECT"].includes(e.target.tagName))) return;
    e.preventDefault();
    action();
  });
  window.addEventListener("resize", () => {
    const s = fit();
    if (s !== size) { size = s; shown.fill(""); show(step, false); }
    placeOverlay();
  });
  window.addEventListener("hashchange", () => {
    const m = /step=(\d+)/.exec(location.hash);
    if (m && Number(m[1]) - 1 !== step) show(Number(m[1]) - 1, true);
  });

  // --- the pointer over the board ------------------------------------------------------------
  let overlay = null, trail = null, arrow = null;
  if (M) {
    // Parsed as HTML, the <svg> lands in the SVG namespace: no namespace address in the page.
    const holder = document.createElement("div");
    holder.innerHTML = '<svg id="mouse" viewBox="0 0 ' + C + " " + R + '" preserveAspectRatio="none">' +
      '<polyline class="trail" points=""></polyline>' +
      '<path class="arrow" d="M0 0V.9L.22 .7L.37 1.02L.5 .96L.35 .65H.64Z"></path></svg>';
    overlay = holder.firstChild;
    trail = overlay.querySelector("polyline");
    arrow = overlay.querySelector("path");
    board.appendChild(overlay);
  }
  function placeOverlay() {
    if (!overlay) return;
    const first = cells[0];
    overlay.style.left = first.offsetLeft + "px";
    overlay.style.top = first.offsetTop + "px";
    overlay.style.width = C * size + "px";
    overlay.style.height = R * size + "px";
  }
  // The pointer at the clock, and its path since the move before the step shown.
  function drawMouse() {
    if (!M) return;
    const j = upTo(M.t, clock) - 1;
    if (j < 0) { arrow.setAttribute("visibility", "hidden"); trail.setAttribute("points", ""); return; }
    const k = playing ? frameAt(clock) : step;
    const since = k > 0 ? moveTimes[k - 1] : -Infinity;
    const pts = [];
    for (let i = Math.max(upTo(M.t, since) - 1, 0); i <= j; i++) pts.push(M.x[i].toFixed(3) + "," + M.y[i].toFixed(3));
    trail.setAttribute("points", pts.join(" "));
    const h = M.held[j];
    arrow.setAttribute("class", "arrow" + ((h & 3) === 3 || h & 4 ? " c" : h & 1 ? " l" : h & 2 ? " r" : ""));
    arrow.setAttribute("visibility", "visible");
    // The arrow is drawn in cells: about 0.8 of a cell tall, however large the cells are.
    arrow.setAttribute("transform", "translate(" + M.x[j].toFixed(3) + " " + M.y[j].toFixed(3) + ") scale(" + Math.max(0.8, 14 / size) + ")");
  }

  // --- playback ------------------------------------------------------------------------------
  const playButton = $("play"), clockInput = $("clock");
  function drawClock() {
    if (timed) {
      clockInput.value = String(clock);
      $("clocktext").textContent = Math.max(0, clock).toFixed(2) + " / " + tEnd.toFixed(2) + " s";
    }
    drawMouse();
  }
  function setPlaying(on) {
    playing = on && N > 1;
    playButton.innerHTML = playing ? "&#10073;&#10073; pause" : "&#9654; play";
    shown.fill("");
    if (playing) {
      // From the moment the step shown began (from the start when at the end).
      if (step >= N - 1) step = 0;
      clock = step > 0 ? moveTimes[step - 1] : t0;
      lastTick = 0;
      requestAnimationFrame(tick);
    }
    show(step, false);
  }
  function tick(now) {
    if (!playing) return;
    if (lastTick) clock += ((now - lastTick) / 1000) * speed;
    lastTick = now;
    if (clock >= tEnd) { clock = tEnd; show(N - 1, true); setPlaying(false); return; }
    const k = frameAt(clock);
    if (k !== step) show(k, true); else drawClock();
    requestAnimationFrame(tick);
  }
  playButton.addEventListener("click", () => setPlaying(!playing));
  $("speed").addEventListener("change", (e) => { speed = Number(e.target.value); });
  if (timed) {
    $("timerow").hidden = false;
    clockInput.min = String(t0);
    clockInput.max = String(tEnd);
    clockInput.addEventListener("input", (e) => {
      clock = Number(e.target.value);
      const k = frameAt(clock);
      if (!playing) { step = k; show(k, false); clock = Number(e.target.value); drawClock(); } else show(k, false);
    });
  }
  if (D.figures) {
    $("figpanel").hidden = false;
    const list = $("figures");
    figures = D.figures.map((label) => {
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = label;
      list.appendChild(dt);
      list.appendChild(dd);
      return dd;
    });
  }

  // ?step=N (a link) or #step=N (what the page writes as it goes); speed=X and play to start
  // playing at once, at that speed.
  const address = location.search + "&" + location.hash.slice(1);
  const start = /step=(\d+)/.exec(location.hash) || /[?&]step=(\d+)/.exec(location.search);
  const asked = /[?&]speed=([\d.]+)/.exec(address);
  if (asked && [...$("speed").options].some((o) => o.value === asked[1])) {
    $("speed").value = asked[1];
    speed = Number(asked[1]);
  }
  placeOverlay();
  show(start ? Number(start[1]) - 1 : 0, false);
  if (/[?&]play(&|=|$)/.test(address)) setPlaying(true);
}());
