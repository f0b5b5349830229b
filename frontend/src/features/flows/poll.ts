// How often a screen reads a flow run again by the clock. Live updates (lib/realtime.ts) usually
// bring each step the moment it happens. A run that moves is read often at first all the same: a
// test run is often done within a second, sooner than a page that has just started listening is
// connected to the realtime server, so its events may come before anyone listens. After that, with
// live updates every 2 s; without them (no realtime server, or it cannot be reached) every second
// for half a minute, then every 2 s.
import { RUN_ACTIVE, RUN_DECIDING } from "./rules";

/** Reads of a moving run at this pace first: about 4 s of them. */
const QUICK = { every: 250, reads: 16 };
/** Then once a second without live updates, for about half a minute more. */
const STEADY = { every: 1000, reads: 46 };
/** A run that moves, read with live updates, or after the first half minute. */
const MOVING = 2000;
/** A run waiting for someone's decision, which may come from elsewhere. */
const DECIDING = 10_000;

/** Milliseconds until the next read of a run in ``status`` that has been read ``reads`` times, or
 * false for a run that is over. */
export function pollEvery(status: string | undefined, reads: number, live: boolean): number | false {
	if (!status) return false;
	if (RUN_DECIDING.includes(status)) return DECIDING;
	if (!RUN_ACTIVE.includes(status)) return false;
	if (reads < QUICK.reads) return QUICK.every;
	return !live && reads < STEADY.reads ? STEADY.every : MOVING;
}
