// What every form's rules share (pure). Each form keeps its own rules next to its draft
// (agents/validation.ts, tools/rules.ts, tools/mcp.ts, prompts/api.ts, integrations/rules.ts, …),
// the same ones the server enforces, so a mistake shows next to its field before saving; the
// server still checks everything.

/** A sentence for each field that needs attention; no key: the field is fine. */
export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** Whether a check found anything. */
export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;

/** A whole number from `min` up to `max`. */
export const isWhole = (value: number, min: number, max = Number.POSITIVE_INFINITY): boolean => Number.isInteger(value) && value >= min && value <= max;

/** What a record's name may not contain (Frappe's rule), and how to say so. */
export const NAME_PATTERN = /^[^<>%/\\#?]+$/;
export const NAME_CHARACTERS = "A name can't contain < > % / \\ # or ?.";

/** An address on the web: http(s):// and a host. */
export const isWebAddress = (text: string): boolean => /^https?:\/\/[^\s/]+/i.test(text);

/** The field a refusal of the server belongs next to, by the refusal's title; a name that is taken
 * (DuplicateEntryError) belongs to `nameField`. */
export function fieldOfRefusal<K extends string>(byTitle: Record<string, K>, nameField: K): (title: string, excType: string) => K | null {
	return (title, excType) => (excType === "DuplicateEntryError" ? nameField : (byTitle[title] ?? null));
}
