// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

frappe.ui.form.on("Agent Tool Function", {
	setup(frm) {
		frm.set_query("reference_doctype", () => ({ filters: { istable: 0 } }));
	},
});
