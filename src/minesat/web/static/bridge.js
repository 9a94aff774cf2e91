// Put inside each viewer page the app shows (its frame is sandboxed: the page cannot reach into
// it, nor it into the page): it tells the page how tall the viewer is and which step it shows,
// and takes the step to show. Nothing else crosses; the page's policy allows it by its hash.
(function () {
  "use strict";
  var slider = document.getElementById("slider"), counter = document.getElementById("counter");
  var said = "";
  function tell() {
    var height = document.documentElement.scrollHeight, step = slider ? Number(slider.value) : 0;
    if (said === height + "/" + step) return;
    said = height + "/" + step;
    parent.postMessage({ minesatViewer: true, height: height, step: step }, "*");
  }
  new ResizeObserver(tell).observe(document.documentElement);
  if (counter) new MutationObserver(tell).observe(counter, { childList: true, characterData: true, subtree: true });
  window.addEventListener("message", function (ev) {
    var step = ev.source === parent && ev.data ? ev.data.step : null;
    if (typeof step !== "number" || !slider) return;
    slider.value = String(step);
    slider.dispatchEvent(new Event("input"));
  });
  tell();
})();
