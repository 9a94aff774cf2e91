// minesat serve's page, the Review tab: a replay file or a game from a simulation database, step by
// step in the game viewer; and the viewer's frame, which Play's review of a game uses too.
import { REPLAYS } from "./meta.js";
import { $, api, extension, readFile, setText, sleep } from "./util.js";

// A viewer page in its frame, as tall as its content (no scrolling inside a scrolling page).
// step: the step to show first (the viewer's #step=N), when a page replaces another. The frame is
// sandboxed (its page cannot reach this one): its height and step come by message, and so goes
// the step to show.
export function showViewer(frame, html, step) {
  frame.dataset.step = "0";
  frame.onload = () => {
    if (step > 1 && frame.contentWindow) frame.contentWindow.postMessage({ step: step }, "*");
  };
  frame.srcdoc = html;
}
window.addEventListener("message", (ev) => {
  const said = ev.data;
  if (!said || said.minesatViewer !== true) return;
  for (const frame of document.querySelectorAll("iframe.viewer")) {
    if (frame.contentWindow !== ev.source) continue;
    if (typeof said.height === "number") frame.style.height = Math.max(300, said.height + 4) + "px";
    if (typeof said.step === "number") frame.dataset.step = String(said.step);
  }
});
// The step a viewer shows, or 0.
const viewerStep = (frame) => Number(frame.dataset.step || 0);
const R = { data: null, name: "", job: null };
export async function openReplay(file) {
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
