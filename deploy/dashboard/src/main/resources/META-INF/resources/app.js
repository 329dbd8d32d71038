// Ironflow's live dashboard. Everything shown comes from the dashboard service, which reads ironflow.node-state
// and ironflow.node-events; the page never talks to the Ironic API. Text from nodes goes in with textContent only.
"use strict";

const $ = (id) => document.getElementById(id);
const FEED_MAX = 200;
let selectedNode = null;
let tableDirty = true;
let lastTableLoad = 0;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function when(millis) {
  return millis ? new Date(millis).toLocaleTimeString() : "";
}

function renderSummary(summary) {
  $("total").textContent = `${summary.total} nodes, ${summary.maintenance} in maintenance, ${summary.retired} retired`;
  const counts = $("counts");
  counts.replaceChildren();
  const chosen = $("state").value;
  for (const [state, count] of Object.entries(summary.byState)) {
    const card = el("div", null, "count" + (state === chosen ? " selected" : ""));
    card.dataset.state = state;
    card.append(el("b", count), el("span", state));
    card.onclick = () => { $("state").value = state === chosen ? "" : state; reloadTable(); renderSummary(summary); };
    counts.append(card);
  }
  const select = $("state");
  const known = new Set([...select.options].map((o) => o.value));
  for (const state of Object.keys(summary.byState)) {
    if (!known.has(state)) select.append(el("option", state));
  }
}

function addToFeed(events) {
  const feed = $("feed");
  for (const e of events) {
    const item = el("li");
    item.append(el("span", when(e.occurredAt) + " "), el("span", e.nodeUuid.slice(0, 8), "uuid"),
      el("span", ` ${e.fromState ?? "(new)"} \u2192 ${e.toState ?? "(deleted)"} (${e.event})`));
    item.dataset.node = e.nodeUuid;
    feed.prepend(item);
  }
  while (feed.children.length > FEED_MAX) feed.lastChild.remove();
}

async function reloadTable() {
  tableDirty = false;
  lastTableLoad = Date.now();
  const params = new URLSearchParams();
  for (const id of ["state", "maintenance", "retired"]) if ($(id).value) params.set(id, $(id).value);
  if ($("search").value) params.set("q", $("search").value);
  const response = await fetch("api/nodes?" + params);
  if (!response.ok) return;
  const page = await response.json();
  $("shown").textContent = page.total > page.nodes.length ? `showing ${page.nodes.length} of ${page.total}` : `${page.total} shown`;
  const body = $("nodes").tBodies[0];
  body.replaceChildren();
  for (const n of page.nodes) {
    const row = el("tr", null, n.uuid === selectedNode ? "selected" : "");
    row.dataset.uuid = n.uuid;
    row.append(el("td", n.name), el("td", n.uuid, "uuid"), el("td", n.provisionState), el("td", n.targetProvisionState),
      el("td", n.powerState), el("td", n.maintenance ? "yes" : ""), el("td", n.retired ? "yes" : ""),
      el("td", n.lastError, "error"), el("td", when(n.updatedAt)));
    row.onclick = () => { selectedNode = n.uuid; loadDetail(); reloadTable(); };
    body.append(row);
  }
}

async function loadDetail() {
  if (!selectedNode) return;
  const response = await fetch("api/nodes/" + encodeURIComponent(selectedNode));
  if (!response.ok) { $("detail").hidden = true; selectedNode = null; return; }
  const { node, history } = await response.json();
  $("detail").hidden = false;
  $("detail-title").textContent = node.name || node.uuid;
  const fields = $("detail-fields");
  fields.replaceChildren();
  for (const [label, value] of [["uuid", node.uuid], ["driver", node.driver], ["state", node.provisionState],
    ["target", node.targetProvisionState], ["power", node.powerState], ["maintenance", node.maintenanceReason ?? (node.maintenance ? "yes" : "no")],
    ["retired", node.retiredReason ?? (node.retired ? "yes" : "no")], ["last error", node.lastError], ["conductor", node.conductor]]) {
    fields.append(el("dt", label), el("dd", value ?? ""));
  }
  const timeline = $("timeline");
  timeline.replaceChildren();
  for (const e of history) {
    timeline.append(el("li", `${when(e.occurredAt)} ${e.fromState ?? "(new)"} \u2192 ${e.toState} (${e.event})` +
      (e.intentId ? ` intent ${e.intentId.slice(0, 8)}` : "")));
  }
}

function connect() {
  // EventSource reconnects by itself after the service restarts; each new connection starts with a full tick.
  const stream = new EventSource("api/stream");
  stream.onopen = () => { $("connection").textContent = "live"; $("connection").className = "up"; tableDirty = true; };
  stream.onerror = () => { $("connection").textContent = "reconnecting"; $("connection").className = "down"; };
  stream.onmessage = (message) => {
    const tick = JSON.parse(message.data);
    renderSummary(tick.summary);
    addToFeed(tick.events);
    if (tick.changed) {
      tableDirty = true;
      if (selectedNode && tick.events.some((e) => e.nodeUuid === selectedNode)) loadDetail();
    }
  };
}

// The table follows changes at most twice a second, however fast nodes move.
setInterval(() => { if (tableDirty && Date.now() - lastTableLoad >= 500) reloadTable(); }, 250);
for (const id of ["state", "maintenance", "retired"]) $(id).onchange = reloadTable;
$("search").oninput = reloadTable;
connect();
