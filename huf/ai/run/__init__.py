"""A run's whole life, from the request to its last row.

Queue first (``runs``: a run row, the conversation's single-flight drainer, rate limits in
``rate_limits``); set up (``run_setup``: an Agent document into the engine's config, its tools,
knowledge, memory and plan); executed (``executor``: the engine's loop, its events to the recorder
and to the event log); recorded as it happens (``recorder``, ``rows``: batched inserts and the
commit; ``cost``; ``titles``); streamed (``event_log`` in Redis, ``stream``: the SSE page);
ended or resumed (``lifecycle``: status changes; ``resume``: a run whose worker died;
``inflight``: which worker holds which run; ``approvals``: a tool that waits for a person);
``conversations``, ``worker`` (warm processes) and ``every_minute`` (the one scheduler job).

May import: the engine, the site's foundations (``huf.capabilities``, ``huf.permissions``,
``huf.ai.models``, ``huf.ai.outbound``, ``huf.ai.prompts``...) and the other rooms of ``huf.ai``
whose parts a run uses (tools, knowledge, media, mcp, agent_state). Never the endpoints
(``huf.ai.agent``), the web pages (``huf.www``) or the DocType controllers.
"""
