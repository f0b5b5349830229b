// The step picker a way out's "+" opens: type to narrow the kinds of step, move with the arrow
// keys, Enter (or a click) adds the step after that way out, connected to it.
import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { Dialog } from "../../../components/ui/dialog";
import { cn } from "../../../lib/cn";
import type { NodeType } from "./catalog";
import { findKinds } from "./place";
import { ICONS } from "./StepCard";

type Props = { after: string; onPick: (type: NodeType) => void; onClose: () => void };

export function StepPicker({ after, onPick, onClose }: Props) {
	const [query, setQuery] = useState("");
	const [active, setActive] = useState(0);
	const kinds = useMemo(() => findKinds(query), [query]);
	const list = useId();
	const current = kinds[Math.min(active, kinds.length - 1)];
	const onKeyDown = (event: KeyboardEvent) => {
		const move = (by: number) => {
			event.preventDefault();
			setActive((index) => (kinds.length ? (Math.min(index, kinds.length - 1) + by + kinds.length) % kinds.length : 0));
		};
		if (event.key === "ArrowDown") move(1);
		else if (event.key === "ArrowUp") move(-1);
		else if (event.key === "Enter" && current) {
			event.preventDefault();
			onPick(current.type);
		}
	};
	return (
		<Dialog open onOpenChange={(open) => (open ? null : onClose())} title={`Add a step after ${after}`} description="The new step is placed after it and connected to it.">
			<div className="grid gap-2">
				<input
					role="combobox"
					aria-label="Find a step"
					aria-expanded
					aria-controls={list}
					aria-autocomplete="list"
					aria-activedescendant={current ? `${list}-${current.type}` : undefined}
					autoFocus
					value={query}
					placeholder="Find a step, e.g. agent or condition"
					onChange={(event) => {
						setQuery(event.target.value);
						setActive(0);
					}}
					onKeyDown={onKeyDown}
					className="h-9 w-full rounded-md border border-slate-300 px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
				/>
				<ul id={list} role="listbox" aria-label="Steps" className="grid max-h-80 gap-1 overflow-y-auto">
					{kinds.map((kind) => {
						const Icon = ICONS[kind.icon];
						return (
							<li
								key={kind.type}
								id={`${list}-${kind.type}`}
								role="option"
								aria-selected={kind === current}
								data-testid={`pick-${kind.type}`}
								onMouseDown={(event) => event.preventDefault()}
								onClick={() => onPick(kind.type)}
								className={cn("flex cursor-pointer items-start gap-2 rounded-md border p-2", kind === current ? "border-blue-600 bg-blue-50" : "border-slate-200 hover:border-blue-400")}
							>
								<Icon className="mt-0.5 h-4 w-4 shrink-0 text-slate-700" aria-hidden />
								<span className="grid">
									<span className="text-sm font-medium text-slate-900">{kind.title}</span>
									<span className="text-xs text-slate-600">{kind.description}</span>
								</span>
							</li>
						);
					})}
				</ul>
				{kinds.length ? null : <p className="text-sm text-slate-600">No step matches “{query}”.</p>}
			</div>
		</Dialog>
	);
}
