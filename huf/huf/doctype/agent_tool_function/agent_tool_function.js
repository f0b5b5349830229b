// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

const HTTP_TYPES = ["GET", "POST"];

frappe.ui.form.on("Agent Tool Function", {
	setup(frm) {
		frm.set_query("reference_doctype", () => ({ filters: { istable: 0 } }));
	},

	refresh(frm) {
		if (HTTP_TYPES.includes(frm.doc.types) && !frm.is_new() && frm.has_perm("write")) {
			frm.add_custom_button(__("Try this request"), () => try_request(frm));
		}
	},
});

// Sends one request the way the agent would, with the tool's saved settings and headers.
function try_request(frm) {
	if (frm.is_dirty()) {
		frappe.msgprint(__("Save the tool first: the request uses its saved address and headers."));
		return;
	}
	const is_post = frm.doc.types === "POST";
	const dialog = new frappe.ui.Dialog({
		title: __("Try this request"),
		fields: [
			{
				fieldname: "url",
				fieldtype: "Data",
				label: frm.doc.base_url ? __("Path") : __("Web address"),
				description: frm.doc.base_url
					? __("Added after {0}, e.g. /items/42. Leave empty for the address itself.", [frm.doc.base_url])
					: __("The full address, e.g. https://api.example.com/items/42."),
				reqd: frm.doc.base_url ? 0 : 1,
			},
			{
				fieldname: "params",
				fieldtype: "Code",
				options: "JSON",
				label: __("Query parameters"),
				description: __('Optional, e.g. {"q": "shoes", "page": 2}'),
			},
			{
				fieldname: "body",
				fieldtype: "Code",
				options: "JSON",
				label: __("Body"),
				description: __('Optional, e.g. {"title": "New item"}'),
				hidden: !is_post,
			},
			{
				fieldname: "body_format",
				fieldtype: "Select",
				label: __("Send the body as"),
				options: "json\nform",
				default: "json",
				hidden: !is_post,
			},
			{ fieldname: "answer", fieldtype: "HTML" },
		],
		primary_action_label: __("Send"),
		primary_action(values) {
			dialog.get_field("answer").$wrapper.html(`<p class="text-muted">${__("Sending…")}</p>`);
			frappe
				.call({
					method: "huf.ai.http_handler.handle_http_request",
					args: {
						tool: frm.doc.name,
						url: values.url || "",
						params: values.params || "",
						body: is_post ? values.body || "" : "",
						body_format: is_post ? values.body_format : "",
					},
				})
				.then((r) => dialog.get_field("answer").$wrapper.html(render_answer(r.message)))
				.catch(() => dialog.get_field("answer").$wrapper.html(""));
		},
	});
	dialog.show();
}

function render_answer(answer) {
	const parts = [];
	if (answer.error) {
		parts.push(`<div class="alert alert-warning">${frappe.utils.escape_html(answer.error)}</div>`);
	}
	if (answer.status_code) {
		const where = frappe.utils.escape_html(answer.final_url || "");
		parts.push(`<p><b>${__("Answer")}:</b> ${answer.status_code} &middot; ${where}</p>`);
		parts.push(pre(__("Headers"), answer.headers));
		parts.push(pre(__("What the agent reads"), answer.data));
	}
	return parts.join("");
}

function pre(label, value) {
	const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
	return `<p class="text-muted">${label}</p><pre style="max-height: 300px; overflow: auto">${frappe.utils.escape_html(text)}</pre>`;
}
