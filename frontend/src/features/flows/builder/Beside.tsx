// What the builder shows beside the canvas: the settings of the one step or connection selected, or,
// when nothing is, the whole flow (its steps and its problems). It follows the graph at rest, so a
// step being dragged does not draw it again on every move.
import { ArrowLeft } from "lucide-react";
import { memo } from "react";
import { Button } from "../../../components/ui/button";
import { problemsFor, type Problem } from "./checks";
import { connect, removeLink, updateLink, updateStep, type Graph } from "./editor";
import { LinkSettings } from "./LinkSettings";
import { StepSettings } from "./StepSettings";
import { Summary, type StepLine } from "./Summary";

type Props = {
	graph: Graph;
	/** The flow's problems; null until the canvas is first drawn (the checks wait for it). */
	problems: Problem[] | null;
	lines: StepLine[];
	readOnly: boolean;
	change: (fn: (graph: Graph) => Graph) => void;
	deselect: () => void;
	pick: (id: string) => void;
};

export const Beside = memo(function Beside({ graph, problems, lines, readOnly, change, deselect, pick }: Props) {
	const selectedNodes = graph.nodes.filter((node) => node.selected);
	const selectedEdges = graph.edges.filter((edge) => edge.selected);
	const node = selectedNodes.length === 1 ? selectedNodes[0] : undefined;
	const edge = !selectedNodes.length && selectedEdges.length === 1 ? selectedEdges[0] : undefined;
	return (
		<>
			{node || edge ? (
				<Button variant="ghost" size="sm" className="mb-2" onClick={deselect}>
					<ArrowLeft className="h-4 w-4" aria-hidden />
					The whole flow
				</Button>
			) : null}
			{node ? (
				<StepSettings
					key={node.id}
					node={node}
					nodes={graph.nodes}
					edges={graph.edges}
					problems={problemsFor(problems ?? [], node.id)}
					readOnly={readOnly}
					onChange={(patch) => change((current) => updateStep(current, node.id, patch))}
					onConnect={(link) => change((current) => connect(current, link))}
					onDisconnect={(id) => change((current) => removeLink(current, id))}
				/>
			) : edge ? (
				<LinkSettings
					key={edge.id}
					edge={edge}
					nodes={graph.nodes}
					problems={(problems ?? []).filter((problem) => problem.edgeId === edge.id)}
					readOnly={readOnly}
					onChange={(patch) => change((current) => updateLink(current, edge.id, patch))}
					onRemove={() => change((current) => removeLink(current, edge.id))}
				/>
			) : problems ? (
				<Summary steps={lines} links={graph.edges.length} problems={problems} readOnly={readOnly} onPick={pick} />
			) : null}
		</>
	);
});
