// minesat serve's page: the tabs and the URL. What is on screen lives in the URL's fragment
// (#analyse?..., #play?..., #review): reload and Back restore it, and Share turns it into a link.
import { $ } from "./util.js";

// The fragment says the tab and its state: #analyse?m=10&b=<packed board>, #play?..., #review.
const TABS = ["analyse", "play", "review"];
export const tabState = { analyse: "", play: "", review: "" };
export let currentTab = "analyse";
export function parseHash(hash) {
  const text = hash.replace(/^#/, "");
  const q = text.indexOf("?");
  const tab = q < 0 ? text : text.slice(0, q);
  const params = new Map();
  if (q >= 0) {
    for (const part of text.slice(q + 1).split("&")) {
      const eq = part.indexOf("=");
      if (eq > 0) params.set(part.slice(0, eq), decodeURIComponent(part.slice(eq + 1)));
    }
  }
  return { tab: TABS.includes(tab) ? tab : "analyse", params: params, state: q < 0 ? "" : text.slice(q + 1) };
}
const hashOf = (tab) => "#" + tab + (tabState[tab] ? "?" + tabState[tab] : "");
export function showTab(name) {
  currentTab = name;
  for (const t of document.querySelectorAll(".tabs button")) t.setAttribute("aria-selected", String(t.dataset.tab === name));
  for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== name;
  $("share-link").value = "";
  $("share-note").textContent = "";
}
export function goTab(name) {
  if (name === currentTab) return;
  showTab(name);
  history.pushState(null, "", hashOf(name));
}
// A tab's state changed: the URL follows (replacing, so Back goes to the previous tab, not move).
export function setTabState(tab, state) {
  tabState[tab] = state;
  if (tab === currentTab && location.hash !== hashOf(tab)) history.replaceState(null, "", hashOf(tab));
}
