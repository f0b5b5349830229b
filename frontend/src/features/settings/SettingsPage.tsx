import type { ComponentType } from "react";
import { NavLink, useParams } from "react-router";
import { ErrorNote } from "../../components/ui/status";
import type { Capability } from "../../lib/boot";
import { cn } from "../../lib/cn";
import { useCan } from "../../lib/me";
import { ContentPage } from "./ContentPage";
import { PeoplePage } from "./PeoplePage";
import { RolesPage } from "./RolesPage";

// The parts of Settings, each at its own address. The prompt library keeps its own pages.
const PARTS: { to: string; label: string; end?: boolean; needs?: Capability }[] = [
	{ to: "/settings", label: "People and roles", end: true },
	{ to: "/settings/roles", label: "Roles" },
	{ to: "/prompts", label: "Prompt library", needs: "prompt.read" },
	{ to: "/settings/content", label: "Content from apps" },
];

const PAGES: Record<string, ComponentType> = { people: PeoplePage, roles: RolesPage, content: ContentPage };

export default function SettingsPage() {
	const { part = "people" } = useParams();
	const Page = PAGES[part];
	const can = useCan();
	return (
		<div className="mx-auto grid max-w-5xl grid-cols-1 gap-4 p-4 md:p-6">
			<header className="grid gap-3">
				<div>
					<h1 className="text-xl font-semibold">Settings</h1>
					<p className="text-sm text-slate-600">Who may do what in Huf, and what installed apps brought along.</p>
				</div>
				<nav aria-label="Settings" className="flex flex-wrap gap-2">
					{PARTS.filter((item) => !item.needs || can(item.needs)).map((item) => (
						<NavLink
							key={item.to}
							to={item.to}
							end={item.end ?? false}
							className={({ isActive }) =>
								cn(
									"rounded-md border px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500",
									isActive ? "border-blue-600 bg-blue-50 text-blue-800" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
								)
							}
						>
							{item.label}
						</NavLink>
					))}
				</nav>
			</header>
			{Page ? <Page /> : <ErrorNote error="There is no such part of Settings." />}
		</div>
	);
}
