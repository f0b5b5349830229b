/**
 * Draws what a page test looks at, with what the app wraps every page in: a fresh query cache that
 * does not retry (and knows who is signed in before the page draws, when `me` is given) and a
 * router at `path`.
 *
 * `renderPage({ "/tables/:name": <TablePage /> }, { path: "/tables/Books" })` draws the element of
 * the route that matches (any other address draws "Elsewhere", so a test sees where a page went);
 * `renderPage(<ToolEditor />)` draws one element at `/`.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderResult } from "@testing-library/react";
import { isValidElement, type ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";

type Options = { path?: string; me?: unknown; client?: QueryClient };

const isRoutes = (page: ReactNode | Record<string, ReactNode>): page is Record<string, ReactNode> =>
	typeof page === "object" && page !== null && !isValidElement(page) && !(Symbol.iterator in page);

function testClient(): QueryClient {
	return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export function renderPage(page: ReactNode | Record<string, ReactNode>, { path = "/", me, client = testClient() }: Options = {}): RenderResult & { client: QueryClient } {
	if (me !== undefined) client.setQueryData(["me"], me);
	const routes = !isRoutes(page) ? (
		page
	) : (
		<Routes>
			{Object.entries(page).map(([route, element]) => (
				<Route key={route} path={route} element={element} />
			))}
			<Route path="*" element={<p>Elsewhere</p>} />
		</Routes>
	);
	const shown = render(
		<QueryClientProvider client={client}>
			<MemoryRouter initialEntries={[path]}>{routes}</MemoryRouter>
		</QueryClientProvider>,
	);
	return { ...shown, client };
}
