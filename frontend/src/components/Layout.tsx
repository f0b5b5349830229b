import { ExternalLink, LogOut } from "lucide-react";
import { NavLink, Outlet } from "react-router";
import { useWaitingForMe } from "../features/flows/waiting";
import { call } from "../lib/api";
import type { Me } from "../lib/boot";
import { cn } from "../lib/cn";
import { areasFor, changesAnything } from "./areas";

const ITEM = "flex shrink-0 items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500";

async function signOut() {
	await call("logout", {}, true).catch(() => undefined); // signed out already: the sign-in page is still right
	window.location.assign("/login");
}

export function Layout({ me }: { me: Me }) {
	return (
		<div className="flex min-h-screen flex-col md:flex-row">
			<nav aria-label="Main" className="relative flex shrink-0 items-center gap-1 overflow-x-auto border-b border-slate-200 bg-white px-2 py-2 md:w-52 md:flex-col md:items-stretch md:border-b-0 md:border-r md:px-3 md:py-4">
				<span className="px-2 text-lg font-bold text-slate-900 md:mb-4">Huf</span>
				{areasFor(me.capabilities).map(({ to, label, icon: Icon, end, waiting }) => (
					<NavLink key={to} to={to} end={end} className={({ isActive }) => cn(ITEM, isActive && "bg-blue-50 text-blue-700")}>
						<Icon className="h-4 w-4" aria-hidden />
						{label}
						{waiting ? <WaitingCount /> : null}
					</NavLink>
				))}
				<div className="ml-auto flex shrink-0 items-center gap-1 md:ml-0 md:mt-auto md:flex-col md:items-stretch">
					{changesAnything(me.capabilities) ? (
						<a href="/app" className={ITEM} target="_blank" rel="noreferrer">
							<ExternalLink className="h-4 w-4" aria-hidden />
							Open the admin screens
						</a>
					) : null}
					<span className="truncate px-2 text-xs text-slate-600" title={me.user}>
						{me.full_name}
					</span>
					<button type="button" className={ITEM} onClick={() => void signOut()}>
						<LogOut className="h-4 w-4" aria-hidden />
						Sign out
					</button>
				</div>
			</nav>
			<main className="min-w-0 flex-1">
				<Outlet />
			</main>
		</div>
	);
}

/** How many runs wait for this person's decision; nothing when none do. */
function WaitingCount() {
	const { toApprove, toResolve } = useWaitingForMe();
	const count = toApprove.length + toResolve.length;
	if (!count) return null;
	return (
		<span className="ml-auto rounded-full bg-blue-700 px-1.5 text-xs font-semibold text-white" data-testid="waiting-count">
			{count}
			<span className="sr-only"> waiting</span>
		</span>
	);
}
