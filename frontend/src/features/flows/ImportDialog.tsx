import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Form, Textarea } from "../../components/ui/field";
import { parseImport, type Definition } from "./rules";

/** Paste or upload a flow exported before (a JSON file); saving it is the check. */
export function ImportDialog({ flowId, onImport, onClose }: { flowId: string; onImport: (definition: Definition) => Promise<unknown>; onClose: () => void }) {
	const [value, setValue] = useState("");
	const [error, setError] = useState<string | undefined>();
	const [saving, setSaving] = useState(false);
	return (
		<Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Import a flow" description="Upload or paste a flow exported as a JSON file. It replaces this flow's steps as a new version.">
			<Form
				className="grid gap-3"
				onSubmit={async () => {
					const found = parseImport(value, flowId);
					if (!found.ok) return setError(found.error);
					setSaving(true);
					await onImport(found.definition);
					setSaving(false);
					onClose(); // when refused, the problems show on the steps of the page
				}}
			>
				<Field label="JSON file">
					{(props) => (
						<input
							type="file"
							accept="application/json,.json"
							className="text-sm"
							{...props}
							onChange={async (e) => {
								const file = e.target.files?.[0];
								if (file) setValue(await file.text());
							}}
						/>
					)}
				</Field>
				<Field label="Or paste it here" error={error}>
					{(props) => (
						<Textarea
							rows={10}
							className="font-mono text-xs"
							value={value}
							onChange={(e) => {
								setValue(e.target.value);
								setError(undefined);
							}}
							{...props}
						/>
					)}
				</Field>
				<Button type="submit" className="justify-self-end" disabled={saving || !value.trim()}>
					{saving ? "Importing…" : "Import"}
				</Button>
			</Form>
		</Dialog>
	);
}
