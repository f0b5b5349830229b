// Agent Chat in the Desk opens the web app's chat (/huf/chat), where the same sign-in carries over.
// A link may name the agent and the conversation: /app/agent-chat?agent=…&conversation=…

frappe.ui.form.on("Agent Chat", {
	refresh() {
		const asked = { ...Object.fromEntries(new URLSearchParams(window.location.search)), ...(frappe.route_options || {}) };
		frappe.route_options = null;
		const query = new URLSearchParams();
		for (const key of ["agent", "conversation"]) {
			if (asked[key]) query.set(key, asked[key]);
		}
		window.location.replace(query.toString() ? `/huf/chat?${query}` : "/huf/chat");
	},
});
