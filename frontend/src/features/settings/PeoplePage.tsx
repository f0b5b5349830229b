import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Search } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../components/ui/button";
import { Input, Select } from "../../components/ui/field";
import { Done, Empty, ErrorNote, Loading } from "../../components/ui/status";
import { assignRole, removeRole, usePeople, useRoles, type HufRole, type Person } from "./api";

const SHOWN_AT_MOST = 500; // huf/ai/people.py PEOPLE_LIMIT

/** Who holds which Huf role, with a way to give one and take one away. */
export function PeoplePage() {
	const [typed, setTyped] = useState("");
	const [search, setSearch] = useState("");
	useEffect(() => {
		const timer = setTimeout(() => setSearch(typed.trim()), 250);
		return () => clearTimeout(timer);
	}, [typed]);
	const people = usePeople(search);
	const roles = useRoles();
	return (
		<section aria-labelledby="people-heading" className="grid gap-3">
			<div>
				<h2 id="people-heading" className="text-base font-semibold">People and roles</h2>
				<p className="text-sm text-slate-600">
					Each person has one Huf role, which decides what they may do. Giving someone another role turns their previous one off. Huf Gateway User, the
					account a chat channel answers as, is held beside it.
				</p>
			</div>
			<div className="relative">
				<Search className="absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" aria-hidden />
				<Input aria-label="Search people" placeholder="Search by name or email" className="pl-8" value={typed} onChange={(e) => setTyped(e.target.value)} />
			</div>
			{people.isPending || roles.isPending ? <Loading /> : null}
			{people.error ? <ErrorNote error={people.error} /> : roles.error ? <ErrorNote error={roles.error} /> : null}
			{people.data && roles.data ? (
				people.data.length ? (
					<>
						<ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="People">
							{people.data.map((person) => (
								<PersonRow key={person.name} person={person} roles={roles.data.roles} />
							))}
						</ul>
						{people.data.length >= SHOWN_AT_MOST ? <p className="text-sm text-slate-600">Only the first {SHOWN_AT_MOST} are shown. Search to find someone else.</p> : null}
					</>
				) : (
					<Empty title={search ? "Nobody matches" : "Nobody here yet"}>{search ? "Try another name or email." : "People appear here once they have an account on this site."}</Empty>
				)
			) : null}
		</section>
	);
}

function PersonRow({ person, roles }: { person: Person; roles: HufRole[] }) {
	const queryClient = useQueryClient();
	const who = person.full_name || person.name;
	const [chosen, setChosen] = useState("");
	const [done, setDone] = useState<string | null>(null);
	const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ["huf-people"] }), queryClient.invalidateQueries({ queryKey: ["huf-roles"] })]);
	// One change at a time per person; its error (the server's words) shows under the row.
	const change = useMutation({
		mutationFn: ({ give, role }: { give: boolean; role: string }) => (give ? assignRole(person.name, role) : removeRole(person.name, role)),
		onSuccess: async (_rows, { give, role }) => {
			if (give) setChosen("");
			setDone(give ? `${who} now has ${role}.` : `${role} was taken from ${who}.`);
			await refresh();
		},
		onError: () => setDone(null),
	});
	const held = person.roles.filter((row) => row.enabled).map((row) => row.huf_role);
	return (
		<li className="grid gap-2 px-4 py-3">
			<div className="flex flex-wrap items-baseline gap-x-2">
				<p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{who}</p>
				{person.full_name ? <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">{person.name}</p> : null}
			</div>
			{person.roles.length ? (
				<ul className="flex flex-wrap gap-2" aria-label={`Roles of ${who}`}>
					{person.roles.map((row) => (
						<li key={row.huf_role} className={row.enabled ? "flex items-center gap-1 rounded-full bg-blue-50 py-0.5 pl-3 pr-1 text-sm text-blue-900" : "rounded-full bg-slate-100 px-3 py-0.5 text-sm text-slate-600"}>
							{row.enabled ? (
								<>
									{row.huf_role}
									<Button variant="ghost" size="sm" className="h-6 px-2" disabled={change.isPending} aria-label={`Remove ${row.huf_role} from ${who}`} onClick={() => change.mutate({ give: false, role: row.huf_role })}>
										Remove
									</Button>
								</>
							) : (
								<>
									{row.huf_role} <span>(turned off)</span>
								</>
							)}
						</li>
					))}
				</ul>
			) : (
				<p className="text-sm text-slate-600">No Huf role: this person can't use Huf.</p>
			)}
			<form
				className="flex flex-wrap items-center gap-2"
				aria-label={`Give ${who} a role`}
				onSubmit={(event) => {
					event.preventDefault();
					if (chosen) change.mutate({ give: true, role: chosen });
				}}
			>
				<Select aria-label={`Role to give ${who}`} className="w-56" value={chosen} onChange={(e) => setChosen(e.target.value)}>
					<option value="">Choose a role…</option>
					{roles
						.filter((role) => !held.includes(role.name))
						.map((role) => (
							<option key={role.name} value={role.name}>
								{role.name}
							</option>
						))}
				</Select>
				<Button type="submit" variant="outline" size="sm" disabled={!chosen || change.isPending}>
					Give role
				</Button>
			</form>
			{change.error ? <ErrorNote error={change.error} /> : null}
			<Done text={done} />
		</li>
	);
}
