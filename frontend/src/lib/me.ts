import { useQuery } from "@tanstack/react-query";
import { call } from "./api";
import { boot, type Capability, type Me } from "./boot";

/** The signed-in user and what they may do, asked once (the page usually brings it along). */
export function useMe() {
	return useQuery({
		queryKey: ["me"],
		queryFn: () => call<Me>("huf.permissions.get_me"),
		...(boot.me ? { initialData: boot.me } : {}),
		staleTime: Infinity,
	});
}

/** Whether the signed-in person holds a capability (false until it is known). */
export function holds(me: Me | undefined, capability: Capability): boolean {
	return Boolean(me?.capabilities[capability]);
}

/** `can("agent.write")`: what the page may offer this person. The server checks again. */
export function useCan(): (capability: Capability) => boolean {
	const me = useMe().data;
	return (capability) => holds(me, capability);
}
