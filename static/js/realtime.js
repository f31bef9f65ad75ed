// The WebSocket to the server: JSON events (a subset of the OpenAI Realtime API) as text
// frames, raw PCM16 audio as binary frames. Reconnects on its own; the server resumes the
// conversation the page's session cookie proves, so a dropped connection or a reload continues it.

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 8000;

// Closes that dialling again at once would only repeat: a policy refusal (1008: origin, access
// token, a client too slow to read) or the idle timeout. These wait for the user's next action.
const waitsForUser = (close) => close.code === 1008 || close.reason === "idle";

export class RealtimeConnection extends EventTarget {
  /** @param {() => string} urlFor  builds the socket URL */
  constructor(urlFor) {
    super();
    this.urlFor = urlFor;
    this.socket = null;
    this.retryMs = RETRY_MIN_MS;
    this.closedOnPurpose = false;
    this.parked = false;
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Resolves once the socket is open (the first time only; later reconnects emit "open"). */
  connect() {
    return new Promise((resolve) => {
      const onOpen = () => {
        this.removeEventListener("open", onOpen);
        resolve();
      };
      this.addEventListener("open", onOpen);
      this.dial();
    });
  }

  dial() {
    const socket = new WebSocket(this.urlFor());
    socket.binaryType = "arraybuffer";
    socket.onopen = () => {
      this.retryMs = RETRY_MIN_MS;
      this.dispatchEvent(new Event("open"));
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.parked = !this.closedOnPurpose && waitsForUser(close);
      this.dispatchEvent(new CustomEvent("close", { detail: { code: close.code, reason: close.reason, parked: this.parked } }));
      if (!this.closedOnPurpose && !this.parked) {
        setTimeout(() => this.dial(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      }
    };
    this.socket = socket;
  }

  receive(data) {
    if (data instanceof ArrayBuffer) {
      this.dispatchEvent(new CustomEvent("audio", { detail: data }));
      return;
    }
    let event;
    try {
      event = JSON.parse(data);
    } catch {
      console.warn("ignoring a message that is not JSON");
      return;
    }
    this.dispatchEvent(new CustomEvent("server-event", { detail: event }));
  }

  /** Sends a client event; returns false when the socket is not open (the event is dropped). */
  send(event) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(event));
    return true;
  }

  /** Sends one frame of raw PCM16; returns false when the socket is not open. */
  sendAudio(pcm) {
    if (!this.open) return false;
    this.socket.send(pcm);
    return true;
  }

  /** Dials again after a close that waited for the user (idle timeout, refusal). */
  wake() {
    if (!this.parked) return;
    this.parked = false;
    this.dial();
  }

  /** Drops the current socket; the usual retry dials again shortly. */
  reconnect() {
    this.socket?.close();
  }

  close() {
    this.closedOnPurpose = true;
    this.socket?.close();
  }
}
