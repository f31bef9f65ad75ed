// The latency stages of a turn (docs/protocol.md, `response.latency`), in order, with the names
// and colours both pages use.

/** Server-measured stages, each from the end of the previous one; they add up to `total_ms`. */
export const TURN_STAGES = [
  { key: "endpoint_ms", label: "End of turn", color: "#64748b" },
  { key: "asr_ms", label: "Speech recognition", color: "#06b6d4" },
  { key: "llm_first_token_ms", label: "LLM first token", color: "#8b5cf6" },
  { key: "first_clause_ms", label: "First clause", color: "#f59e0b" },
  { key: "tts_first_chunk_ms", label: "TTS first chunk", color: "#10b981" },
  { key: "send_ms", label: "Send", color: "#94a3b8" },
];

/** Measured by the page: first audio received -> heard. */
export const PLAYBACK_STAGE = { key: "playback_ms", label: "Playback start", color: "#ec4899" };

/** Summaries the dashboard charts next to the stages. */
export const SUMMARY_STAGES = [
  { key: "total_ms", label: "Total (speech → audio)", color: "#4f46e5" },
  { key: "text_ttft_ms", label: "Text first token", color: "#e11d48" },
];
