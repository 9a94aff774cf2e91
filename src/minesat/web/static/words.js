// minesat serve's page: what the page says of a cell and of a suggested move, in words
// (the line under each board, the suggested move's line, Play's hint), for Analyse and Play alike.
import { cellName, FLAG, percent } from "./board.js";

export function describeBest(best) {
  if (best.reason === "guess") return "a guess, mine probability " + percent(best.probability, 2);
  return best.reason;
}
// What the analysis says of one cell, in words (the line under the board).
export function describeCell(an, states, cols, i, extra) {
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
// A game's hint in words: what to do, on which cell, and why.
export function hintText(best) {
  if (!best.move) return "Hint: " + best.reason;
  const cell = best.move.replace(/[*+-]$/, "");
  if (best.move.endsWith("-")) return "Hint: take the flag off " + cell + ": it is proven safe";
  if (best.reason === "proven mine") return "Hint: flag " + cell + " (proven mine)";
  if (best.reason === "guess") return "Hint: guess " + cell + " (mine probability " + percent(best.probability, 2) + ")";
  return "Hint: uncover " + cell + " (" + best.reason + ")";
}
