import { useQuery } from "@tanstack/react-query";
import { call } from "./api";
import { boot, type Me } from "./boot";

/** The signed-in user and what they may do, asked once (the page usually brings it along). */
export function useMe() {
	return useQuery({
		queryKey: ["me"],
		queryFn: () => call<Me>("huf.permissions.get_me"),
		...(boot.me ? { initialData: boot.me } : {}),
		staleTime: Infinity,
	});
}
