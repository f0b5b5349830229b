import { Button } from "./button";
import { Dialog } from "./dialog";
import { ErrorNote } from "./status";

type ConfirmProps = {
	title: string;
	description: string;
	/** The button that does it, and what it says while it works. */
	confirm: string;
	confirming: string;
	/** What doing it runs (a mutation): its error shows here. */
	action: { isPending: boolean; error: unknown; mutate: () => void };
	onClose: () => void;
};

/** Asks before something that can't be undone: Cancel, or the red button that does it. */
export function ConfirmDialog({ title, description, confirm, confirming, action, onClose }: ConfirmProps) {
	return (
		<Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={title} description={description}>
			<div className="grid gap-3">
				{action.error ? <ErrorNote error={action.error} /> : null}
				<div className="flex justify-end gap-2">
					<Button variant="outline" onClick={onClose}>
						Cancel
					</Button>
					<Button variant="danger" disabled={action.isPending} onClick={() => action.mutate()}>
						{action.isPending ? confirming : confirm}
					</Button>
				</div>
			</div>
		</Dialog>
	);
}
