// What the assistant shows before it has a model: a person who can set one up does it here, in a
// dialog, without leaving the page; anyone else is told whom to ask.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { ErrorNote } from "../../components/ui/status";
import { SetupDialog } from "../providers/SetupDialog";
import { chooseModel, type Status } from "./api";

export function SetUp({ status }: { status: Status }) {
	const queryClient = useQueryClient();
	const [open, setOpen] = useState(false);
	const [error, setError] = useState<unknown>(null);
	if (!status.can_set_up) return <p className="text-sm text-slate-700">The assistant is not set up yet. Ask whoever runs Huf here to choose a model for it.</p>;
	return (
		<div className="grid gap-2 text-sm text-slate-700">
			<p>The assistant needs a model to work with. Set up a provider and choose its model; the assistant uses it from then on.</p>
			<div>
				<Button onClick={() => setOpen(true)}>Set up a provider</Button>
			</div>
			{error ? <ErrorNote error={error} /> : null}
			<SetupDialog
				open={open}
				onOpenChange={setOpen}
				onReady={(model) => {
					setOpen(false);
					chooseModel(model)
						.then(() => queryClient.invalidateQueries({ queryKey: ["assistant-status"] }))
						.catch(setError);
				}}
			/>
		</div>
	);
}
