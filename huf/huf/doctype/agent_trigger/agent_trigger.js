// Agent Trigger: what will happen (next runs of a schedule, a webhook's address with Copy and
// "Send test"), the latest runs, and "Run now" to start the agent by hand. A trigger that starts a
// flow links to the flow and its runs instead.
frappe.ui.form.on("Agent Trigger", {
	run_as: show_identity,
	run_as_user: show_identity,
	agent: show_identity,
	flow: show_identity,
	async refresh(frm) {
		show_identity(frm);
		if (frm.is_new()) return;
		if (frm.doc.flow) {
			frm.add_custom_button(__("Open flow"), () => frappe.set_route("Form", "Flow Definition", frm.doc.flow));
			frm.add_custom_button(__("Flow runs"), () => frappe.set_route("List", "Flow Run", { flow_definition: frm.doc.flow }));
		} else if (!frm.doc.disabled) {
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
		if (!frm.doc.flow) parts.push(latest_runs(overview.recent_runs)); // a flow's runs: the Flow runs button
		frm.dashboard.set_headline_alert(parts.join(""));
		frm.dashboard.wrapper.find('[data-huf="copy"]').on("click", () => frappe.utils.copy_to_clipboard(overview.webhook_url));
	},
});

function latest_runs(runs) {
	return (
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
			: `<p class="text-muted">${__("No runs yet.")}</p>`)
	);
}

// Say in plain words what this trigger starts and whose permissions it uses.
function show_identity(frm) {
	const who = {
		"Trigger Owner": frm.is_new() ? __("you (you are creating this trigger)") : frm.doc.owner,
		"Person Who Triggered": __("whoever saves the document or fires the event"),
		"Specific User": frm.doc.run_as_user || __("the user you pick below"),
	}[frm.doc.run_as || "Trigger Owner"];
	const intro = frm.doc.flow
		? __("This trigger starts the flow {0} (only while the flow is Active). The flow runs with the permissions of {1}.", [
				frappe.utils.escape_html(frm.doc.flow),
				frappe.utils.escape_html(who),
			])
		: __("This trigger's agent runs with the permissions of {0}. Run now and Send test run as you.", [frappe.utils.escape_html(who)]);
	frm.set_intro(intro, "blue");
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
