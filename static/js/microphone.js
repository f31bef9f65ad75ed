// The microphone: getUserMedia (echo cancellation and noise suppression requested, so the
// assistant's own voice is not taken for the user) feeding the capture worklet, which posts
// 20 ms frames of 16 kHz PCM16.

export const CAPTURE_WORKLET_URL = "/static/js/capture-worklet.js";

export class Microphone {
  /**
   * @param {AudioContext} context  shared with playback, so the browser's echo canceller sees the output
   * @param {(pcm: ArrayBuffer, level: number) => void} onFrame
   */
  constructor(context, onFrame) {
    this.context = context;
    this.onFrame = onFrame;
    this.stream = null;
    this.source = null;
    this.node = null;
  }

  /** Loads the worklet module; call early, so the first spoken frames are not lost. */
  static async load(context) {
    await context.audioWorklet.addModule(CAPTURE_WORKLET_URL);
  }

  get active() {
    return this.stream !== null;
  }

  async start() {
    if (this.active) return;
    if (!navigator.mediaDevices?.getUserMedia) {
      throw new Error("This page needs a secure origin (https or localhost) to use the microphone.");
    }
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
    this.stream = stream;
    this.source = this.context.createMediaStreamSource(stream);
    this.node = new AudioWorkletNode(this.context, "pcm16-capture", { numberOfInputs: 1, numberOfOutputs: 0 });
    this.node.port.onmessage = (event) => {
      if (event.data.type === "frame") this.onFrame(event.data.pcm, event.data.level);
    };
    this.source.connect(this.node);
  }

  stop() {
    if (!this.active) return;
    this.source.disconnect();
    this.node.port.onmessage = null;
    this.node.disconnect();
    for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.source = null;
    this.node = null;
  }
}
