// Copyright (c) 2027, Huf contributors
// For license information, please see license.txt

// A tool whose name another app's tool also wants (see huf/ai/tools/registry.py) stands out in red.
frappe.listview_settings["Agent Tool Function"] = {
	add_fields: ["sync_conflict"],
	get_indicator(doc) {
		if (doc.sync_conflict) return [__("Name conflict"), "red", "sync_conflict,is,set"];
	},
};
