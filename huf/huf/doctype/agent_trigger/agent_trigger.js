// Agent Trigger: "Run now" starts the agent by hand (any trigger type), and opens the run.
frappe.ui.form.on("Agent Trigger", {
	refresh(frm) {
		if (frm.is_new() || frm.doc.disabled) return;
		frm.add_custom_button(__("Run now"), () => {
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
		});
	},
});
