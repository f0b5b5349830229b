// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

// Flow Definition: its status at a glance, its runs and saved versions, and "Run now" for an
// Active flow (with optional input as JSON).
const HUF_FLOW_COLORS = { Draft: "orange", Active: "green", Archived: "gray" };

frappe.ui.form.on("Flow Definition", {
	refresh(frm) {
		if (frm.is_new()) return;
		frm.page.set_indicator(__(frm.doc.status), HUF_FLOW_COLORS[frm.doc.status] || "gray");
		frm.add_custom_button(__("Runs"), () => frappe.set_route("List", "Flow Run", { flow_definition: frm.doc.name }));
		frm.add_custom_button(__("Versions"), () => frappe.set_route("List", "Flow Definition Version", { flow_definition: frm.doc.name }));
		if (frm.doc.status === "Active") frm.add_custom_button(__("Run now"), () => huf_run_flow(frm)).addClass("btn-primary");
	},
});

function huf_run_flow(frm) {
	const dialog = new frappe.ui.Dialog({
		title: __("Run {0}", [frm.doc.flow_name || frm.doc.name]),
		fields: [
			{
				fieldname: "payload",
				fieldtype: "Code",
				options: "JSON",
				label: __("Input (optional)"),
				description: __('What the flow starts with, as JSON, e.g. {"lead": "CRM-LEAD-0001"}. Leave empty to start without input.'),
			},
		],
		primary_action_label: __("Run"),
		async primary_action(values) {
			const text = (values.payload || "").trim();
			let payload = null;
			if (text) {
				try {
					payload = JSON.parse(text);
				} catch (error) {
					frappe.msgprint(__("The input is not valid JSON: {0}", [error.message]));
					return;
				}
				if (typeof payload !== "object" || Array.isArray(payload)) {
					frappe.msgprint(__('The input must be an object of names and values, e.g. {"lead": "CRM-LEAD-0001"}.'));
					return;
				}
			}
			const started = await frappe.xcall("huf.ai.flow.api.run_flow", { flow_id: frm.doc.name, payload });
			dialog.hide();
			frappe.show_alert({ message: __("The flow is running."), indicator: "green" });
			frappe.set_route("Form", "Flow Run", started.flow_run);
		},
	});
	dialog.show();
}
