from dataclasses import dataclass


@dataclass(frozen=True)
class RunContext:
	"""Who and what a tool call belongs to. Tools act as ``user``, with that user's permissions."""

	run: str
	conversation: str
	agent: str
	user: str
	depth: int = 0
	chain: tuple[str, ...] = ()
	max_depth: int = 2
