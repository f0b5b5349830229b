import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// `npm run dev` serves the app at http://localhost:5173/huf/ and sends everything else to a bench
// (HUF_BENCH_URL, default http://127.0.0.1:8000). The build lands where the site serves it from.
const bench = process.env.HUF_BENCH_URL ?? "http://127.0.0.1:8000";

export default defineConfig(({ command }) => ({
	base: command === "build" ? "/assets/huf/frontend/" : "/huf/",
	plugins: [react(), tailwindcss()],
	build: {
		outDir: "../huf/public/frontend",
		emptyOutDir: true,
		manifest: true,
		target: "es2022",
		chunkSizeWarningLimit: 600, // the first screen's budget is checked by benchmarks/spa_bundle_size.mjs
	},
	server: {
		proxy: Object.fromEntries(["/api", "/assets", "/huf/stream", "/login", "/socket.io"].map((path) => [path, { target: bench, changeOrigin: true, ws: path === "/socket.io" }])),
	},
	test: {
		environment: "jsdom",
		include: ["src/**/*.test.{ts,tsx}"],
	},
}));
