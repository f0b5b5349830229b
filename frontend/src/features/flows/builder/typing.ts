// Where focus is when a key is pressed: in a field (whose keys are its own, and whose typing is one
// undo step until focus moves) or elsewhere in the builder.

const NOT_TYPED = ["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"];

/** Keys pressed here are the field's own, not the builder's. */
export const isField = (target: EventTarget | null) =>
	target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** The field being typed in, which stands for its typing in the undo history; null elsewhere. */
export function typingIn(): HTMLElement | null {
	const active = typeof document === "undefined" ? null : document.activeElement;
	if (active instanceof HTMLInputElement) return NOT_TYPED.includes(active.type) ? null : active;
	return active instanceof HTMLTextAreaElement || (active instanceof HTMLElement && active.isContentEditable) ? active : null;
}
