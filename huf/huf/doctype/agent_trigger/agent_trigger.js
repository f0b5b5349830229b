// Agent Trigger: what will happen (next runs of a schedule, a webhook's address with Copy and
// "Send test"), the latest runs, and "Run now" to start the agent by hand.
frappe.ui.form.on("Agent Trigger", {
	run_as: show_identity,
	run_as_user: show_identity,
	async refresh(frm) {
		show_identity(frm);
		if (frm.is_new()) return;
		if (!frm.doc.disabled) {
			frm.add_custom_button(__("Run now"), () => run_now(frm));
			if (frm.doc.trigger_type === "Webhook") frm.add_custom_button(__("Send test"), () => send_test(frm));
		}
		const overview = await frappe.xcall("huf.ai.triggers.api.get_trigger_overview", { trigger: frm.doc.name });
		frm.dashboard.reset();
		const parts = [];
		if (overview.next_runs.length) {
			parts.push(`<p class="mb-1"><b>${__("Next runs")}</b></p><ul class="mb-3">${overview.next_runs.map((d) => `<li>${frappe.datetime.str_to_user(d)}</li>`).join("")}</ul>`);
		}
		if (overview.webhook_url) {
			parts.push(
				`<p class="mb-1"><b>${__("Webhook address")}</b></p><p class="mb-3"><code>${frappe.utils.escape_html(overview.webhook_url)}</code>
				<button type="button" class="btn btn-xs btn-default ml-2" data-huf="copy">${__("Copy")}</button></p>`,
			);
		}
		const runs = overview.recent_runs;
		parts.push(
			`<p class="mb-1"><b>${__("Latest runs")}</b></p>` +
				(runs.length
					? `<ul>${runs
							.map(
								(r) =>
									`<li><a href="/app/agent-run/${encodeURIComponent(r.name)}">${frappe.datetime.str_to_user(r.creation)}</a> · ${__(r.status)} · ${frappe.utils.escape_html(r.user)}${
										r.error_message ? ` · <span class="text-danger">${frappe.utils.escape_html(r.error_message)}</span>` : ""
									}</li>`,
							)
							.join("")}</ul>`
					: `<p class="text-muted">${__("No runs yet.")}</p>`),
		);
		frm.dashboard.set_headline_alert(parts.join(""));
		frm.dashboard.wrapper.find('[data-huf="copy"]').on("click", () => frappe.utils.copy_to_clipboard(overview.webhook_url));
	},
});

// Say in plain words whose permissions the agent will use.
function show_identity(frm) {
	const who = {
		"Trigger Owner": frm.is_new() ? __("you (you are creating this trigger)") : frm.doc.owner,
		"Person Who Triggered": __("whoever saves the document or fires the event"),
		"Specific User": frm.doc.run_as_user || __("the user you pick below"),
	}[frm.doc.run_as || "Trigger Owner"];
	frm.set_intro(__("This trigger's agent runs with the permissions of {0}. Run now and Send test run as you.", [frappe.utils.escape_html(who)]), "blue");
}

function run_now(frm) {
	frappe.prompt(
		[{ fieldname: "prompt", fieldtype: "Small Text", label: __("Message for the agent (optional)") }],
		async (values) => {
			const queued = await frappe.xcall("huf.ai.triggers.api.run_trigger_now", { trigger: frm.doc.name, prompt: values.prompt || "" });
			frappe.show_alert({ message: __("The agent is running."), indicator: "green" });
			frappe.set_route("Form", "Agent Run", queued.run);
		},
		__("Run {0} now", [frm.doc.agent]),
		__("Run"),
	);
}

async function send_test(frm) {
	const answer = await frappe.xcall("huf.ai.triggers.api.send_test_delivery", { trigger: frm.doc.name });
	frappe.show_alert({ message: __("Test delivery taken; the agent is running."), indicator: "green" });
	frappe.set_route("Form", "Agent Run", answer.run);
}
