// "Ask for approval": who may decide (named people, or everyone with a role), what they read, and
// how long to wait (engine/flow/control.py human_approval; checks.py _approval).
import { Group, type KindProps } from "./kit";
import { Duration } from "./Duration";
import { PeoplePicker } from "./PeoplePicker";
import { TextSetting } from "./TextSetting";

const names = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

export function ApprovalFields({ node, config, variables, errorOf, set }: KindProps) {
	const kind = String(config.approval_type ?? "").toLowerCase();
	const byUser = kind === "user" || kind === "users";
	const byRole = kind === "role" || kind === "roles";
	return (
		<>
			<Group legend="Who approves" error={errorOf("approval_type")}>
				<label className="flex items-center gap-2 text-sm">
					<input type="radio" name={`${node.id}-approver`} className="h-4 w-4 accent-blue-600" checked={byUser} onChange={() => set({ approval_type: "user" })} />
					Particular people
				</label>
				<label className="flex items-center gap-2 text-sm">
					<input type="radio" name={`${node.id}-approver`} className="h-4 w-4 accent-blue-600" checked={byRole} onChange={() => set({ approval_type: "role" })} />
					Anyone with a role
				</label>
			</Group>
			{byUser ? <PeoplePicker label="People" doctype="User" values={names(config.users)} error={errorOf("users")} onChange={(users) => set({ users })} /> : null}
			{byRole ? <PeoplePicker label="Roles" doctype="Role" values={names(config.roles)} error={errorOf("roles")} onChange={(roles) => set({ roles })} /> : null}
			<TextSetting
				label="Message"
				hint={`What they read before deciding. Left empty, it says “Please approve: ${node.data.label || node.id}”.`}
				error={errorOf("message")}
				multiline
				value={config.message}
				onChange={(message) => set({ message })}
				insert={{ variables, form: "placeholder" }}
			/>
			<Duration
				label="Wait at most"
				hint="Leave empty to wait until someone decides. When time is up, the run takes the “No answer in time” way."
				error={errorOf("timeout_seconds")}
				value={config.timeout_seconds}
				onChange={(timeout_seconds) => set({ timeout_seconds })}
			/>
		</>
	);
}
