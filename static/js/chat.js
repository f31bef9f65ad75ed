// The chat page: wires the microphone, the WebSocket protocol (docs/protocol.md), the playback
// queue and the conversation view together, and keeps `window.voicechat` up to date so tests
// (and curious people) can watch real progress.

import { ConversationView } from "./conversation.js";
import { Microphone } from "./microphone.js";
import { PAGE_TOOLS, TimerShelf, runPageTool } from "./page-tools.js";
import { PlaybackQueue } from "./playback.js";
import { RealtimeConnection } from "./realtime.js";
import { PLAYBACK_STAGE, TURN_STAGES } from "./stages.js";

const SESSION_KEY = "voicechat.session";
const VOICE_KEY = "voicechat.voiceOut";
const SPEED_KEY = "voicechat.speed"; // set once the user picks a speed or asks for one; until then the server's is shown

const $ = (id) => document.getElementById(id);
const ui = {
  log: $("log"),
  hint: $("empty-hint"),
  partial: $("partial"),
  notice: $("notice"),
  connection: $("connection"),
  connectionLabel: $("connection-label"),
  state: $("state"),
  mic: $("mic"),
  form: $("text-form"),
  text: $("text"),
  send: $("send"),
  voiceOut: $("voice-out"),
  speed: $("voice-speed"),
  latency: $("latency"),
  timers: $("timers"),
};

const context = new AudioContext({ latencyHint: "interactive" });
const playback = new PlaybackQueue(context);
const view = new ConversationView(ui.log, ui.hint);
const timers = new TimerShelf(ui.timers, context);
const workletReady = Microphone.load(context);

/**
 * What the page knows about the conversation right now. Which conversation the socket resumes is
 * the server's call: it reads the HttpOnly cookie the page came with (a credential this script never
 * sees). The id kept here only tells a resumed conversation from a fresh one after a reload.
 */
const session = {
  id: sessionStorage.getItem(SESSION_KEY),
  outputRate: 24000,
  speed: null, // the spoken replies' rate, as the server last said
  userSpeaking: false,
  response: null, // {id, itemId, done, interrupted, firstAudioReceivedAt, firstAudioHeardAt}
  resumeRetried: false,
  toolsOffered: true, // until the server says its model takes no tools
};

const stats = {
  framesSent: 0,
  bytesSent: 0,
  flushes: 0,
  truncations: [],
  responsesDone: 0,
  lastLatency: null,
  micLevel: 0,
  errors: [],
  eventCounts: {},
  statesSeen: new Set(),
  partials: [],
  toolCalls: [],
};

/** Appends to a stats list, keeping only the most recent entries (a page may stay open for days). */
function remember(list, entry) {
  list.push(entry);
  if (list.length > 100) list.shift();
}

const microphone = new Microphone(context, (pcm, level) => {
  stats.micLevel = level;
  ui.mic.style.setProperty("--level", Math.min(1, level * 8).toFixed(3));
  if (connection.sendAudio(pcm)) {
    stats.framesSent += 1;
    stats.bytesSent += pcm.byteLength;
  }
});

const connection = new RealtimeConnection(() => {
  const url = new URL("/ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
});

// ---------------------------------------------------------------- state

function currentState() {
  if (session.userSpeaking) return "listening";
  if (playback.playing) return "speaking";
  if (session.response && !session.response.interrupted) return "thinking";
  return microphone.active ? "listening" : "idle";
}

function renderState() {
  const state = currentState();
  if (ui.state.dataset.state !== state) {
    stats.statesSeen.add(state);
    ui.state.dataset.state = state;
    ui.state.textContent = state;
  }
}

function setConnection(status, label) {
  ui.connection.dataset.connection = status;
  ui.connectionLabel.textContent = label;
  ui.connection.title = label;
  ui.mic.disabled = status !== "open" && !microphone.active;
  ui.send.disabled = status !== "open";
}

function showNotice(message) {
  ui.notice.textContent = message;
  ui.notice.hidden = !message;
}

// ---------------------------------------------------------------- barge-in

/** Barge-in: stops reply audio at once and tells the server how much of it was heard. */
function bargeIn() {
  const response = session.response;
  const streaming = response && !response.done && !response.interrupted ? response.itemId : null;
  const heard = playback.flush(streaming);
  if (response) response.interrupted = true;
  if (heard.length) stats.flushes += 1;
  for (const { itemId, audioEndMs, scheduledMs } of heard) {
    connection.send({ type: "conversation.item.truncate", item_id: itemId, content_index: 0, audio_end_ms: audioEndMs });
    remember(stats.truncations, { itemId, audioEndMs, scheduledMs });
  }
  renderState();
}

/** Escape or a new typed message: cancel the running reply and silence it. */
function interrupt() {
  if (session.response && !session.response.done) connection.send({ type: "response.cancel" });
  bargeIn();
}

// ---------------------------------------------------------------- latency

function formatSeconds(ms) {
  return ms == null ? "–" : `${(ms / 1000).toFixed(2)} s`;
}

/** End of speech (typed: send) -> first audio heard, from the server's breakdown plus local playback start. */
function showLatency(response, latency) {
  if (!latency) return;
  const playbackMs = response.firstAudioHeardAt != null && response.firstAudioReceivedAt != null
    ? response.firstAudioHeardAt - response.firstAudioReceivedAt
    : null;
  const heardMs = latency.total_ms != null ? latency.total_ms + (playbackMs ?? 0) : null;
  const stages = [...TURN_STAGES, PLAYBACK_STAGE]
    .map((stage) => ({ ...stage, ms: stage === PLAYBACK_STAGE ? playbackMs : latency[stage.key] }))
    .filter((stage) => stage.ms != null);
  const parts = stages.map((stage) => `${stage.label} ${Math.round(stage.ms)} ms`);
  const spoken = latency.endpoint_ms != null;
  const what = playbackMs != null ? (spoken ? "end of speech → first audio heard" : "message sent → first audio heard")
    : "message sent → first text";
  const summary = `${what}${latency.speculative ? " (speculative start)" : ""}`;
  stats.lastLatency = { heardMs, playbackMs, ...latency };
  ui.latency.textContent = `Last turn: ${formatSeconds(heardMs)}`;
  ui.latency.title = `${summary}\n${parts.join("\n")}`;
  ui.latency.setAttribute("aria-label", `Last turn latency ${formatSeconds(heardMs)}: ${summary}. ${parts.join(", ")}`);
  if (response.itemId && heardMs != null) view.annotate(response.itemId, `${formatSeconds(heardMs)} ${summary}`, stages);
}

// ---------------------------------------------------------------- server events

const handlers = {
  "session.created"(event) {
    if (session.id && event.session.id !== session.id && !session.resumeRetried) {
      // After a reload the server may not have closed this tab's previous socket yet, and it
      // never gives one conversation to two sockets: ask once more before taking a fresh one.
      session.resumeRetried = true;
      connection.reconnect();
      return;
    }
    session.resumeRetried = false; // the next reconnect may retry once too
    session.id = event.session.id;
    sessionStorage.setItem(SESSION_KEY, session.id);
    session.outputRate = event.session.audio?.output?.format?.rate || session.outputRate;
    showSpeed(event.session.audio?.output?.speed);
    sendVoiceSetting();
    showNotice("");
  },
  "session.updated"(event) {
    session.outputRate = event.session.audio?.output?.format?.rate || session.outputRate;
    const speed = event.session.audio?.output?.speed;
    // a change the user asked for in words is kept as if picked here, for the next visit
    if (typeof speed === "number" && session.speed !== null && speed !== session.speed) {
      localStorage.setItem(SPEED_KEY, String(speed));
    }
    showSpeed(speed);
  },
  "input_audio_buffer.speech_started"() {
    session.userSpeaking = true;
    if (playback.playing || (session.response && !session.response.done)) bargeIn();
  },
  "input_audio_buffer.speech_stopped"() {
    session.userSpeaking = false;
  },
  "conversation.item.input_audio_transcription.delta"(event) {
    ui.partial.textContent = event.transcript ?? `${ui.partial.textContent}${event.delta}`;
    remember(stats.partials, ui.partial.textContent);
  },
  "conversation.item.input_audio_transcription.completed"(event) {
    ui.partial.textContent = "";
    view.ensure(event.item_id, "user");
    view.setText(event.item_id, event.transcript);
  },
  "conversation.item.added"(event) {
    view.upsert(event.item);
  },
  "conversation.item.done"(event) {
    view.upsert(event.item);
    if (event.item.role === "assistant") view.setStreaming(event.item.id, false);
  },
  "conversation.item.deleted"(event) {
    view.discard(event.item_id);
  },
  "conversation.item.truncated"(event) {
    view.truncate(event.item_id, event.transcript ?? "");
  },
  "response.created"(event) {
    session.response = { id: event.response.id, itemId: null, interrupted: false, done: false };
  },
  "response.output_item.added"(event) {
    if (event.item.type !== "message") return;
    if (session.response) session.response.itemId = event.item.id;
    view.upsert(event.item);
    view.setStreaming(event.item.id, true);
  },
  "response.output_text.delta"(event) {
    view.append(event.item_id, event.delta);
  },
  "response.output_audio_transcript.delta"(event) {
    view.append(event.item_id, event.delta);
  },
  "response.done"(event) {
    const response = session.response;
    stats.responsesDone += 1;
    if (response && response.id === event.response.id) {
      response.done = true;
      if (response.itemId) view.setStreaming(response.itemId, false);
      if (event.response.status !== "cancelled") showLatency(response, event.response.latency);
      if (!playback.playing) session.response = null;
    }
    if (event.response.status === "failed") {
      showNotice(event.response.status_details?.error?.message || "The reply failed.");
    }
    if (event.response.status === "completed") answerToolCalls(event.response.output || []);
  },
  error(event) {
    const { code, message } = event.error || {};
    remember(stats.errors, code);
    if (code === "empty_input") {
      view.removeEmpty("user");
      ui.partial.textContent = "";
    } else if (code === "unsupported_feature" && event.error.param?.endsWith(".speed")) {
      localStorage.removeItem(SPEED_KEY); // this server's voice speaks at one speed: the update goes again without
      ui.speed.closest("label").hidden = true;
      sendVoiceSetting();
    } else if (code === "tools_unsupported") {
      session.toolsOffered = false; // the update that carried them was refused whole: send it again without
      sendVoiceSetting();
    } else if (code === "server_full") {
      showNotice("The server is full right now; retrying shortly…");
    } else {
      console.warn("server error", code, message);
      if (code === "stage_failed" || code === "text_too_long") showNotice(message);
    }
  },
};

function receiveAudio(pcm) {
  const response = session.response;
  if (!response || response.interrupted || !response.itemId || !ui.voiceOut.checked) return;
  const heardAt = playback.enqueue(response.itemId, pcm, session.outputRate);
  if (response.firstAudioReceivedAt == null) {
    response.firstAudioReceivedAt = performance.now();
    response.firstAudioHeardAt = heardAt;
  }
  renderState();
}

playback.addEventListener("drained", () => {
  if (session.response?.done) session.response = null;
  renderState();
});

connection.addEventListener("server-event", (message) => {
  const event = message.detail;
  stats.eventCounts[event.type] = (stats.eventCounts[event.type] || 0) + 1;
  handlers[event.type]?.(event);
  renderState();
});
connection.addEventListener("audio", (message) => receiveAudio(message.detail));
for (const type of ["keydown", "pointerdown"]) document.addEventListener(type, () => connection.wake());
connection.addEventListener("open", () => setConnection("open", "Connected"));
connection.addEventListener("close", (message) => {
  const { code, parked } = message.detail;
  const label = code === 1013 ? "Server full" : parked ? "Disconnected: press a key or click to reconnect" : "Reconnecting…";
  setConnection("closed", label);
  session.userSpeaking = false;
  playback.flush();
  session.response = null;
  renderState();
});

// ---------------------------------------------------------------- controls

/** The server's speed in the picker; one not among its choices is added as it is (an operator's default). */
function showSpeed(speed) {
  if (typeof speed !== "number") return;
  session.speed = speed;
  const value = String(speed);
  if (![...ui.speed.options].some((option) => option.value === value)) {
    const option = new Option(`${value}×`, value);
    const after = [...ui.speed.options].find((other) => Number(other.value) > speed);
    ui.speed.add(option, after ?? null);
  }
  ui.speed.value = value;
}

function sendVoiceSetting() {
  const update = { output_modalities: ui.voiceOut.checked ? ["audio"] : ["text"] };
  const chosen = Number(localStorage.getItem(SPEED_KEY)); // 0 where none was chosen
  if (chosen >= 0.25 && chosen <= 1.5) update.audio = { output: { speed: chosen } };
  if (session.toolsOffered) Object.assign(update, { tools: PAGE_TOOLS, tool_choice: "auto" });
  connection.send({ type: "session.update", session: update });
}

/** The model called the page's tools: run them here, hand back their outputs, and ask for the answer. */
function answerToolCalls(output) {
  const calls = output.filter((item) => item.type === "function_call");
  for (const call of calls) {
    const result = runPageTool(call.name, call.arguments, timers);
    remember(stats.toolCalls, { name: call.name, arguments: call.arguments, output: result });
    connection.send({ type: "conversation.item.create", item: { type: "function_call_output", call_id: call.call_id, output: result } });
  }
  if (calls.length) connection.send({ type: "response.create" });
}

async function toggleMicrophone() {
  if (microphone.active) {
    microphone.stop();
    ui.mic.setAttribute("aria-pressed", "false");
    ui.mic.setAttribute("aria-label", "Start talking");
    ui.mic.style.setProperty("--level", "0");
    renderState();
    return;
  }
  try {
    await context.resume();
    await workletReady;
    if (!connection.open) await new Promise((resolve) => connection.addEventListener("open", resolve, { once: true }));
    await microphone.start();
    ui.mic.setAttribute("aria-pressed", "true");
    ui.mic.setAttribute("aria-label", "Stop talking");
    showNotice("");
  } catch (error) {
    showNotice(`Microphone unavailable: ${error.message}`);
  }
  renderState();
}

function sendText(event) {
  event.preventDefault();
  const text = ui.text.value.trim();
  if (!text || !connection.open) return;
  context.resume();
  interrupt();
  const item = { type: "message", role: "user", content: [{ type: "input_text", text }] };
  connection.send({ type: "conversation.item.create", item });
  connection.send({ type: "response.create" });
  ui.text.value = "";
}

ui.mic.addEventListener("click", toggleMicrophone);
ui.form.addEventListener("submit", sendText);
ui.voiceOut.checked = localStorage.getItem(VOICE_KEY) !== "false";
ui.voiceOut.addEventListener("change", () => {
  localStorage.setItem(VOICE_KEY, String(ui.voiceOut.checked));
  if (!ui.voiceOut.checked) playback.flush(); // the text stays whole: it is still read
  sendVoiceSetting();
});
ui.speed.addEventListener("change", () => {
  localStorage.setItem(SPEED_KEY, ui.speed.value); // heard from the next reply on
  sendVoiceSetting();
});
document.addEventListener("keydown", (event) => {
  if (event.altKey && event.key.toLowerCase() === "m") {
    event.preventDefault();
    toggleMicrophone();
  } else if (event.key === "Escape") {
    interrupt();
  }
});
setInterval(renderState, 250);

// ---------------------------------------------------------------- test hook

const rms = (energy, samples) => (samples ? Math.sqrt(energy / samples) : 0);

window.voicechat = {
  get state() { return currentState(); },
  get connected() { return connection.open; },
  get sessionId() { return session.id; },
  get micActive() { return microphone.active; },
  get captureRate() { return context.sampleRate; },
  get outputRate() { return session.outputRate; },
  get speed() { return session.speed; },
  get samplesScheduled() { return playback.samplesScheduled; },
  get samplesPlayed() { return playback.samplesPlayed; },
  get scheduledRms() { return rms(playback.energyScheduled, playback.samplesScheduled); },
  get playedRms() { return rms(playback.energyPlayed, playback.samplesPlayed); },
  get playing() { return playback.playing; },
  get statesSeen() { return [...stats.statesSeen]; },
  get timers() { return timers.state; },
  /** The log as the user sees it; `text` of an interrupted reply is the part that was heard. */
  get messages() {
    return [...view.bubbles].map(([itemId, bubble]) => ({
      itemId,
      role: bubble.role,
      text: bubble.text,
      interrupted: bubble.element.classList.contains("interrupted"),
    }));
  },
  stats,
};

window.addEventListener("pagehide", () => connection.close());
connection.connect();
setConnection("connecting", "Connecting…");
