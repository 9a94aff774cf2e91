// minesat serve: the page. Three tabs over the JSON API (docs/commands/serve.md); no library, no build.
//
// Each tab is its own module (analyse.js, play.js, review.js) over shared helpers: the board, a
// canvas (board.js), its words (words.js), the API and files (util.js), the tabs and the URL
// (tabs.js). This one wires them: the tab buttons, Back, Share, a file dropped anywhere, the start.
import { analyseState, applyView, hasBoard, loadSample, openBoardFile, restoreAnalyse } from "./analyse.js";
import { currentGame, newGame, playState, restorePlay, setLayoutFile } from "./play.js";
import { BOARD_FILES, LAYOUT_FILES, META, REPLAYS, STORES } from "./meta.js";
import { openReplay } from "./review.js";
import { currentTab, goTab, parseHash, showTab, tabState } from "./tabs.js";
import { $, extension } from "./util.js";

for (const t of document.querySelectorAll(".tabs button")) t.addEventListener("click", () => goTab(t.dataset.tab));
window.addEventListener("popstate", () => restore(parseHash(location.hash), false));
async function restore(where, first) {
  showTab(where.tab);
  if (where.tab === "analyse" && where.state !== tabState.analyse && where.params.has("b")) await restoreAnalyse(where.params);
  else if (where.tab === "play" && where.state !== tabState.play && where.params.has("n")) await restorePlay(where.params);
  if (first && !hasBoard()) await loadSample();
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
    currentTab === "play" ? (currentGame() ? "a link to this game so far (options, seed, moves)" : "a link to the Play tab") :
    "a link to the Review tab (a replay file is not in the link: share the file)";
  try { await navigator.clipboard.writeText(link); note += ", copied"; } catch (err) { /* selected: Ctrl-C copies it */ }
  $("share-note").textContent = note;
});

// --- a file dropped anywhere: to the tab that reads it; the browser never navigates to it ----
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
  else if (LAYOUT_FILES.includes(ext) && !BOARD_FILES.includes(ext)) { goTab("play"); setLayoutFile(file); await newGame(); }
  else if (BOARD_FILES.includes(ext)) { goTab("analyse"); await openBoardFile(file); }
  else {
    const dotted = (exts) => exts.map((e) => "." + e).join(" ");
    note.textContent = file.name + ": not a file the page reads (boards " + dotted(BOARD_FILES) + " go to Analyse, a layout " +
      dotted(LAYOUT_FILES.filter((e) => !BOARD_FILES.includes(e))) + " to Play, replays " + dotted(REPLAYS) +
      " and databases " + META.store_extensions[0] + " to Review)";
    note.hidden = false;
  }
}

applyView();
const where = parseHash(location.hash);
if (!location.hash) history.replaceState(null, "", "#analyse");
// Every module has run (the lists from /api/meta are in, every handler attached) once this one
// does: the page says so, for scripts that drive it (the browser tests wait for it).
restore(where, true).finally(() => { document.documentElement.dataset.ready = "true"; });
