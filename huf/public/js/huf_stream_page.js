// The /huf/stream try-out page: send a message to the chosen agent and show the answer as it streams.
(function () {
	"use strict";

	const form = document.getElementById("try-form");
	if (!form) return;
	const el = (id) => document.getElementById(id);
	const answer = el("answer");
	const tools = el("tools");
	const status = el("status");
	const usage = el("usage");
	const send = el("send");
	const stop = el("stop");
	const STATUS_TEXT = { Queued: "Waiting for a free worker…", Started: "Working…", Success: "Done.", Failed: "It did not work.", Cancelled: "Stopped." };
	let follower = null;

	function toolChip(data) {
		const chip = document.createElement("li");
		chip.dataset.callId = data.id;
		chip.textContent = `Using ${data.name}…`;
		tools.appendChild(chip);
	}

	function toolDone(data) {
		const chip = tools.querySelector(`li[data-call-id="${CSS.escape(data.id)}"]`);
		if (!chip) return;
		chip.textContent = data.ok ? `${data.name}: done` : `${data.name}: failed`;
		chip.classList.toggle("failed", !data.ok);
	}

	function showError(message) {
		const line = document.createElement("p");
		line.className = "error";
		line.textContent = message;
		answer.appendChild(line);
	}

	const handlers = {
		onEvent(name, data) {
			if (name === "status") status.textContent = STATUS_TEXT[data.status] || data.status;
			if (name === "status" && data.status === "Failed" && data.error) showError(data.error);
			if (name === "snapshot") answer.textContent = data.full_response; // the text so far, when attaching mid-run
			if (name === "delta") answer.append(data.content); // only the new piece
			if (name === "tool_call") toolChip(data);
			if (name === "tool_result") toolDone(data);
			if (name === "complete") {
				answer.textContent = data.response || answer.textContent;
				const cost = data.cost ? ` · cost ${Number(data.cost).toFixed(5)}` : "";
				usage.textContent = `${data.usage.total_tokens} tokens${cost} · ${Number(data.duration_seconds).toFixed(1)} s`;
			}
		},
		onError(message) {
			status.textContent = "";
			showError(message);
		},
		onEnd() {
			send.disabled = false;
			if (stop) stop.disabled = true;
			follower = null;
		},
	};

	form.addEventListener("submit", (event) => {
		event.preventDefault();
		const prompt = el("prompt").value;
		if (!prompt.trim()) {
			status.textContent = "Write a message first.";
			return;
		}
		answer.textContent = "";
		tools.textContent = "";
		usage.textContent = "";
		status.textContent = "Sending…";
		send.disabled = true;
		if (stop) stop.disabled = false;
		follower = window.HufStream.start(el("agent").value, { prompt }, handlers);
	});

	stop?.addEventListener("click", async () => {
		if (!follower || !follower.run) return;
		stop.disabled = true;
		status.textContent = "Stopping…";
		if (!(await window.HufStream.cancel(follower.run))) status.textContent = "It could not be stopped.";
	});
})();
