// What every minesat board draws with: the names of its rows and the colour scale of mine
// probabilities. One file for both boards: the app's board (minesat serve, web/static/board.js)
// imports it as a module from /assets/drawing.js; the game viewer's page holds it inline before
// viewer.js, in a classic script, with each line's leading `export ` taken off (viewer/page.py).

// A row's letters: A..Z, then AA, AB, ... as spreadsheet columns (docs/cells-and-moves.md).
export function rowName(r) {
  let s = "";
  for (r += 1; r > 0; r = Math.floor((r - 1) / 26)) s = String.fromCharCode(65 + ((r - 1) % 26)) + s;
  return s;
}

// Green at 0, yellow at 0.5, red at 1: the scale of minesat's pictures, viewer and app.
export function shade(p) {
  const a = p <= 0.5 ? [0x4c, 0xaf, 0x50] : [0xff, 0xeb, 0x3b];
  const b = p <= 0.5 ? [0xff, 0xeb, 0x3b] : [0xe5, 0x39, 0x35];
  const t = p <= 0.5 ? p / 0.5 : (p - 0.5) / 0.5;
  return "rgb(" + a.map((x, j) => Math.round(x + (b[j] - x) * t)).join(",") + ")";
}
