import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { subscribe } from "../../lib/realtime";

export type RunRow = {
	name: string;
	agent: string;
	user: string;
	status: string;
	channel: string | null;
	total_tokens: number;
	total_cost: number;
	duration_seconds: number | null;
	creation: string;
};

export const ACTIVE = ["Queued", "Started"];

/** Refresh run screens the moment the realtime server says a run moved on (polling covers the rest). */
export function useRunUpdates() {
	const queryClient = useQueryClient();
	useEffect(
		() =>
			subscribe(
				"agent_run_status",
				(data) => {
					void queryClient.invalidateQueries({ queryKey: ["runs"] });
					if (typeof data.run === "string") void queryClient.invalidateQueries({ queryKey: ["run", data.run] });
				},
				() => {
					void queryClient.invalidateQueries({ queryKey: ["runs"] });
					void queryClient.invalidateQueries({ queryKey: ["run"] });
				},
			),
		[queryClient],
	);
}

export function formatDuration(seconds: number | null | undefined): string {
	if (seconds == null) return "—";
	return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(1)} s`;
}
