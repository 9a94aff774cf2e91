// minesat serve's page: small helpers (the API, files, texts, links); no library, no build.
import { cellName, COVERED, FLAG } from "./board.js";

export const $ = (id) => document.getElementById(id);

// A POST (or GET with method) to the API: {status, data}; data.error on failure. A POST says what
// it sends (the server refuses one that does not): JSON ({} when there is nothing to say), or a
// file's bytes.
export async function api(path, body, raw, method) {
  const init = { method: method || "POST" };
  if (raw !== undefined) {
    init.body = raw;
    init.headers = { "Content-Type": "application/octet-stream" };
  } else if (init.method !== "GET") {
    init.body = JSON.stringify(body === undefined ? {} : body);
    init.headers = { "Content-Type": "application/json" };
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { status: 0, data: { error: "no answer from the server (" + err.message + "): is minesat serve running?" } };
  }
  const text = await response.text();
  try {
    return { status: response.status, data: JSON.parse(text) };
  } catch (err) {
    return { status: response.status, data: { error: "the server answered " + response.status + ": " +
      text.slice(0, 120) }, notJson: true };
  }
}
export function setText(el, text, cls) {
  el.textContent = text;
  el.className = cls || "";
}
export const plural = (n, word) => n.toLocaleString("en") + " " + word + (n === 1 ? "" : "s");
export function readFile(file, asBytes) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    if (asBytes) reader.readAsArrayBuffer(file); else reader.readAsText(file);
  });
}
export const extension = (name) => (name.match(/\.([^.]+)$/) || ["", ""])[1].toLowerCase();
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type: type }));
  const a = document.createElement("a");
  a.href = url; a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
export function base64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
// A board's text (what `minesat analyze` reads): ? covered, * flag, . an empty cell, 1-8.
export function positionText(rows, cols, states, mines) {
  const lines = mines === null || mines === undefined ? [] : ["# mines: " + mines];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < cols; c++) {
      const s = states[r * cols + c];
      line += s === COVERED ? "?" : s === FLAG ? "*" : s === 0 ? "." : String(s);
    }
    lines.push(line);
  }
  return lines.join("\n") + "\n";
}
// MBF: width, height, the mine count (2 bytes), then (column, row) of each mine.
export function mbf(rows, cols, mineIndices) {
  if (rows > 255 || cols > 255) return null;
  const out = new Uint8Array(4 + 2 * mineIndices.length);
  out[0] = cols; out[1] = rows; out[2] = mineIndices.length >> 8; out[3] = mineIndices.length & 255;
  mineIndices.forEach((i, k) => { out[4 + 2 * k] = i % cols; out[5 + 2 * k] = Math.floor(i / cols); });
  return out;
}
// A whole number typed in a field, checked: {value} or {error}. Empty gives {value: null}.
export function wholeNumber(input, label, least, most, allowEmpty) {
  const text = input.value.trim();
  input.classList.remove("bad");
  if (text === "" && allowEmpty) return { value: null };
  const bad = (why) => { input.classList.add("bad"); return { error: label + " " + why }; };
  if (!/^-?\d+$/.test(text)) return bad(text === "" ? "is empty" : "must be a whole number, not " + text);
  const v = Number(text);
  if (v < least) return bad("must be at least " + least + ", not " + v);
  if (most !== null && v > most) return bad("must be at most " + most.toLocaleString("en") + ", not " + v);
  return { value: v };
}
// The API's messages name the text's line and column; on a board the page built, the cell.
export function friendly(message, built) {
  return message.replace(/^board:(\d+):(\d+): /, (all, line, col) =>
    built ? cellName(Number(line) - 1, Number(col) - 1) + ": " : "line " + line + ", column " + col + ": ");
}

// Short URL-safe packing of long text (positions, move lists): deflate, then base64url.
export async function pack(text) {
  if (typeof CompressionStream === "function") {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    return "z" + base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  return "t" + encodeURIComponent(text);
}
export async function unpack(s) {
  if (s[0] === "t") return decodeURIComponent(s.slice(1));
  if (s[0] !== "z") throw new Error("not a packed text");
  const b = atob(s.slice(1).replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) bytes[i] = b.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return await new Response(stream).text();
}

