// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

// Mirrors CATEGORY_BY_TYPE in agent_tool_function.py: the category a tool gets from its type.
const HUF_CATEGORY_BY_TYPE = {
	"Get Report Result": "Reports",
	"Attach File to Document": "Files",
	"Speech to Text": "Files",
	"Custom Function": "Custom Functions",
	"App Provided": "App Provided",
	"Run Agent": "Agents",
	GET: "HTTP Requests",
	POST: "HTTP Requests",
};

frappe.ui.form.on("Agent Tool Function", {
	setup(frm) {
		frm.set_query("reference_doctype", () => ({ filters: { istable: 0 } }));
	},

	types(frm) {
		if (!frm.doc.types) return;
		const category = HUF_CATEGORY_BY_TYPE[frm.doc.types] || "Document Operations";
		const automatic = Object.values(HUF_CATEGORY_BY_TYPE).concat("Document Operations");
		// keep a category the admin chose themselves
		if (frm.doc.tool_type && !automatic.includes(frm.doc.tool_type)) return;
		frappe.db.exists("Agent Tool Type", category).then((exists) => {
			if (exists) frm.set_value("tool_type", category);
		});
	},
});
