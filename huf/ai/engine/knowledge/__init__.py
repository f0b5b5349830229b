"""Knowledge, without Frappe: extract text from documents (``extract``), cut it into chunks that
remember where they came from (``chunking``), keep them in one of three index backends
(``backends``: SQLite FTS5, sqlite-vec, Chroma), embed text through LiteLLM (``embed``), merge
results from several sources by rank (``fusion``) and fit them into a token budget (``context``).
The Frappe layer (``huf.ai.knowledge``) loads Knowledge Sources into these plain values."""
