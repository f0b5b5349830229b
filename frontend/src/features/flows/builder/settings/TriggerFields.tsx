// The three ways a run starts. A web request step holds the secret other systems send (stored
// hidden; the server gives back ******** for a saved one and keeps it when that comes back). A
// schedule or a record change is set up as a trigger in the site's admin pages (the web app has no
// Triggers area), which names this flow.
import { useState, type ReactNode } from "react";
import { useParams } from "react-router";
import { Field } from "../../../../components/ui/field";
import { SecretInput } from "../../../tools/SecretInput";
import { isMasked } from "../../../tools/rules";
import type { KindProps } from "./kit";

const useFlowId = () => useParams().flowId || "<flow id>";

const Note = ({ children }: { children: ReactNode }) => <div className="grid gap-2 rounded-md bg-slate-50 p-3 text-sm text-slate-700">{children}</div>;

export function WebhookFields({ config, errorOf, set }: KindProps) {
	const flowId = useFlowId();
	const [saved] = useState(() => (typeof config.secret === "string" ? config.secret : ""));
	const address = `${window.location.origin}/api/method/huf.ai.flow.api.flow_webhook?flow_id=${encodeURIComponent(flowId)}`;
	return (
		<>
			<Field label="Secret" error={errorOf("secret")} hint={isMasked(saved) ? "A secret is set. Type a new one to replace it." : "A long random text that only you and the other system know."}>
				{(props) => <SecretInput value={typeof config.secret === "string" ? config.secret : ""} saved={saved} onChange={(secret) => set({ secret: secret || undefined })} {...props} />}
			</Field>
			<Note>
				<p>
					Other systems start this flow by sending a request (POST) to <code className="break-all rounded bg-white px-1">{address}</code> with the secret in the <code className="rounded bg-white px-1">X-Huf-Secret</code> header.
				</p>
				<p>It starts only while the flow is Active.</p>
			</Note>
		</>
	);
}

export function TriggerNote({ node }: KindProps) {
	const flowId = useFlowId();
	const what = node.type === "trigger.schedule" ? "on a schedule" : "when a record changes";
	const kind = node.type === "trigger.schedule" ? "Schedule" : "Doc Event";
	return (
		<Note>
			<p>
				What starts this flow {what} is set up as a trigger, not here: in the site’s admin pages, add an Agent Trigger of the kind “{kind}” and choose this flow in it.
			</p>
			<p>A trigger starts the flow only while the flow is Active.</p>
			<a className="text-blue-700 underline" href={`/app/agent-trigger?flow=${encodeURIComponent(flowId)}`} target="_blank" rel="noreferrer">
				See the triggers of this flow
			</a>
		</Note>
	);
}
