import { Download } from "lucide-react";
import type { MediaFile } from "./media";

const link = "inline-flex items-center gap-1 rounded text-xs text-blue-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500";

/** Images (click to open full size) and audio players, each with a Download link. */
export function Media({ files }: { files: MediaFile[] }) {
	if (!files.length) return null;
	return (
		<ul className="grid grid-cols-1 gap-3" aria-label="Files the agent made" data-testid="media">
			{files.map((file) => (
				<li key={file.url} className="grid max-w-md gap-1">
					{file.kind === "image" ? (
						<a href={file.url} target="_blank" rel="noopener noreferrer" className="block rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500" title="Open full size">
							<img src={file.url} alt={file.alt} loading="lazy" className="max-h-96 w-full rounded-md border border-slate-200 bg-white object-contain" />
						</a>
					) : (
						<audio controls preload="metadata" src={file.url} aria-label={file.alt} className="w-full">
							<a href={file.url}>{file.name}</a>
						</audio>
					)}
					<a href={file.url} download={file.name} className={link}>
						<Download className="h-3.5 w-3.5" aria-hidden />
						Download {file.name}
					</a>
				</li>
			))}
		</ul>
	);
}
