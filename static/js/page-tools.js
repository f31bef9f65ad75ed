// Tools the page offers the assistant (Realtime function calling): the local date and time, and a
// countdown timer shown on the page. The server's model decides to call one; the page runs it here,
// answers with a `function_call_output` item and asks for the spoken answer.

export const PAGE_TOOLS = [
  {
    type: "function",
    name: "get_current_time",
    description: "Get the user's current local date and time.",
    parameters: { type: "object", properties: {} },
  },
  {
    type: "function",
    name: "set_timer",
    description: "Start a countdown timer on the user's screen.",
    parameters: {
      type: "object",
      properties: {
        seconds: { type: "integer", minimum: 1, maximum: 86400, description: "Length of the timer in seconds" },
        label: { type: "string", description: "What the timer is for" },
      },
      required: ["seconds"],
    },
  },
];

function pad(n) {
  return String(n).padStart(2, "0");
}

function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const rest = `${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return hours ? `${hours}:${rest}` : rest;
}

/** Countdown timers on the page: each a row that counts down and rings when it reaches zero. */
export class TimerShelf {
  constructor(element, context) {
    this.element = element;
    this.context = context;
    this.timers = [];
    setInterval(() => this.tick(), 250);
  }

  start(seconds, label) {
    const row = document.createElement("li");
    row.className = "timer";
    const name = document.createElement("span");
    name.className = "timer-label";
    name.textContent = label || "Timer";
    const remaining = document.createElement("span");
    remaining.className = "timer-remaining";
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "timer-dismiss";
    dismiss.textContent = "×";
    dismiss.setAttribute("aria-label", `Remove ${name.textContent}`);
    row.append(name, remaining, dismiss);
    this.element.append(row);
    this.element.hidden = false;
    const timer = { label: name.textContent, seconds, endsAt: Date.now() + seconds * 1000, fired: false, row, remaining };
    dismiss.addEventListener("click", () => this.remove(timer));
    this.timers.push(timer);
    this.tick();
    return timer;
  }

  remove(timer) {
    timer.row.remove();
    this.timers = this.timers.filter((t) => t !== timer);
    this.element.hidden = this.timers.length === 0;
  }

  tick() {
    for (const timer of this.timers) {
      const left = timer.endsAt - Date.now();
      timer.remaining.textContent = timer.fired ? "done" : clock(left);
      if (!timer.fired && left <= 0) {
        timer.fired = true;
        timer.row.classList.add("fired");
        timer.remaining.textContent = "done";
        this.ring();
      }
    }
  }

  /** Three short beeps through the page's audio context. */
  ring() {
    const start = this.context.currentTime;
    for (let i = 0; i < 3; i += 1) {
      const tone = this.context.createOscillator();
      const gain = this.context.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, start + i * 0.3);
      gain.gain.setValueAtTime(0, start + i * 0.3 + 0.15);
      tone.connect(gain).connect(this.context.destination);
      tone.start(start + i * 0.3);
      tone.stop(start + i * 0.3 + 0.16);
    }
  }

  /** What tests and the window hook see. */
  get state() {
    return this.timers.map(({ label, seconds, endsAt, fired }) => ({ label, seconds, remainingMs: Math.max(0, endsAt - Date.now()), fired }));
  }
}

/** Runs one call the model made; returns the output the model reads back (a JSON string). */
export function runPageTool(name, argumentsText, timers) {
  let args;
  try {
    args = JSON.parse(argumentsText || "{}");
  } catch {
    return JSON.stringify({ error: "arguments are not JSON" });
  }
  if (name === "get_current_time") {
    // as a person says them, since the reply copies them into speech: "Saturday, December 5, 2026" and "5:46 PM"
    // ("2026-12-05 17:46" came back as "seventeen forty-six ... in Europe/Berlin")
    const now = new Date();
    const part = (options) => now.toLocaleDateString("en-US", options);
    const hour = now.getHours();
    return JSON.stringify({
      date: `${part({ weekday: "long" })}, ${part({ month: "long" })} ${now.getDate()}, ${now.getFullYear()}`,
      time: `${hour % 12 || 12}:${pad(now.getMinutes())} ${hour < 12 ? "AM" : "PM"}`,
    });
  }
  if (name === "set_timer") {
    const seconds = Math.round(Number(args.seconds));
    if (!Number.isFinite(seconds) || seconds < 1 || seconds > 86400) {
      return JSON.stringify({ error: "seconds must be between 1 and 86400" });
    }
    timers.start(seconds, typeof args.label === "string" ? args.label.slice(0, 60) : "");
    return JSON.stringify({ status: "started", seconds });
  }
  return JSON.stringify({ error: `unknown tool ${name}` });
}
