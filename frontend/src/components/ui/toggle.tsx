import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

/** One of a few choices, shown pressed when it is the chosen one (`aria-pressed`). The caller sizes it. */
export function ToggleButton({ pressed, className, ...props }: Omit<ComponentProps<"button">, "type" | "aria-pressed"> & { pressed: boolean }) {
	return (
		<button
			type="button"
			aria-pressed={pressed}
			className={cn(
				"rounded-md border font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500",
				pressed ? "border-blue-600 bg-blue-50 text-blue-800" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
				className,
			)}
			{...props}
		/>
	);
}
