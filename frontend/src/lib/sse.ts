// Reads a run's server-sent events with fetch (EventSource cannot POST or send the CSRF token).
// When the connection drops before the run's final status, it attaches again on
// /huf/stream/run/<run> with Last-Event-ID, so nothing is missed and nothing arrives twice.
import { csrfToken } from "./boot";

export type StreamRecord = { id: string | null; event: string; data: string };

export const FINAL_STATUSES = ["Success", "Failed", "Cancelled"];

/** Splits a text/event-stream buffer into records; returns the incomplete rest to keep. */
export function parseEvents(buffer: string, onRecord: (record: StreamRecord) => void): string {
	const blocks = buffer.split(/\r?\n\r?\n/);
	const rest = blocks.pop() ?? "";
	for (const block of blocks) {
		const record: StreamRecord = { id: null, event: "message", data: "" };
		for (const line of block.split(/\r?\n/)) {
			if (!line || line.startsWith(":")) continue;
			const colon = line.indexOf(":");
			const field = colon < 0 ? line : line.slice(0, colon);
			const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
			if (field === "data") record.data += (record.data ? "\n" : "") + value;
			else if (field === "id") record.id = value;
			else if (field === "event") record.event = value;
		}
		if (record.data) onRecord(record);
	}
	return rest;
}

export type StreamHandlers = {
	onEvent: (event: string, data: Record<string, unknown>) => void;
	onError: (message: string) => void;
	onReconnecting?: () => void;
	onEnd: () => void;
};

export type StreamOptions = { fetch?: typeof fetch; sleep?: (ms: number) => Promise<void>; retryMs?: number; maxRetries?: number };

class Refused extends Error {}

async function refusal(response: Response): Promise<string> {
	const text = await response.text();
	const match = text.match(/^data: (.*)$/m);
	if (match?.[1]) {
		try {
			return (JSON.parse(match[1]) as { message: string }).message;
		} catch {
			/* not JSON */
		}
	}
	return response.status === 400 ? "Your session has expired. Reload the page and try again." : `The server refused the message (error ${response.status}).`;
}

export class RunStream {
	run: string | null = null;
	/** What is followed: a run ("run") or one of the builder assistant's turns ("assistant"). */
	kind: "run" | "assistant" = "run";
	lastId = "0-0";
	finished = false;
	private readonly controller = new AbortController();
	private readonly fetcher: typeof fetch;
	private readonly sleep: (ms: number) => Promise<void>;
	private readonly retryMs: number;
	private readonly maxRetries: number;

	constructor(
		private readonly handlers: StreamHandlers,
		options: StreamOptions = {},
	) {
		this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
		this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
		this.retryMs = options.retryMs ?? 1500;
		this.maxRetries = options.maxRetries ?? 20;
	}

	/** Posts a message to an agent and follows the run it starts. */
	start(agent: string, fields: Record<string, unknown>): Promise<void> {
		return this.follow(`/huf/stream/${encodeURIComponent(agent)}`, {
			method: "POST",
			headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-Frappe-CSRF-Token": csrfToken() },
			body: JSON.stringify(fields),
		});
	}

	/** Follows a run that already exists, from the start or from ``lastId``. */
	attach(run: string, lastId = "0-0"): Promise<void> {
		this.run = run;
		this.lastId = lastId;
		return this.follow(this.attachUrl(), this.attachInit());
	}

	/** Follows the progress of one of the caller's builder assistant turns. */
	attachTurn(turn: string): Promise<void> {
		this.kind = "assistant";
		return this.attach(turn);
	}

	/** Stops listening; the run itself goes on. */
	close(): void {
		this.controller.abort();
	}

	private attachUrl(): string {
		return `/huf/stream/${this.kind}/${encodeURIComponent(this.run ?? "")}`;
	}

	private attachInit(): RequestInit {
		return { method: "GET", headers: { "Last-Event-ID": this.lastId, Accept: "text/event-stream" } };
	}

	private dispatch(record: StreamRecord): void {
		if (record.id) this.lastId = record.id;
		let data: Record<string, unknown>;
		try {
			data = JSON.parse(record.data) as Record<string, unknown>;
		} catch {
			return; // not one of ours: skip it rather than take it for a lost connection
		}
		if (!this.run && typeof data.run === "string") this.run = data.run;
		this.handlers.onEvent(record.event, data);
		if (record.event === "status" && FINAL_STATUSES.includes(String(data.status))) this.finished = true;
	}

	private async consume(url: string, init: RequestInit): Promise<void> {
		const response = await this.fetcher(url, { ...init, signal: this.controller.signal, credentials: "same-origin" });
		if (!response.ok || !response.body) throw new Refused(await refusal(response));
		const reader = response.body.getReader();
		const decoder = new TextDecoder();
		let buffer = "";
		for (;;) {
			const { value, done } = await reader.read();
			if (done) return;
			buffer = parseEvents(buffer + decoder.decode(value, { stream: true }), (record) => this.dispatch(record));
		}
	}

	private async follow(url: string, init: RequestInit): Promise<void> {
		let attempt = 0;
		let next: [string, RequestInit] = [url, init];
		while (!this.finished) {
			const before = this.lastId;
			let refused: string | null = null;
			try {
				await this.consume(...next);
				// a stream that ended with nothing new counts as a failed try, like a dropped one
				attempt = this.lastId === before && !this.finished ? attempt + 1 : 0;
			} catch (error) {
				if (this.controller.signal.aborted) return;
				if (error instanceof Refused) refused = error.message;
				attempt += 1;
			}
			if (refused !== null || (attempt > 0 && !this.run) || attempt > this.maxRetries) {
				this.handlers.onError(refused ?? "The connection was lost. Reload the page to see the answer.");
				break;
			}
			if (attempt > 0) {
				this.handlers.onReconnecting?.();
				await this.sleep(this.retryMs);
			}
			if (this.finished || !this.run || this.controller.signal.aborted) break;
			next = [this.attachUrl(), this.attachInit()];
		}
		if (!this.controller.signal.aborted) this.handlers.onEnd();
	}
}
