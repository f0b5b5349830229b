// The inputs a tool step offers, read from the tool: its parameter rows when it has them, else the
// definition the server derived for it on save (`function_definition`, huf/ai/tools/definition.py:
// for a record tool, the record's fields with their types). A record of named fields (the record a
// "Create a record" tool writes) is offered field by field, kept under its input's name.
import type { ParamRow } from "../../../tools/rules";

export type ToolInput = {
	/** Where the value goes in config.arguments: ["name"], or ["data", "subject"] for a record's field. */
	path: string[];
	label: string;
	type: string;
	required: boolean;
	description: string;
	/** The values a choice field takes. */
	options?: string[];
};

/** A group of inputs: the tool's own, or the fields of one record it takes. */
export type InputGroup = { legend: string | null; hint: string; inputs: ToolInput[] };

type Schema = { type?: unknown; description?: unknown; properties?: unknown; required?: unknown; enum?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function definitionOf(value: unknown): Record<string, unknown> | null {
	if (isRecord(value)) return value;
	if (typeof value !== "string" || !value.trim()) return null;
	try {
		const found: unknown = JSON.parse(value);
		return isRecord(found) ? found : null;
	} catch {
		return null;
	}
}

const words = (value: unknown) => (typeof value === "string" ? value : "");
const typeOf = (schema: Schema) => (typeof schema.type === "string" ? schema.type : "string");
const requiredOf = (schema: Schema) => new Set(Array.isArray(schema.required) ? schema.required.filter((item): item is string => typeof item === "string") : []);
/** "Subject; required" -> "Subject" (the server writes "; required" into a field's description). */
const plain = (description: string) => description.replace(/; required$/, "");
const humane = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");

function input(path: string[], schema: Schema, required: boolean, labelled: boolean): ToolInput {
	const description = words(schema.description);
	const name = path.at(-1) as string;
	const found: ToolInput = {
		path,
		// a record's field is described by its label ("Subject (name of a User)"); the tool's own inputs by a sentence
		label: labelled && description ? plain(description) : humane(name),
		type: typeOf(schema),
		required: required || (labelled && description.endsWith("; required")),
		description: labelled ? "" : description,
	};
	if (Array.isArray(schema.enum)) found.options = schema.enum.filter((item): item is string => typeof item === "string");
	return found;
}

/** The inputs of a tool record (as the server gives it), grouped; [] when it lists none. */
export function toolInputs(tool: { parameters?: ParamRow[]; function_definition?: unknown }): InputGroup[] {
	const rows = tool.parameters ?? [];
	if (rows.length) {
		const inputs = rows.map((row) => ({ path: [row.fieldname], label: row.label || row.fieldname, type: row.type || "string", required: Boolean(row.required), description: row.description || "" }));
		return [{ legend: null, hint: "", inputs }];
	}
	const definition = definitionOf(tool.function_definition);
	const parameters = (definition && isRecord(definition.parameters) ? definition.parameters : {}) as Schema;
	const properties = isRecord(parameters.properties) ? parameters.properties : {};
	const required = requiredOf(parameters);
	const own: ToolInput[] = [];
	const groups: InputGroup[] = [];
	for (const [name, raw] of Object.entries(properties)) {
		if (!isRecord(raw)) continue;
		const schema = raw as Schema;
		const fields = isRecord(schema.properties) ? Object.entries(schema.properties).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1])) : [];
		if (typeOf(schema) === "object" && fields.length) {
			const inner = requiredOf(schema);
			const inputs = fields.map(([field, fieldSchema]) => input([name, field], fieldSchema as Schema, inner.has(field), true));
			groups.push({ legend: name === "data" ? "Record fields" : humane(name), hint: words(schema.description), inputs });
		} else {
			own.push(input([name], schema, required.has(name), false));
		}
	}
	return own.length ? [{ legend: null, hint: "", inputs: own }, ...groups] : groups;
}

/** The value at `path` in the step's arguments. */
export function valueAt(values: Record<string, unknown>, path: string[]): unknown {
	let current: unknown = values;
	for (const key of path) current = isRecord(current) ? current[key] : undefined;
	return current;
}

/** The arguments with `value` at `path` (an empty value removes the key, and a record left empty). */
export function withValue(values: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
	const [key, ...rest] = path as [string, ...string[]];
	const next = { ...values };
	const inner = rest.length ? withValue(isRecord(values[key]) ? (values[key] as Record<string, unknown>) : {}, rest, value) : value;
	if (inner === undefined || inner === "" || (rest.length && isRecord(inner) && !Object.keys(inner).length)) delete next[key];
	else next[key] = inner;
	return next;
}

/** The argument names saved earlier that none of `groups` offers (kept, shown as text fields). */
export function leftOver(values: Record<string, unknown>, groups: InputGroup[]): string[] {
	const offered = new Set(groups.flatMap((group) => group.inputs.map((item) => item.path[0] as string)));
	return Object.keys(values).filter((key) => !offered.has(key));
}
