"""The OpenAI-Realtime-style protocol, one module per event family: ``session`` (wiring and dispatch),
``input_audio``, ``turns``, ``conversation``, ``responses``; the wire shapes in ``client_events``,
``session_config`` and ``server_events``; the shared parts' protocols in ``parts``. docs/architecture.md
traces a turn through them."""
