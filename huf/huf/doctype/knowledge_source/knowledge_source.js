// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

const HUF_KNOWLEDGE_API = "huf.ai.knowledge.api.";
const HUF_BUSY = ["Pending", "Indexing", "Rebuilding"];

frappe.ui.form.on("Knowledge Source", {
	onload(frm) {
		frappe.realtime.on("knowledge_index_progress", (data) => {
			if (data.source !== frm.doc.name) return;
			huf_show_progress(frm, data);
			if (!HUF_BUSY.includes(data.status)) frm.reload_doc();
		});
	},
	refresh(frm) {
		if (frm.is_new()) return;
		frm.add_custom_button(__("Test Search"), () => huf_test_search(frm));
		if (frm.perm[0]?.write) {
			frm.add_custom_button(__("Add Text"), () => huf_add_text(frm), __("Add"));
			frm.add_custom_button(__("Add Web Address"), () => huf_add_url(frm), __("Add"));
			frm.add_custom_button(__("Upload Files"), () => huf_upload(frm), __("Add"));
			frm.add_custom_button(__("Rebuild Index"), () =>
				frappe.confirm(__("Rebuild the index from all inputs? Searches keep using the current index until the new one is ready."), () =>
					frappe.call(HUF_KNOWLEDGE_API + "rebuild_index", { source: frm.doc.name }).then(() => frm.reload_doc())
				)
			);
		}
		frm.add_custom_button(__("Inputs"), () => frappe.set_route("List", "Knowledge Input", { knowledge_source: frm.doc.name }));
		frappe.call(HUF_KNOWLEDGE_API + "get_index_status", { source: frm.doc.name }).then((r) => huf_show_progress(frm, r.message));
	},
});

function huf_show_progress(frm, data) {
	if (!data || !data.total_inputs) return;
	const done = data.status === "Rebuilding" ? data.rebuilt_inputs || 0 : data.indexed_inputs + data.failed_inputs;
	const percent = Math.round((100 * done) / data.total_inputs);
	let label = __("{0} of {1} inputs indexed", [data.indexed_inputs, data.total_inputs]) + " · " +
		(data.chunk_count === 1 ? __("1 passage") : __("{0} passages", [data.chunk_count]));
	if (data.failed_inputs) label += " · " + __("{0} failed", [data.failed_inputs]);
	frm.dashboard.show_progress(__("Index"), percent, HUF_BUSY.includes(data.status) ? `${label} · ${__(data.status)}` : label);
	if (HUF_BUSY.includes(data.status)) {
		clearTimeout(frm._huf_poll);
		frm._huf_poll = setTimeout(
			() => frappe.call(HUF_KNOWLEDGE_API + "get_index_status", { source: frm.doc.name }).then((r) => {
				huf_show_progress(frm, r.message);
				if (!HUF_BUSY.includes(r.message.status)) frm.reload_doc();
			}),
			2000
		);
	}
}

function huf_add(frm, values) {
	return frappe.call({ method: HUF_KNOWLEDGE_API + "add_input", args: { source: frm.doc.name, ...values }, freeze: true }).then((r) => {
		frappe.show_alert(r.message.already_there ? __("This text is already in the source.") : __("Added; indexing has started."));
		frm.reload_doc();
	});
}

function huf_add_text(frm) {
	const d = new frappe.ui.Dialog({
		title: __("Add Text"),
		fields: [
			{ fieldname: "title", fieldtype: "Data", label: __("Title") },
			{ fieldname: "text", fieldtype: "Long Text", label: __("Text"), reqd: 1 },
		],
		primary_action_label: __("Add"),
		primary_action: (v) => huf_add(frm, { input_type: "Text", ...v }).then(() => d.hide()),
	});
	d.show();
}

function huf_add_url(frm) {
	frappe.prompt({ fieldname: "url", fieldtype: "Data", options: "URL", label: __("Web Address"), reqd: 1 },
		(v) => huf_add(frm, { input_type: "URL", url: v.url }), __("Add Web Address"), __("Add"));
}

function huf_upload(frm) {
	new frappe.ui.FileUploader({
		allow_multiple: true,
		make_attachments_public: false,
		on_success: (file) => huf_add(frm, { input_type: "File", file_url: file.file_url }),
	});
}

function huf_test_search(frm) {
	const d = new frappe.ui.Dialog({
		title: __("Test Search"),
		fields: [
			{ fieldname: "query", fieldtype: "Data", label: __("Search for"), reqd: 1 },
			{ fieldname: "results", fieldtype: "HTML" },
		],
		primary_action_label: __("Search"),
		primary_action: (v) =>
			frappe.call(HUF_KNOWLEDGE_API + "test_search", { source: frm.doc.name, query: v.query }).then((r) => {
				const rows = r.message.results;
				d.fields_dict.results.$wrapper.html(rows.length
					? rows.map((hit, i) => `<div class="huf-hit" style="margin-bottom:12px">
						<div class="text-muted small">${i + 1}. ${frappe.utils.escape_html(hit.title)}${hit.where ? " · " + frappe.utils.escape_html(hit.where) : ""}</div>
						<div style="white-space:pre-wrap">${frappe.utils.escape_html(hit.text)}</div></div>`).join("")
					: `<p class="text-muted">${__("Nothing matched. Try other words.")}</p>`);
			}),
	});
	d.show();
}
