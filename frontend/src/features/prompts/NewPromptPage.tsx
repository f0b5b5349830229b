import { Link, useNavigate, useParams } from "react-router";
import { emptyPrompt, isKind, type PromptKind } from "./api";
import { PromptForm } from "./PromptForm";

export default function NewPromptPage() {
	const params = useParams();
	const kind: PromptKind = isKind(params.kind) ? params.kind : "prompt";
	const navigate = useNavigate();
	return (
		<div className="mx-auto grid max-w-3xl grid-cols-1 gap-4 p-4 md:p-6">
			<Link to={kind === "prompt" ? "/prompts" : `/prompts?kind=${kind}`} className="text-sm text-blue-700 underline">
				Back to the prompts
			</Link>
			<PromptForm
				kind={kind}
				initial={emptyPrompt(kind)}
				onSaved={(saved) => navigate(`/prompts/${kind}/${encodeURIComponent(saved.name)}`, { replace: true, state: { savedVersion: saved.version } })}
			/>
		</div>
	);
}
