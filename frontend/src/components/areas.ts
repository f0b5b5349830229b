// The web app's areas, each shown to those holding the capability it needs. App.tsx guards the
// same addresses; the server checks every call again.
import { BookOpen, Bot, FileText, History, Inbox, MessageSquare, Plug, Send, Settings, Table2, Workflow, Wrench, type LucideIcon } from "lucide-react";
import type { Capabilities, Capability } from "../lib/boot";

type Area = { to: string; label: string; icon: LucideIcon; needs: Capability; end?: boolean; waiting?: boolean };

const AREAS: Area[] = [
	{ to: "/chat", label: "Chat", icon: MessageSquare, needs: "agent.run" },
	{ to: "/agents", label: "Agents", icon: Bot, needs: "agent.read" },
	{ to: "/tools", label: "Tools", icon: Wrench, needs: "tool.read" },
	{ to: "/flows", label: "Flows", icon: Workflow, needs: "flow.read", end: true },
	{ to: "/flows/approvals", label: "Waiting for me", icon: Inbox, needs: "flow.run", waiting: true },
	{ to: "/prompts", label: "Prompts", icon: FileText, needs: "prompt.read" },
	{ to: "/knowledge", label: "Knowledge", icon: BookOpen, needs: "knowledge.read" },
	{ to: "/tables", label: "Tables", icon: Table2, needs: "table.read" },
	{ to: "/providers", label: "Providers", icon: Plug, needs: "provider.write" },
	{ to: "/runs", label: "Runs", icon: History, needs: "run.read" },
	{ to: "/integrations", label: "Integrations", icon: Send, needs: "integration.write" },
	{ to: "/settings", label: "Settings", icon: Settings, needs: "settings.write" },
];

export function areasFor(capabilities: Capabilities): Area[] {
	return AREAS.filter((area) => capabilities[area.needs]);
}

/** Whether the person may change anything at all (then the admin screens are worth a link). */
export function changesAnything(capabilities: Capabilities): boolean {
	return Object.entries(capabilities).some(([name, held]) => held && name.endsWith(".write"));
}
