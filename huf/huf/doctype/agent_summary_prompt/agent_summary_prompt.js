// Older versions are kept as they were: the server refuses to save them, and the form says so.
frappe.ui.form.on("Agent Summary Prompt", {
	refresh(frm) {
		if (!frm.is_new() && !frm.doc.is_latest) {
			frm.set_read_only();
			frm.set_intro(__("This is an older version, kept as it was. Open {0} to edit the prompt.", [frm.doc.slug]), "blue");
		}
	},
});
