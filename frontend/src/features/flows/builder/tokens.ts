// Python's tokenizer, as far as the flow expression language needs it (expr.ts parses the tokens):
// names (any Unicode identifier, NFKC-normalised like Python does), numbers, text and bytes
// literals with their prefixes and escapes, operators, brackets, comments and line continuations.
// Its errors carry the words Python's own SyntaxError gives for the same mistake (Python 3.11).
//
// Like Python's tokenizer it does not stop the parser early: a mistake becomes an "error" token
// where it happens (the last token), met by the parser only if it reads that far, and an open
// bracket at the end is noted on the "end" token. A text whose escapes Python cannot decode
// carries its problem, raised when the parser reads the literal (as Python does).

type Kind =
	| { kind: "name"; text: string; id: string }
	| { kind: "number"; text: string }
	| { kind: "string"; format: boolean; bytes: number[] | null; problem?: string; text?: string } // text: a text literal's value
	| { kind: "op"; text: string }
	| { kind: "newline" }
	| { kind: "indent" }
	| { kind: "error"; message: string; soft: boolean } // soft: Python finds it only when parsing reaches it
	| { kind: "end"; unclosed?: { char: string; line: number } };
export type Token = Kind & { line: number; level: number }; // level: brackets open after it

/** A SyntaxError: its message is what the server quotes after "is not valid:". */
export class SyntaxProblem extends Error {}

const OPERATORS = [
	"**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=",
	"%", "&", "(", ")", "*", "+", ",", "-", ".", "/", ":", ";", "<", "=", ">", "@", "[", "]", "^", "{", "|", "}", "~",
]; // prettier-ignore
const CLOSING: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const MAX_NESTING = 200; // Python's tokenizer refuses the 201st open bracket

const PREFIX = /(?:[rRuUbBfF]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF])(?=["'])/y;
const WORD = /[A-Za-z0-9_\u0080-\u{10FFFF}]+/uy; // what Python reads as a possible name, then verifies
const NAME_START = /[\p{XID_Start}_]/u;
const NAME_CONTINUE = /\p{XID_Continue}/u;
const RADIX = { x: [/0[xX](?:_?[0-9a-fA-F])+/y, "hexadecimal"], o: [/0[oO](?:_?[0-7])+/y, "octal"], b: [/0[bB](?:_?[01])+/y, "binary"] } as const;
const DECIMAL = /(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?/y;
const SIMPLE_ESCAPES: Record<string, number> = { "\\": 92, "'": 39, '"': 34, a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };

const hexCode = (code: number) => code.toString(16).toUpperCase().padStart(4, "0");
const isAscii = (char: string) => char.charCodeAt(0) < 0x80;

function sticky(pattern: RegExp, source: string, at: number): string | undefined {
	pattern.lastIndex = at;
	return pattern.exec(source)?.[0];
}

/** After a number Python refuses a letter, digit or "_", unless a keyword starts there. */
function endOfNumber(source: string, at: number, kind: string): void {
	const rest = source.slice(at, at + 4);
	if (/^(and|else|for|i[fns]|or|not)/.test(rest)) return; // "1if x else 2" is a warning, not an error
	if (/^[A-Za-z0-9_]/.test(rest)) throw new SyntaxProblem(`invalid ${kind} literal`); // not after non-ASCII: CPython 3.11 reads on
}

function number(source: string, at: number): string {
	const letter = source[at] === "0" ? (source[at + 1] ?? "").toLowerCase() : "";
	if (letter === "x" || letter === "o" || letter === "b") {
		const [pattern, kind] = RADIX[letter];
		const text = sticky(pattern, source, at);
		const after = source[at + (text?.length ?? 2)] ?? "";
		if (kind !== "hexadecimal" && /[0-9]/.test(after)) throw new SyntaxProblem(`invalid digit '${after}' in ${kind} literal`);
		if (!text) throw new SyntaxProblem(`invalid ${kind} literal`);
		endOfNumber(source, at + text.length, kind);
		return text;
	}
	const text = sticky(DECIMAL, source, at) as string;
	if (/^0[0_]*[1-9]/.test(text) && !/[.eEjJ]/.test(text)) throw new SyntaxProblem("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
	endOfNumber(source, at + text.length, /[jJ]$/.test(text) ? "imaginary" : "decimal");
	return text;
}

function name(word: string): Kind {
	const chars = [...word];
	const bad = chars.findIndex((char, index) => !(index === 0 ? NAME_START : NAME_CONTINUE).test(char));
	if (bad >= 0) {
		const char = chars[bad] as string;
		const code = hexCode(char.codePointAt(0) as number);
		throw new SyntaxProblem(/[\p{C}\p{Z}]/u.test(char) && char !== " " ? `invalid non-printable character U+${code}` : `invalid character '${char}' (U+${code})`);
	}
	return { kind: "name", text: word, id: word.normalize("NFKC") };
}

/** Python's \x, \u, \U and \N escapes in text: the positions in its message count each non-ASCII
 * character as the 10 characters of a \UXXXXXXXX escape, as CPython's decoder does. */
function checkTextEscapes(body: string): void {
	const chars = [...body];
	const width = (char: string) => (isAscii(char) ? 1 : 10);
	const fail = (start: number, end: number, what: string) => {
		throw new SyntaxProblem(`(unicode error) 'unicodeescape' codec can't decode bytes in position ${start}-${end - 1}: ${what}`);
	};
	let position = 0;
	for (let index = 0; index < chars.length; index++) {
		const char = chars[index] as string;
		if (char !== "\\") {
			position += width(char);
			continue;
		}
		const start = position;
		const next = chars[index + 1] ?? "";
		position += 1;
		if (!next || !isAscii(next)) {
			position += 5; // a backslash before a non-ASCII character stays a backslash
			continue;
		}
		index += 1;
		position += 1;
		const count = { x: 2, u: 4, U: 8 }[next as "x"];
		if (count) {
			const digits = chars.slice(index + 1, index + 1 + count).join("").match(/^[0-9a-fA-F]*/)?.[0] ?? "";
			if (digits.length < count) fail(start, position + digits.length, `truncated \\${next}${"X".repeat(count)} escape`);
			if (parseInt(digits, 16) > 0x10ffff) fail(start, position + count, "illegal Unicode character");
			index += count;
			position += count;
		} else if (next === "N") {
			// A name is accepted as it is: the builder has no Unicode name table.
			const close = chars.indexOf("}", index + 1);
			if (chars[index + 1] !== "{") fail(start, position, "malformed \\N character escape");
			if (close < 0) fail(start, position + chars.slice(index + 1).reduce((sum, item) => sum + width(item), 0), "malformed \\N character escape");
			if (close === index + 2) fail(start, position + 1, "malformed \\N character escape");
			position += close - index; // the name is ASCII up to the brace, or it would be unknown anyway
			index = close;
		}
	}
}

/** The value of a text literal whose escapes were checked (checkTextEscapes): Python's escapes
 * decoded; a \N{...} name is kept as written (the builder has no Unicode name table). */
function textOf(body: string, raw: boolean): string {
	if (raw) return body;
	return body.replace(/\\(\n|[\\'"abfnrtv]|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|.)/gsu, (whole, escape: string) => {
		if (escape === "\n") return "";
		if (escape in SIMPLE_ESCAPES) return String.fromCharCode(SIMPLE_ESCAPES[escape] as number);
		if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
		if (/^[xuU]/.test(escape)) return String.fromCodePoint(parseInt(escape.slice(1), 16));
		return whole; // \N{...} and unknown escapes keep their backslash
	});
}

/** The bytes a b'...' literal stands for (its repr is the server's message). */
function bytesOf(body: string, raw: boolean): number[] {
	if (/[^\x00-\x7f]/.test(body)) throw new SyntaxProblem("bytes can only contain ASCII literal characters");
	const codes: number[] = [];
	for (let index = 0; index < body.length; index++) {
		const char = body[index] as string;
		const next = body[index + 1] ?? "";
		if (raw || char !== "\\") codes.push(char.charCodeAt(0));
		else if (next === "\n") index += 1;
		else if (next in SIMPLE_ESCAPES) {
			codes.push(SIMPLE_ESCAPES[next] as number);
			index += 1;
		} else if (/[0-7]/.test(next)) {
			const digits = (body.slice(index + 1, index + 4).match(/^[0-7]+/) as RegExpMatchArray)[0];
			codes.push(parseInt(digits, 8) & 0xff);
			index += digits.length;
		} else if (next === "x") {
			if (!/^[0-9a-fA-F]{2}/.test(body.slice(index + 2))) throw new SyntaxProblem(`(value error) invalid \\x escape at position ${index}`);
			codes.push(parseInt(body.slice(index + 2, index + 4), 16));
			index += 3;
		} else codes.push(92); // an unknown escape keeps its backslash
	}
	return codes;
}

const lineOf = (source: string, at: number) => source.slice(0, at).split("\n").length;

/** A quoted literal from `at` (its opening quote); the index after it and its token. */
function literal(source: string, at: number, prefix: string): [number, Kind] {
	const quote = source[at] as string;
	const triple = source.startsWith(quote.repeat(3), at);
	const close = triple ? quote.repeat(3) : quote;
	let index = at + close.length;
	for (;;) {
		if (index >= source.length) throw new SyntaxProblem(`unterminated ${triple ? "triple-quoted " : ""}string literal (detected at line ${lineOf(source, index)})`);
		const char = source[index];
		if (char === "\\") index += 2;
		else if (char === "\n" && !triple) throw new SyntaxProblem(`unterminated string literal (detected at line ${lineOf(source, index)})`);
		else if (source.startsWith(close, index)) break;
		else index += 1;
	}
	const body = source.slice(at + close.length, index);
	const flags = prefix.toLowerCase();
	const format = flags.includes("f");
	const raw = flags.includes("r");
	const token: Kind = { kind: "string", format, bytes: null };
	try {
		if (flags.includes("b")) token.bytes = bytesOf(body, raw);
		else if (!format) {
			if (!raw) checkTextEscapes(body);
			token.text = textOf(body, raw);
		}
	} catch (error) {
		if (!(error instanceof SyntaxProblem)) throw error;
		token.problem = error.message;
	}
	return [index + close.length, token];
}

/** The tokens of an expression (already stripped); the last is "end" or an "error". */
export function tokenize(expression: string): Token[] {
	const source = expression.replace(/\r\n?/g, "\n");
	const tokens: Token[] = [];
	const open: { char: string; line: number }[] = [];
	let index = 0;
	let lineHasTokens = false;
	let counted = 0;
	let line = 1;
	const lineAt = (at: number) => {
		for (; counted < at; counted++) if (source[counted] === "\n") line += 1;
		return line;
	};
	const push = (token: Kind) => {
		tokens.push({ ...token, line: lineAt(index), level: open.length });
		lineHasTokens = true;
	};
	try {
		while (index < source.length) {
			const char = source[index] as string;
			const code = char.charCodeAt(0);
			if (char === " " || char === "\t" || char === "\f") {
				index += 1;
			} else if (char === "#") {
				while (index < source.length && source[index] !== "\n") index += 1;
			} else if (char === "\\") {
				if (source[index + 1] !== "\n") {
					push({ kind: "error", message: "unexpected character after line continuation character", soft: true });
					return tokens;
				}
				index += 2;
			} else if (char === "\n") {
				index += 1;
				if (open.length) continue;
				if (lineHasTokens) push({ kind: "newline" });
				lineHasTokens = false;
				if (/^[ \t\f]+(?=[^ \t\f\n#])/.test(source.slice(index))) push({ kind: "indent" });
			} else if (sticky(PREFIX, source, index) !== undefined || char === "'" || char === '"') {
				const prefix = sticky(PREFIX, source, index) ?? "";
				const [next, token] = literal(source, index + prefix.length, prefix);
				push(token);
				index = next;
			} else if (/[0-9]/.test(char) || (char === "." && /[0-9]/.test(source[index + 1] ?? ""))) {
				const text = number(source, index);
				push({ kind: "number", text });
				index += text.length;
			} else if (sticky(WORD, source, index)) {
				const word = sticky(WORD, source, index) as string;
				push(name(word));
				index += word.length;
			} else if (code < 0x20 || code === 0x7f) {
				throw new SyntaxProblem(`invalid non-printable character U+${hexCode(code)}`);
			} else {
				// Python reads any other character ($, ?, !) as an operator no rule accepts.
				const operator = OPERATORS.find((item) => source.startsWith(item, index)) ?? char;
				brackets(operator, open, lineAt(index));
				push({ kind: "op", text: operator });
				index += operator.length;
			}
		}
	} catch (error) {
		if (!(error instanceof SyntaxProblem)) throw error;
		push({ kind: "error", message: error.message, soft: false });
		return tokens;
	}
	tokens.push({ kind: "end", unclosed: open.at(-1), line: lineAt(index), level: open.length });
	return tokens;
}

function brackets(operator: string, open: { char: string; line: number }[], line: number): void {
	if ("([{".includes(operator)) {
		if (open.length >= MAX_NESTING) throw new SyntaxProblem("too many nested parentheses");
		open.push({ char: operator, line });
	} else if (operator in CLOSING) {
		const last = open.pop();
		if (!last) throw new SyntaxProblem(`unmatched '${operator}'`);
		if (last.char !== CLOSING[operator]) {
			const where = last.line === line ? "" : ` on line ${last.line}`;
			throw new SyntaxProblem(`closing parenthesis '${operator}' does not match opening parenthesis '${last.char}'${where}`);
		}
	}
}
