// Calls to the site: whitelisted methods and document reads and saves. Every failure becomes an
// ApiError whose message is the server's own explanation, ready to show to the person.
import { csrfToken } from "./boot";

export class ApiError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly title: string = "",
		readonly kind: string = "",
	) {
		super(message);
	}
}

type ServerMessage = { message?: string; title?: string };

// Line breaks stay (a message listing several problems puts one per line).
function stripTags(html: string): string {
	const doc = new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, "\n"), "text/html");
	return (doc.body.textContent ?? "").trim();
}

// Frappe puts the human message in `_server_messages` (a JSON list of JSON strings).
export function errorFromBody(status: number, body: Record<string, unknown> | null): ApiError {
	const raw = body?._server_messages;
	if (typeof raw === "string") {
		try {
			const list = (JSON.parse(raw) as string[]).map((item) => JSON.parse(item) as ServerMessage);
			const last = list[list.length - 1];
			if (last?.message) return new ApiError(stripTags(last.message), status, last.title ?? "", String(body?.exc_type ?? ""));
		} catch {
			/* fall through to the generic message */
		}
	}
	const excType = String(body?.exc_type ?? "");
	if (typeof body?.message === "string" && status >= 400) return new ApiError(body.message, status, "", excType);
	if (status === 403) return new ApiError("You don't have permission to do that.", status, "", excType);
	if (status === 404) return new ApiError("That item no longer exists.", status, "", excType);
	if (status === 400 && excType === "CSRFTokenError") return new ApiError("Your session has expired. Reload the page and try again.", status, "", excType);
	return new ApiError(`Something went wrong on the server (error ${status}). Try again in a moment.`, status, "", excType);
}

async function request<T>(url: string, init: RequestInit = {}): Promise<T> {
	let response: Response;
	try {
		response = await fetch(url, {
			credentials: "same-origin",
			...init,
			headers: { Accept: "application/json", "X-Frappe-CSRF-Token": csrfToken(), ...(init.headers ?? {}) },
		});
	} catch {
		throw new ApiError("Can't reach the server. Check your connection and try again.", 0);
	}
	const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
	if (!response.ok) throw errorFromBody(response.status, body);
	return body as T;
}

export async function call<T>(method: string, args: Record<string, unknown> = {}, post = false): Promise<T> {
	const url = `/api/method/${method}`;
	if (post) {
		const body = await request<{ message: T }>(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
		return body.message;
	}
	const query = new URLSearchParams(Object.entries(args).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
	const body = await request<{ message: T }>(`${url}?${query}`);
	return body.message;
}

const resource = (doctype: string, name?: string) => `/api/resource/${encodeURIComponent(doctype)}${name ? `/${encodeURIComponent(name)}` : ""}`;

export type ListArgs = { fields?: string[]; filters?: unknown[]; order_by?: string; limit?: number; start?: number };

export async function getList<T>(doctype: string, args: ListArgs = {}): Promise<T[]> {
	const query = new URLSearchParams({
		fields: JSON.stringify(args.fields ?? ["name"]),
		filters: JSON.stringify(args.filters ?? []),
		order_by: args.order_by ?? "modified desc",
		limit_page_length: String(args.limit ?? 20),
		limit_start: String(args.start ?? 0),
	});
	const body = await request<{ data: T[] }>(`${resource(doctype)}?${query}`);
	return body.data;
}

export async function getDoc<T>(doctype: string, name: string): Promise<T> {
	return (await request<{ data: T }>(resource(doctype, name))).data;
}

export async function saveDoc<T>(doctype: string, doc: Record<string, unknown>, name?: string): Promise<T> {
	const init = { method: name ? "PUT" : "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(doc) };
	return (await request<{ data: T }>(resource(doctype, name), init)).data;
}

export type UploadedFile = { name: string; file_name: string; file_url: string };

/** Uploads a file as a private file of the signed-in person. */
export async function uploadFile(file: File): Promise<UploadedFile> {
	const form = new FormData();
	form.append("file", file, file.name);
	form.append("is_private", "1");
	return (await request<{ message: UploadedFile }>("/api/method/upload_file", { method: "POST", body: form })).message;
}

export async function deleteDoc(doctype: string, name: string): Promise<void> {
	await request(resource(doctype, name), { method: "DELETE" });
}
