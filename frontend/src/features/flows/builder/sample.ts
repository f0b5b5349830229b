// The values of the last test run, for the insert picker's previews and an expression's computed
// value as you type: the run's flow data (what expressions read: trigger, nodes, kept values).
import { createContext } from "react";

export type Sample = { context: Record<string, unknown> } | null;

export const SampleContext = createContext<Sample>(null);
