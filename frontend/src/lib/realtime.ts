// Live run updates from the site's realtime server (socket.io). The server tells only the run's
// owner. Loaded on first use; when the realtime server can't be reached, screens fall back to polling.
import { boot } from "./boot";

type Listener = (data: Record<string, unknown>) => void;
type Socket = {
	on: (event: string, listener: Listener | (() => void)) => void;
	off: (event: string, listener: Listener | (() => void)) => void;
	emit: (event: string, ...args: string[]) => void;
	connected: boolean;
};

let socket: Promise<Socket | null> | null = null;
let opened: Socket | null = null;

function address(): string {
	const { protocol, hostname, origin } = window.location;
	return boot.socketio_port ? `${protocol}//${hostname}:${boot.socketio_port}` : origin;
}

function connect(): Promise<Socket | null> {
	socket ??= import("socket.io-client")
		.then(({ io }) => (opened = io(`${address()}/${boot.site_name ?? window.location.hostname}`, { withCredentials: true, reconnectionAttempts: 3 }) as unknown as Socket))
		.catch(() => null);
	return socket;
}

/** Whether live updates reach this page now (the realtime server is connected). */
export const live = (): boolean => opened?.connected === true;

/** Calls ``listener`` on each ``event``; returns the unsubscribe function. ``missed``, if given, is
 * called each time the connection is made or made again: the server lets a page listen only once it
 * has checked who is signed in, so what it sent before then never arrives, and the screen reads
 * again what it shows. */
export function subscribe(event: string, listener: Listener, missed?: () => void): () => void {
	let active = true;
	void connect().then((s) => {
		if (!active || !s) return;
		s.on(event, listener);
		if (missed) s.on("connect", missed);
	});
	return () => {
		active = false;
		void connect().then((s) => {
			s?.off(event, listener);
			if (missed) s?.off("connect", missed);
		});
	};
}


/** Like ``subscribe``, for events the server sends to the people looking at one record (the server
 * checks that this person may read it before letting them listen). */
export function subscribeDoc(doctype: string, name: string, event: string, listener: Listener): () => void {
	let active = true;
	void connect().then((s) => {
		if (!active || !s) return;
		s.emit("doc_subscribe", doctype, name);
		s.on(event, listener);
	});
	return () => {
		active = false;
		void connect().then((s) => {
			s?.off(event, listener);
			s?.emit("doc_unsubscribe", doctype, name);
		});
	};
}
