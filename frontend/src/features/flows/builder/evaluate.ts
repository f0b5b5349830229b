// An expression's value against a run's flow data, for the builder's previews (the last test run's
// values as you type): the tree expr.ts reads, walked as the server's evaluator walks it
// (huf/ai/engine/flow/evaluator.py: same operations, same refusals in its words). A tree walk only:
// nothing is ever run as code, and only a record's own keys are read. Numbers are JavaScript's, so a whole number and its float are one.
import { placeholders, readExpression, type Node } from "./expr";

export type Evaluated = { ok: true; value: unknown } | { ok: false; error: string };

class Refused extends Error {}

const MAX_ITEMS = 100_000;
const isNumber = (value: unknown): value is number => typeof value === "number";
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isSequence = (value: unknown): value is string | unknown[] => typeof value === "string" || Array.isArray(value);

/** The server's words for a value's kind. */
function kind(value: unknown): string {
	if (value === null || value === undefined) return "nothing (None)";
	if (typeof value === "boolean") return "true/false value";
	if (isNumber(value)) return "number";
	if (typeof value === "string") return "text";
	return Array.isArray(value) ? "list" : "record";
}

/** Python's truth: empty text, list, record, 0, None and False are false. */
function truthy(value: unknown): boolean {
	if (isSequence(value)) return value.length > 0;
	if (isRecord(value)) return Object.keys(value).length > 0;
	return Boolean(value);
}

/** Python's == on plain data. */
function same(left: unknown, right: unknown): boolean {
	if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => same(item, right[index]));
	if (isRecord(left) && isRecord(right)) {
		const keys = Object.keys(left);
		return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && same(left[key], right[key]));
	}
	return left === right || (left === undefined && right === null) || (left === null && right === undefined);
}

function order(left: unknown, right: unknown): number {
	if ((isNumber(left) || typeof left === "boolean") && (isNumber(right) || typeof right === "boolean")) return Number(left) - Number(right);
	if (typeof left === "string" && typeof right === "string") return left < right ? -1 : left > right ? 1 : 0;
	throw new Refused(`A ${kind(left)} cannot be compared with a ${kind(right)}.`);
}

function contains(left: unknown, right: unknown): boolean {
	if (typeof right === "string") {
		if (typeof left !== "string") throw new Refused("'in' on text looks for text; put the value in quotes.");
		return right.includes(left);
	}
	if (Array.isArray(right)) return right.some((item) => same(item, left));
	if (isRecord(right)) return typeof left === "string" && Object.hasOwn(right, left);
	throw new Refused(`'in' looks inside a list, text or record, not a ${kind(right)}.`);
}

const COMPARE: Record<string, (left: unknown, right: unknown) => boolean> = {
	Eq: same,
	NotEq: (left, right) => !same(left, right),
	Lt: (left, right) => order(left, right) < 0,
	LtE: (left, right) => order(left, right) <= 0,
	Gt: (left, right) => order(left, right) > 0,
	GtE: (left, right) => order(left, right) >= 0,
	Is: (left, right) => left === right || (left == null && right == null),
	IsNot: (left, right) => !(left === right || (left == null && right == null)),
	In: contains,
	NotIn: (left, right) => !contains(left, right),
};
const SYMBOL: Record<string, string> = { Sub: "-", Div: "/", FloorDiv: "//", Mod: "%", Pow: "**" };

function sized<T extends string | unknown[]>(value: T): T {
	if (value.length > MAX_ITEMS) throw new Refused(`The expression makes text or a list of ${value.length.toLocaleString("en")} items; the limit is 100,000.`);
	return value;
}

function arithmetic(op: string, left: unknown, right: unknown): unknown {
	if (op === "Add") {
		if (isNumber(left) && isNumber(right)) return left + right;
		if (typeof left === "string" && typeof right === "string") return sized(left + right);
		if (Array.isArray(left) && Array.isArray(right)) return sized([...left, ...right]);
		throw new Refused(`'+' cannot join a ${kind(left)} and a ${kind(right)}.`);
	}
	if (op === "Mult") {
		if (isNumber(left) && isNumber(right)) return left * right;
		const [sequence, count] = isSequence(left) ? [left, right] : [right, left];
		if (isSequence(sequence) && isNumber(count) && Number.isInteger(count)) {
			const times = Math.max(count, 0);
			if (sequence.length * times > MAX_ITEMS) throw new Refused(`The expression makes text or a list of ${(sequence.length * times).toLocaleString("en")} items; the limit is 100,000.`);
			return typeof sequence === "string" ? sequence.repeat(times) : Array.from({ length: times }, () => sequence).flat();
		}
		throw new Refused(`'*' cannot multiply a ${kind(left)} by a ${kind(right)}.`);
	}
	if (!isNumber(left) || !isNumber(right)) throw new Refused(`'${SYMBOL[op] ?? op}' works on numbers, not on a ${kind(left)} and a ${kind(right)}.`);
	if ((op === "Div" || op === "FloorDiv" || op === "Mod") && right === 0) throw new Refused("The expression divides by zero.");
	if (op === "Sub") return left - right;
	if (op === "Div") return left / right;
	if (op === "FloorDiv") return Math.floor(left / right);
	if (op === "Mod") return ((left % right) + right) % right; // Python's sign: that of the divisor
	return left ** right;
}

function index(owner: unknown, key: unknown): unknown {
	if (isRecord(owner)) {
		if (typeof key !== "string" || !Object.hasOwn(owner, key)) throw new Refused(`There is no key ${JSON.stringify(key)} here.`);
		return owner[key];
	}
	if (!isSequence(owner)) throw new Refused(`A ${kind(owner)} cannot be indexed with [...].`);
	if (!isNumber(key) || !Number.isInteger(key)) throw new Refused(`A list or text is indexed by a whole number, not a ${kind(key)}.`);
	const at = key < 0 ? owner.length + key : key;
	if (at < 0 || at >= owner.length) throw new Refused(`There is no item ${key} in a list of ${owner.length}.`);
	return owner[at];
}

function walk(node: Node, context: Record<string, unknown>): unknown {
	const kids = node.kids;
	const at = (position: number) => kids[position] as Node;
	switch (node.type) {
		case "Constant":
			return node.value;
		case "Name": {
			const name = node.name as string;
			if (!Object.hasOwn(context, name)) throw new Refused(`There is no value named ${JSON.stringify(name)} in the flow's data.`);
			return context[name];
		}
		case "Attribute": {
			const owner = walk(at(0), context);
			const key = node.name as string;
			if (!isRecord(owner)) throw new Refused(`'${key}' was asked of a ${kind(owner)}; only records (objects) have named keys.`);
			if (!Object.hasOwn(owner, key)) throw new Refused(`There is no key '${key}' here; the keys are ${Object.keys(owner).slice(0, 10).join(", ") || "none"}.`);
			return owner[key];
		}
		case "Subscript": {
			if (at(1).type === "Slice") throw new Refused("Slices [a:b] are worked out when the flow runs.");
			return index(walk(at(0), context), walk(at(1), context));
		}
		case "List":
		case "Tuple":
			return kids.filter((kid) => kid.type !== "Load").map((kid) => walk(kid, context));
		case "Dict": {
			const half = kids.length / 2;
			return Object.fromEntries(kids.slice(0, half).map((key, position) => [String(walk(key, context)), walk(kids[half + position] as Node, context)]));
		}
		case "IfExp": // Python's IfExp children: test, body, orelse
			return truthy(walk(at(0), context)) ? walk(at(1), context) : walk(at(2), context);
		case "BoolOp": {
			const or = at(0).type === "Or";
			let value: unknown = null;
			for (const kid of kids.slice(1)) {
				value = walk(kid, context);
				if (truthy(value) === or) return value;
			}
			return value;
		}
		case "UnaryOp": {
			const value = walk(at(1), context);
			if (at(0).type === "Not") return !truthy(value);
			if (!isNumber(value)) throw new Refused(`'-' and '+' work on numbers, not on a ${kind(value)}.`);
			return at(0).type === "USub" ? -value : value;
		}
		case "Compare": {
			const count = (kids.length - 1) / 2;
			let left = walk(at(0), context);
			for (let position = 0; position < count; position++) {
				const right = walk(at(1 + count + position), context);
				if (!(COMPARE[at(1 + position).type] as (a: unknown, b: unknown) => boolean)(left, right)) return false;
				left = right;
			}
			return true;
		}
		case "BinOp":
			return arithmetic(at(1).type, walk(at(0), context), walk(at(2), context));
		default:
			throw new Refused("This expression is worked out when the flow runs.");
	}
}

/** The value of `expression` with the names in `context` (a run's flow data). */
export function evaluate(expression: string, context: Record<string, unknown>): Evaluated {
	const read = readExpression(expression);
	if (!read.ok) return read;
	try {
		return { ok: true, value: walk(read.tree, context) };
	} catch (error) {
		if (error instanceof Refused) return { ok: false, error: error.message };
		if (error instanceof RangeError) return { ok: false, error: "The expression is too large or too deeply nested; split it into simpler steps." };
		throw error;
	}
}

/** A value as text the way the server puts it into a text (expr.py `text_of`). */
export function textOf(value: unknown): string {
	if (value === null || value === undefined) return "";
	if (typeof value === "boolean") return value ? "True" : "False";
	if (typeof value === "object") return JSON.stringify(value);
	return String(value);
}

const PLACEHOLDER = /\{\{((?:(?!\}\})[\s\S])*)\}\}/g;

/** A text with its `{{ ... }}` filled in from `context` (expr.py `interpolate` for one text: a text
 * that is one whole placeholder keeps that value). */
export function fill(template: string, context: Record<string, unknown>): Evaluated {
	const whole = /^\{\{((?:(?!\}\})[\s\S])*)\}\}$/.exec(template.trim());
	if (whole) return evaluate(whole[1] ?? "", context);
	if (!placeholders(template).length) return { ok: true, value: template };
	let problem: string | null = null;
	const value = template.replace(PLACEHOLDER, (_match, inside: string) => {
		const found = evaluate(inside, context);
		if (!found.ok) problem ??= found.error;
		return found.ok ? textOf(found.value) : "";
	});
	return problem ? { ok: false, error: problem } : { ok: true, value };
}

/** A value shown in a preview: text in quotes, True/False/None as in the flow's expressions. */
export function shown(value: unknown): string {
	if (value === null || value === undefined) return "None";
	if (typeof value === "boolean") return value ? "True" : "False";
	return JSON.stringify(value);
}
