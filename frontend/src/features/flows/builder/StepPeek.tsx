// Under a step on a run's canvas: what went into it and what came out, in one line each, as the run
// goes (read from the run overlay; the step's details beside the canvas show them whole).
import { useContext } from "react";
import { LookContext } from "./look";

const MAX = 80;

/** A value in one short line: text as it is, anything else as JSON, cut at MAX characters. */
export function brief(value: unknown): string {
	const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}

export function StepPeek({ id }: { id: string }) {
	const io = useContext(LookContext).overlay?.io[id];
	if (!io) return null;
	return (
		<dl data-testid="step-peek" className="pointer-events-none absolute left-0 top-full z-10 mt-[4px] grid w-full gap-[2px] rounded border border-slate-200 bg-white/95 px-[6px] py-[4px] text-[11px] leading-[14px] text-slate-700 shadow-sm">
			<div className="flex min-w-0 gap-[4px]">
				<dt className="shrink-0 font-medium text-slate-500">In:</dt>
				<dd className="truncate font-mono" data-testid="peek-in">{brief(io.input)}</dd>
			</div>
			{io.output !== null ? (
				<div className="flex min-w-0 gap-[4px]">
					<dt className="shrink-0 font-medium text-slate-500">Out:</dt>
					<dd className="truncate font-mono" data-testid="peek-out">{brief(io.output)}</dd>
				</div>
			) : null}
		</dl>
	);
}
