// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

frappe.ui.form.on("Knowledge Input", {
	onload(frm) {
		frappe.realtime.on("knowledge_index_progress", (data) => {
			if (data.source === frm.doc.knowledge_source && !frm.is_dirty()) frm.reload_doc();
		});
	},
	refresh(frm) {
		if (frm.doc.knowledge_source) frappe.realtime.doc_subscribe("Knowledge Source", frm.doc.knowledge_source);
		if (frm.doc.status === "Error" && frm.doc.error) frm.set_intro(frm.doc.error, "red");
		if (frm.doc.duplicate_of) frm.set_intro(__("This content is already indexed through {0}.", [frm.doc.duplicate_of]), "blue");
	},
});
