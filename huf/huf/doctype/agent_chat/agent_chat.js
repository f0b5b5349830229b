// Agent Chat: talk to the agents that are open for chat. Answers stream in as they are written,
// tool use shows as chips, a closed tab picks up the running answer again, replies can be rated.

frappe.ui.form.on("Agent Chat", {
	refresh(frm) {
		frm.disable_save();
		frm.page.sidebar.toggle(false);
		frm.footer && frm.footer.wrapper && frm.footer.wrapper.toggle(false);  // no comments or activity here
		if (frm.huf_chat) return;
		const wrapper = frm.fields_dict.chat_area.$wrapper.get(0);
		frappe.require("/assets/huf/js/huf_stream_client.js", () => {
			frm.huf_chat = new HufChat(wrapper);
		});
	},
});

const HUF_CHAT_API = "huf.ai.agent.chat.";
const HUF_ALLOWED_TAGS = new Set(
	"P BR STRONG B EM I CODE PRE UL OL LI A H1 H2 H3 H4 H5 H6 BLOCKQUOTE TABLE THEAD TBODY TR TH TD HR DEL SPAN".split(" ")
);

// Markdown to HTML that can only format: unknown tags become text, attributes go, links stay links.
function huf_safe_markdown(text) {
	const html = frappe.markdown ? frappe.markdown(text || "") : frappe.utils.escape_html(text || "");
	const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
	const clean = (node) => {
		for (const child of [...node.children]) {
			if (!HUF_ALLOWED_TAGS.has(child.tagName)) {
				child.replaceWith(doc.createTextNode(child.textContent));
				continue;
			}
			for (const attr of [...child.attributes]) {
				const link = child.tagName === "A" && attr.name === "href" && /^(https?:|mailto:|\/)/i.test(attr.value.trim());
				if (!link) child.removeAttribute(attr.name);
			}
			if (child.tagName === "A") {
				child.setAttribute("target", "_blank");
				child.setAttribute("rel", "noopener noreferrer");
			}
			clean(child);
		}
	};
	const root = doc.body.firstElementChild;
	clean(root);
	return root.innerHTML;
}

class HufChat {
	constructor(wrapper) {
		this.agent = null;
		this.conversation = null;
		this.follower = null;
		this.oldest = null;
		wrapper.innerHTML = this.template();
		this.el = (name) => wrapper.querySelector(`[data-huf="${name}"]`);
		this.bind();
		frappe.realtime.on("agent_conversation_title", (data) => this.retitle(data));
		this.load_agents();
	}

	template() {
		return `
		<style>
			.huf-chat { display: grid; grid-template-columns: 15rem 1fr; gap: 1rem; min-height: 60vh; }
			.huf-chat aside { border-right: 1px solid var(--border-color); padding-right: 1rem; }
			.huf-chat aside ul { list-style: none; padding: 0; margin: .5rem 0 0; }
			.huf-chat aside li button { width: 100%; text-align: left; border: 0; background: none; padding: .35rem .5rem; border-radius: 6px; }
			.huf-chat aside li button[aria-current="true"] { background: var(--control-bg); font-weight: 600; }
			.huf-chat-log { display: flex; flex-direction: column; gap: .75rem; max-height: 60vh; overflow-y: auto; padding: .5rem 0; }
			.huf-msg { max-width: 85%; padding: .5rem .75rem; border-radius: 10px; background: var(--control-bg); }
			.huf-msg.user { align-self: flex-end; background: var(--blue-50, #eef4ff); white-space: pre-wrap; }
			.huf-msg.error { color: var(--red-600, #b42318); }
			.huf-msg p:last-child { margin-bottom: 0; }
			.huf-chips { display: flex; flex-wrap: wrap; gap: .35rem; }
			.huf-chip { font-size: .8rem; border: 1px solid var(--border-color); border-radius: 999px; padding: .05rem .6rem; }
			.huf-chip.failed { border-color: var(--red-500, #d92d20); color: var(--red-600, #b42318); }
			.huf-rate { display: flex; gap: .25rem; margin-top: .35rem; }
			.huf-rate button { border: 1px solid var(--border-color); background: none; border-radius: 6px; padding: 0 .4rem; font-size: .8rem; }
			.huf-rate button[aria-pressed="true"] { background: var(--control-bg); font-weight: 600; }
			.huf-composer { display: grid; grid-template-columns: 1fr auto auto; gap: .5rem; margin-top: .75rem; align-items: end; }
			.huf-composer textarea { min-height: 3.5rem; }
		</style>
		<div class="huf-chat">
			<aside>
				<label class="control-label" for="huf-agent">${__("Agent")}</label>
				<select id="huf-agent" class="form-control" data-huf="agent"></select>
				<button type="button" class="btn btn-default btn-sm mt-2" data-huf="new">${__("New conversation")}</button>
				<nav aria-label="${__("Your conversations")}"><ul data-huf="conversations"></ul></nav>
			</aside>
			<section aria-labelledby="huf-title">
				<h4 id="huf-title" data-huf="title"></h4>
				<button type="button" class="btn btn-xs btn-default" data-huf="older" hidden>${__("Show earlier messages")}</button>
				<div class="huf-chat-log" role="log" aria-live="polite" data-huf="log"></div>
				<div class="huf-composer" data-huf="composer">
					<label class="sr-only" for="huf-message">${__("Message")}</label>
					<textarea id="huf-message" class="form-control" data-huf="message" placeholder="${__("Write a message. Enter sends, Shift+Enter adds a line.")}"></textarea>
					<button type="button" class="btn btn-primary btn-sm" data-huf="send">${__("Send")}</button>
					<button type="button" class="btn btn-default btn-sm" data-huf="stop" disabled>${__("Stop")}</button>
				</div>
				<div class="text-muted small mt-1" role="status" data-huf="status"></div>
			</section>
		</div>`;
	}

	bind() {
		this.el("agent").addEventListener("change", () => this.choose_agent(this.el("agent").value));
		this.el("new").addEventListener("click", () => this.open(null));
		this.el("older").addEventListener("click", () => this.load_older());
		this.el("send").addEventListener("click", () => this.send());
		this.el("message").addEventListener("keydown", (event) => {
			if (event.key === "Enter" && !event.shiftKey) {
				event.preventDefault();
				this.send();
			}
		});
		this.el("stop").addEventListener("click", () => this.stop());
	}

	status(text) {
		this.el("status").textContent = text || "";
	}

	async load_agents() {
		const agents = await frappe.xcall(HUF_CHAT_API + "get_chat_agents");
		const select = this.el("agent");
		if (!agents.length) {
			this.el("log").innerHTML = `<p class="text-muted">${__("No agent is open for chat yet. An administrator can tick Allow Chat on an agent to make it available here.")}</p>`;
			this.el("composer").hidden = true;
			return;
		}
		select.innerHTML = agents.map((a) => `<option value="${frappe.utils.escape_html(a.name)}">${frappe.utils.escape_html(a.name)}</option>`).join("");
		const remembered = localStorage.getItem("huf_chat_agent");
		const first = agents.some((a) => a.name === remembered) ? remembered : agents[0].name;
		select.value = first;
		this.choose_agent(first);
	}

	async choose_agent(agent) {
		const view = (this.view = (this.view || 0) + 1);
		this.agent = agent;
		localStorage.setItem("huf_chat_agent", agent);
		const conversations = await this.load_conversations();
		if (view !== this.view) return;
		this.open(conversations.length ? conversations[0].name : null);
	}

	async load_conversations() {
		const conversations = await frappe.xcall(HUF_CHAT_API + "get_chat_conversations", { agent_name: this.agent });
		this.el("conversations").innerHTML = conversations
			.map((c) => `<li><button type="button" data-conversation="${frappe.utils.escape_html(c.name)}">${frappe.utils.escape_html(c.title || __("New conversation"))}</button></li>`)
			.join("");
		this.el("conversations").querySelectorAll("button").forEach((b) => b.addEventListener("click", () => this.open(b.dataset.conversation)));
		this.mark_current();
		return conversations;
	}

	mark_current() {
		this.el("conversations").querySelectorAll("button").forEach((b) => b.setAttribute("aria-current", String(b.dataset.conversation === this.conversation)));
	}

	retitle({ conversation, title }) {
		const button = this.el("conversations").querySelector(`button[data-conversation="${CSS.escape(conversation)}"]`);
		if (button) button.textContent = title;
		if (conversation === this.conversation) this.el("title").textContent = title;
	}

	async open(conversation) {
		const view = (this.view = (this.view || 0) + 1);  // a later open() wins over one still loading
		this.follower && this.follower.close();
		this.follower = null;
		this.conversation = conversation;
		this.mark_current();
		this.el("log").innerHTML = "";
		this.el("older").hidden = true;
		this.el("title").textContent = conversation ? "" : __("New conversation");
		this.set_busy(false);
		if (!conversation) return;
		const page = await frappe.xcall(HUF_CHAT_API + "get_agent_chat_messages", { conversation_id: conversation });
		if (view !== this.view) return;
		this.el("title").textContent = page.title || __("New conversation");
		this.render_page(page, false);
		if (page.active_run) this.follow(page.active_run);
	}

	async load_older() {
		const view = this.view;
		const page = await frappe.xcall(HUF_CHAT_API + "get_agent_chat_messages", { conversation_id: this.conversation, before_sequence: this.oldest });
		if (view === this.view) this.render_page(page, true);
	}

	render_page(page, older) {
		const log = this.el("log");
		const fragment = document.createDocumentFragment();
		const chips = {};
		for (const message of page.messages) this.render_message(message, fragment, chips);
		if (older) log.prepend(fragment);
		else {
			log.append(fragment);
			log.scrollTop = log.scrollHeight;
		}
		if (page.messages.length) this.oldest = page.messages[0].sequence;
		this.el("older").hidden = !page.has_more;
	}

	render_message(message, parent, chips) {
		if (message.kind === "Tool Result") {
			const chip = chips[message.tool_call_id];
			if (chip) this.finish_chip(chip, message.tool_name, message.tool_status !== "Failed");
			return;
		}
		if (message.kind === "Tool Call") {
			if (message.content) parent.append(this.bubble("agent", message.content));
			const row = this.chip_row(parent);
			const calls = typeof message.tool_calls === "string" ? JSON.parse(message.tool_calls || "[]") : message.tool_calls || [];
			for (const call of calls) chips[call.id] = this.add_chip(row, call.function.name, __("Used {0}", [call.function.name]));
			return;
		}
		if (message.kind === "Error") {
			parent.append(this.bubble("error", message.content));
			return;
		}
		const bubble = this.bubble(message.role === "user" ? "user" : "agent", message.content);
		if (message.role === "agent") bubble.append(this.rating(message));
		parent.append(bubble);
	}

	bubble(kind, content) {
		const div = document.createElement("div");
		div.className = `huf-msg ${kind}`;
		if (kind === "agent") div.innerHTML = huf_safe_markdown(content);
		else div.textContent = content || "";
		return div;
	}

	chip_row(parent) {
		const row = document.createElement("div");
		row.className = "huf-chips";
		row.setAttribute("aria-label", __("Tools the agent used"));
		parent.append(row);
		return row;
	}

	add_chip(row, name, text) {
		const chip = document.createElement("span");
		chip.className = "huf-chip";
		chip.textContent = text;
		row.append(chip);
		return chip;
	}

	finish_chip(chip, name, ok) {
		chip.textContent = ok ? __("{0}: done", [name]) : __("{0}: failed", [name]);
		chip.classList.toggle("failed", !ok);
	}

	rating(message) {
		const box = document.createElement("div");
		box.className = "huf-rate";
		const buttons = [
			["Thumbs Up", "👍", __("Good answer")],
			["Thumbs Down", "👎", __("Not helpful")],
		].map(([value, icon, label]) => {
			const button = document.createElement("button");
			button.type = "button";
			button.textContent = icon;
			button.title = label;
			button.setAttribute("aria-label", label);
			button.setAttribute("aria-pressed", String(message.feedback === value));
			button.addEventListener("click", () => this.rate(message, value, buttons));
			box.append(button);
			return button;
		});
		const comment = document.createElement("button");
		comment.type = "button";
		comment.textContent = __("Add a comment");
		comment.addEventListener("click", () => this.comment(message, buttons));
		box.append(comment);
		return box;
	}

	async rate(message, feedback, buttons, comments) {
		await frappe.xcall("huf.ai.agent.feedback.rate_agent_message", { agent_message: message.name, feedback, comments });
		message.feedback = feedback;
		buttons[0].setAttribute("aria-pressed", String(feedback === "Thumbs Up"));
		buttons[1].setAttribute("aria-pressed", String(feedback === "Thumbs Down"));
		frappe.show_alert({ message: __("Thanks for the feedback."), indicator: "green" });
	}

	comment(message, buttons) {
		frappe.prompt(
			[
				{ fieldname: "feedback", fieldtype: "Select", label: __("Rating"), options: "Thumbs Up\nThumbs Down", default: message.feedback || "Thumbs Down", reqd: 1 },
				{ fieldname: "comments", fieldtype: "Small Text", label: __("What was good or wrong about this answer?") },
			],
			(values) => this.rate(message, values.feedback, buttons, values.comments),
			__("Rate this answer"),
			__("Save")
		);
	}

	set_busy(busy) {
		this.el("send").disabled = busy;
		this.el("stop").disabled = !busy;
	}

	async send() {
		const textarea = this.el("message");
		const text = textarea.value;
		if (!text.trim() || this.follower) return;
		this.set_busy(true);
		this.status(__("Sending…"));
		let queued;
		try {
			queued = await frappe.xcall(HUF_CHAT_API + "send_agent_chat_message", {
				agent_name: this.agent,
				message: text,
				conversation_id: this.conversation,
				new_conversation: this.conversation ? 0 : 1,
			});
		} catch (error) {
			this.set_busy(false);
			this.status("");
			return;
		}
		textarea.value = "";
		const fresh = !this.conversation;
		this.conversation = queued.conversation;
		if (fresh) await this.load_conversations();
		this.el("log").append(this.bubble("user", text));
		this.follow(queued.run);
	}

	follow(run) {
		const log = this.el("log");
		const live = this.bubble("agent", "");
		const chips = {};
		let row = null;
		let text = ""; // built from the deltas' pieces; a snapshot (attaching mid-run) gives it whole
		this.set_busy(true);
		this.run = run;
		this.follower = window.HufStream.attach(run, {
			onEvent: (name, data) => {
				if (name === "status") this.status({ Queued: __("Waiting for a free worker…"), Started: __("Thinking…") }[data.status] || "");
				if (name === "delta" || name === "snapshot") {
					text = name === "delta" ? text + data.content : data.full_response;
					if (!live.isConnected) log.append(live);
					live.innerHTML = huf_safe_markdown(text);
				}
				if (name === "tool_call") {
					row = row && row.isConnected && !live.isConnected ? row : this.chip_row(log);
					chips[data.id] = this.add_chip(row, data.name, __("Using {0}…", [data.name]));
				}
				if (name === "tool_result" && chips[data.id]) this.finish_chip(chips[data.id], data.name, data.ok);
				log.scrollTop = log.scrollHeight;
			},
			onError: (message) => frappe.msgprint({ title: __("The answer could not be shown"), message, indicator: "red" }),
			onEnd: () => {
				this.follower = null;
				this.set_busy(false);
				this.status("");
				if (this.conversation) this.open(this.conversation);
			},
		});
	}

	async stop() {
		if (!this.run) return;
		this.el("stop").disabled = true;
		this.status(__("Stopping…"));
		await window.HufStream.cancel(this.run);
	}
}
