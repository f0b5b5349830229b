import { BookOpen, Bot, History, MessageSquare, Plug, Workflow, Wrench } from "lucide-react";
import { NavLink, Outlet } from "react-router";
import type { Me } from "../lib/boot";
import { cn } from "../lib/cn";

// One entry per area; later areas (connections) join this list.
const AREAS = [
	{ to: "/chat", label: "Chat", icon: MessageSquare, show: () => true },
	{ to: "/agents", label: "Agents", icon: Bot, show: (me: Me) => me.capabilities["agent.manage"] },
	{ to: "/tools", label: "Tools", icon: Wrench, show: (me: Me) => me.capabilities["agent.run"] },
	{ to: "/flows", label: "Flows", icon: Workflow, show: (me: Me) => me.capabilities["agent.run"] },
	{ to: "/knowledge", label: "Knowledge", icon: BookOpen, show: (me: Me) => me.capabilities["knowledge.view"] },
	{ to: "/providers", label: "Providers", icon: Plug, show: (me: Me) => me.capabilities["provider.manage"] },
	{ to: "/runs", label: "Runs", icon: History, show: (me: Me) => me.capabilities["agent.run"] },
];

export function Layout({ me }: { me: Me }) {
	return (
		<div className="flex min-h-screen flex-col md:flex-row">
			<nav aria-label="Main" className="flex shrink-0 items-center gap-1 overflow-x-auto border-b border-slate-200 bg-white px-2 py-2 md:w-52 md:flex-col md:items-stretch md:border-b-0 md:border-r md:px-3 md:py-4">
				<span className="px-2 text-lg font-bold text-slate-900 md:mb-4">Huf</span>
				{AREAS.filter((area) => area.show(me)).map(({ to, label, icon: Icon }) => (
					<NavLink
						key={to}
						to={to}
						className={({ isActive }) =>
							cn("flex items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500", isActive && "bg-blue-50 text-blue-700")
						}
					>
						<Icon className="h-4 w-4" aria-hidden />
						{label}
					</NavLink>
				))}
				<span className="ml-auto truncate px-2 text-xs text-slate-500 md:ml-0 md:mt-auto" title={me.user}>
					{me.full_name}
				</span>
			</nav>
			<main className="min-w-0 flex-1">
				<Outlet />
			</main>
		</div>
	);
}
