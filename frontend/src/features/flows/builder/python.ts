// How Python writes values, so the builder's messages read exactly like the server's: repr() (the
// `{x!r}` of the server's f-strings), str(), strip(), truthiness and the `{n:,}` number format.

/** Python's str.strip(): the characters str.isspace() calls whitespace. */
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");

export function pyStrip(text: string): string {
	return text.replace(EDGES, "");
}

/** Characters str.isprintable() refuses (other than the space itself): repr escapes them. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code: number, width: number): string {
	return code.toString(16).padStart(width, "0");
}

function escapeText(text: string, quote: string): string {
	let out = "";
	for (const char of text) {
		const code = char.codePointAt(0) as number;
		if (char === "\\" || char === quote) out += `\\${char}`;
		else if (char === "\t") out += "\\t";
		else if (char === "\n") out += "\\n";
		else if (char === "\r") out += "\\r";
		else if (char === " " || !UNPRINTABLE.test(char)) out += char;
		else if (code < 0x100) out += `\\x${hex(code, 2)}`;
		else if (code < 0x10000) out += `\\u${hex(code, 4)}`;
		else out += `\\U${hex(code, 8)}`;
	}
	return out;
}

/** Single quotes, unless the text holds a single quote and no double quote. */
function quoteFor(text: string): string {
	return text.includes("'") && !text.includes('"') ? '"' : "'";
}

/** repr() of a float: the shortest digits that read back, fixed between 1e-4 and 1e16. */
export function pyFloat(value: number): string {
	if (Number.isNaN(value)) return "nan";
	if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
	const [digits = "", power = "0"] = value.toExponential().split("e");
	const exponent = Number(power);
	if (exponent < -4 || exponent >= 16) return `${digits}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
	const fixed = String(value);
	return fixed.includes(".") ? fixed : `${fixed}.0`;
}

/** repr() of a bytes value given as its byte codes. */
export function pyBytes(codes: number[]): string {
	const text = String.fromCharCode(...codes);
	const quote = quoteFor(text);
	let out = "";
	for (const code of codes) {
		const char = String.fromCharCode(code);
		if (char === "\\" || char === quote) out += `\\${char}`;
		else if (char === "\t") out += "\\t";
		else if (char === "\n") out += "\\n";
		else if (char === "\r") out += "\\r";
		else if (code >= 0x20 && code < 0x7f) out += char;
		else out += `\\x${hex(code, 2)}`;
	}
	return `b${quote}${out}${quote}`;
}

/** repr() of a JSON value as the server sees it (a whole number reads as an int). */
export function pyRepr(value: unknown): string {
	if (typeof value === "string") {
		const quote = quoteFor(value);
		return `${quote}${escapeText(value, quote)}${quote}`;
	}
	if (value === null || value === undefined) return "None";
	if (typeof value === "boolean") return value ? "True" : "False";
	if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
	if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
	if (typeof value === "object") return `{${Object.entries(value).map(([key, item]) => `${pyRepr(key)}: ${pyRepr(item)}`).join(", ")}}`;
	return String(value);
}

/** str() of a JSON value: text as it is, anything else as repr() writes it. */
export function pyStr(value: unknown): string {
	return typeof value === "string" ? value : pyRepr(value);
}

/** Python's truth test of a JSON value: None, False, 0, "", [] and {} are false. */
export function truthy(value: unknown): boolean {
	if (Array.isArray(value)) return value.length > 0;
	if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
	return Boolean(value);
}

/** A JSON object (Python's dict), not a list or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{n:,}`: a whole number with thousands separated by commas. */
export function grouped(count: number): string {
	return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
