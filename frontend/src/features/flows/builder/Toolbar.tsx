// Above the canvas: undo and redo, tidy up the layout, and save a new version with a note.
import { LayoutGrid, Redo2, Save, Undo2 } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { Input } from "../../../components/ui/field";
import type { useEditor } from "./useEditor";

type Props = { editor: ReturnType<typeof useEditor>; dirty: boolean; saving: boolean; problems: number; onArrange: () => void; onSave: (note: string) => Promise<boolean> };

const OFF = "aria-disabled:cursor-not-allowed aria-disabled:opacity-50";

export function Toolbar({ editor, dirty, saving, problems, onArrange, onSave }: Props) {
	const [note, setNote] = useState("");
	return (
		<div role="toolbar" aria-label="Flow editing" className="flex flex-wrap items-center gap-2">
			{/* Undo and Redo stay focusable when there is nothing to undo or redo: a disabled button
			    would drop the keyboard's focus out of the builder, and its shortcuts with it. */}
			<Button variant="outline" size="sm" aria-disabled={!editor.canUndo} className={OFF} onClick={editor.canUndo ? editor.undo : undefined} title="Undo (Ctrl+Z)">
				<Undo2 className="h-4 w-4" aria-hidden />
				Undo
			</Button>
			<Button variant="outline" size="sm" aria-disabled={!editor.canRedo} className={OFF} onClick={editor.canRedo ? editor.redo : undefined} title="Redo (Ctrl+Shift+Z)">
				<Redo2 className="h-4 w-4" aria-hidden />
				Redo
			</Button>
			<Button variant="outline" size="sm" onClick={onArrange} title="Arrange the steps from left to right">
				<LayoutGrid className="h-4 w-4" aria-hidden />
				Tidy up
			</Button>
			<span className="hidden text-xs text-slate-600 xl:inline">Ctrl+C, Ctrl+V and Ctrl+D copy, paste and duplicate; Delete removes.</span>
			<form
				className="ml-auto flex min-w-0 flex-wrap items-center gap-2"
				aria-label="Save a new version"
				onSubmit={async (event) => {
					event.preventDefault();
					if (await onSave(note.trim())) setNote("");
				}}
			>
				{problems ? <span className="text-xs text-red-700" data-testid="problem-count">{problems} problem{problems > 1 ? "s" : ""} to fix</span> : null}
				{dirty ? <span className="text-xs text-amber-700">Unsaved changes</span> : null}
				<Input aria-label="What changed (optional)" placeholder="What changed (optional)" className="h-8 w-44 sm:w-56" value={note} onChange={(event) => setNote(event.target.value)} />
				<Button type="submit" size="sm" disabled={saving || !dirty}>
					<Save className="h-4 w-4" aria-hidden />
					{saving ? "Saving…" : "Save"}
				</Button>
			</form>
		</div>
	);
}
