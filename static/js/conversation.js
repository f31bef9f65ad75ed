// The chat log: one bubble per conversation item, keyed by item id so live events and the
// history replayed on resume update the same bubble. Text is only ever set with
// textContent: nothing a user or the model writes is parsed as HTML.

/** The text of an item as the server describes it (input/output text or audio transcript). */
export function itemText(item) {
  return (item.content || []).map((part) => part.text ?? part.transcript ?? "").join("");
}

export class ConversationView {
  /** @param {HTMLElement} log  @param {HTMLElement} hint shown while the log is empty */
  constructor(log, hint) {
    this.log = log;
    this.hint = hint;
    this.bubbles = new Map(); // item id -> {element, body, role, text}
  }

  has(itemId) {
    return this.bubbles.has(itemId);
  }

  /** Creates the bubble of an item (once), in arrival order. */
  ensure(itemId, role) {
    let bubble = this.bubbles.get(itemId);
    if (bubble) return bubble;
    const element = document.createElement("article");
    element.className = `message ${role}`;
    element.dataset.itemId = itemId;
    element.dataset.role = role;
    const label = document.createElement("span");
    label.className = "visually-hidden";
    label.textContent = role === "user" ? "You: " : role === "assistant" ? "Assistant: " : "Note: ";
    const body = document.createElement("span");
    body.className = "body";
    element.append(label, body);
    this.log.append(element);
    this.hint.hidden = true;
    bubble = { element, body, role, text: "" };
    this.bubbles.set(itemId, bubble);
    this.scroll();
    return bubble;
  }

  /** Shows a whole item (live `conversation.item.*` or replayed history). */
  upsert(item) {
    if (item.type && item.type !== "message") return;
    const text = itemText(item);
    const bubble = this.ensure(item.id, item.role);
    if (text || item.status === "completed") this.setText(item.id, text);
    bubble.element.classList.toggle("pending", bubble.text === "");
  }

  setText(itemId, text) {
    const bubble = this.bubbles.get(itemId);
    if (!bubble) return;
    bubble.text = text;
    bubble.body.textContent = text;
    bubble.element.classList.toggle("pending", text === "");
    this.scroll();
  }

  append(itemId, delta) {
    const bubble = this.bubbles.get(itemId);
    if (bubble) this.setText(itemId, bubble.text + delta);
  }

  /** While a reply streams, screen readers wait (aria-busy) instead of reading every token. */
  setStreaming(itemId, streaming) {
    const element = this.bubbles.get(itemId)?.element;
    if (!element) return;
    element.classList.toggle("streaming", streaming);
    element.setAttribute("aria-busy", String(streaming));
  }

  /** After barge-in: the kept text stays, the unheard rest is shown struck through. */
  truncate(itemId, keptText) {
    const bubble = this.bubbles.get(itemId);
    if (!bubble) return;
    const full = bubble.text;
    const rest = full.startsWith(keptText) ? full.slice(keptText.length) : "";
    bubble.text = keptText;
    bubble.body.textContent = keptText;
    if (rest.trim()) {
      const unheard = document.createElement("span");
      unheard.className = "unheard";
      unheard.title = "Not heard: interrupted";
      unheard.textContent = rest;
      bubble.body.append(unheard);
    }
    bubble.element.classList.add("interrupted");
    this.setStreaming(itemId, false);
  }

  /**
   * The turn's latency under a reply: a caption and a bar with one segment per stage.
   * @param {{label: string, color: string, ms: number}[]} stages
   */
  annotate(itemId, caption, stages) {
    const bubble = this.bubbles.get(itemId);
    if (!bubble) return;
    bubble.element.querySelector(".meta")?.remove();
    const meta = document.createElement("span");
    meta.className = "meta";
    const bar = document.createElement("span");
    bar.className = "latency-bar";
    bar.setAttribute("aria-hidden", "true");
    const total = stages.reduce((sum, stage) => sum + stage.ms, 0) || 1;
    for (const stage of stages) {
      const segment = document.createElement("span");
      segment.style.setProperty("--swatch", stage.color);
      segment.style.width = `${(100 * stage.ms) / total}%`;
      segment.title = `${stage.label}: ${Math.round(stage.ms)} ms`;
      bar.append(segment);
    }
    const text = document.createElement("span");
    text.className = "caption";
    text.textContent = caption;
    text.title = stages.map((stage) => `${stage.label}: ${Math.round(stage.ms)} ms`).join("\n");
    meta.append(bar, text);
    bubble.element.append(meta);
  }

  /** An item the conversation no longer holds (a reply stopped, or truncated, before any of it was heard): an empty
   * bubble goes, words shown but not heard stay, struck through. */
  discard(itemId) {
    const bubble = this.bubbles.get(itemId);
    if (bubble?.text) this.truncate(itemId, "");
    else if (!bubble?.body.textContent.trim()) this.remove(itemId);
  }

  remove(itemId) {
    this.bubbles.get(itemId)?.element.remove();
    this.bubbles.delete(itemId);
    this.hint.hidden = this.bubbles.size > 0;
  }

  /** Drops user bubbles that never got any words (speech that turned out to be noise). */
  removeEmpty(role) {
    for (const [itemId, bubble] of this.bubbles) {
      if (bubble.role === role && bubble.text === "") this.remove(itemId);
    }
  }

  scroll() {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
