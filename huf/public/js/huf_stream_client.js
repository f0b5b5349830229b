// Huf's stream client, shared by the Agent Chat page in the Desk and the /huf/stream try-out page.
// start() posts a message and follows the run it queued; attach() follows a run that already exists.
// Both read the server-sent events with fetch, and when the connection drops they reconnect on
// /huf/stream/run/<run> with Last-Event-ID, so nothing is missed and nothing arrives twice.
(function (global) {
	"use strict";

	const FINAL = ["Success", "Failed", "Cancelled"];
	const RETRY_MS = 1500;
	const MAX_RETRIES = 20;

	function csrfToken() {
		return (global.frappe && global.frappe.csrf_token) || global.HUF_CSRF_TOKEN || "";
	}

	// Split a text/event-stream body into {id, event, data} records; returns the unparsed rest.
	function parseEvents(buffer, onEvent) {
		const blocks = buffer.split(/\r?\n\r?\n/);
		const rest = blocks.pop();
		for (const block of blocks) {
			const record = { id: null, event: "message", data: "" };
			for (const line of block.split(/\r?\n/)) {
				if (!line || line.startsWith(":")) continue;
				const colon = line.indexOf(":");
				const field = colon < 0 ? line : line.slice(0, colon);
				const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
				if (field === "data") record.data += (record.data ? "\n" : "") + value;
				else if (field === "id" || field === "event") record[field] = value;
			}
			if (record.data) onEvent(record);
		}
		return rest;
	}

	async function readStream(response, onEvent) {
		const reader = response.body.getReader();
		const decoder = new TextDecoder();
		let buffer = "";
		for (;;) {
			const { value, done } = await reader.read();
			if (done) return;
			buffer = parseEvents(buffer + decoder.decode(value, { stream: true }), onEvent);
		}
	}

	async function errorText(response) {
		const body = await response.text();
		const match = body.match(/^data: (.*)$/m);
		if (match) {
			try {
				return JSON.parse(match[1]).message;
			} catch (e) {
				/* not JSON: fall through */
			}
		}
		return response.status === 400 ? "Your session has expired. Reload the page and try again." : `The server answered ${response.status}.`;
	}

	// Follows one run until its final status. handlers: onEvent(name, data), onError(message), onEnd().
	function Follower(handlers) {
		this.handlers = handlers;
		this.lastId = "0-0";
		this.run = null;
		this.finished = false;
		this.controller = new AbortController();
	}

	Follower.prototype.dispatch = function (record) {
		const data = JSON.parse(record.data);
		if (record.id) this.lastId = record.id;
		if (!this.run && data.run) this.run = data.run;
		this.handlers.onEvent && this.handlers.onEvent(record.event, data);
		if (record.event === "status" && FINAL.includes(data.status)) this.finished = true;
	};

	Follower.prototype.consume = async function (request) {
		const response = await fetch(request.url, { ...request, signal: this.controller.signal, credentials: "same-origin" });
		if (!response.ok) throw Object.assign(new Error(await errorText(response)), { refused: true });
		await readStream(response, (record) => this.dispatch(record));
	};

	Follower.prototype.follow = async function (firstRequest) {
		let request = firstRequest;
		for (let attempt = 0; !this.finished; attempt++) {
			try {
				await this.consume(request);
				attempt = 0;
			} catch (error) {
				if (this.controller.signal.aborted) return;
				if (error.refused || !this.run || attempt >= MAX_RETRIES) {
					this.handlers.onError && this.handlers.onError(error.refused ? error.message : "The connection was lost. Reload the page to see the answer.");
					break;
				}
				await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
			}
			if (this.finished || !this.run) break;
			request = { url: `/huf/stream/run/${encodeURIComponent(this.run)}`, method: "GET", headers: { "Last-Event-ID": this.lastId, Accept: "text/event-stream" } };
		}
		this.handlers.onEnd && this.handlers.onEnd();
	};

	// Stop listening (the run goes on; cancel() stops the run itself).
	Follower.prototype.close = function () {
		this.controller.abort();
	};

	const HufStream = {
		start(agent, fields, handlers) {
			const follower = new Follower(handlers);
			follower.follow({
				url: `/huf/stream/${encodeURIComponent(agent)}`,
				method: "POST",
				headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-Frappe-CSRF-Token": csrfToken() },
				body: JSON.stringify(fields),
			});
			return follower;
		},
		attach(run, handlers, lastId) {
			const follower = new Follower(handlers);
			follower.run = run;
			follower.lastId = lastId || "0-0";
			follower.follow({ url: `/huf/stream/run/${encodeURIComponent(run)}`, method: "GET", headers: { "Last-Event-ID": follower.lastId, Accept: "text/event-stream" } });
			return follower;
		},
		async cancel(run) {
			const body = new URLSearchParams({ run });
			const response = await fetch("/api/method/huf.ai.agent.integration.cancel_agent_run", {
				method: "POST",
				credentials: "same-origin",
				headers: { "X-Frappe-CSRF-Token": csrfToken(), Accept: "application/json" },
				body,
			});
			return response.ok;
		},
		parseEvents,
	};

	global.HufStream = HufStream;
})(window);
