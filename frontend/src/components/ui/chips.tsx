// Chosen names shown as small chips, each with a button that removes it.
import { X } from "lucide-react";

export function Chips({ label, values, onRemove }: { label: string; values: string[]; onRemove: (value: string) => void }) {
	return (
		<ul className="flex flex-wrap gap-1.5" aria-label={label}>
			{values.map((value) => (
				<li key={value} className="flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-3 pr-1 text-sm">
					{value}
					<button type="button" className="rounded-full p-0.5 hover:bg-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500" aria-label={`Remove ${value}`} onClick={() => onRemove(value)}>
						<X className="h-3.5 w-3.5" aria-hidden />
					</button>
				</li>
			))}
		</ul>
	);
}
