/**
 * The console's only stylesheet and script, served from its own origin (the CSP allows nothing
 * else): no build step, no external request. The script is an enhancement: every page reads
 * and every action works without it.
 */
export const CONSOLE_CSS = `
:root { color-scheme: light dark; --fg: #1d1f23; --bg: #ffffff; --muted: #5f6673; --line: #d6d9de; --accent: #1f5fbf; --allow: #1a7f37; --deny: #b42318; --ask: #9a6700; --soft: #f3f4f6; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --bg: #16181c; --muted: #9aa1ad; --line: #30343b; --accent: #6ea8ff; --allow: #4ac26b; --deny: #ff7b72; --ask: #d4a72c; --soft: #1f2227; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 1; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); }
header nav { display: flex; gap: 1rem; }
header nav a { text-decoration: none; padding: .2rem .1rem; }
header nav a[aria-current="page"] { font-weight: 600; border-bottom: 2px solid var(--accent); }
.brand { font-weight: 700; }
#live-status { margin-left: auto; color: var(--muted); font-size: .85rem; }
main { padding: 1rem 1.2rem 3rem; max-width: 1400px; }
main.message, main.refused { max-width: 40rem; margin: 4rem auto; }
footer { display: flex; gap: 1rem; justify-content: space-between; padding: .6rem 1.2rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .85rem; }
footer form { margin: 0; }
button { font: inherit; padding: .35rem .8rem; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); color: var(--fg); cursor: pointer; }
button.allow { border-color: var(--allow); } button.deny { border-color: var(--deny); }
button.link { border: 0; background: none; color: var(--accent); text-decoration: underline; padding: 0; }
input, select, textarea { font: inherit; padding: .3rem .4rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
textarea { width: 100%; font-family: ui-monospace, monospace; }
.filters { display: flex; flex-wrap: wrap; gap: .8rem; align-items: end; margin-bottom: 1rem; }
.filters label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
.filters fieldset.shown { border: 0; margin: 0; padding: 0; font-size: .85rem; color: var(--muted); }
.filters fieldset.shown legend { padding: 0; }
.filters label.check { flex-direction: row; align-items: center; gap: .3rem; color: var(--fg); }
.hidden-note { color: var(--muted); font-size: .85rem; margin: 0 0 .6rem; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); font-size: .85rem; padding-bottom: .4rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
td.number { text-align: right; white-space: nowrap; }
tr.fresh { animation: fresh 2s ease-out; }
@keyframes fresh { from { background: var(--soft); } to { background: transparent; } }
tr.denied td { color: var(--deny); }
.muted, .tool { color: var(--muted); }
.reason { font-size: .85rem; color: var(--muted); max-width: 32rem; overflow-wrap: anywhere; }
ul.hooks { list-style: none; margin: 0; padding: 0; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; border: 1px solid var(--line); }
.badge.doctor { margin-left: .4rem; color: var(--muted); }
.badge.would { margin-left: .4rem; border-style: dashed; }
.badge.waiting { background: var(--ask); color: #fff; border-color: var(--ask); }
.decision-allow, .status-completed, .status-allowed { color: var(--allow); border-color: var(--allow); }
.decision-deny, .status-denied, .status-failed { color: var(--deny); border-color: var(--deny); }
.decision-ask { color: var(--ask); border-color: var(--ask); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
pre, code { font-family: ui-monospace, SFMono-Regular, monospace; font-size: .85rem; }
pre { background: var(--soft); padding: .6rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
section.run, article.hook, article.approval { border: 1px solid var(--line); border-radius: 8px; padding: .6rem 1rem; margin: .8rem 0; }
article.broken { border-color: var(--deny); }
.answer { display: flex; gap: .6rem; flex-wrap: wrap; }
.notice { background: var(--soft); padding: .5rem .8rem; border-left: 4px solid var(--accent); }
.alert { background: var(--soft); padding: .5rem .8rem; margin-bottom: 1rem; border-left: 6px solid var(--deny); } .alert strong { color: var(--deny); } .alert p { margin: .3rem 0; }
.figures { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1.5rem; }
.figure { font-size: 1.6rem; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 1rem; }
figure.chart { margin: 0; } figure.chart .plot { position: relative; } figure.chart svg { display: block; width: 100%; height: 100px; background: var(--soft); border-radius: 6px; }
figure.chart .scale { position: absolute; top: .15rem; left: .4rem; font-size: .8rem; color: var(--muted); }
figure.chart .ticks { display: flex; justify-content: space-between; font-size: .8rem; color: var(--muted); }
figure.chart figcaption { font-size: .85rem; color: var(--muted); }
svg .bar { fill: var(--accent); } svg .axis { stroke: var(--line); }
details.fire { margin-top: .5rem; }
`;

/** What a browser asks for on its own (/favicon.ico): a box, so its request is answered rather than logged as a failure. */
export const CONSOLE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="1" width="14" height="14" rx="3" fill="#1f5fbf"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>`;

export const CONSOLE_JS = `"use strict";
(function () {
  var live = document.body.getAttribute("data-live");
  var status = document.getElementById("live-status");
  var badge = document.getElementById("pending-count");
  if (!live || !window.EventSource) return;
  var source = new EventSource(live);
  var say = function (text) { if (status) status.textContent = text; };
  source.addEventListener("hello", function () { say("Live"); });
  source.addEventListener("error", function () { say("Reconnecting…"); });
  source.addEventListener("pending", function (e) {
    if (!badge) return;
    badge.textContent = e.data;
    badge.setAttribute("aria-label", e.data + " waiting");
    badge.className = e.data === "0" ? "badge" : "badge waiting";
  });
  source.addEventListener("runs", function (e) {
    var body = document.getElementById("runs-body");
    if (!body) return;
    var incoming = new DOMParser().parseFromString("<table><tbody>" + e.data + "</tbody></table>", "text/html").querySelectorAll("tr[data-event-id]");
    var fresh = [];
    for (var i = 0; i < incoming.length; i++) {
      var id = incoming[i].getAttribute("data-event-id");
      if (!body.querySelector("tr[data-event-id='" + CSS.escape(id) + "']")) fresh.push(incoming[i].outerHTML);
    }
    if (fresh.length === 0) return;
    var empty = body.querySelector("tr.empty");
    if (empty) empty.remove();
    body.insertAdjacentHTML("afterbegin", fresh.join(""));
    for (var j = 0; j < fresh.length && j < body.rows.length; j++) body.rows[j].className = "fresh";
    var limit = Number(body.getAttribute("data-limit") || 200);
    while (body.rows.length > limit) body.deleteRow(-1);
  });
  // Replacing a part must not take the keyboard's place away: the focused button is found again.
  var shown = {};
  var replace = function (id, html) {
    var box = document.getElementById(id);
    if (!box || shown[id] === html) return;
    shown[id] = html;
    var focused = document.activeElement;
    var article = focused && focused.closest ? focused.closest("article[id]") : null;
    var key = article && box.contains(focused) ? [article.id, focused.getAttribute("value")] : null;
    box.innerHTML = html;
    if (key) {
      var again = document.querySelector("#" + CSS.escape(key[0]) + " button[value='" + key[1] + "']");
      if (again) again.focus();
    }
  };
  source.addEventListener("approvals", function (e) { replace("approvals-live", e.data); });
  source.addEventListener("health", function (e) { replace("health-live", e.data); });
})();
`;
