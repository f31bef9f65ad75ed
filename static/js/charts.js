// Small time-series line charts drawn on <canvas>: no library, crisp on high-DPI screens,
// colours taken from the page's CSS so light and dark themes both work.

const PADDING = { left: 44, right: 10, top: 8, bottom: 20 };

function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** An axis maximum whose four grid steps are round numbers (1, 2, 2.5 or 5 times a power of ten). */
export function niceMax(value) {
  if (!(value > 0)) return 1;
  const rawStep = value / 4;
  const power = 10 ** Math.floor(Math.log10(rawStep));
  for (const step of [1, 2, 2.5, 5, 10]) if (rawStep <= step * power) return 4 * step * power;
  return 40 * power;
}

function formatTick(value) {
  if (value >= 1000) return `${(value / 1000).toFixed(value % 1000 ? 1 : 0)}k`;
  if (value >= 10 || Number.isInteger(value)) return String(Math.round(value));
  return value.toFixed(1);
}

/**
 * Draws lines over a shared time axis.
 * @param {HTMLCanvasElement} canvas
 * @param {number[]} times  seconds (unix), oldest first
 * @param {{color: string, values: (number|null)[], dashed?: boolean, fill?: boolean}[]} lines
 * @param {{max?: number, span?: number}} options  fixed y maximum; x span in seconds ending now
 * @returns {number} how many points were plotted
 */
export function drawChart(canvas, times, lines, options = {}) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);

  const plotW = width - PADDING.left - PADDING.right;
  const plotH = height - PADDING.top - PADDING.bottom;
  const end = times.length ? times[times.length - 1] : Date.now() / 1000;
  const span = options.span || 120;
  const x = (t) => PADDING.left + ((t - (end - span)) / span) * plotW;
  let peak = 0;
  for (const line of lines) for (const v of line.values) if (v != null && v > peak) peak = v;
  const max = options.max ?? niceMax(peak * 1.1);
  const y = (v) => PADDING.top + plotH - (Math.min(v, max) / max) * plotH;

  // grid and labels
  g.font = `11px ${cssVar("--font") || "sans-serif"}`;
  g.fillStyle = cssVar("--muted");
  g.strokeStyle = cssVar("--border");
  g.lineWidth = 1;
  g.textAlign = "right";
  g.textBaseline = "middle";
  for (let i = 0; i <= 4; i++) {
    const value = (max * i) / 4;
    const py = Math.round(y(value)) + 0.5;
    g.beginPath();
    g.moveTo(PADDING.left, py);
    g.lineTo(width - PADDING.right, py);
    g.stroke();
    g.fillText(formatTick(value), PADDING.left - 6, py);
  }
  g.textAlign = "center";
  g.textBaseline = "top";
  for (const ago of [span, span / 2, 0]) {
    const tickX = Math.min(Math.max(x(end - ago), PADDING.left + 12), width - PADDING.right - 12);
    g.fillText(ago === 0 ? "now" : `-${Math.round(ago)} s`, tickX, height - PADDING.bottom + 5);
  }

  // lines (gaps where a value is null)
  let plotted = 0;
  g.save();
  g.beginPath();
  g.rect(PADDING.left, PADDING.top - 2, plotW, plotH + 4);
  g.clip();
  for (const line of lines) {
    g.strokeStyle = line.color;
    g.lineWidth = 2;
    g.lineJoin = "round";
    g.setLineDash(line.dashed ? [5, 4] : []);
    const visible = (i) => line.values[i] != null && times[i] >= end - span;
    const lonely = []; // points with no visible neighbour: a line through them would not show
    g.beginPath();
    line.values.forEach((v, i) => {
      if (!visible(i)) return;
      if (visible(i - 1)) g.lineTo(x(times[i]), y(v));
      else g.moveTo(x(times[i]), y(v));
      if (!visible(i - 1) && !visible(i + 1)) lonely.push([times[i], v]);
      plotted += 1;
    });
    g.stroke();
    g.fillStyle = line.color;
    for (const [t, v] of lonely) {
      g.beginPath();
      g.arc(x(t), y(v), 2.5, 0, 2 * Math.PI);
      g.fill();
    }
    if (line.fill) {
      const points = line.values.map((v, i) => [times[i], v]).filter(([t, v]) => v != null && t >= end - span);
      if (points.length > 1) {
        g.setLineDash([]);
        g.globalAlpha = 0.12;
        g.fillStyle = line.color;
        g.beginPath();
        g.moveTo(x(points[0][0]), y(0));
        for (const [t, v] of points) g.lineTo(x(t), y(v));
        g.lineTo(x(points[points.length - 1][0]), y(0));
        g.closePath();
        g.fill();
        g.globalAlpha = 1;
      }
    }
  }
  g.restore();
  return plotted;
}
