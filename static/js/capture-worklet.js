// Microphone capture on the audio thread: downmix to mono, resample from the context's real
// rate (the global `sampleRate`: 44.1 kHz in many browsers, never assume 48 kHz) to 16 kHz
// with a windowed-sinc filter, and post 20 ms frames of PCM16 to the page.

const TARGET_RATE = 16000;
const FRAME_SAMPLES = TARGET_RATE / 50; // 20 ms
const HALF_TAPS = 16; // input samples on each side of an output sample
const PHASES = 512; // precomputed sub-sample positions of the kernel

/** Kernel table: PHASES rows of 2*HALF_TAPS taps, a Blackman-windowed low-pass below the output Nyquist. */
function buildKernel(ratio) {
  const cutoff = Math.min(1, 1 / ratio) * 0.92; // fraction of the input Nyquist kept
  const width = 2 * HALF_TAPS;
  const table = new Float32Array(PHASES * width);
  for (let phase = 0; phase < PHASES; phase++) {
    const frac = phase / PHASES;
    let sum = 0;
    for (let tap = 0; tap < width; tap++) {
      const distance = tap - (HALF_TAPS - 1) - frac; // input index minus output position
      const x = Math.PI * cutoff * distance;
      const sinc = distance === 0 ? 1 : Math.sin(x) / x;
      const w = (distance + HALF_TAPS) / width; // 0..1 across the window
      const window = 0.42 - 0.5 * Math.cos(2 * Math.PI * w) + 0.08 * Math.cos(4 * Math.PI * w);
      const value = sinc * Math.max(window, 0);
      table[phase * width + tap] = value;
      sum += value;
    }
    for (let tap = 0; tap < width; tap++) table[phase * width + tap] /= sum; // unit gain at DC
  }
  return table;
}

class CaptureProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / TARGET_RATE; // input samples per output sample
    this.kernel = buildKernel(this.ratio);
    this.input = new Float32Array(8192);
    this.inputLength = HALF_TAPS; // leading zeros so the first output has history
    this.position = HALF_TAPS; // next output position, in input samples (fractional)
    this.frame = new Int16Array(FRAME_SAMPLES);
    this.frameLength = 0;
    this.energy = 0;
    this.port.postMessage({ type: "ready", sampleRate });
  }

  append(channels) {
    const count = channels[0].length;
    if (this.inputLength + count > this.input.length) {
      const grown = new Float32Array((this.inputLength + count) * 2);
      grown.set(this.input.subarray(0, this.inputLength));
      this.input = grown;
    }
    const scale = 1 / channels.length;
    for (let i = 0; i < count; i++) {
      let sum = 0;
      for (let c = 0; c < channels.length; c++) sum += channels[c][i];
      this.input[this.inputLength + i] = sum * scale;
    }
    this.inputLength += count;
  }

  resample() {
    const width = 2 * HALF_TAPS;
    while (this.position + HALF_TAPS + 1 < this.inputLength) {
      const base = Math.floor(this.position);
      const phase = Math.min(PHASES - 1, Math.round((this.position - base) * PHASES));
      const first = base - (HALF_TAPS - 1);
      const row = phase * width;
      let acc = 0;
      for (let tap = 0; tap < width; tap++) acc += this.input[first + tap] * this.kernel[row + tap];
      this.emit(acc);
      this.position += this.ratio;
    }
    const keepFrom = Math.floor(this.position) - HALF_TAPS;
    if (keepFrom > 0) {
      this.input.copyWithin(0, keepFrom, this.inputLength);
      this.inputLength -= keepFrom;
      this.position -= keepFrom;
    }
  }

  emit(sample) {
    const clipped = Math.max(-1, Math.min(1, sample));
    this.frame[this.frameLength++] = clipped < 0 ? clipped * 0x8000 : clipped * 0x7fff;
    this.energy += clipped * clipped;
    if (this.frameLength === FRAME_SAMPLES) {
      const level = Math.sqrt(this.energy / FRAME_SAMPLES);
      const buffer = this.frame.buffer;
      this.port.postMessage({ type: "frame", pcm: buffer, level }, [buffer]);
      this.frame = new Int16Array(FRAME_SAMPLES);
      this.frameLength = 0;
      this.energy = 0;
    }
  }

  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length > 0 && channels[0].length > 0) {
      this.append(channels);
      this.resample();
    }
    return true;
  }
}

registerProcessor("pcm16-capture", CaptureProcessor);
