#include "ReportAssets.h"

namespace hoist {

const char *reportStyle() {
  return R"css(
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.4em; margin: 0.2em 0; }
h2 { font-size: 1.1em; margin: 0.8em 0 0.3em; }
.address, pre, code, td.number { font-family: monospace; }
nav { margin-bottom: 0.5em; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.15em 0.6em; border-bottom: 1px solid #ddd; vertical-align: top; }
td.number { text-align: right; }
.declined, .warning { color: #a40; }
.error { color: #b00; }
#graph { overflow: auto; max-height: 60vh; border: 1px solid #ccc; }
#graph g.node { cursor: pointer; }
#graph g.node.selected > polygon { fill: #ffe066; stroke: #d08000; stroke-width: 3; }
.listings { display: flex; gap: 0.8em; align-items: flex-start; }
.listings > section { flex: 2 1 0; min-width: 0; }
.listings > section.assembly { flex: 1 1 0; }
.listing { overflow: auto; max-height: 70vh; border: 1px solid #ccc; margin: 0; padding: 0.3em;
           font-size: 12px; line-height: 1.35; }
.listing > span, .listing > a { display: block; white-space: pre; color: inherit;
                                text-decoration: none; min-height: 1.35em; }
.listing > [data-pc] { cursor: pointer; }
.listing > .block { color: #666; font-weight: bold; margin-top: 0.4em; }
.listing > .selected { background: #ffe066; }
.bar { display: inline-block; background: #6a9fd8; height: 0.8em; }
#script-error { color: #b00; border: 2px solid #b00; padding: 0.5em; }
)css";
}

const char *reportErrorCatcher() {
  return R"js(
window.onerror = function (message, source, line) {
  var shown = document.createElement("pre");
  shown.id = "script-error";
  shown.textContent = "script error: " + message + " (line " + line + ")";
  (document.body || document.documentElement).appendChild(shown);
};
)js";
}

const char *reportSelectionScript() {
  return R"js(
"use strict";
(function () {
  var selected = [];

  function mark(element) {
    element.classList.add("selected");
    selected.push(element);
  }

  function select(pc) {
    selected.forEach(function (element) { element.classList.remove("selected"); });
    selected = [];
    var instruction = document.getElementById("asm-" + pc);
    if (!instruction)
      return;
    mark(instruction);
    document.querySelectorAll('.ir[data-pc="' + pc + '"]').forEach(mark);
    var block = document.getElementById("block_" + instruction.getAttribute("data-block"));
    if (block)
      mark(block);
    ["assembly", "lifted", "brightened", "graph"].forEach(scrollToSelection);
  }

  // Each listing and the graph scroll on their own, the page stays where it is: the first
  // selected element of each comes into view a little below its top.
  function scrollToSelection(id) {
    var container = document.getElementById(id);
    var first = container ? container.querySelector(".selected") : null;
    if (!first)
      return;
    var offset = first.getBoundingClientRect().top - container.getBoundingClientRect().top;
    container.scrollTop += offset - 40;
    if (id === "graph") {
      var across = first.getBoundingClientRect().left - container.getBoundingClientRect().left;
      container.scrollLeft += across - 40;
    }
  }

  // "#0x1181" (or "#1181"): the instruction at that address.
  function selectFromHash() {
    var pc = window.location.hash.replace(/^#/, "").replace(/^0x/i, "").toLowerCase();
    if (pc)
      select(pc);
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var line = target.closest ? target.closest("[data-pc]") : null;
    if (line) {
      event.preventDefault();
      window.location.hash = "#0x" + line.getAttribute("data-pc");
      return;
    }
    var node = target.closest ? target.closest("g.node") : null;
    if (node && node.id.indexOf("block_") === 0)
      window.location.hash = "#0x" + node.id.substring("block_".length);
  });
  window.addEventListener("hashchange", selectFromHash);
  selectFromHash();
  document.body.setAttribute("data-script", "done");
})();
)js";
}

} // namespace hoist
