"""The web app: WebSocket protocol (OpenAI Realtime subset), per-connection sessions, history, dashboard."""
