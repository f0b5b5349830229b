// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

frappe.ui.form.on("Agent", {
	setup(frm) {
		frm.set_query("model", () => ({
			filters: frm.doc.provider ? { provider: frm.doc.provider, disabled: 0 } : { disabled: 0 },
		}));
		// Summaries may use a model of any provider.
		frm.set_query("summary_model", () => ({ filters: { disabled: 0 } }));
	},

	onload(frm) {
		if (!frm.is_new() || frm.doc.provider) return;
		frappe.db
			.get_value("Agent Settings", null, ["default_provider", "default_model"])
			.then(({ message }) => {
				if (!message || frm.doc.provider) return;
				if (message.default_provider) frm.set_value("provider", message.default_provider);
				if (message.default_model) frm.set_value("model", message.default_model);
			});
	},

	provider(frm) {
		if (!frm.doc.model) return;
		frappe.db.get_value("AI Model", frm.doc.model, "provider").then(({ message }) => {
			if (message && message.provider !== frm.doc.provider) frm.set_value("model", null);
		});
	},
});
