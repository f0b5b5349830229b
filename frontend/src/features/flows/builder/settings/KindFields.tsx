// Which settings each kind of step has, and the settings (config keys) they show problems for:
// a problem for any other key is shown at the top of the panel so that none goes unseen.
import type { ComponentType } from "react";
import type { NodeType } from "../catalog";
import { AgentFields } from "./AgentFields";
import { ApprovalFields } from "./ApprovalFields";
import { HttpFields } from "./HttpFields";
import type { KindProps } from "./kit";
import { LoopFields } from "./LoopFields";
import { ConditionFields, EndFields, RouterFields } from "./SimpleFields";
import { ToolFields } from "./ToolFields";
import { TransformFields } from "./TransformFields";
import { TriggerNote, WebhookFields } from "./TriggerFields";

type KindFields = { Fields: ComponentType<KindProps>; keys: string[] };

export const KIND_FIELDS: Record<NodeType, KindFields> = {
	"trigger.webhook": { Fields: WebhookFields, keys: ["secret"] },
	"trigger.schedule": { Fields: TriggerNote, keys: [] },
	"trigger.doc-event": { Fields: TriggerNote, keys: [] },
	"agent.run": { Fields: AgentFields, keys: ["agent", "prompt", "output_format"] },
	"tool.call": { Fields: ToolFields, keys: ["tool", "arguments", "arguments.*"] },
	"router.llm": { Fields: RouterFields, keys: ["prompt", "model"] },
	"human.approval": { Fields: ApprovalFields, keys: ["approval_type", "users", "roles", "message", "timeout_seconds"] },
	http_request: { Fields: HttpFields, keys: ["method", "url", "headers", "body"] },
	condition: { Fields: ConditionFields, keys: ["expression"] },
	transform: { Fields: TransformFields, keys: ["mode", "mappings", "template", "key"] },
	loop: { Fields: LoopFields, keys: ["items", "item_var", "index_var", "max_iterations"] },
	end: { Fields: EndFields, keys: ["output"] },
};

/** The settings every kind shows: its name and those under "Advanced". */
export const COMMON_KEYS = ["label", "output_key", "retries", "backoff_seconds", "default"];

/** Whether a problem's key is one the step's fields show (a key ending in ".*" stands for all below it). */
export const isShown = (keys: string[], key: string) => keys.some((shown) => shown === key || (shown.endsWith(".*") && key.startsWith(shown.slice(0, -1))));
