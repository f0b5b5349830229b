import { useState } from "react";
import { Dialog } from "../../components/ui/dialog";
import { ModelForm, ProviderForm } from "./ProviderForms";

/** A new admin sets up the first provider and model without leaving the screen they are on. */
export function SetupDialog({ open, onOpenChange, onReady }: { open: boolean; onOpenChange: (open: boolean) => void; onReady: (model: string) => void }) {
	const [provider, setProvider] = useState<string | null>(null);
	return (
		<Dialog
			open={open}
			onOpenChange={onOpenChange}
			title={provider ? `Add a model for ${provider}` : "Set up a provider"}
			description={provider ? "Step 2 of 2: the model your agents will use." : "Step 1 of 2: where Huf sends your agents' questions."}
		>
			{provider ? (
				<ModelForm
					provider={provider}
					model={null}
					onDone={(model) => {
						setProvider(null);
						onReady(model);
					}}
				/>
			) : (
				<ProviderForm provider={null} onDone={setProvider} />
			)}
		</Dialog>
	);
}
