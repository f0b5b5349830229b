import { lazy, Suspense, type ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router";
import { areasFor } from "./components/areas";
import { Layout } from "./components/Layout";
import { ErrorNote, Loading } from "./components/ui/status";
import { ChatPage } from "./features/chat/ChatPage";
import { ApiError } from "./lib/api";
import type { Capabilities } from "./lib/boot";
import { useMe } from "./lib/me";

// Chat is the first screen most people see, so it ships with the first load; the rest load on demand.
const AgentsPage = lazy(() => import("./features/agents/AgentsPage"));
const AgentEditor = lazy(() => import("./features/agents/AgentEditor"));
const ProvidersPage = lazy(() => import("./features/providers/ProvidersPage"));
const RunsPage = lazy(() => import("./features/runs/RunsPage"));
const RunPage = lazy(() => import("./features/runs/RunPage"));
const KnowledgePage = lazy(() => import("./features/knowledge/KnowledgePage"));
const SourcePage = lazy(() => import("./features/knowledge/SourcePage"));
const ToolsPage = lazy(() => import("./features/tools/ToolsPage"));
const ToolEditor = lazy(() => import("./features/tools/ToolEditor"));
const McpServerPage = lazy(() => import("./features/tools/McpServerPage"));
const FlowsPage = lazy(() => import("./features/flows/FlowsPage"));
const FlowPage = lazy(() => import("./features/flows/FlowPage"));
const FlowRunPage = lazy(() => import("./features/flows/FlowRunPage"));
const ApprovalsPage = lazy(() => import("./features/flows/ApprovalsPage"));
const PromptsPage = lazy(() => import("./features/prompts/PromptsPage"));
const PromptPage = lazy(() => import("./features/prompts/PromptPage"));
const NewPromptPage = lazy(() => import("./features/prompts/NewPromptPage"));
const TablesPage = lazy(() => import("./features/tables/TablesPage"));
const TablePage = lazy(() => import("./features/tables/TablePage"));
const SettingsPage = lazy(() => import("./features/settings/SettingsPage"));
const IntegrationsPage = lazy(() => import("./features/integrations/IntegrationsPage"));

function Allowed({ when, children }: { when: boolean; children: ReactNode }) {
	if (!when) return <ErrorNote error="You don't have access to this part of Huf. Ask an administrator if you need it." />;
	return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/** The first area this person may use: chat for most, something else for those who can't chat. */
function Home({ capabilities }: { capabilities: Capabilities }) {
	const first = areasFor(capabilities)[0];
	if (!first) return <ErrorNote error="Your account has no Huf role yet. Ask an administrator to give you one." />;
	return <Navigate to={first.to} replace />;
}

export function App() {
	const me = useMe();
	if (me.isPending) return <Loading label="Starting Huf…" />;
	const signedOut = me.isError ? me.error instanceof ApiError && me.error.status === 403 : me.data.user === "Guest";
	if (signedOut) {
		return (
			<main className="mx-auto mt-16 grid max-w-md gap-3 p-6 text-center">
				<h1 className="text-lg font-semibold">Sign in to use Huf</h1>
				<a className="text-blue-700 underline" href={`/login?redirect-to=${encodeURIComponent(window.location.pathname)}`}>
					Sign in
				</a>
			</main>
		);
	}
	if (me.isError) return <ErrorNote error={me.error} />;
	const can = me.data.capabilities;
	return (
		<Routes>
			<Route element={<Layout me={me.data} />}>
				<Route index element={<Home capabilities={can} />} />
				<Route path="chat/:agent?/:conversation?" element={<Allowed when={can["agent.run"]}><ChatPage /></Allowed>} />
				<Route path="agents" element={<Allowed when={can["agent.read"]}><AgentsPage /></Allowed>} />
				<Route path="agents/new" element={<Allowed when={can["agent.write"]}><AgentEditor /></Allowed>} />
				<Route path="agents/:name" element={<Allowed when={can["agent.read"]}><AgentEditor /></Allowed>} />
				<Route path="providers" element={<Allowed when={can["provider.write"]}><ProvidersPage /></Allowed>} />
				<Route path="runs" element={<Allowed when={can["run.read"]}><RunsPage /></Allowed>} />
				<Route path="runs/:name" element={<Allowed when={can["run.read"]}><RunPage /></Allowed>} />
				<Route path="knowledge" element={<Allowed when={can["knowledge.read"]}><KnowledgePage /></Allowed>} />
				<Route path="knowledge/:source" element={<Allowed when={can["knowledge.read"]}><SourcePage /></Allowed>} />
				<Route path="tools" element={<Allowed when={can["tool.read"]}><ToolsPage /></Allowed>} />
				<Route path="tools/new" element={<Allowed when={can["tool.write"]}><ToolEditor /></Allowed>} />
				<Route path="tools/:name" element={<Allowed when={can["tool.read"]}><ToolEditor /></Allowed>} />
				<Route path="tools/servers/:name" element={<Allowed when={can["tool.mcp.write"]}><McpServerPage /></Allowed>} />
				<Route path="flows" element={<Allowed when={can["flow.read"]}><FlowsPage /></Allowed>} />
				<Route path="flows/approvals" element={<Allowed when={can["flow.run"]}><ApprovalsPage /></Allowed>} />
				<Route path="flows/runs/:run" element={<Allowed when={can["flow.read"]}><FlowRunPage /></Allowed>} />
				<Route path="flows/:flowId" element={<Allowed when={can["flow.read"]}><FlowPage /></Allowed>} />
				<Route path="prompts" element={<Allowed when={can["prompt.read"]}><PromptsPage /></Allowed>} />
				<Route path="prompts/:kind/new" element={<Allowed when={can["prompt.write"]}><NewPromptPage /></Allowed>} />
				<Route path="prompts/:kind/:name" element={<Allowed when={can["prompt.read"]}><PromptPage /></Allowed>} />
				<Route path="tables" element={<Allowed when={can["table.read"]}><TablesPage /></Allowed>} />
				<Route path="tables/:name" element={<Allowed when={can["table.read"]}><TablePage /></Allowed>} />
				<Route path="integrations" element={<Allowed when={can["integration.write"]}><IntegrationsPage /></Allowed>} />
				<Route path="settings/:part?" element={<Allowed when={can["settings.write"]}><SettingsPage /></Allowed>} />
				<Route path="*" element={<ErrorNote error="There is no page at this address." />} />
			</Route>
		</Routes>
	);
}
