"""Where a source's passages are kept and searched: ``sqlite_fts`` (keywords, BM25),
``sqlite_vec`` (meaning, cosine over embeddings) and ``chroma`` (meaning, in a Chroma store on
disk or on a Chroma server), each a ``base.Backend``; ``open.open_backend`` picks one from a
``StoreConfig``."""
