// What the canvas's steps and connections read besides their own data: the problems found in each
// step and, when a run is shown, the run laid over the flow; and what a way out's "+" does.
import { createContext } from "react";
import type { Overlay } from "./overlay";
import type { WayOut } from "./place";

export type Look = { problems: Record<string, number>; overlay: Overlay | null };

export const LookContext = createContext<Look>({ problems: {}, overlay: null });

/** What a way out's "+" calls: open the step picker for that way out. Null where steps cannot be
 * added (a run, a flow only looked at): no "+" is drawn. */
export const AddAfterContext = createContext<((from: WayOut) => void) | null>(null);
