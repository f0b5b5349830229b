// The builder's keyboard shortcuts, wherever focus is inside the builder: on a step, in the panel, or
// on the empty canvas (the builder itself takes focus when a click lands on nothing that can). Typing
// in a field is one undo step until focus moves (editor.ts `edit`'s `typing`, `pause`).
import type { FocusEvent, KeyboardEvent } from "react";
import * as model from "./editor";
import { isField } from "./typing";
import type { useEditor } from "./useEditor";

/** Props for the builder's outermost element. */
export function useShortcuts(editor: ReturnType<typeof useEditor>, readOnly: boolean) {
	const { update, change } = editor;
	const copy = () => update((current) => ({ ...current, clipboard: model.selection(current.graph) ?? current.clipboard }));
	const paste = () => update((current) => (current.clipboard ? model.edit(current, (graph) => model.paste(graph, current.clipboard as model.Graph)) : current));
	const onKeyDown = (event: KeyboardEvent) => {
		if (isField(event.target)) return;
		const mod = event.ctrlKey || event.metaKey;
		const key = event.key.toLowerCase();
		const run = (action: () => void) => {
			event.preventDefault();
			action();
		};
		if (mod && key === "z" && !event.shiftKey) return run(() => update(model.undo));
		if (mod && (key === "y" || (key === "z" && event.shiftKey))) return run(() => update(model.redo));
		if (mod && key === "c") return run(copy);
		if (mod && key === "a") return run(() => update((current) => model.live(current, model.selectAll)));
		if (readOnly) return;
		if (mod && key === "v") return run(paste);
		if (mod && key === "x") return run(() => (copy(), change(model.removeSelected)));
		if (mod && key === "d") return run(() => change(model.duplicate));
		if (key === "delete" || key === "backspace") return run(() => change(model.removeSelected));
	};
	// Focus moving anywhere (into another field, onto the canvas, out of the builder) ends a typing run.
	const onFocusMove = (_event: FocusEvent) => update(model.pause);
	return { tabIndex: -1, onKeyDown, onFocus: onFocusMove, onBlur: onFocusMove };
}
