import { lazy, Suspense, type ReactNode } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Layout } from "./components/Layout";
import { ErrorNote, Loading } from "./components/ui/status";
import { ChatPage } from "./features/chat/ChatPage";
import { ApiError } from "./lib/api";
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

function Allowed({ when, children }: { when: boolean; children: ReactNode }) {
	if (!when) return <ErrorNote error="You don't have access to this part of Huf. Ask an administrator if you need it." />;
	return <Suspense fallback={<Loading />}>{children}</Suspense>;
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
				<Route index element={<Navigate to="/chat" replace />} />
				<Route path="chat/:agent?/:conversation?" element={<ChatPage />} />
				<Route path="agents" element={<Allowed when={can["agent.manage"]}><AgentsPage /></Allowed>} />
				<Route path="agents/:name" element={<Allowed when={can["agent.manage"]}><AgentEditor /></Allowed>} />
				<Route path="providers" element={<Allowed when={can["provider.manage"]}><ProvidersPage /></Allowed>} />
				<Route path="runs" element={<Allowed when={can["agent.run"]}><RunsPage /></Allowed>} />
				<Route path="runs/:name" element={<Allowed when={can["agent.run"]}><RunPage /></Allowed>} />
				<Route path="knowledge" element={<Allowed when={can["knowledge.view"]}><KnowledgePage /></Allowed>} />
				<Route path="knowledge/:source" element={<Allowed when={can["knowledge.view"]}><SourcePage /></Allowed>} />
				<Route path="tools" element={<Allowed when={can["agent.run"]}><ToolsPage /></Allowed>} />
				<Route path="tools/new" element={<Allowed when={me.data.is_manager}><ToolEditor /></Allowed>} />
				<Route path="tools/:name" element={<Allowed when={can["agent.run"]}><ToolEditor /></Allowed>} />
				<Route path="tools/servers/:name" element={<Allowed when={me.data.is_manager}><McpServerPage /></Allowed>} />
				<Route path="flows" element={<Allowed when={can["agent.run"]}><FlowsPage /></Allowed>} />
				<Route path="flows/approvals" element={<Allowed when={can["agent.run"]}><ApprovalsPage /></Allowed>} />
				<Route path="flows/runs/:run" element={<Allowed when={can["agent.run"]}><FlowRunPage /></Allowed>} />
				<Route path="flows/:flowId" element={<Allowed when={can["agent.run"]}><FlowPage /></Allowed>} />
				<Route path="prompts" element={<Allowed when={can["agent.run"]}><PromptsPage /></Allowed>} />
				<Route path="prompts/:kind/new" element={<Allowed when={me.data.is_manager}><NewPromptPage /></Allowed>} />
				<Route path="prompts/:kind/:name" element={<Allowed when={can["agent.run"]}><PromptPage /></Allowed>} />
				<Route path="*" element={<ErrorNote error="There is no page at this address." />} />
			</Route>
		</Routes>
	);
}
