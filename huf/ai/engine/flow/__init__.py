"""The flow engine, pure: a flow definition (React Flow JSON) as a graph, its validation, the
restricted expression evaluator, one node executor per node type behind small ports, and ``step``:
one hop of a run. The Frappe layer (huf/ai/flow/) persists runs and calls ``step`` once per job."""
