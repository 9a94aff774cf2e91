// minesat serve's page: what it lists (strategies, presets, first-click rules, board and replay
// formats), read from the server (GET /api/meta) before any tab starts. The library keeps each
// list in one place; a strategy or a replay format added there appears here with no change to the
// page. Every module that reads these lists imports this one, so that it runs once they are filled.
import { $ } from "./util.js";

export const META = await (await fetch("/api/meta")).json();

// Which format each extension (without its dot) means; the board, layout and replay extensions.
export const FORMAT_OF = Object.fromEntries(Object.entries(META.extensions).map(([ext, name]) => [ext.slice(1), name]));
export const BOARD_FILES = Object.keys(FORMAT_OF).filter((ext) => META.board_formats.includes(FORMAT_OF[ext]));
export const LAYOUT_FILES = Object.keys(FORMAT_OF).filter((ext) => META.layout_formats.includes(FORMAT_OF[ext]));
export const REPLAYS = META.replay_formats.map((f) => f.name);
export const STORES = META.store_extensions.map((ext) => ext.slice(1));
export const PRESETS = META.presets;

function options(select, items) {
  for (const [value, text] of items) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.append(option);
  }
}
const dotted = (exts) => exts.map((ext) => "." + ext).join(",");

options($("a-format"), META.board_formats.map((name) => [name, name === "text" ? name : "." + name]));
$("a-file").accept = dotted(BOARD_FILES);
$("p-layout").accept = dotted(LAYOUT_FILES);
options($("p-preset"), [...Object.entries(PRESETS).map(([name, [r, c, m]]) => [name, name + " " + r + "x" + c + ", " + m + " mines"]),
  ["custom", "custom"]]);
options($("p-rule"), META.first_click.map((rule) => [rule.name, rule.page + " (" + rule.name + ")"]));
options($("p-strategy"), META.strategies.map((s) => [s.name, s.name + (s.note ? " (" + s.note + ")" : "")]));
$("r-file").accept = dotted([...REPLAYS, ...STORES]);
const programs = $("r-formats");
META.replay_formats.forEach((f, k) => {
  const code = document.createElement("code");
  code.textContent = "." + f.name;
  programs.append((k ? ", " : "") + f.program + " ", code);
});
