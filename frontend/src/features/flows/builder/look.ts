// What the canvas's steps and connections read besides their own data: the problems found in each
// step and, when a run is shown, the run laid over the flow, or the assistant's proposal; and what a
// way out's "+" does.
import { createContext } from "react";
import type { Overlay } from "./overlay";
import type { WayOut } from "./place";
import type { Mark } from "./proposal";

/** `marks`: while the assistant's proposal is shown, which steps it adds, changes or removes. */
export type Look = { problems: Record<string, number>; overlay: Overlay | null; marks?: Record<string, Mark> };

export const LookContext = createContext<Look>({ problems: {}, overlay: null });

/** What a way out's "+" calls: open the step picker for that way out. Null where steps cannot be
 * added (a run, a flow only looked at): no "+" is drawn. */
export const AddAfterContext = createContext<((from: WayOut) => void) | null>(null);
