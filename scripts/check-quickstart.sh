#!/usr/bin/env bash
# Release check of the quick start (issue 38). Runs scripts/quickstart.sh twice into a throwaway bench
# (its own folder, site and ports; this machine's MariaDB and Redis binaries), times both runs, then
# checks that /huf serves the web app to a signed-in Administrator and that one agent run goes through
# the bench's own worker to a scripted OpenAI-compatible model (tests/support/scripted_llm.py).
# At the end, whatever happened: the bench's processes are stopped, its site dropped, its folder removed.
#
# It takes as long as a quick start on a new machine (15 to 20 minutes with 2 cores): a release
# check, not part of .ci/run.
#
# Usage: HUF_DB_ROOT_PASSWORD=... [HUF_FRAPPE_SOURCE=/path/to/frappe] bash scripts/check-quickstart.sh
#   HUF_DB_ROOT_PASSWORD  this machine's MariaDB root password (required: the check makes a site and drops it)
#   HUF_FRAPPE_SOURCE     a local Frappe 15 checkout (default: Frappe's public repository)
#   HUF_CHECK_KEEP=1      keep the throwaway bench (stopped) for a look afterwards
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${HUF_DB_ROOT_PASSWORD:?set HUF_DB_ROOT_PASSWORD to this machine\'s MariaDB root password (the check makes a site and drops it)}"

WORK=$(mktemp -d /tmp/huf-quickstart-check.XXXXXX)
SITE="qs-$(head -c 4 /dev/urandom | od -An -tx1 | tr -d ' \n').localhost"
export HUF_BENCH=$WORK/bench HUF_SITE=$SITE HUF_EXAMPLE=0
export HUF_ADMIN_PASSWORD
HUF_ADMIN_PASSWORD=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
# ports of their own, away from a bench on the default ones (quickstart.sh moves on from a taken one)
export HUF_WEB_PORT=18000 HUF_SOCKETIO_PORT=19000 HUF_REDIS_CACHE_PORT=23000 HUF_REDIS_QUEUE_PORT=21000
QS=$ROOT/scripts/quickstart.sh
LLM_PID=""

cleanup() {
	local code=$?
	echo "== cleaning up =="
	[ -n "$LLM_PID" ] && kill "$LLM_PID" 2>/dev/null
	bash "$QS" stop >/dev/null 2>&1 || true
	if [ "${HUF_CHECK_KEEP:-0}" = 1 ]; then
		echo "kept (stopped): $HUF_BENCH, site $SITE"
	else
		if [ -d "$HUF_BENCH/sites/$SITE" ]; then
			(cd "$HUF_BENCH/sites" && ../env/bin/python -m frappe.utils.bench_helper frappe drop-site "$SITE" \
				--db-root-password "$HUF_DB_ROOT_PASSWORD" --force --no-backup >/dev/null 2>&1) || echo "could not drop the site $SITE"
		fi
		rm -rf "$WORK"
	fi
	exit "$code"
}
trap cleanup EXIT

echo "== quick start, first run (into $HUF_BENCH, site $SITE) =="
start=$(date +%s)
bash "$QS" 2>&1 | tee "$WORK/first.log"
FIRST=$(($(date +%s) - start))
echo "== quick start, second run =="
start=$(date +%s)
bash "$QS" 2>&1 | tee "$WORK/second.log"
SECOND=$(($(date +%s) - start))

WEB=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["webserver_port"])' "$HUF_BENCH/sites/common_site_config.json")
BASE="http://127.0.0.1:$WEB"
JAR=$WORK/cookies
CSRF=""
# api CURL-ARGS...: the body of a request as the signed-in Administrator; anything but HTTP 200 stops the check, with the body shown
api() {
	local out code
	out=$(curl -s -b "$JAR" -c "$JAR" -H "Host: $SITE" -H "X-Frappe-CSRF-Token: $CSRF" -w '\n%{http_code}' "$@")
	code=${out##*$'\n'}
	out=${out%$'\n'*}
	[ "$code" = 200 ] || { echo "FAIL: HTTP $code for curl $*: $(head -c 800 <<<"$out")" >&2; return 1; }
	printf '%s' "$out"
}

echo "== /huf for a signed-in Administrator =="
api -X POST "$BASE/api/method/login" --data-urlencode usr=Administrator --data-urlencode "pwd=$HUF_ADMIN_PASSWORD" >/dev/null
page=$(api "$BASE/huf")
grep -q '/assets/huf/frontend/' <<<"$page" || { echo "FAIL: /huf did not load the built web app:"; head -c 600 <<<"$page"; exit 1; }
CSRF=$(sed -n 's/.*"csrf_token": "\([^"]*\)".*/\1/p' <<<"$page" | head -n1)  # the page's boot data; POSTs need it
echo "ok: /huf serves the web app"

echo "== one agent run through the bench's worker, to a scripted model =="
PORT_FILE=$WORK/llm-port
(cd "$ROOT" && exec "$HUF_BENCH/env/bin/python" - "$PORT_FILE" <<'EOF') &
import sys, time
from tests.support.scripted_llm import ScriptedLLM, text
llm = ScriptedLLM().start()
llm.respond_with(lambda body: text("Quick start check: the agent answered."))
open(sys.argv[1], "w").write(str(llm.base_url))
while True:
	time.sleep(60)
EOF
LLM_PID=$!
for _ in $(seq 50); do [ -s "$PORT_FILE" ] && break; sleep 0.2; done
LLM_BASE=$(cat "$PORT_FILE")
echo "scripted model at $LLM_BASE"

(cd "$HUF_BENCH/sites" && ../env/bin/python - "$SITE" "$LLM_BASE" <<'EOF')
import sys
import frappe
from frappe.installer import update_site_config

site, base = sys.argv[1:]
frappe.init(site=site, sites_path=".")
frappe.connect()
frappe.set_user("Administrator")
hosts = list(frappe.conf.get("huf_allowed_hosts") or [])
if "127.0.0.1" not in hosts:
	update_site_config("huf_allowed_hosts", [*hosts, "127.0.0.1"])  # the scripted model listens there
	frappe.conf.huf_allowed_hosts = [*hosts, "127.0.0.1"]
frappe.get_doc({"doctype": "AI Provider", "provider_name": "Scripted", "api_base": base, "api_key": "sk-check"}).insert()
frappe.get_doc({"doctype": "AI Model", "model_name": "scripted-model", "provider": "Scripted"}).insert()
frappe.get_doc(
	{
		"doctype": "Agent",
		"agent_name": "Quick Start Check",
		"provider": "Scripted",
		"model": "scripted-model",
		"instructions": "Answer briefly.",
		"persist_conversation": 1,
	}
).insert()
frappe.db.commit()
print("provider, model and agent made")
EOF

run=$(api -X POST "$BASE/api/method/huf.ai.agent.integration.run_agent_sync" \
	--data-urlencode "agent_name=Quick Start Check" --data-urlencode "prompt=Are you there?")
run_id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["message"]["run"])' "$run")
echo "queued run $run_id"
status=""
for _ in $(seq 120); do
	answer=$(api -G "$BASE/api/method/huf.ai.agent.integration.get_agent_run_status" --data-urlencode "run=$run_id")
	status=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["message"]["status"])' "$answer")
	case $status in Success | Failed | Cancelled) break ;; esac
	sleep 1
done
response=$(python3 -c 'import json,sys; m=json.loads(sys.argv[1])["message"]; print(m.get("response") or m.get("error"))' "$answer")
if [ "$status" != Success ] || [ "$response" != "Quick start check: the agent answered." ]; then
	echo "FAIL: the run is '$status': $response"
	exit 1
fi
echo "ok: the run completed with the scripted answer"

echo
echo "quick start check passed on $(. /etc/os-release && echo "$PRETTY_NAME"), $(nproc) cores:"
echo "  first run (new bench and site): ${FIRST}s; second run: ${SECOND}s"
