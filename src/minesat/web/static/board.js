// minesat serve's page: the board, a canvas that draws only the cells in view, so a 300x300
// position appears as fast as a beginner one and pointing at a cell costs one small redraw;
// and the keys, which go to the cell under the pointer while the pointer is over a board.

import { rowName, shade } from "./drawing.js";

/** A cell's state in a position: covered, flagged, or its number 0-8. */
export const COVERED = -1, FLAG = -2;

export const cellName = (r, c) => rowName(r) + String(c + 1);
export function parseName(name) {
  const m = /^([A-Z]+)([0-9]+)/.exec(name);
  if (!m) return null;
  let r = 0;
  for (const ch of m[1]) r = r * 26 + (ch.charCodeAt(0) - 64);
  return [r - 1, Number(m[2]) - 1];
}
// The cell index a move (A5, A5*, A5+) names on a board of cols columns, or -1.
export function moveIndex(move, cols) {
  const rc = move ? parseName(move) : null;
  return rc ? rc[0] * cols + rc[1] : -1;
}
// As minesat prints probabilities: never 0 % or 100 % unless exact.
export function percent(p, digits) {
  if (p > 0 && p < 0.001) return "<0.1%";
  if (p > 0.999 && p < 1) return ">99.9%";
  return (p * 100).toFixed(digits === undefined ? 1 : digits) + "%";
}

// --- the board: a canvas drawing the cells in view -------------------------------------------
const TILES = [12, 16, 20, 24, 28, 32, 40, 48];
// The least tile a phone fits a board to: a cell a finger can tap (an expert board's 30 columns in
// 390 pixels were 11-pixel tiles); a bigger board scrolls in its box.
const TAP_TILE = 28;
const NUMBER_COLOURS = ["", "#0000ff", "#007b00", "#ff0000", "#00007b", "#7b0000", "#007b7b", "#000000", "#7b7b7b"];
const FONT = '"DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif';
// What the analysis says of each cell, as arrays (the API's lists and matrix, read once).
export function compile(analysis, rows, cols) {
  const n = rows * cols, kind = new Uint8Array(n), prob = new Float64Array(n).fill(NaN);
  for (const [r, c] of analysis.safe) kind[r * cols + c] = 1;
  for (const [r, c] of analysis.mine) kind[r * cols + c] = 2;
  for (let r = 0; r < rows; r++) {
    const row = analysis.probability[r];
    for (let c = 0; c < cols; c++) if (row[c] !== null) prob[r * cols + c] = row[c];
  }
  const marks = new Uint8Array(n); // 1 dead, 2 a cell no play can tell from its group's, 4 safest
  const groups = new Map(), given = analysis.marks || {};
  for (const [r, c] of given.dead || []) marks[r * cols + c] |= 1;
  (given.fifty || []).forEach((group, g) => {
    for (const [r, c] of group) { marks[r * cols + c] |= 2; groups.set(r * cols + c, g); }
  });
  // The safest cells (the server's), marked when no cell is proven safe: then a guess is due.
  const safest = analysis.safe.length ? [] : (given.safest || []).map(([r, c]) => r * cols + c);
  for (const i of safest) marks[i] |= 4;
  const least = given.safest_probability;
  return { kind: kind, prob: prob, marks: marks, groups: groups, safest: safest, least: least,
           exact: analysis.exact, mines: analysis.mines, hasMarks: "marks" in analysis, complete: given.complete !== false,
           dead: given.dead || [], fifty: given.fifty || [] };
}

export class Board {
  // host: the scrolling element; on: {hover(i), act(i, how), key(key, i) -> handled}.
  constructor(host, on) {
    this.host = host; this.on = on;
    host.innerHTML = "";
    host.classList.add("board");
    this.sizer = document.createElement("div");
    this.sizer.className = "sizer";
    this.canvas = document.createElement("canvas");
    this.sizer.appendChild(this.canvas);
    host.appendChild(this.sizer);
    this.ctx = this.canvas.getContext("2d");
    this.rows = 0; this.cols = 0; this.states = []; this.an = null;
    this.tileChoice = "auto"; this.s = 24; this.print = "mine";
    this.show = { dead: true, fifty: true, safest: true };
    this.extra = {};
    this.hover = -1; this.over = false; this.pending = false; this.answered = [];
    host.board = this;
    host.addEventListener("scroll", () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.layout()).observe(host.parentElement);
    this.listen();
  }
  setSize(rows, cols) {
    this.rows = rows; this.cols = cols; this.hover = -1; this.an = null; this.extra = {};
    this.host.dataset.rows = String(rows); this.host.dataset.cols = String(cols);
    this.layout();
  }
  setTile(choice) { this.tileChoice = choice; this.layout(); }
  // The board's geometry: tile size, label margins, the canvas as large as the part in view.
  layout() {
    const room = this.host.parentElement.clientWidth;
    if (!room || !this.cols) return;
    const letters = rowName(this.rows - 1).length;
    let s = Number(this.tileChoice);
    if (!s) { // fit: the column's width, 12 to 40 pixels a tile; on a phone at least a finger's tap (the board scrolls)
      const least = window.innerWidth < 640 ? TAP_TILE : 12, labels = letters * 8 + 8;
      s = Math.max(least, Math.min(40, Math.floor((room - labels - 2) / this.cols)));
    }
    this.s = s;
    this.font = Math.max(9, Math.min(13, Math.round(s * 0.45)));
    this.lw = Math.ceil(letters * this.font * 0.72) + 8;
    this.lh = this.font + 8;
    this.w = this.lw + this.cols * s + 1; this.h = this.lh + this.rows * s + 1;
    this.sizer.style.width = this.w + "px"; this.sizer.style.height = this.h + "px";
    this.host.dataset.tile = String(s);
    this.resize();
  }
  resize() {
    const cw = Math.min(this.w, this.host.clientWidth || this.w), ch = Math.min(this.h, this.host.clientHeight || this.h);
    const dpr = window.devicePixelRatio || 1;
    this.cw = cw; this.ch = ch; this.dpr = dpr;
    if (this.canvas.width !== Math.round(cw * dpr) || this.canvas.height !== Math.round(ch * dpr)) {
      this.canvas.width = Math.round(cw * dpr); this.canvas.height = Math.round(ch * dpr);
      this.canvas.style.width = cw + "px"; this.canvas.style.height = ch + "px";
    }
    this.draw();
  }
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.resize(); });
  }
  // Cell index under a client point, or -1 (off the cells, on a label).
  cellAt(x, y) {
    const rect = this.canvas.getBoundingClientRect();
    const px = x - rect.left, py = y - rect.top;
    if (px < this.lw || py < this.lh) return -1;
    const c = Math.floor((px - this.lw + this.host.scrollLeft) / this.s);
    const r = Math.floor((py - this.lh + this.host.scrollTop) / this.s);
    return r >= 0 && r < this.rows && c >= 0 && c < this.cols ? r * this.cols + c : -1;
  }
  // Scrolls cell i into view (the board, then the window) and answers its centre in client pixels.
  reveal(i) {
    const r = Math.floor(i / this.cols), c = i % this.cols, s = this.s, host = this.host;
    const x = c * s, y = r * s, vw = host.clientWidth - this.lw, vh = host.clientHeight - this.lh;
    if (x < host.scrollLeft || x + s > host.scrollLeft + vw) host.scrollLeft = x - vw / 2;
    if (y < host.scrollTop || y + s > host.scrollTop + vh) host.scrollTop = y - vh / 2;
    this.resize();
    const rect = this.canvas.getBoundingClientRect();
    let cx = rect.left + this.lw + x - host.scrollLeft + s / 2, cy = rect.top + this.lh + y - host.scrollTop + s / 2;
    if (cy < 0 || cy > window.innerHeight || cx < 0 || cx > window.innerWidth) {
      window.scrollBy({ top: cy - window.innerHeight / 2, left: 0, behavior: "instant" });
      const moved = this.canvas.getBoundingClientRect();
      cx += moved.left - rect.left; cy += moved.top - rect.top;
    }
    return { x: cx, y: cy };
  }
  center(name) { const rc = parseName(name); return this.reveal(rc[0] * this.cols + rc[1]); }
  inView(i) {
    const r = Math.floor(i / this.cols), c = i % this.cols, host = this.host, rect = this.canvas.getBoundingClientRect();
    const cx = rect.left + this.lw + c * this.s - host.scrollLeft, cy = rect.top + this.lh + r * this.s - host.scrollTop;
    return cx >= rect.left + this.lw - 1 && cx + this.s <= rect.right + 1 && cy >= rect.top + this.lh - 1 &&
      cy + this.s <= rect.bottom + 1 && cy >= 0 && cy + this.s <= window.innerHeight;
  }

  draw() {
    const ctx = this.ctx, s = this.s, cols = this.cols, rows = this.rows;
    if (!this.cw || !cols) return;
    const t0 = performance.now();
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const sl = this.host.scrollLeft, st = this.host.scrollTop, lw = this.lw, lh = this.lh;
    ctx.fillStyle = "#f6f7f9";
    ctx.fillRect(0, 0, this.cw, this.ch);
    const c0 = Math.max(0, Math.floor(sl / s)), c1 = Math.min(cols - 1, Math.floor((sl + this.cw - lw) / s));
    const r0 = Math.max(0, Math.floor(st / s)), r1 = Math.min(rows - 1, Math.floor((st + this.ch - lh) / s));
    const ox = lw - sl, oy = lh - st;
    // The grid lines: the cells are drawn one pixel short of their tile.
    ctx.fillStyle = "#8d929b";
    ctx.fillRect(ox + c0 * s, oy + r0 * s, (c1 - c0 + 1) * s + 1, (r1 - r0 + 1) * s + 1);
    const cells = this.states, an = this.an, ex = this.extra;
    this.textPx = Math.round(s >= 36 ? s * 0.36 : s * 0.46);
    this.textFont = "600 " + this.textPx + "px " + FONT;
    this.numberFont = "700 " + Math.round(s * 0.62) + "px " + FONT;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) this.cell(r * cols + c, ox + c * s + 1, oy + r * s + 1, cells, an, ex);
    }
    // Outlines over the cells: the proof, the suggested move, a pointed ranking row, the bad cell.
    const frame = (i, colour, width, dash, inset) => {
      if (i < 0 || i >= rows * cols) return;
      const r = Math.floor(i / cols), c = i % cols;
      if (r < r0 || r > r1 || c < c0 || c > c1) return;
      ctx.save();
      ctx.strokeStyle = colour; ctx.lineWidth = width;
      if (dash) ctx.setLineDash(dash);
      const d = (inset || 0) + width / 2 + 1;
      ctx.strokeRect(ox + c * s + d, oy + r * s + d, s - 2 * d + 1, s - 2 * d + 1);
      ctx.restore();
    };
    const thick = Math.max(2, Math.round(s * 0.11));
    if (ex.proof) for (const i of ex.proof) frame(i, "#7c3aed", thick, [4, 3]);
    if (ex.start >= 0) frame(ex.start, "#15803d", thick);
    if (ex.best >= 0) { frame(ex.best, "#0b2f9f", thick + 1); frame(ex.best, "#ffffff", 1.5, null, thick + 1); }
    if (ex.pointed >= 0) frame(ex.pointed, "#d97706", thick + 1);
    if (ex.bad >= 0) { frame(ex.bad, "#dc2626", thick + 1); frame(ex.bad, "#ffffff", 1.5, null, thick + 1); }
    if (this.hover >= 0) frame(this.hover, "rgba(17,17,17,.85)", 1.5);
    this.labels(c0, c1, r0, r1, ox, oy);
    this.drawMs = performance.now() - t0;
    this.host.dataset.drawn = String((Number(this.host.dataset.drawn) || 0) + 1);
  }
  cell(i, x, y, cells, an, ex) {
    const ctx = this.ctx, s = this.s - 1, st = cells[i];
    const bevel = (light) => {
      const b = s >= 16 ? 2 : 1;
      ctx.fillStyle = light ? "rgba(255,255,255,.55)" : "rgba(0,0,0,.16)";
      if (light) { ctx.fillRect(x, y, s, b); ctx.fillRect(x, y, b, s); } else { ctx.fillRect(x, y + s - b, s, b); ctx.fillRect(x + s - b, y, b, s); }
    };
    const covered = (colour) => {
      ctx.fillStyle = colour || "#b8bcc4"; ctx.fillRect(x, y, s, s);
      bevel(true); bevel(false);
    };
    const dot = (ring) => {
      ctx.beginPath(); ctx.arc(x + s / 2, y + s / 2, s * 0.21, 0, 2 * Math.PI);
      ctx.fillStyle = "#111"; ctx.fill();
      if (ring) { ctx.lineWidth = Math.max(1, s * 0.05); ctx.strokeStyle = "#fff"; ctx.stroke(); }
    };
    if (st >= 0) {
      ctx.fillStyle = "#e9eaec"; ctx.fillRect(x, y, s, s);
      if (st > 0) { ctx.font = this.numberFont; ctx.fillStyle = NUMBER_COLOURS[st]; ctx.fillText(String(st), x + s / 2, y + s / 2 + 1); }
      return;
    }
    if (ex.exploded === i) { ctx.fillStyle = "#e53935"; ctx.fillRect(x, y, s, s); dot(true); return; }
    if (st === FLAG) {
      const wrong = ex.mines && !ex.mines.has(i);
      if (wrong) { ctx.fillStyle = "#f3c0c0"; ctx.fillRect(x, y, s, s); } else covered();
      this.flag(x, y, s);
      if (wrong) {
        ctx.strokeStyle = "#111"; ctx.lineWidth = Math.max(1.5, s * 0.08);
        ctx.beginPath(); ctx.moveTo(x + s * 0.15, y + s * 0.85); ctx.lineTo(x + s * 0.85, y + s * 0.15); ctx.stroke();
      }
      return;
    }
    if (ex.mines && ex.mines.has(i)) { covered(); if (ex.won) this.flag(x, y, s); else dot(false); return; }
    const kind = an ? an.kind[i] : 0;
    if (kind === 1) {
      ctx.fillStyle = "#1e8e3e"; ctx.fillRect(x, y, s, s);
      ctx.beginPath(); ctx.arc(x + s / 2, y + s / 2, s * 0.2, 0, 2 * Math.PI);
      ctx.lineWidth = Math.max(1.5, s * 0.09); ctx.strokeStyle = "#fff"; ctx.stroke();
    } else if (kind === 2) {
      ctx.fillStyle = "#b71c1c"; ctx.fillRect(x, y, s, s); dot(true);
    } else if (an && an.prob[i] === an.prob[i]) {
      const p = an.prob[i];
      ctx.fillStyle = shade(p); ctx.fillRect(x, y, s, s);
      ctx.fillStyle = "rgba(0,0,0,.08)"; ctx.fillRect(x, y + s - 1, s, 1); ctx.fillRect(x + s - 1, y, 1, s);
      const text = s >= 15 ? this.cellText(i) : "";
      if (text) {
        ctx.font = this.textFont; ctx.fillStyle = "#1b1b1b";
        ctx.fillText(text, x + s / 2, y + s / 2 + 1);
      }
    } else {
      covered();
    }
    const mark = an ? an.marks[i] : 0;
    if (mark & 1 && this.show.dead) {
      ctx.save();
      ctx.beginPath(); ctx.rect(x, y, s, s); ctx.clip();
      ctx.strokeStyle = "rgba(40,40,40,.55)"; ctx.lineWidth = 1.2;
      ctx.beginPath();
      for (let k = -s; k < s; k += Math.max(4, s / 4)) { ctx.moveTo(x + k, y + s); ctx.lineTo(x + k + s, y); }
      ctx.stroke();
      ctx.restore();
    }
    if (mark & 2 && this.show.fifty) {
      ctx.save();
      ctx.strokeStyle = "#a21caf"; ctx.lineWidth = Math.max(2, s * 0.1); ctx.setLineDash([3, 2]);
      ctx.strokeRect(x + 2, y + 2, s - 4, s - 4);
      if (s >= 18) {
        ctx.setLineDash([]);
        ctx.font = "700 " + Math.round(s * 0.3) + "px " + FONT; ctx.fillStyle = "#a21caf";
        ctx.textAlign = "left"; ctx.textBaseline = "top";
        ctx.fillText("½", x + 3, y + 2);
      }
      ctx.restore();
    }
    if (mark & 4 && this.show.safest) {
      ctx.save();
      ctx.fillStyle = "#b45309";
      const r = Math.max(3, s * 0.16), cx = x + s - r - 2, cy = y + r + 2;
      ctx.beginPath();
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + k * Math.PI / 5, rr = k % 2 ? r * 0.45 : r;
        ctx.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
      }
      ctx.closePath(); ctx.fill();
      ctx.restore();
    }
  }
  // What is printed on covered cell i: its chance of a mine (or of being safe) in whole percent,
  // never 0 or 100 unless proven (those are drawn as proven cells), or nothing.
  cellText(i) {
    const an = this.an;
    if (this.print === "none" || !an || an.kind[i] || this.states[i] !== COVERED || an.prob[i] !== an.prob[i]) return "";
    const p = this.print === "safe" ? 1 - an.prob[i] : an.prob[i];
    return String(Math.min(99, Math.max(1, Math.round(p * 100)))) + (this.s >= 36 ? "%" : "");
  }
  flag(x, y, s) {
    const ctx = this.ctx;
    ctx.fillStyle = "#222"; ctx.fillRect(x + s * 0.31, y + s * 0.18, Math.max(1, s * 0.07), s * 0.6);
    ctx.fillStyle = "#d32f2f";
    ctx.beginPath(); ctx.moveTo(x + s * 0.36, y + s * 0.18); ctx.lineTo(x + s * 0.74, y + s * 0.33);
    ctx.lineTo(x + s * 0.36, y + s * 0.48); ctx.closePath(); ctx.fill();
    ctx.fillStyle = "#222"; ctx.fillRect(x + s * 0.2, y + s * 0.76, s * 0.4, Math.max(1, s * 0.07));
  }
  // Row letters and column numbers on the edges: they stay in view when the board scrolls.
  labels(c0, c1, r0, r1, ox, oy) {
    const ctx = this.ctx, s = this.s, f = this.font;
    ctx.fillStyle = "#f6f7f9";
    ctx.fillRect(0, 0, this.cw, this.lh); ctx.fillRect(0, 0, this.lw, this.ch);
    ctx.font = f + "px " + FONT; ctx.fillStyle = "#555";
    const digits = String(this.cols).length, need = digits * f * 0.62 + 4;
    const step = [1, 2, 5, 10, 20, 50, 100, 200].find((k) => k * s >= need) || 500;
    ctx.textAlign = "center"; ctx.textBaseline = "bottom";
    for (let c = c0; c <= c1; c++) {
      if (c !== 0 && (c + 1) % step) continue;
      const x = ox + c * s + s / 2;
      if (x > this.lw) ctx.fillText(String(c + 1), x, this.lh - 3);
    }
    const rstep = [1, 2, 5, 10, 20, 50, 100].find((k) => k * s >= f + 1) || 200;
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    for (let r = r0; r <= r1; r++) {
      if (r !== 0 && (r + 1) % rstep) continue;
      const y = oy + r * s + s / 2;
      if (y > this.lh) ctx.fillText(rowName(r), this.lw - 4, y);
    }
  }

  // Pointer, touch and keys. A long press (touch) is a right click; a click right after it is dropped.
  listen() {
    const cv = this.canvas;
    let press = null, longDone = false;
    cv.addEventListener("pointerenter", () => { this.over = true; });
    cv.addEventListener("pointerleave", () => {
      this.over = false;
      if (this.hover !== -1) { this.hover = -1; this.on.hover(-1); this.schedule(); }
      if (press) { clearTimeout(press.timer); press = null; }
    });
    cv.addEventListener("pointermove", (ev) => {
      this.over = true;
      const i = this.cellAt(ev.clientX, ev.clientY);
      if (press && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 10) { clearTimeout(press.timer); press = null; }
      if (i !== this.hover) {
        this.hover = i; this.on.hover(i); this.draw();
        // How long the page took to answer the pointer (benchmarks/page.py reads it).
        this.answered.push(performance.now() - ev.timeStamp);
        if (this.answered.length > 1000) this.answered.shift();
      }
    });
    cv.addEventListener("pointerdown", (ev) => {
      longDone = false;
      this.lastPointer = ev.pointerType;
      if (ev.pointerType !== "touch") return;
      const i = this.cellAt(ev.clientX, ev.clientY);
      if (i < 0) return;
      press = { x: ev.clientX, y: ev.clientY, timer: setTimeout(() => {
        press = null; longDone = true;
        if (navigator.vibrate) navigator.vibrate(20);
        this.on.act(i, "long");
      }, 450) };
    });
    cv.addEventListener("pointerup", () => { if (press) { clearTimeout(press.timer); press = null; } });
    cv.addEventListener("pointercancel", () => { if (press) { clearTimeout(press.timer); press = null; } });
    cv.addEventListener("click", (ev) => {
      if (longDone) { longDone = false; return; }
      const i = this.cellAt(ev.clientX, ev.clientY);
      if (i >= 0) this.on.act(i, "left");
    });
    cv.addEventListener("auxclick", (ev) => {
      const i = this.cellAt(ev.clientX, ev.clientY);
      if (ev.button === 1 && i >= 0) this.on.act(i, "middle");
    });
    cv.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      if (this.lastPointer === "touch") return; // the long press did it
      const i = this.cellAt(ev.clientX, ev.clientY);
      if (i >= 0) this.on.act(i, "right");
    });
  }
}

// Keys act on the cell under the pointer, only while the pointer is over a board: then they go to
// the board and to no focused control (a text field gets no digit, a checkbox is not toggled).
// Elsewhere they are left alone, so Space scrolls the page and fields take what is typed.
export const keyBoards = [];
function boardUnderPointer() {
  return keyBoards.find((b) => b.over && b.hover >= 0 && !b.host.closest(".pane").hidden) || null;
}
let swallowUp = null;
window.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const board = boardUnderPointer();
  if (!board || !board.on.key(ev.key, board.hover)) return;
  ev.preventDefault();
  ev.stopPropagation();
  swallowUp = ev.key;
  const focused = document.activeElement;
  if (focused && focused !== document.body && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(focused.tagName)) focused.blur();
}, true);
window.addEventListener("keyup", (ev) => {
  if (swallowUp !== null && ev.key === swallowUp) { ev.preventDefault(); ev.stopPropagation(); swallowUp = null; }
}, true);

// Tile size choices, kept in the browser.
export function tileSelect(select, board, key) {
  select.innerHTML = '<option value="auto">fit</option>' + TILES.map((t) => '<option value="' + t + '">' + t + " px</option>").join("");
  select.value = localStorage.getItem(key) || "auto";
  board.setTile(select.value);
  select.addEventListener("change", () => { localStorage.setItem(key, select.value); board.setTile(select.value); });
}

