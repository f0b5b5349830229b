// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

// Flow Run: where the run is (status, current step, steps taken), what each step did (the Steps
// table, read-only), Approve / Reject for the people the run waits for, and live updates.
const HUF_RUN_COLORS = {
	Queued: "gray",
	Running: "blue",
	"Waiting Approval": "orange",
	"Waiting User": "orange",
	Success: "green",
	Failed: "red",
};

frappe.ui.form.on("Flow Run", {
	onload(frm) {
		if (frm.huf_listening) return; // one form object serves every run opened: listen once
		frm.huf_listening = true;
		frappe.realtime.on("flow_run_status", (data) => {
			if (frm.doc && data.flow_run === frm.doc.name) frm.reload_doc();
		});
	},
	refresh(frm) {
		frm.disable_save();
		frm.set_df_property("steps", "read_only", 1);
		frm.page.set_indicator(__(frm.doc.status), HUF_RUN_COLORS[frm.doc.status] || "gray");
		const where = frm.doc.current_node_id
			? __("Current step: {0} · Steps taken: {1} of at most {2}", [frappe.utils.escape_html(frm.doc.current_node_id), frm.doc.hop_count || 0, frm.doc.max_hops || 0])
			: __("Steps taken: {0}", [frm.doc.hop_count || 0]);
		frm.set_intro(where, HUF_RUN_COLORS[frm.doc.status] || "blue");
		if (frm.doc.flow_definition) {
			frm.add_custom_button(__("Open flow"), () => frappe.set_route("Form", "Flow Definition", frm.doc.flow_definition));
		}
		if (frm.doc.status === "Waiting Approval" && frm.doc.__onload?.can_decide) {
			frm.add_custom_button(__("Approve"), () => huf_decide(frm, "approve")).addClass("btn-primary");
			frm.add_custom_button(__("Reject"), () => huf_decide(frm, "reject")).addClass("btn-danger");
		}
	},
});

function huf_decide(frm, decision) {
	const approve = decision === "approve";
	frappe.prompt(
		[{ fieldname: "comment", fieldtype: "Small Text", label: __("Comment"), description: __("Why, kept with your decision (optional).") }],
		async (values) => {
			await frappe.xcall(approve ? "huf.ai.flow.api.approve_flow_run" : "huf.ai.flow.api.reject_flow_run", {
				flow_run: frm.doc.name,
				comment: values.comment || "",
			});
			frappe.show_alert({ message: approve ? __("Approved: the flow goes on.") : __("Rejected."), indicator: approve ? "green" : "red" });
			frm.reload_doc();
		},
		approve ? __("Approve this run") : __("Reject this run"),
		approve ? __("Approve") : __("Reject"),
	);
}
