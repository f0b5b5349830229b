// What the assistant shows before it has a model: a person who can set one up chooses a model they
// already have, or adds a provider in a dialog, without leaving the page; anyone else is told whom to ask.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Field, Select } from "../../components/ui/field";
import { ErrorNote } from "../../components/ui/status";
import { useProviders } from "../providers/api";
import { SetupDialog } from "../providers/SetupDialog";
import { chooseModel, type Status } from "./api";

export function SetUp({ status }: { status: Status }) {
	if (!status.can_set_up) return <p className="text-sm text-slate-700">The assistant is not set up yet. Ask whoever runs Huf here to choose a model for it.</p>;
	return <Choose />;
}

function Choose() {
	const queryClient = useQueryClient();
	const providers = useProviders();
	const [open, setOpen] = useState(false);
	const [picked, setPicked] = useState("");
	const [error, setError] = useState<unknown>(null);
	const models = (providers.data ?? []).filter((provider) => provider.ready).flatMap((provider) => provider.models.filter((model) => !model.disabled).map((model) => model.name));
	const chosen = picked || models[0];
	const use = (model: string) => {
		setError(null);
		chooseModel(model)
			.then(() => queryClient.invalidateQueries({ queryKey: ["assistant-status"] }))
			.catch(setError);
	};
	return (
		<div className="grid gap-3 text-sm text-slate-700">
			<p>The assistant needs a model to work with. Choose one you already have, or set up a provider and choose its model; the assistant uses it from then on.</p>
			{models.length ? (
				<div className="flex flex-wrap items-end gap-2">
					<div className="min-w-48 flex-1">
						<Field label="Your models">
							{(props) => (
								<Select {...props} value={chosen} onChange={(event) => setPicked(event.target.value)}>
									{models.map((model) => (
										<option key={model} value={model}>
											{model}
										</option>
									))}
								</Select>
							)}
						</Field>
					</div>
					<Button onClick={() => chosen && use(chosen)}>Use this model</Button>
				</div>
			) : null}
			<div>
				<Button variant={models.length ? "outline" : "default"} onClick={() => setOpen(true)}>
					Set up a provider
				</Button>
			</div>
			{error ? <ErrorNote error={error} /> : null}
			<SetupDialog
				open={open}
				onOpenChange={setOpen}
				onReady={(model) => {
					setOpen(false);
					use(model);
				}}
			/>
		</div>
	);
}
