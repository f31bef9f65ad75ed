// Reply audio playback: PCM16 chunks become AudioBufferSourceNodes scheduled back to back on
// the context clock, so there are no gaps between chunks and a flush (barge-in) silences
// everything at once and can say exactly how much of each reply was heard.

const START_LEAD_S = 0.04; // headroom when the queue starts from empty, so the first chunk is not clipped

export class PlaybackQueue extends EventTarget {
  /** @param {AudioContext} context */
  constructor(context) {
    super();
    this.context = context;
    this.output = context.createGain();
    this.output.connect(context.destination);
    this.nextStart = 0;
    this.chunks = []; // scheduled and not yet ended, in order
    this.heardSeconds = new Map(); // item id -> seconds of it fully played so far
    this.scheduledSeconds = new Map(); // item id -> seconds of it queued in total
    this.samplesScheduled = 0;
    this.samplesPlayed = 0;
    this.energyScheduled = 0; // sum of squares, for a loudness check
    this.energyPlayed = 0;
  }

  get playing() {
    return this.chunks.length > 0;
  }

  /** The item whose audio is queued last, or null. */
  get currentItemId() {
    return this.chunks.length ? this.chunks[this.chunks.length - 1].itemId : null;
  }

  /**
   * Schedule one chunk of PCM16 mono audio right after everything already queued.
   * @returns {number} performance.now() time at which this chunk will be heard
   */
  enqueue(itemId, pcm16, sampleRate) {
    const ints = new Int16Array(pcm16);
    if (ints.length === 0) return performance.now();
    const buffer = this.context.createBuffer(1, ints.length, sampleRate);
    const samples = buffer.getChannelData(0);
    let energy = 0;
    for (let i = 0; i < ints.length; i++) {
      const value = ints[i] / 0x8000;
      samples[i] = value;
      energy += value * value;
    }
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.output);
    const now = this.context.currentTime;
    const start = Math.max(this.nextStart, now + START_LEAD_S);
    const chunk = { itemId, source, start, duration: buffer.duration, samples: ints.length, energy, stopped: false };
    source.onended = () => this.ended(chunk);
    source.start(start);
    this.nextStart = start + buffer.duration;
    this.chunks.push(chunk);
    if (!this.heardSeconds.has(itemId)) this.heardSeconds.set(itemId, 0);
    this.scheduledSeconds.set(itemId, (this.scheduledSeconds.get(itemId) || 0) + buffer.duration);
    this.samplesScheduled += ints.length;
    this.energyScheduled += energy;
    const latency = this.outputDelay();
    return performance.now() + (start - now + latency) * 1000;
  }

  ended(chunk) {
    if (chunk.stopped) return;
    const index = this.chunks.indexOf(chunk);
    if (index >= 0) this.chunks.splice(index, 1);
    this.samplesPlayed += chunk.samples;
    this.energyPlayed += chunk.energy;
    this.heardSeconds.set(chunk.itemId, (this.heardSeconds.get(chunk.itemId) || 0) + chunk.duration);
    if (!this.playing) this.dispatchEvent(new Event("drained"));
  }

  /** Seconds between scheduling a sample at `currentTime` and hearing it. */
  outputDelay() {
    return this.context.outputLatency || this.context.baseLatency || 0;
  }

  /** Milliseconds of an item heard so far (ended chunks plus the part of the current one). */
  heardMs(itemId) {
    const now = this.context.currentTime - this.outputDelay(); // what reaches the speaker now
    let seconds = this.heardSeconds.get(itemId) || 0;
    for (const chunk of this.chunks) {
      if (chunk.itemId === itemId) seconds += Math.min(Math.max(now - chunk.start, 0), chunk.duration);
    }
    return Math.floor(seconds * 1000); // never more than was sent: the server rejects that
  }

  /**
   * Stop everything now. Returns how much of each interrupted item was heard: items with audio
   * still queued, plus `activeItemId` (a reply still streaming, whose queue may have run dry
   * while it waited for more audio) if any of it was queued. The conversation is then
   * truncated to exactly that.
   * @returns {{itemId: string, audioEndMs: number, scheduledMs: number}[]}
   */
  flush(activeItemId = null) {
    const interrupted = new Set(this.chunks.map((chunk) => chunk.itemId));
    if (activeItemId && this.scheduledSeconds.get(activeItemId)) interrupted.add(activeItemId);
    const heard = [...interrupted].map((itemId) => ({
      itemId,
      audioEndMs: this.heardMs(itemId),
      scheduledMs: Math.round((this.scheduledSeconds.get(itemId) || 0) * 1000),
    }));
    const wasPlaying = this.playing;
    const now = this.context.currentTime - this.outputDelay();
    for (const chunk of this.chunks) {
      chunk.stopped = true;
      const played = Math.min(Math.max(now - chunk.start, 0), chunk.duration);
      const playedSamples = Math.round((played / chunk.duration) * chunk.samples);
      this.samplesPlayed += playedSamples;
      this.energyPlayed += chunk.energy * (playedSamples / chunk.samples);
      try {
        chunk.source.stop();
      } catch {
        // a chunk that never started cannot be stopped twice; nothing to do
      }
      chunk.source.disconnect();
    }
    this.chunks = [];
    this.nextStart = 0;
    for (const { itemId, audioEndMs } of heard) this.heardSeconds.set(itemId, audioEndMs / 1000);
    if (wasPlaying) this.dispatchEvent(new Event("drained"));
    return heard;
  }
}
