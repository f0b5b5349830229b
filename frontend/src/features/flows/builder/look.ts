// What the canvas's steps and connections read besides their own data: the problems found in each
// step and, when a run is shown, the run laid over the flow.
import { createContext } from "react";
import type { Overlay } from "./overlay";

export type Look = { problems: Record<string, number>; overlay: Overlay | null };

export const LookContext = createContext<Look>({ problems: {}, overlay: null });
