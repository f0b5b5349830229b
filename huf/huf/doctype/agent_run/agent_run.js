// Copyright (c) 2026, Huf contributors
// For license information, please see license.txt

// The images and audio this run's tools made (generate_image, generate_audio), shown in the form:
// images inline, audio with a player, each with a download link. Only files on this site are shown.
frappe.ui.form.on("Agent Run", {
	refresh(frm) {
		if (frm.is_new()) return;
		frappe.db
			.get_list("Agent Tool Call", {
				filters: { agent_run: frm.doc.name, status: "Success" },
				fields: ["tool", "tool_args", "tool_result"],
				order_by: "creation asc",
				limit: 100,
			})
			.then((calls) => {
				const html = calls.map(huf_media_of_call).join("");
				if (html) frm.dashboard.add_section(`<div class="huf-run-media">${html}</div>`, __("Images and audio"));
			});
	},
});

function huf_parse(value) {
	if (!value) return null;
	if (typeof value !== "string") return value;
	try {
		const parsed = JSON.parse(value);
		return typeof parsed === "string" ? huf_parse(parsed) : parsed;
	} catch (e) {
		return null;
	}
}

function huf_media_of_call(call) {
	const result = huf_parse(call.tool_result);
	if (!result || !Array.isArray(result.files)) return "";
	const args = huf_parse(call.tool_args) || {};
	const alt = frappe.utils.escape_html(args.prompt || args.input || call.tool);
	return result.files
		.filter((file) => typeof file.file_url === "string" && /^\/(private\/)?files\//.test(file.file_url))
		.map((file) => {
			const url = encodeURI(file.file_url);
			const name = frappe.utils.escape_html(file.file_name || file.file_url);
			const shown =
				file.kind === "image"
					? `<a href="${url}" target="_blank" rel="noopener"><img src="${url}" alt="${alt}" style="max-width: 320px; max-height: 320px; border-radius: 6px;"></a>`
					: file.kind === "audio"
					? `<audio controls preload="none" src="${url}" aria-label="${alt}"></audio>`
					: "";
			return `<div style="display: inline-block; margin: 0 16px 12px 0; vertical-align: top;">${shown}
				<div class="small"><a href="${url}" download>${__("Download")} ${name}</a></div></div>`;
		})
		.join("");
}
