import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { App } from "./App";
import { Crashed } from "./components/Crashed";
import "./index.css";

const queryClient = new QueryClient({
	defaultOptions: { queries: { staleTime: 15_000, retry: 1, refetchOnWindowFocus: true } },
});

// Deep links (/huf/agents/<name>) load directly: the site serves the same page for every /huf address.
const router = createBrowserRouter([{ path: "*", element: <App />, errorElement: <Crashed /> }], { basename: "/huf" });

const root = document.getElementById("root");
if (root) {
	createRoot(root).render(
		<StrictMode>
			<QueryClientProvider client={queryClient}>
				<RouterProvider router={router} />
			</QueryClientProvider>
		</StrictMode>,
	);
}
