import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { Field, Form, SelectField, Textarea } from "../../components/ui/field";
import { Done, ErrorNote, Loading } from "../../components/ui/status";
import { sendTestMessage, useIntegrationSettings } from "./api";

const DEFAULT_TEXT = "A test message from Huf: this integration works.";

/** Send a message through saved settings, as an agent would, to one of their recipients. */
export function TestDialog({ name, onClose }: { name: string; onClose: () => void }) {
	const stored = useIntegrationSettings(name);
	const [recipient, setRecipient] = useState("");
	const [text, setText] = useState(DEFAULT_TEXT);
	const send = useMutation({ mutationFn: () => sendTestMessage(name, recipient || stored.data?.recipients[0]?.recipient_name || "", text) });
	const recipients = stored.data?.recipients ?? [];
	return (
		<Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={`Send a test message through ${name}`}>
			{stored.isPending ? <Loading /> : stored.isError ? <ErrorNote error={stored.error} /> : !recipients.length ? (
				<p className="text-sm text-slate-600">Add a recipient to these settings first.</p>
			) : (
				<Form onSubmit={() => send.mutate()}>
					<SelectField
						label="Recipient"
						value={recipient || (recipients[0]?.recipient_name ?? "")}
						choices={recipients.map((item) => ({ value: item.recipient_name, label: item.recipient_name }))}
						onChange={setRecipient}
					/>
					<Field label="Message">{(props) => <Textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} {...props} />}</Field>
					<div aria-live="polite">
						{send.isError ? <ErrorNote error={send.error} /> : null}
						<Done text={send.data ? `Sent to ${send.data.recipient}.` : null} />
					</div>
					<div className="flex justify-end gap-2">
						<Button variant="outline" onClick={onClose}>
							Close
						</Button>
						<Button type="submit" disabled={send.isPending || !text.trim()}>
							{send.isPending ? "Sending…" : "Send test message"}
						</Button>
					</div>
				</Form>
			)}
		</Dialog>
	);
}
