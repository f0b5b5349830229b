// Images and audio a tool made (generate_image, generate_audio): its result is JSON with a `files`
// list of the site's own private files, never the bytes. Only addresses on this site are shown.

export type MediaFile = { url: string; name: string; kind: "image" | "audio"; alt: string };

type Entry = { file_url?: unknown; file_name?: unknown; kind?: unknown; content_type?: unknown };

const OWN_FILE = /^\/(private\/)?files\/[^?#]+$/;

function kindOf(entry: Entry): MediaFile["kind"] | null {
	if (entry.kind === "image" || entry.kind === "audio") return entry.kind;
	const type = typeof entry.content_type === "string" ? entry.content_type : "";
	if (type.startsWith("image/")) return "image";
	if (type.startsWith("audio/")) return "audio";
	return null;
}

// A stored tool result may be JSON text kept as a JSON string (Agent Tool Call's result): read twice.
function parse(text: string | null): Record<string, unknown> | null {
	if (!text) return null;
	try {
		let value: unknown = JSON.parse(text);
		if (typeof value === "string") value = JSON.parse(value);
		return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

/** The images and audio in a tool's result. `args`: the call's arguments, whose `prompt` (or the
 * result's `revised_prompt`) describes an image for people who cannot see it. */
export function mediaOf(result: string | null, args = ""): MediaFile[] {
	const files = parse(result)?.files;
	if (!Array.isArray(files)) return [];
	const said = parse(result)?.revised_prompt ?? parse(args)?.prompt ?? parse(args)?.input;
	const description = typeof said === "string" ? said.trim() : "";
	const found: MediaFile[] = [];
	for (const entry of files as Entry[]) {
		const url = typeof entry?.file_url === "string" ? entry.file_url : "";
		const kind = entry ? kindOf(entry) : null;
		if (!kind || !OWN_FILE.test(url)) continue;
		const name = typeof entry.file_name === "string" && entry.file_name ? entry.file_name : decodeURIComponent(url.split("/").pop() ?? "file");
		const alt = description || (kind === "image" ? `Image ${name}` : `Audio ${name}`);
		found.push({ url, name, kind, alt });
	}
	return found;
}
