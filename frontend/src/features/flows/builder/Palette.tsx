// The steps a flow can be built from, grouped as triggers, actions and utilities. Drag one onto the
// canvas, or press Enter (or click) to add it in the middle of the view.
import { GROUPS, KINDS, type NodeType } from "./catalog";
import { ICONS } from "./StepCard";

export const DRAG_TYPE = "application/x-huf-step";

export function Palette({ onAdd }: { onAdd: (type: NodeType) => void }) {
	return (
		<nav aria-label="Steps you can add" className="grid content-start gap-3 overflow-y-auto p-3">
			<p className="text-xs text-slate-600">Drag a step onto the canvas, or select it and press Enter.</p>
			{GROUPS.map((group) => (
				<section key={group} aria-labelledby={`palette-${group}`} className="grid gap-1">
					<h3 id={`palette-${group}`} className="text-xs font-semibold uppercase tracking-wide text-slate-600">
						{group}
					</h3>
					<ul className="grid gap-1">
						{KINDS.filter((kind) => kind.group === group).map((kind) => {
							const Icon = ICONS[kind.icon];
							return (
								<li key={kind.type}>
									<button
										type="button"
										draggable
										data-testid={`palette-${kind.type}`}
										onDragStart={(event) => {
											event.dataTransfer.setData(DRAG_TYPE, kind.type);
											event.dataTransfer.effectAllowed = "copy";
										}}
										onClick={() => onAdd(kind.type)}
										className="flex w-full cursor-grab items-start gap-2 rounded-md border border-slate-200 bg-white p-2 text-left hover:border-blue-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
									>
										<Icon className="mt-0.5 h-4 w-4 shrink-0 text-slate-600" aria-hidden />
										<span className="grid">
											<span className="text-sm font-medium text-slate-900">
												<span className="sr-only">Add step: </span>
												{kind.title}
											</span>
											<span className="text-xs text-slate-600">{kind.description}</span>
										</span>
									</button>
								</li>
							);
						})}
					</ul>
				</section>
			))}
		</nav>
	);
}
