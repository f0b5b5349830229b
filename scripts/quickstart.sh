#!/usr/bin/env bash
# Huf quick start: from a bare Debian or Ubuntu machine to Huf running at http://<site>:<port>/huf.
#
# Usage: scripts/quickstart.sh [setup|bench|start|stop|status]
#   setup   (the default) everything below, in order; safe to run again: it continues or repairs,
#           skips what is already done and never drops data (no drop-site, no reinstall, no
#           `bench init` over an existing bench)
#   bench   only the machine and the bench: system packages, Node, the bench CLI, MariaDB, a
#           Frappe 15 bench; no Huf, no site, nothing started (what .ci/run uses)
#   start   start the bench's processes in the background and wait until the site answers
#   stop    stop the processes `start` started
#   status  what runs, and where
#
# Environment (each optional):
#   HUF_BENCH             the bench folder (default ~/frappe-bench). An existing bench there is
#                         reused; a folder that is not a bench makes the script stop.
#   HUF_SITE              the site (default huf.localhost; remembered in the bench's quickstart.env)
#   HUF_FRAPPE_SOURCE     a local Frappe 15 git checkout to build the bench from (its current
#                         branch, or HUF_FRAPPE_BRANCH). Default: Frappe's public repository,
#                         branch version-15.
#   HUF_DB_ROOT_PASSWORD  MariaDB's root password. When MariaDB's root has no password yet (a fresh
#                         install), this one is set; when it is unset too, one is generated. Either
#                         way it is kept in <bench>/quickstart.env (mode 600). A password that is
#                         already set is never changed: give the right one here.
#   HUF_ADMIN_PASSWORD    the Administrator password of a new site (default: generated, kept in
#                         <bench>/quickstart.env)
#   HUF_EXAMPLE           1: seed Huf's example (huf.examples.seed, when this Huf has it); 0: don't.
#                         Default: 1 for a new site, 0 for an existing one.
#   HUF_WEB_PORT          web server port of a new bench (default 8000, or the next free one);
#                         HUF_SOCKETIO_PORT (9000), HUF_REDIS_CACHE_PORT (13000) and
#                         HUF_REDIS_QUEUE_PORT (11000) likewise
#   HUF_PYTHON            the Python the bench is made with (default python3; Frappe 15 takes 3.10 to 3.13)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # this Huf checkout
BENCH=${HUF_BENCH:-$HOME/frappe-bench}
BENCH=$(realpath -m "$BENCH")
STATE=${XDG_DATA_HOME:-$HOME/.local/share}/huf-quickstart  # the bench CLI lives here
BENCH_CLI=$STATE/bench-cli
ENV_FILE=$BENCH/quickstart.env
PID_FILE=$BENCH/config/pids/quickstart.pid
LOG_FILE=$BENCH/logs/quickstart.log
PYTHON=${HUF_PYTHON:-python3}
NEED_GB_NEW=5  # a new bench: Frappe, Huf and their Python and Node packages, with room to spare
NEED_GB_EXISTING=1
STEP="starting"
export DEBIAN_FRONTEND=noninteractive PATH="$BENCH_CLI/bin:$PATH"

# ---------------------------------------------------------------------------------------------
# Saying what happens

step() {
	STEP=$1
	printf '\n==> %s\n' "$1"
}
note() { printf '    %s\n' "$@"; }
warn() { printf '    ! %s\n' "$@"; }

# fail WHAT-WAS-FOUND FIX...: the step, what it found, how to fix it; then stop.
fail() {
	REPORTED=1
	printf '\n✗ %s: %s\n' "$STEP" "$1" >&2
	shift
	local line
	for line in "$@"; do printf '  %s\n' "$line" >&2; done
	exit 1
}

# Anything else that stops the script: name the step and the command.
REPORTED=0
# shellcheck disable=SC2317  # (called by the EXIT trap)
on_exit() {
	local code=$? command=$BASH_COMMAND
	[ "$code" -eq 0 ] || [ "$REPORTED" = 1 ] && return
	printf '\n✗ %s: stopped (exit %s) at:\n    %s\n' "$STEP" "$code" "$command" >&2
	printf '  Its output is above. Fix what it says, then run the script again: it continues where it stopped.\n' >&2
}
trap on_exit EXIT

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

in_bench() { (cd "$BENCH" && "$@"); }
bench_py() { "$BENCH/env/bin/python" "$@"; }
# pip in the bench; a pip.conf that names local indexes makes pip warn about each package they lack: not shown
bench_pip() { "$BENCH/env/bin/pip" "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2); }

# frappe CLI commands (what `bench --site ...` runs), straight through the bench's Python
frappe_cmd() { (cd "$BENCH/sites" && "$BENCH/env/bin/python" -m frappe.utils.bench_helper frappe "$@"); }

# ---------------------------------------------------------------------------------------------
# quickstart.env: what this script chose (passwords, the site); values given in the environment win

env_get() {
	[ -f "$ENV_FILE" ] || return 0
	sed -n "s/^$1=//p" "$ENV_FILE" | tail -n1
}

env_set() {
	local key=$1 value=$2
	mkdir -p "$BENCH"
	touch "$ENV_FILE"
	chmod 600 "$ENV_FILE"
	if grep -q "^$key=" "$ENV_FILE"; then
		local rest
		rest=$(grep -v "^$key=" "$ENV_FILE" || true)
		printf '%s\n%s=%s\n' "$rest" "$key" "$value" | sed '/^$/d' >"$ENV_FILE"
	else
		printf '%s=%s\n' "$key" "$value" >>"$ENV_FILE"
	fi
}

new_secret() { head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n'; }  # 24 hex digits

load_settings() {
	SITE=${HUF_SITE:-$(env_get HUF_SITE)}
	SITE=${SITE:-huf.localhost}
	DB_ROOT_PASSWORD=${HUF_DB_ROOT_PASSWORD:-$(env_get HUF_DB_ROOT_PASSWORD)}
	ADMIN_PASSWORD=${HUF_ADMIN_PASSWORD:-$(env_get HUF_ADMIN_PASSWORD)}
}

# ---------------------------------------------------------------------------------------------
# The machine

check_machine() {
	step "Checking this machine"
	[ -r /etc/os-release ] || fail "no /etc/os-release: this is not a Debian or Ubuntu system." \
		"The quick start supports Debian 12+ and Ubuntu 22.04+. Elsewhere, follow Frappe's own install guide, then README 'Install into a bench'."
	local id like name
	id=$(. /etc/os-release && echo "${ID:-}")
	like=$(. /etc/os-release && echo "${ID_LIKE:-}")
	name=$(. /etc/os-release && echo "${PRETTY_NAME:-$ID}")
	case " $id $like " in
	*" debian "* | *" ubuntu "*) note "System: $name" ;;
	*) fail "this is $name, not Debian or Ubuntu." \
		"The quick start supports Debian 12+ and Ubuntu 22.04+ (apt). Elsewhere, follow Frappe's own install guide, then README 'Install into a bench'." ;;
	esac

	if [ "$(id -u)" -eq 0 ]; then
		note "User: root"
	elif command -v sudo >/dev/null; then
		note "User: $(id -un) (sudo for system packages and MariaDB)"
	else
		fail "you are $(id -un), not root, and sudo is not installed." \
			"Run the script as root, or install sudo and give $(id -un) the right to use it."
	fi

	local parent free_mb free_gb need_gb=$NEED_GB_NEW
	is_bench && need_gb=$NEED_GB_EXISTING
	parent=$BENCH
	while [ ! -d "$parent" ]; do parent=$(dirname "$parent"); done
	free_mb=$(($(df -Pk "$parent" | awk 'NR==2 {print $4}') / 1024))
	free_gb=$(awk -v mb="$free_mb" 'BEGIN {printf "%.1f", mb / 1024}')
	[ "$free_mb" -ge $((need_gb * 1024)) ] || fail "only ${free_gb} GB free on $(df -P "$parent" | awk 'NR==2 {print $6}') (for $BENCH); about ${need_gb} GB are needed." \
		"Free some space (df -h shows where it went), or put the bench elsewhere: HUF_BENCH=/path/with/space $0"
	note "Disk: ${free_gb} GB free for $BENCH"
}

SYSTEM_PACKAGES=(
	git curl ca-certificates rsync procps iproute2
	python3 python3-venv python3-dev python3-pip build-essential pkg-config
	mariadb-server mariadb-client libmariadb-dev
	redis-server
)

missing_packages() {
	local pkg
	for pkg in "${SYSTEM_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
	done
}

install_system_packages() {
	step "System packages"
	local missing
	mapfile -t missing < <(missing_packages)
	if [ ${#missing[@]} -eq 0 ]; then
		note "All present (${SYSTEM_PACKAGES[*]})."
		return
	fi
	note "Installing from the distribution: ${missing[*]}"
	local log
	log=$(mktemp)
	as_root apt-get -o DPkg::Lock::Timeout=300 update >"$log" 2>&1 ||
		{ grep -E '^(E|W):' "$log" | sed 's/^/    /' || true; warn "apt-get update reported errors (above); trying the install all the same"; }
	if ! as_root apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
		tail -n 15 "$log" | sed 's/^/    /' >&2
		local failed
		failed=$(sed -n -e "s/^E: Unable to locate package \(.*\)/\1/p" \
			-e "s/^E: Package '\(.*\)' has no installation candidate/\1/p" \
			-e 's|^E: Failed to fetch .*/\([^/_]*\)_[^/]*\.deb.*|\1|p' "$log" | sort -u | tr '\n' ' ')
		rm -f "$log"
		fail "apt-get could not install ${failed:-the packages above}." \
			"Check that this machine reaches its package mirror (apt-get update shows it), then run the script again: it continues where it stopped."
	fi
	rm -f "$log"
}

# Node 20.19+ or 22.12+ (what Vite 8, Huf's web app build, requires) and yarn (bench builds every app through it)
node_is_new_enough() {
	local version major minor
	version=$(node --version 2>/dev/null) || return 1
	version=${version#v}
	major=${version%%.*}
	minor=${version#*.}
	minor=${minor%%.*}
	[ "$major" -ge 23 ] || { [ "$major" -eq 22 ] && [ "$minor" -ge 12 ]; } || { [ "$major" -eq 20 ] && [ "$minor" -ge 19 ]; }
}

apt_node_candidate() {
	apt-cache policy nodejs 2>/dev/null | awk '/Candidate:/ {print $2}' | sed 's/^[0-9]*://; s/[-~+].*//'
}

check_node() {
	step "Node and yarn"
	if ! node_is_new_enough; then
		local found candidate
		found=$(node --version 2>/dev/null || echo "no node")
		candidate=$(apt_node_candidate)
		if [ "$found" = "no node" ] && [ -z "$candidate" ]; then
			as_root apt-get -o DPkg::Lock::Timeout=300 update -qq || true  # package lists not read yet
			candidate=$(apt_node_candidate)
		fi
		if [ "$found" = "no node" ] && [ -n "$candidate" ] && [ "$candidate" != "(none)" ] && node_version_ok "$candidate"; then
			note "Installing Node $candidate from the distribution (nodejs, npm)"
			as_root apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends nodejs npm
		elif [ -n "$candidate" ] && [ "$candidate" != "(none)" ] && node_version_ok "$candidate"; then
			fail "found Node $found at $(command -v node); Huf's web app build needs Node 20.19 or newer (or 22.12+)." \
				"apt offers nodejs $candidate, which is new enough: apt-get install nodejs npm" \
				"(and make sure that node comes first on PATH: 'node --version'), then run this script again."
		else
			fail "found ${found/#v/Node v}; Huf's web app build needs Node 20.19 or newer (or 22.12+)." \
				"This distribution's nodejs is ${candidate:-not available}: too old (Debian 12 and Ubuntu 24.04 have 18; Debian 13 has 20.19)." \
				"Get a newer Node, then run this script again. Either of:" \
				"  NodeSource (system-wide, as root): curl -fsSL https://deb.nodesource.com/setup_22.x | bash - && apt-get install -y nodejs" \
				"  nvm (for your user): https://github.com/nvm-sh/nvm, then: nvm install 22"
		fi
	fi
	note "Node $(node --version)"
	if ! command -v yarn >/dev/null; then
		note "Installing yarn (npm install -g yarn)"
		npm install -g --no-fund --no-audit yarn >/dev/null 2>&1 || as_root npm install -g --no-fund --no-audit yarn
		command -v yarn >/dev/null || fail "npm installed yarn into $(npm prefix -g)/bin, which is not on PATH." \
			"Add that folder to PATH, then run this script again."
	fi
	note "yarn $(yarn --version)"
}

# the same test as node_is_new_enough, for a version string
node_version_ok() {
	local version=$1 major minor
	major=${version%%.*}
	minor=${version#*.}
	minor=${minor%%.*}
	[ "$major" -ge 23 ] 2>/dev/null || { [ "$major" -eq 22 ] && [ "$minor" -ge 12 ]; } || { [ "$major" -eq 20 ] && [ "$minor" -ge 19 ]; }
}

check_python() {
	command -v "$PYTHON" >/dev/null || fail "no $PYTHON here." "Install python3 (apt-get install python3 python3-venv python3-dev) or name another with HUF_PYTHON."
	local version
	version=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
	"$PYTHON" -c 'import sys; sys.exit(not ((3, 10) <= sys.version_info[:2] < (3, 14)))' ||
		fail "$PYTHON is Python $version; Frappe 15 needs 3.10 to 3.13." "Name a Python 3.10-3.13 with HUF_PYTHON=/path/to/python3.x"
	"$PYTHON" -c 'import venv, ensurepip' 2>/dev/null ||
		fail "$PYTHON $version cannot make virtual environments (no venv/ensurepip)." "apt-get install python3-venv (or python$version-venv)"
	note "Python $version ($PYTHON)"
}

install_bench_cli() {
	step "The bench CLI"
	check_python
	if [ -x "$BENCH_CLI/bin/bench" ]; then
		note "bench $("$BENCH_CLI/bin/bench" --version 2>/dev/null | tail -n1) in $BENCH_CLI"
		return
	fi
	note "Installing frappe-bench into its own environment: $BENCH_CLI"
	mkdir -p "$STATE"
	rm -rf "$BENCH_CLI"
	"$PYTHON" -m venv "$BENCH_CLI"
	"$BENCH_CLI/bin/pip" install -q --upgrade pip 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
	"$BENCH_CLI/bin/pip" install -q "frappe-bench>=5.22,<6" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2) ||
		{ rm -rf "$BENCH_CLI"; fail "pip could not install frappe-bench (output above)." "Check that this machine reaches PyPI, then run the script again."; }
	note "bench $("$BENCH_CLI/bin/bench" --version 2>/dev/null | tail -n1)"
}

# ---------------------------------------------------------------------------------------------
# MariaDB

mariadb_client() { if command -v mariadb >/dev/null; then echo mariadb; else echo mysql; fi; }
mariadb_admin() { if command -v mariadb-admin >/dev/null; then echo mariadb-admin; else echo mysqladmin; fi; }
db_up() { as_root "$(mariadb_admin)" ping --silent >/dev/null 2>&1; }  # exit 0 whenever the server answers
db_as_os_root() { as_root "$(mariadb_client)" -uroot -N -B "$@" 2>/dev/null; }  # unix_socket login
db_root_login_works() { MYSQL_PWD=$1 "$(mariadb_client)" -uroot -h127.0.0.1 --protocol=tcp -N -B -e 'SELECT 1' >/dev/null 2>&1; }

start_mariadb() {
	db_up && return
	note "Starting MariaDB"
	as_root service mariadb start >/dev/null 2>&1 || as_root service mysql start >/dev/null 2>&1 || {
		local safe=mysqld_safe
		command -v mariadbd-safe >/dev/null && safe=mariadbd-safe
		as_root setsid nohup "$safe" >/dev/null 2>&1 </dev/null &
	}
	local _
	for _ in $(seq 60); do db_up && return; sleep 1; done
	fail "MariaDB did not start within a minute." \
		"Look at its log (journalctl -u mariadb, or /var/log/mysql/error.log), fix what it says, then run the script again."
}

MARIADB_CONF=/etc/mysql/mariadb.conf.d/99-huf-frappe.cnf
MARIADB_SETTINGS='# Written by Huf'"'"'s scripts/quickstart.sh: the character set Frappe needs.
[mysqld]
character-set-server = utf8mb4
collation-server = utf8mb4_unicode_ci

[mysql]
default-character-set = utf8mb4'

restart_mariadb() {
	as_root service mariadb restart >/dev/null 2>&1 || as_root service mysql restart >/dev/null 2>&1 || {
		as_root "$(mariadb_admin)" shutdown >/dev/null 2>&1 || true
		local _
		for _ in $(seq 30); do db_up || break; sleep 1; done
		start_mariadb
	}
	local _
	for _ in $(seq 60); do db_up && return; sleep 1; done
	fail "MariaDB did not come back after its restart." "Look at its log (journalctl -u mariadb, or /var/log/mysql/error.log)."
}

configure_mariadb() {
	local charset
	charset=$(db_as_os_root -e 'SELECT CONCAT(@@character_set_server, " ", @@collation_server)' || true)
	if [ "$charset" = "utf8mb4 utf8mb4_unicode_ci" ]; then
		note "Character set: utf8mb4, utf8mb4_unicode_ci"
		return
	fi
	if [ -d "$(dirname "$MARIADB_CONF")" ] && { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null || [ -t 0 ]; }; then
		note "Setting the character set Frappe needs (utf8mb4, utf8mb4_unicode_ci) in $MARIADB_CONF; restarting MariaDB"
		printf '%s\n' "$MARIADB_SETTINGS" | as_root tee "$MARIADB_CONF" >/dev/null
		restart_mariadb
	else
		warn "MariaDB's character set is '${charset:-unknown}', not utf8mb4 / utf8mb4_unicode_ci, and this script cannot write $MARIADB_CONF."
		warn "Put these lines in MariaDB's configuration and restart it:"
		printf '        %s\n' "$MARIADB_SETTINGS"
	fi
}

# root's login: "none" (a fresh install: only the unix socket, no password), "password", or "unknown"
db_root_auth() {
	local grants
	if ! grants=$(db_as_os_root -e "SHOW GRANTS FOR 'root'@'localhost'"); then
		echo unknown  # the socket login as root did not work: root has a password-only login
		return
	fi
	if grep -Eq "BY PASSWORD '[^']+'|USING '([^i'][^']*|i[^n][^']*)'" <<<"$grants"; then
		echo password
	else
		echo none
	fi
}

sql_quote() { printf '%s' "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/\\\\'/g"; }

ensure_db_root_password() {
	local given=$DB_ROOT_PASSWORD origin="kept in $ENV_FILE"
	[ -z "${HUF_DB_ROOT_PASSWORD:-}" ] || origin="from HUF_DB_ROOT_PASSWORD"
	if [ -n "$given" ] && db_root_login_works "$given"; then
		note "MariaDB root password: works ($origin)"
		[ "$(env_get HUF_DB_ROOT_PASSWORD)" = "$given" ] || env_set HUF_DB_ROOT_PASSWORD "$given"
		return
	fi
	local auth
	auth=$(db_root_auth)
	if [ "$auth" != none ]; then
		if [ -n "$given" ]; then
			fail "MariaDB refused root with the password $origin." \
				"Run again with MariaDB's root password: HUF_DB_ROOT_PASSWORD='...' $0" \
				"(This script never changes a password that is already set.)"
		fi
		fail "MariaDB's root user has a password, and the script was not given it." \
			"Run again with it: HUF_DB_ROOT_PASSWORD='...' $0" \
			"(This script never changes a password that is already set.)"
	fi
	local password=$given
	if [ -z "$password" ]; then
		password=$(new_secret)
		origin="generated now"
	fi
	note "MariaDB's root has no password yet (a fresh install): setting the one $origin (it is kept in $ENV_FILE)"
	db_as_os_root -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('$(sql_quote "$password")'); FLUSH PRIVILEGES;" ||
		fail "MariaDB did not take the new root password." "Set one yourself (mariadb-secure-installation), then run: HUF_DB_ROOT_PASSWORD='...' $0"
	env_set HUF_DB_ROOT_PASSWORD "$password"
	DB_ROOT_PASSWORD=$password
	db_root_login_works "$password" || fail "the root password was set but a login over 127.0.0.1 with it fails." \
		"Check MariaDB's bind-address and skip-name-resolve settings (Frappe connects to 127.0.0.1)."
}

setup_mariadb() {
	step "MariaDB"
	start_mariadb
	configure_mariadb
	note "Running: $(db_as_os_root -e 'SELECT VERSION()' || echo 'version unknown')"
}

# ---------------------------------------------------------------------------------------------
# Ports

port_taken() { [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }
port_owner() {
	local owner
	owner=$(ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:(("\([^"]*\)",pid=\([0-9]*\).*/\2 (\1)/p' | head -n1 || true)
	if [ -n "$owner" ]; then
		echo "process $owner: $(ps -o args= -p "${owner%% *}" 2>/dev/null | cut -c1-100)"
	else
		echo "a process this user cannot see"
	fi
}

free_port_from() {
	local port=$1
	shift
	while port_taken "$port" || [[ " $* " == *" $port "* ]]; do port=$((port + 1)); done
	echo "$port"
}

bench_config_get() {
	bench_py - "$BENCH/sites/common_site_config.json" "$1" <<'EOF'
import json, sys
from urllib.parse import urlparse
value = json.load(open(sys.argv[1])).get(sys.argv[2], "")
print(urlparse(value).port if isinstance(value, str) and value.startswith("redis://") else value)
EOF
}

# Ports for a bench about to be made: the defaults, or the next free ones
choose_ports() {
	WEB_PORT=$(free_port_from "${HUF_WEB_PORT:-8000}")
	SOCKETIO_PORT=$(free_port_from "${HUF_SOCKETIO_PORT:-9000}" "$WEB_PORT")
	REDIS_CACHE_PORT=$(free_port_from "${HUF_REDIS_CACHE_PORT:-13000}" "$WEB_PORT" "$SOCKETIO_PORT")
	REDIS_QUEUE_PORT=$(free_port_from "${HUF_REDIS_QUEUE_PORT:-11000}" "$WEB_PORT" "$SOCKETIO_PORT" "$REDIS_CACHE_PORT")
	local entry name default var wanted chosen
	for entry in WEB_PORT:8000:HUF_WEB_PORT SOCKETIO_PORT:9000:HUF_SOCKETIO_PORT \
		REDIS_CACHE_PORT:13000:HUF_REDIS_CACHE_PORT REDIS_QUEUE_PORT:11000:HUF_REDIS_QUEUE_PORT; do
		IFS=: read -r name default var <<<"$entry"
		wanted=${!var:-$default}
		chosen=${!name}
		[ "$chosen" = "$wanted" ] || note "Port $wanted is taken ($(port_owner "$wanted")): this bench uses $chosen instead"
	done
}

apply_ports() {
	bench_py - "$BENCH/sites/common_site_config.json" "$WEB_PORT" "$SOCKETIO_PORT" "$REDIS_CACHE_PORT" "$REDIS_QUEUE_PORT" <<'EOF'
import json, sys
path, web, socketio, cache, queue = sys.argv[1:]
config = json.load(open(path))
config.update(
	webserver_port=int(web),
	socketio_port=int(socketio),
	redis_cache=f"redis://127.0.0.1:{cache}",
	redis_socketio=f"redis://127.0.0.1:{cache}",
	redis_queue=f"redis://127.0.0.1:{queue}",
)
json.dump(config, open(path, "w"), indent=1, sort_keys=True)
EOF
	in_bench bench setup redis >/dev/null
	sed -i "s/^web: bench serve.*/web: bench serve --port $WEB_PORT/" "$BENCH/Procfile"  # for a `bench start` by hand
	note "Ports: web $WEB_PORT, realtime $SOCKETIO_PORT, Redis cache $REDIS_CACHE_PORT, Redis queue $REDIS_QUEUE_PORT"
}

# ---------------------------------------------------------------------------------------------
# The bench

is_bench() { [ -d "$BENCH/apps/frappe" ] && [ -x "$BENCH/env/bin/python" ] && [ -f "$BENCH/sites/common_site_config.json" ]; }
INCOMPLETE_MARK=.huf-quickstart-incomplete

frappe_source() {
	if [ -n "${HUF_FRAPPE_SOURCE:-}" ]; then
		local source
		source=$(realpath -m "$HUF_FRAPPE_SOURCE")
		git -C "$source" rev-parse --git-dir >/dev/null 2>&1 ||
			fail "HUF_FRAPPE_SOURCE=$HUF_FRAPPE_SOURCE is not a git checkout." "Name a Frappe 15 git checkout (bench clones it), or leave HUF_FRAPPE_SOURCE unset to use Frappe's public repository."
		FRAPPE_PATH=$source
		FRAPPE_BRANCH=${HUF_FRAPPE_BRANCH:-$(git -C "$source" rev-parse --abbrev-ref HEAD)}
		git -C "$source" rev-parse --verify -q "refs/heads/$FRAPPE_BRANCH" >/dev/null ||
			fail "$source has no branch $FRAPPE_BRANCH." "Check out a branch there (bench clones a branch), or name one with HUF_FRAPPE_BRANCH."
	else
		FRAPPE_PATH=https://github.com/frappe/frappe
		FRAPPE_BRANCH=${HUF_FRAPPE_BRANCH:-version-15}
		timeout 30 git ls-remote --exit-code "$FRAPPE_PATH" "refs/heads/$FRAPPE_BRANCH" >/dev/null 2>&1 ||
			fail "Frappe's public repository ($FRAPPE_PATH) did not answer." \
				"Check this machine's connection to it, or build from a local Frappe 15 checkout: HUF_FRAPPE_SOURCE=/path/to/frappe $0"
	fi
}

make_bench() {
	step "The bench at $BENCH"
	if is_bench && [ -f "$BENCH/$INCOMPLETE_MARK" ]; then  # init ended, its ports were not set yet
		choose_ports
		apply_ports
		rm -f "$BENCH/$INCOMPLETE_MARK"
	fi
	if is_bench; then
		note "Reusing the bench there (Frappe $(bench_py -c 'import frappe; print(frappe.__version__)' 2>/dev/null || echo '?'))"
		return
	fi
	if [ -e "$BENCH" ] && [ ! -d "$BENCH" ]; then
		fail "$BENCH is a file, not a folder." "Move it away, or choose another place: HUF_BENCH=/path $0"
	fi
	if [ -f "$BENCH/$INCOMPLETE_MARK" ]; then
		ls "$BENCH"/sites/*/site_config.json >/dev/null 2>&1 &&
			fail "$BENCH is a bench this script began but did not finish, and it has sites in it." "Look at it; move it away to start over."
		note "A bench this script began earlier did not finish: making it again (nothing in it is kept but $(basename "$ENV_FILE"))"
		find "$BENCH" -mindepth 1 -maxdepth 1 ! -name "$(basename "$ENV_FILE")" ! -name "$INCOMPLETE_MARK" -exec rm -rf {} +
	elif [ -d "$BENCH" ] && [ -n "$(ls -A "$BENCH")" ]; then
		fail "$BENCH is not empty and is not a bench (no apps/frappe and env/ there)." \
			"Move it away, or choose another place: HUF_BENCH=/path/to/new/bench $0"
	fi
	frappe_source
	choose_ports
	note "Making a Frappe bench from $FRAPPE_PATH (branch $FRAPPE_BRANCH); this takes a while (Python and Node packages, then Frappe's assets)"
	mkdir -p "$BENCH"
	touch "$BENCH/$INCOMPLETE_MARK"
	# bench refuses root unless the bench's config names root as its user (frappe_user, which init writes):
	# run init from a folder whose config says so.
	local cwd=$STATE/init-cwd
	mkdir -p "$cwd/sites"
	printf '{"frappe_user": "%s"}\n' "$(id -un)" >"$cwd/sites/common_site_config.json"
	(cd "$cwd" && bench init "$BENCH" --ignore-exist --frappe-path "$FRAPPE_PATH" --frappe-branch "$FRAPPE_BRANCH" \
		--python "$(command -v "$PYTHON")" --no-backups </dev/null) ||
		fail "bench init failed (its output is above)." "Fix what it says, then run the script again: it starts this bench over (nothing was in it yet)."
	is_bench || fail "bench init ended, but $BENCH has no apps/frappe or env." "Its output is above; run the script again to start this bench over."
	apply_ports
	rm -f "$BENCH/$INCOMPLETE_MARK"
	note "Bench made: Frappe $(bench_py -c 'import frappe; print(frappe.__version__)')"
}

# Frappe 15's Dropbox Settings imports dropbox, which imports pkg_resources: gone from setuptools 81
# on, and a bench made with uv (which bench uses when it finds it) gets the newest setuptools.
repair_bench_env() {
	bench_py -c 'import pkg_resources' >/dev/null 2>&1 && return
	note "The bench's Python has no pkg_resources (Frappe 15's Dropbox integration needs it): installing setuptools<81"
	if bench_py -m pip --version >/dev/null 2>&1; then
		bench_pip install -q "setuptools<81"
	else
		uv pip install -q --python "$BENCH/env/bin/python" "setuptools<81"
	fi
}

# ---------------------------------------------------------------------------------------------
# Huf in the bench

# a short hash of files: hash_files DIR FIND-ARGS...
hash_files() {
	local dir=$1
	shift
	(cd "$dir" && { find "$@" -type f ! -path '*/node_modules/*' ! -name '*.pyc' ! -name '*.tsbuildinfo' -print0 2>/dev/null || true; } |
		LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum | cut -c1-16)
}

HUF=""  # the bench's copy of Huf: $BENCH/apps/huf

install_huf() {
	step "Huf in the bench"
	HUF=$BENCH/apps/huf
	if [ "$(realpath -m "$ROOT")" = "$(realpath -m "$HUF")" ]; then
		note "This checkout is the bench's Huf ($HUF)"
	else
		# a clone of this checkout, as `bench get-app <path>` makes, with this checkout's files over it (also what is not committed)
		if [ ! -d "$HUF/.git" ] && git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
			local tmp
			tmp=$(mktemp -d)
			git clone -q --no-checkout --origin upstream "$ROOT" "$tmp/huf"
			mkdir -p "$HUF"
			mv "$tmp/huf/.git" "$HUF/.git"
			rm -rf "$tmp"
			git -C "$HUF" reset -q
		fi
		mkdir -p "$HUF"
		local changes
		changes=$(rsync -a --delete --itemize-changes --exclude=/.git --filter=':- .gitignore' \
			--exclude=node_modules --exclude=/huf/public/frontend --exclude=/.ci/venv --exclude=/.ci/artifacts --exclude=/.quickstart-pip \
			"$ROOT/" "$HUF/" | { grep -v '^\.d' || true; } | wc -l)
		note "Copied this checkout ($ROOT) to $HUF: $changes files changed"
	fi

	local wanted
	wanted=$(hash_files "$HUF" pyproject.toml)
	if [ "$(cat "$HUF/.quickstart-pip" 2>/dev/null || true)" = "$wanted" ] && bench_py -c 'import huf' 2>/dev/null; then
		note "Python packages: installed, pyproject.toml unchanged"
	else
		# Exactly as `bench get-app` installs an app: no constraints file. Huf's ranges keep Frappe's pins
		# (pyproject.toml; proven by .ci/install-check), and pip check below says so on this bench.
		note "Installing Huf's Python packages into the bench (pip install --upgrade -e apps/huf; a few minutes the first time)"
		bench_pip install -q --upgrade -e "$HUF" ||
			fail "pip could not install Huf into the bench (output above)." "When it names a package it could not fetch: check that this machine reaches PyPI, then run the script again."
		local conflicts
		conflicts=$(bench_pip check 2>/dev/null || true)
		if grep -q '^frappe .* has requirement' <<<"$conflicts"; then
			printf '        %s\n' "$conflicts" >&2
			fail "after installing Huf, packages Frappe pins are out of its ranges (pip check, above)." \
				"Huf's pyproject.toml lets pip choose versions Frappe 15 does not take: report it with these lines." \
				"No site was changed. Running the script again after a fix to Huf's ranges installs again."
		elif ! grep -q 'No broken requirements' <<<"$conflicts"; then
			warn "pip check reports conflicts outside Frappe's pins:" "$conflicts"
		fi
		echo "$wanted" >"$HUF/.quickstart-pip"
	fi
	local apps=$BENCH/sites/apps.txt
	if ! grep -qx huf "$apps"; then
		[ -z "$(tail -c1 "$apps")" ] || echo >>"$apps"
		echo huf >>"$apps"
	fi
}

BUILT=0  # set when the web app was built in this run

build_web_app() {
	step "Huf's web app"
	local wanted stamp=$HUF/huf/public/frontend/.quickstart-build
	wanted=$(hash_files "$HUF" frontend package.json)
	if [ "$(cat "$stamp" 2>/dev/null || true)" = "$wanted" ] && [ -e "$BENCH/sites/assets/huf" ]; then
		note "Built, and its sources are unchanged"
		return
	fi
	local lock
	lock=$(hash_files "$HUF/frontend" package-lock.json)
	if [ -d "$HUF/frontend/node_modules" ] && [ "$(cat "$HUF/frontend/node_modules/.quickstart-lock" 2>/dev/null || true)" != "$lock" ]; then
		note "package-lock.json changed: npm ci"
		(cd "$HUF/frontend" && npm ci --no-audit --no-fund >/dev/null) ||
			fail "npm ci in $HUF/frontend failed (output above)." "Check that this machine reaches the npm registry, then run the script again."
	fi
	note "Building it (bench build --app huf)"
	in_bench bench build --app huf ||
		fail "bench build --app huf failed (output above)." \
			"When it names a package it could not fetch: check that this machine reaches the npm registry, then run the script again."
	[ -f "$HUF/huf/public/frontend/.vite/manifest.json" ] || [ -n "$(ls -A "$HUF/huf/public/frontend" 2>/dev/null)" ] ||
		fail "bench build --app huf ended but wrote nothing to $HUF/huf/public/frontend." "Run it by hand to see why: cd $BENCH && bench build --app huf"
	echo "$lock" >"$HUF/frontend/node_modules/.quickstart-lock"
	echo "$wanted" >"$stamp"
	BUILT=1
}

# ---------------------------------------------------------------------------------------------
# The site

site_exists() { [ -f "$BENCH/sites/$SITE/site_config.json" ]; }

huf_installed_on_site() {
	local apps
	apps=$(frappe_cmd --site "$SITE" list-apps 2>/dev/null || true)
	grep -qw huf <<<"$apps"
}

MIGRATED_STAMP=""

code_hash() {
	echo "$(hash_files "$HUF" huf pyproject.toml ! -path 'huf/public/frontend/*')-$(git -C "$BENCH/apps/frappe" rev-parse HEAD 2>/dev/null)"
}

setup_site() {
	step "The site $SITE"
	MIGRATED_STAMP=$BENCH/sites/$SITE/.huf-quickstart-migrated
	SITE_IS_NEW=0
	local half=$BENCH/config/huf-quickstart-making-$SITE  # there while this script makes the site
	if ! site_exists || [ -f "$half" ]; then
		ensure_db_root_password
		if [ -z "$ADMIN_PASSWORD" ]; then
			ADMIN_PASSWORD=$(new_secret)
			note "Administrator password: generated (kept in $ENV_FILE)"
		fi
		env_set HUF_ADMIN_PASSWORD "$ADMIN_PASSWORD"
		local force=()
		if [ -f "$half" ]; then
			note "An earlier run began this site and did not finish it: making it again (--force; nothing was in it yet)"
			force=(--force)
		fi
		note "Making the site (bench new-site $SITE --install-app huf; a few minutes; output in $BENCH/logs/quickstart-new-site.log)"
		touch "$half"
		frappe_cmd new-site "$SITE" "${force[@]}" --db-root-username root --db-root-password "$DB_ROOT_PASSWORD" \
			--admin-password "$ADMIN_PASSWORD" --install-app huf </dev/null >"$BENCH/logs/quickstart-new-site.log" 2>&1 || {
			tail -n 25 "$BENCH/logs/quickstart-new-site.log" | sed 's/^/    /' >&2
			fail "bench new-site $SITE failed (its last lines are above; all of them in $BENCH/logs/quickstart-new-site.log)." \
				"Fix what it says, then run the script again: it makes this half-made site again."
		}
		rm -f "$half"
		note "Turning its scheduler on (bench --site $SITE enable-scheduler): Huf's schedules and upkeep run through it"
		frappe_cmd --site "$SITE" enable-scheduler >/dev/null
		SITE_IS_NEW=1
		code_hash >"$MIGRATED_STAMP"
	elif ! huf_installed_on_site; then
		note "Installing Huf on the existing site (bench --site $SITE install-app huf)"
		frappe_cmd --site "$SITE" install-app huf || fail "install-app huf failed on $SITE (output above)." "Fix what it says, then run the script again."
		code_hash >"$MIGRATED_STAMP"
	else
		local wanted
		wanted=$(code_hash)
		if [ "$(cat "$MIGRATED_STAMP" 2>/dev/null || true)" = "$wanted" ]; then
			note "Huf is installed on it and nothing changed since its last migrate"
		else
			note "Huf is installed on it: migrating (bench --site $SITE migrate; output in $BENCH/logs/quickstart-migrate.log)"
			frappe_cmd --site "$SITE" migrate </dev/null >"$BENCH/logs/quickstart-migrate.log" 2>&1 || {
				tail -n 25 "$BENCH/logs/quickstart-migrate.log" | sed 's/^/    /' >&2
				fail "migrate failed on $SITE (its last lines are above)." "Fix what it says, then run the script again."
			}
			echo "$wanted" >"$MIGRATED_STAMP"
			SITE_CHANGED=1
		fi
	fi
	env_set HUF_SITE "$SITE"
	if [ "$(bench_config_get default_site)" != "$SITE" ]; then
		note "Making it the bench's default site (bench use $SITE)"
		in_bench bench use "$SITE" >/dev/null
	fi
}

seed_example() {
	local wanted=${HUF_EXAMPLE:-$SITE_IS_NEW}
	[ "$wanted" = 1 ] || return 0
	step "Example"
	if [ -f "$HUF/huf/examples.py" ] || [ -f "$HUF/huf/examples/__init__.py" ] &&
		grep -qs "def seed" "$HUF/huf/examples.py" "$HUF/huf/examples/__init__.py"; then
		note "Seeding it (bench --site $SITE execute huf.examples.seed)"
		frappe_cmd --site "$SITE" execute huf.examples.seed ||
			warn "The example could not be seeded (output above); Huf works without it. Try again: HUF_EXAMPLE=1 $0"
	else
		note "This Huf has no example to seed (huf.examples.seed): skipped"
	fi
}

# ---------------------------------------------------------------------------------------------
# The bench's processes

running_pid() {
	local pid
	pid=$(cat "$PID_FILE" 2>/dev/null) || return 1
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [[ "$(ps -o args= -p "$pid" || true)" == *honcho* ]] || return 1
	echo "$pid"
}

redis_answers() { [ "$(redis-cli -p "$1" ping 2>/dev/null || true)" = PONG ]; }
site_answers() { [[ "$(curl -s -m 5 -H "Host: $SITE" "http://127.0.0.1:$1/api/method/ping" 2>/dev/null || true)" == *pong* ]]; }

# Procfile.quickstart: the bench's Procfile without the asset watcher (a development tool), the
# web server on the configured port, and no Redis that already runs on the bench's port
write_procfile() {
	local out=$BENCH/Procfile.quickstart web cache queue
	web=$(bench_config_get webserver_port)
	cache=$(bench_config_get redis_cache)
	queue=$(bench_config_get redis_queue)
	{
		local skip='^(watch|web):|^\s*$'
		redis_answers "$cache" && skip="$skip|^redis_cache:"
		redis_answers "$queue" && skip="$skip|^redis_queue:"
		grep -v -E "$skip" "$BENCH/Procfile" || true
		echo "web: bench serve --port $web"
	} >"$out"
	redis_answers "$cache" && note "Redis cache already runs on $cache: using it"
	redis_answers "$queue" && note "Redis queue already runs on $queue: using it"
	return 0
}

check_ports_free() {
	local key port problems=()
	for key in webserver_port socketio_port redis_cache redis_queue; do
		port=$(bench_config_get "$key")
		[ -n "$port" ] || continue
		case $key in redis_*) redis_answers "$port" && continue ;; esac
		port_taken "$port" && problems+=("$key $port is taken by $(port_owner "$port")")
	done
	[ ${#problems[@]} -eq 0 ] && return
	fail "a port this bench needs is taken: ${problems[*]}." \
		"Stop that process (kill <pid>), or give this bench another port in $BENCH/sites/common_site_config.json" \
		"(webserver_port / socketio_port, or the redis_cache / redis_queue URLs, then: cd $BENCH && $BENCH_CLI/bin/bench setup redis), then: $0 start"
}

wait_for_site() {
	local web=$1 pid=$2 _
	for _ in $(seq 120); do
		site_answers "$web" && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	tail -n 30 "$LOG_FILE" >&2 || true
	fail "the site did not answer on http://127.0.0.1:$web/api/method/ping (the processes' last lines are above)." \
		"The whole log: $LOG_FILE. Fix what it says, then: $0 start"
}

start_processes() {
	step "Starting the bench's processes"
	is_bench || fail "no bench at $BENCH." "Make it first: $0"
	local pid web
	web=$(bench_config_get webserver_port)
	if pid=$(running_pid); then
		note "Already running (process group $pid)"
	else
		check_ports_free
		write_procfile
		mkdir -p "$(dirname "$PID_FILE")" "$(dirname "$LOG_FILE")"
		(cd "$BENCH" && exec setsid nohup bench start --procfile Procfile.quickstart >>"$LOG_FILE" 2>&1 </dev/null) &
		pid=$!
		echo "$pid" >"$PID_FILE"
		note "Started in the background (process group $pid; output in $LOG_FILE)"
	fi
	wait_for_site "$web" "$pid"
	note "The site answers on port $web"
}

stop_processes() {
	step "Stopping the bench's processes"
	local pid _
	if ! pid=$(running_pid); then
		rm -f "$PID_FILE"
		note "Not running (nothing this script started)"
		return
	fi
	kill -TERM -- "-$pid" 2>/dev/null || true
	for _ in $(seq 20); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.5; done
	kill -KILL -- "-$pid" 2>/dev/null || true
	rm -f "$PID_FILE"
	note "Stopped (process group $pid)"
}

show_status() {
	step "Status of $BENCH"
	is_bench || { note "No bench there."; return; }
	local pid web key port
	if pid=$(running_pid); then note "Processes: running (process group $pid; log $LOG_FILE)"; else note "Processes: none that this script started are running"; fi
	for key in webserver_port socketio_port redis_cache redis_queue; do
		port=$(bench_config_get "$key")
		if port_taken "$port"; then note "$key $port: in use by $(port_owner "$port")"; else note "$key $port: free"; fi
	done
	web=$(bench_config_get webserver_port)
	if site_answers "$web"; then
		note "Site $SITE: answers at http://$SITE:$web/huf"
	else
		note "Site $SITE: does not answer on port $web"
	fi
}

# ---------------------------------------------------------------------------------------------
# What to do next

say_done() {
	local web
	web=$(bench_config_get webserver_port)
	printf '\n✓ Huf is running: http://%s:%s/huf\n' "$SITE" "$web"
	printf '  (or http://127.0.0.1:%s/huf: %s is the bench'"'"'s default site)\n' "$web" "$SITE"
	if [ -n "$(env_get HUF_ADMIN_PASSWORD)" ]; then
		printf '  Sign in as Administrator; the password is HUF_ADMIN_PASSWORD in %s\n' "$ENV_FILE"
	else
		printf '  Sign in as Administrator with the password the site was made with (new one: cd %s && bench --site %s set-admin-password ...)\n' "$BENCH" "$SITE"
	fi
	printf '  Stop:  %s stop\n  Start: %s start\n' "$0" "$0"
	printf '  The bench CLI: %s (add %s to PATH to type just "bench")\n' "$BENCH_CLI/bin/bench" "$BENCH_CLI/bin"
}

# ---------------------------------------------------------------------------------------------

prepare_machine() {
	check_machine
	install_system_packages
	check_node
	install_bench_cli
	setup_mariadb
}

main() {
	local command=${1:-setup}
	load_settings
	case $command in
	setup)
		prepare_machine
		make_bench
		repair_bench_env
		install_huf
		SITE_CHANGED=0
		build_web_app
		setup_site
		seed_example
		if running_pid >/dev/null && { [ "$BUILT" = 1 ] || [ "$SITE_CHANGED" = 1 ]; }; then
			stop_processes  # they run older code
		fi
		start_processes
		say_done
		;;
	bench)
		prepare_machine
		make_bench
		repair_bench_env
		step "MariaDB root password"
		ensure_db_root_password
		printf '\n✓ Bench ready at %s (no site made, nothing started). The whole quick start: %s\n' "$BENCH" "$0"
		;;
	start)
		start_processes
		say_done
		;;
	stop) stop_processes ;;
	status) show_status ;;
	-h | --help | help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
	*) STEP="quickstart.sh" fail "unknown command '$command'." "Use one of: setup (default), bench, start, stop, status." ;;
	esac
}

main "$@"; exit  # on one line: a script edited while it runs never has its new tail run
