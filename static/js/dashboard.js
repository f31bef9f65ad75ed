// The dashboard: polls GET /api/dashboard every second (format in docs/protocol.md) and draws
// the live sessions, the engine (batch, queue by priority, KV cache, tokens/s) and per-stage
// latency percentiles over time.

import { drawChart } from "./charts.js";
import { SUMMARY_STAGES, TURN_STAGES } from "./stages.js";

const POLL_MS = 1000;
const HISTORY_S = 120;
const STAGES = [...TURN_STAGES, ...SUMMARY_STAGES];
const QUEUES = [
  { field: "queue_voice", label: "Queue voice", color: "#f59e0b" },
  { field: "queue_text", label: "Queue text", color: "#ec4899" },
  { field: "queue_background", label: "Queue background", color: "#94a3b8" },
];

/** A `series` point names a stage's percentiles `<stage>_p50_ms` (e.g. `total_p50_ms` for `total_ms`). */
const seriesField = (stage, pct) => `${stage.replace(/_ms$/, "")}_${pct}_ms`;

const $ = (id) => document.getElementById(id);
const stageHistory = []; // {t, values: {"asr_ms.p50": number|null, ...}}
let engineSeries = [];
const status = { polls: 0, failures: 0, last: null, plotted: {} }; // test hook: real progress
window.voicechatDashboard = status;

function setText(id, text) {
  $(id).textContent = text;
}

function number(value, digits = 0) {
  return value == null ? "–" : Number(value).toFixed(digits);
}

function duration(seconds) {
  if (seconds == null) return "–";
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function renderTiles(data) {
  const { sessions, engine } = data;
  setText("m-sessions", number(sessions.active));
  setText("m-sessions-detail", `of ${number(sessions.max)} allowed`);
  setText("m-batch", number(engine.batch_size));
  setText("m-batch-detail", `${number(engine.running)} running · limit ${number(engine.max_batch)}`);
  const queue = engine.queue || {};
  const queued = ["voice", "text", "background"].map((k) => queue[k]).filter((v) => v != null);
  setText("m-queue", queued.length ? String(queued.reduce((a, b) => a + b, 0)) : "–");
  setText("m-queue-detail", ["voice", "text", "background"].map((k) => `${k} ${number(queue[k])}`).join(" · "));
  const kvPercent = engine.kv_use == null ? null : engine.kv_use * 100;
  setText("m-kv", kvPercent == null ? "–" : `${kvPercent.toFixed(1)}%`);
  setText("m-kv-detail", `${number(engine.kv_used_blocks)} / ${number(engine.kv_total_blocks)} blocks`);
  const meter = $("m-kv-meter");
  meter.setAttribute("aria-valuenow", number(kvPercent, 1));
  meter.firstElementChild.style.width = `${Math.min(100, kvPercent || 0)}%`;
  setText("m-tps", number(engine.tokens_per_s, 1));
  setText("m-tps-detail", "generated, all sessions");
  const total = data.latency?.stages?.total_ms;
  setText("m-v2v", total?.p50 == null ? "–" : `${(total.p50 / 1000).toFixed(2)} s`);
  const detail = total?.p50 == null ? "no spoken turns yet" : `p50 · p95 ${(total.p95 / 1000).toFixed(2)} s · ${total.n} turns`;
  setText("m-v2v-detail", detail);
}

function renderSessions(list) {
  const body = $("sessions").tBodies[0];
  const rows = list.map((s) => {
    const row = document.createElement("tr");
    const latency = s.last_total_ms == null ? "–" : `${number(s.last_total_ms)} ms`;
    for (const text of [s.id, s.state, number(s.turns), latency, duration(s.connected_s)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  if (!rows.length) {
    const row = document.createElement("tr");
    const cell = document.createElement("td");
    cell.colSpan = 5;
    cell.className = "empty";
    cell.textContent = "No live sessions";
    row.append(cell);
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

/** Stage percentiles over time: seeded from the server's series, then one point per poll. */
function recordStages(data) {
  const point = (t, value) => {
    const values = {};
    for (const { key } of STAGES) for (const pct of ["p50", "p95"]) values[`${key}.${pct}`] = value(key, pct) ?? null;
    stageHistory.push({ t, values });
  };
  if (!stageHistory.length) {
    for (const sample of data.series || []) point(sample.t, (stage, pct) => sample[seriesField(stage, pct)]);
  }
  point(data.time, (stage, pct) => data.latency?.stages?.[stage]?.[pct]);
  while (stageHistory.length && stageHistory[0].t < data.time - HISTORY_S) stageHistory.shift();
}

function renderCharts() {
  const styles = getComputedStyle(document.documentElement);
  const accent = styles.getPropertyValue("--accent").trim();
  const accent2 = styles.getPropertyValue("--accent-2").trim();
  const times = engineSeries.map((p) => p.t);
  status.plotted.engine = drawChart($("c-engine"), times, [
    { color: accent, values: engineSeries.map((p) => p.batch_size), fill: true },
    ...QUEUES.map(({ field, color }) => ({ color, values: engineSeries.map((p) => p[field]) })),
  ]);
  const tokens = engineSeries.map((p) => p.tokens_per_s);
  status.plotted.tps = drawChart($("c-tps"), times, [{ color: accent2, values: tokens, fill: true }]);
  const kvPercent = engineSeries.map((p) => (p.kv_use == null ? null : p.kv_use * 100));
  status.plotted.kv = drawChart($("c-kv"), times, [{ color: accent, values: kvPercent, fill: true }], { max: 100 });
  const stageTimes = stageHistory.map((p) => p.t);
  const lines = [];
  for (const { key, color } of STAGES) {
    lines.push({ color, values: stageHistory.map((p) => p.values[`${key}.p50`] ?? null) });
    lines.push({ color, values: stageHistory.map((p) => p.values[`${key}.p95`] ?? null), dashed: true });
  }
  status.plotted.stages = drawChart($("c-stages"), stageTimes, lines);
}

function legend(entries) {
  const element = document.createElement("div");
  element.className = "legend";
  element.append(...entries.map(([name, color]) => {
    const item = document.createElement("span");
    item.style.setProperty("--swatch", color);
    item.textContent = name;
    return item;
  }));
  return element;
}

function renderLegends() {
  $("stage-legend").replaceWith(legend(STAGES.map(({ label, color }) => [label, color])));
  $("c-engine").after(legend([["Batch", "var(--accent)"], ...QUEUES.map(({ label, color }) => [label, color])]));
}

function setConnection(ok, label) {
  $("connection").dataset.connection = ok ? "open" : "closed";
  setText("connection-label", label);
}

async function poll() {
  try {
    const response = await fetch("/api/dashboard", { cache: "no-store" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const data = await response.json();
    status.polls += 1;
    status.last = data;
    engineSeries = data.series || [];
    recordStages(data);
    renderTiles(data);
    renderSessions(data.sessions.list || []);
    renderCharts();
    setConnection(true, `Live · up ${duration(data.uptime_s)}`);
  } catch (error) {
    status.failures += 1;
    setConnection(false, `Offline (${error.message})`);
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

renderLegends();
window.addEventListener("resize", renderCharts);
poll();
