// minesat serve's page, the end of a game in Play: the panel that says how it went (its figures
// from the server's clock and the board's 3BV), the statistics kept in this browser, the review.
import { percent } from "./board.js";
import { PRESETS } from "./meta.js";
import { showViewer } from "./review.js";
import { $, api, setText } from "./util.js";


// The figures of a finished game, as [label, text] pairs. seconds: the server's time from the first
// uncover to the last move (0 when the game ended at its first uncover: no speed to measure then).
export function endFigures(g, seconds) {
  const won = g.status === "won";
  const figures = [["time", seconds === null ? "–" : seconds.toFixed(2) + " s"],
    ["3BV", won ? String(g.bbbv) : g.bbbv_done + "/" + g.bbbv],
    ["3BV/s", seconds ? (g.bbbv_done / seconds).toFixed(2) : "–"]];
  const survive = g.guesses.reduce((p, x) => p * (1 - (x.probability || 0)), 1);
  // After a loss the guesses did not all survive: what is said is the chance they had.
  figures.push(["guesses", !g.guesses.length ? "none: every move proven" : g.guesses.length +
    (won ? ", all survived: " + percent(survive, 1) + " chance" : ", chance they would all survive: " + percent(survive, 1))]);
  if (g.guesses.length) {
    const risky = g.guesses.reduce((a, b) => ((b.probability || 0) > (a.probability || 0) ? b : a));
    figures.push(["riskiest", risky.move + " (" + percent(risky.probability || 0, 1) + " mine)"]);
  }
  // The seed, the server's too now that the game is over: with it the game can be played again.
  if (g.seed !== null && g.seed !== undefined) figures.push(["seed", g.seed]);
  return figures;
}

// The panel under the board (it never moves the board): won or lost, and the figures. helped: who
// helped win it ("the automatic player", "hints"), or "".
export function showEnd(g, seconds, helped) {
  const won = g.status === "won";
  $("p-end").className = "endpanel " + (won ? "won" : "lost");
  $("p-end-head").textContent = won ? "Won" + (helped ? " (with " + helped + ")" : "") + "!" :
    "Lost: " + (g.exploded ? g.exploded + " was a mine" : "a mine went off");
  const dl = $("p-end-figures");
  dl.innerHTML = "";
  for (const [k, v] of endFigures(g, seconds)) {
    const div = document.createElement("div"), dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = k; dd.textContent = v;
    div.append(dt, dd); dl.appendChild(div);
  }
  $("p-end").hidden = false;
}

// The review of a finished game, in its frame; current() says whether g is still the game shown.
export async function showReview(g, current) {
  const result = await api("/api/game/" + g.id + "/review");
  if (!current()) return;
  if (result.status !== 200) { setText($("p-last"), "The review: " + result.data.error, "error"); return; }
  // The viewer page heads itself with the review's summary: the game, the result, the guesses.
  showViewer($("p-viewer"), result.data.page);
  $("p-review").hidden = false;
}
$("p-end-review").addEventListener("click", () => $("p-review").scrollIntoView({ behavior: "smooth", block: "start" }));

// Statistics across games, in this browser: games, wins and the best time per board.
const STATS_KEY = "minesat-stats";
export function statsKey(g, options) {
  const size = g.rows + "x" + g.cols + "/" + g.mines;
  const name = Object.keys(PRESETS).find((k) => PRESETS[k].join() === [g.rows, g.cols, g.mines].join());
  return (name || size) + (options && options.no_guess ? " no-guess" : "") + (options && options.layout ? " (layout file)" : "");
}
function readStats() {
  try { return JSON.parse(localStorage.getItem(STATS_KEY)) || {}; } catch (err) { return {}; }
}
// A game counted: a win's time is a best time only when it was measured.
export function record(key, won, seconds) {
  const stats = readStats();
  const s = stats[key] || { games: 0, wins: 0, best: null };
  s.games++;
  if (won) {
    s.wins++;
    if (seconds !== null && (s.best === null || seconds < s.best)) s.best = Math.round(seconds * 100) / 100;
  }
  stats[key] = s;
  localStorage.setItem(STATS_KEY, JSON.stringify(stats));
  showStats();
}
export function showStats() {
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
