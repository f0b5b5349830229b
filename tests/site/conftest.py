"""Site tier: tests inside a real Frappe site with Huf installed.

Run from the bench's ``sites`` folder with the bench's Python:
    ../env/bin/python -m pytest /path/to/huf/tests/site --site <site>
Workers and the web server are real processes started here (and killed at the end), so tests can
also kill a worker on purpose. The model is the scripted OpenAI-compatible server of tests/support.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # for the tests package; huf itself is the installed app
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import frappe  # noqa: E402

from tests.support.scripted_llm import ScriptedLLM  # noqa: E402


@pytest.fixture(scope="session")
def site(request):
	name = request.config.getoption("--site")
	if not name:
		pytest.skip("no --site given")
	frappe.init(site=name, sites_path=os.getcwd())
	frappe.connect()
	frappe.flags.huf_tests = True  # no default Huf roles on user save unless a test opts in
	frappe.set_user("Administrator")
	from frappe.installer import update_site_config

	update_site_config("huf_lock_ttl", 3)  # workers read it too: a killed worker's lock expires in 3 s
	frappe.conf.huf_lock_ttl = 3
	# The suite makes more than the 60 users an hour Frappe lets one site create (its spam throttle).
	update_site_config("throttle_user_limit", 1000)
	frappe.conf.throttle_user_limit = 1000
	from tests.site.fixtures import LOCAL_HOSTS, allowed_hosts

	allowed_hosts(*LOCAL_HOSTS)  # the scripted model server listens on 127.0.0.1, a private address
	yield name
	frappe.db.rollback()
	frappe.destroy()


@pytest.fixture(autouse=True)
def _fresh_transaction(site):
	"""Each test starts like a new request: Administrator, a fresh transaction, no messages, and
	nothing left over from earlier tests: none of this site's jobs in the queues (nor their marks), no run still Queued
	or Started (a sweep would otherwise wake their conversations and the next test's worker would run
	them first; nor a flow run going on, which a watcher would hand on). The queues are the bench's:
	other sites' jobs stay (``drop_site_jobs``), and so do their in-flight entries."""
	from huf.ai.run import inflight
	from huf.permissions import forget_capabilities

	drop_site_jobs(site)
	frappe.db.sql("update `tabAgent Run` set status = 'Cancelled' where status in ('Queued', 'Started')")
	frappe.db.sql("update `tabFlow Run` set status = 'Failed' where status in ('Queued', 'Running')")
	for key, prefix in ((inflight.INFLIGHT, f"{site}|"), (inflight.QUEUED, f"{site}::")):
		mine = [f for f in frappe.cache.execute_command("HKEYS", key) or [] if f.decode().startswith(prefix)]
		if mine:
			frappe.cache.execute_command("HDEL", key, *mine)
	frappe.db.commit()
	frappe.set_user("Administrator")
	forget_capabilities()
	frappe.local.message_log = []
	frappe.flags.error_message = None
	frappe.db.commit()
	yield
	frappe.db.rollback()
	frappe.set_user("Administrator")


QUEUES = ("long", "default", "short")


def drop_site_jobs(site: str, queues: tuple[str, ...] = QUEUES) -> None:
	"""Remove ``site``'s jobs from the bench's RQ queues and their started registries. Every site of
	the bench shares these, so only jobs of ``site`` go (Frappe's jobs carry it in ``kwargs["site"]``,
	their ids start with ``<site>::``); other sites' jobs are left queued or running.

	Started ones too: a job whose work horse a test killed stays "started" until a worker that starts
	later fails it, which would run its failure callback in the middle of another test."""
	from frappe.utils.background_jobs import get_queue
	from rq.job import Job
	from rq.registry import StartedJobRegistry

	for name in queues:
		queue = get_queue(name)
		started = StartedJobRegistry(queue=queue)
		for holder in (queue, started):
			ids = holder.get_job_ids()
			for job_id, job in zip(ids, Job.fetch_many(ids, connection=queue.connection), strict=True):
				if _site_of(job_id, job) != site:
					continue
				holder.remove(job_id)
				if job is not None:
					job.delete()


def _site_of(job_id: str, job) -> str | None:
	"""The site a job runs for: its ``site`` argument, or its id's prefix when the job is gone or unreadable."""
	by_id = job_id.split("::", 1)[0] if "::" in job_id else None
	if job is None:
		return by_id
	try:
		return job.kwargs.get("site", by_id)
	except Exception:  # arguments this process cannot unpickle: not one of this site's jobs
		return by_id


def queued_jobs(queue: str = "long", method: str | None = None) -> list:
	"""This site's jobs waiting in ``queue`` (of ``method`` when given), in the order a worker takes them."""
	from frappe.utils.background_jobs import get_queue

	return [
		job
		for job in get_queue(queue).get_jobs()
		if job.kwargs.get("site") == frappe.local.site and (method is None or job.kwargs.get("method") == method)
	]


@pytest.fixture(scope="session")
def llm_server():
	server = ScriptedLLM()
	server.start()
	yield server
	server.stop()


@pytest.fixture
def llm(llm_server):
	llm_server.reset()
	return llm_server


def bench_command(site: str, *args: str) -> list[str]:
	return [sys.executable, "-m", "frappe.utils.bench_helper", "frappe", "--site", site, *args]


class Workers:
	"""Real RQ workers for this site's queues, as separate processes."""

	def __init__(self, site: str):
		self.site = site
		self.procs: list[subprocess.Popen] = []
		# what the workers print (job failures included) goes to the bench's logs folder
		self.log = open(os.path.join(os.getcwd(), "..", "logs", "huf-test-workers.log"), "ab")  # noqa: SIM115

	def start(self, count: int = 1, command: str = "worker") -> None:
		"""``command``: ``worker`` (Frappe's, a fork per job) or ``huf-worker`` (Huf's, no fork)."""
		env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True")
		for _ in range(count):
			self.procs.append(
				subprocess.Popen(
					[sys.executable, "-m", "frappe.utils.bench_helper", "frappe", command, "--queue", "long,default,short"],
					cwd=os.getcwd(),
					env=env,
					stdout=self.log,
					stderr=subprocess.STDOUT,
					start_new_session=True,
				)
			)

	def kill(self, index: int = 0) -> None:
		"""SIGKILL a worker and everything it forked, the work horse running a job included."""
		proc = self.procs.pop(index)
		for process in _tree(proc.pid):
			_signal(process, signal.SIGKILL)
		proc.wait()

	def stop(self) -> None:
		"""SIGTERM, then SIGKILL whatever is left: no work horse outlives its test. The queues are the
		bench's, so a worker may be running another site's job: that one is not ours to fail, and the
		worker first finishes it (RQ's warm shutdown, for at most ``OTHER_JOB_GRACE`` seconds)."""
		while self.procs:
			proc = self.procs.pop()
			tree = _tree(proc.pid)
			if self._busy_elsewhere(proc.pid):
				_signal(tree[0], signal.SIGTERM)  # the worker takes no new job and waits for this one
				try:
					proc.wait(timeout=OTHER_JOB_GRACE)
				except subprocess.TimeoutExpired:
					pass
			for process in tree:
				_signal(process, signal.SIGTERM)
			try:
				proc.wait(timeout=10)
			except subprocess.TimeoutExpired:
				pass
			for process in tree:
				_signal(process, signal.SIGKILL)
			proc.wait()
		self.log.flush()


	def _busy_elsewhere(self, pid: int) -> bool:
		"""Whether the worker ``pid`` is running a job that is not this site's."""
		from frappe.utils.background_jobs import get_redis_conn
		from rq import Worker

		for worker in Worker.all(connection=get_redis_conn()):
			if worker.pid == pid:
				job = worker.get_current_job()
				return job is not None and _site_of(job.id, job) != self.site
		return False


OTHER_JOB_GRACE = 60.0  # seconds a test's worker being stopped may take to finish another site's job


def _tree(pid: int) -> list:
	"""A process and all its descendants. RQ puts each work horse in a session of its own, so a
	signal to the worker's process group would miss it."""
	import psutil

	root = psutil.Process(pid)
	return [root, *root.children(recursive=True)]


def _signal(process, sig) -> None:
	import psutil

	try:
		process.send_signal(sig)
	except psutil.NoSuchProcess:
		pass


@pytest.fixture
def workers(site):
	pool = Workers(site)
	yield pool
	pool.stop()


def make_user(email: str, roles: list[str]) -> str:
	if not frappe.db.exists("User", email):
		user = frappe.get_doc({"doctype": "User", "email": email, "first_name": email.split("@")[0], "send_welcome_email": 0})
		user.insert(ignore_permissions=True)
	user = frappe.get_doc("User", email)
	user.remove_roles(*[r.role for r in user.roles if r.role not in roles])
	user.add_roles(*roles)
	frappe.db.commit()
	return email


@contextmanager
def as_user(email: str):
	previous = frappe.session.user
	frappe.set_user(email)
	try:
		yield
	finally:
		frappe.set_user(previous)


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.1, message: str = "condition"):
	deadline = time.monotonic() + timeout
	while time.monotonic() < deadline:
		frappe.db.commit()
		value = predicate()
		if value:
			return value
		time.sleep(interval)
	raise AssertionError(f"timed out after {timeout}s waiting for {message}")


class Web:
	"""Frappe's WSGI app under gunicorn, the way production serves it."""

	def __init__(
		self,
		site: str,
		workers: int = 2,
		threads: int = 4,
		dev_server: bool = False,
		app: str = "tests.support.wsgi:application",
		preload: bool = False,
	):
		import socket

		with socket.socket() as s:
			s.bind(("127.0.0.1", 0))
			self.port = s.getsockname()[1]
		self.site = site
		self.base = f"http://127.0.0.1:{self.port}"
		self.env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True", HUF_TEST_SITE=site)
		if dev_server:  # as `bench start` serves: pages point the browser at the realtime server's own port
			self.env["DEV_SERVER"] = "1"
		preloading = ["--preload"] if preload else []  # the app is imported in the master, before it forks
		self.args = ["-w", str(workers), "--threads", str(threads), "-t", "120", "--pythonpath", str(ROOT), *preloading, app]
		self.start()

	def start(self) -> None:
		self.proc = subprocess.Popen(
			[sys.executable, "-m", "gunicorn", "-b", f"127.0.0.1:{self.port}", *self.args],
			cwd=os.getcwd(),
			env=self.env,
			stdout=subprocess.DEVNULL,
			stderr=subprocess.DEVNULL,
			start_new_session=True,
		)
		wait_for(self._up, 60, 0.2, "the web server")

	def restart(self) -> None:
		"""Drop every open connection (a network failure, as clients see it) and serve again on the same port.

		SIGKILL to the whole group: a quick shutdown (SIGINT) lets workers finish the streams they serve."""
		os.killpg(self.proc.pid, signal.SIGKILL)
		self.proc.wait()
		self.start()

	def _up(self) -> bool:
		import requests

		try:
			return requests.get(self.base + "/api/method/ping", headers=self.site_header(), timeout=2).ok
		except requests.RequestException:
			return False

	def site_header(self) -> dict:
		return {"X-Frappe-Site-Name": self.site, "Host": self.site}

	def token_headers(self, user: str) -> dict:
		doc = frappe.get_doc("User", user)
		secret = frappe.generate_hash(length=15)
		doc.api_key = doc.api_key or frappe.generate_hash(length=15)
		doc.api_secret = secret
		doc.save(ignore_permissions=True)
		frappe.db.commit()
		return {**self.site_header(), "Authorization": f"token {doc.api_key}:{secret}"}

	def login(self, user: str, password: str = "huf-Test-pw-1"):
		"""A browser-like session (cookies) for ``user``; returns (session, CSRF token of the session)."""
		import re

		import requests
		from frappe.utils.password import update_password

		update_password(user, password)
		frappe.db.commit()
		session = requests.Session()
		session.headers.update(self.site_header())
		session.post(self.base + "/api/method/login", json={"usr": user, "pwd": password}, timeout=30).raise_for_status()
		page = session.get(self.base + "/huf", timeout=30).text  # the web app's page carries the token
		return session, re.search(r'"csrf_token": "([^"]+)"', page).group(1)

	def post(self, path: str, data: dict, headers: dict):
		import requests

		return requests.post(self.base + path, json=data, headers=headers, timeout=60)

	def get(self, path: str, headers: dict, **params):
		import requests

		return requests.get(self.base + path, params=params, headers=headers, timeout=60)

	def stop(self) -> None:
		"""Quick shutdown (SIGINT): open streams would hold a graceful one for its whole timeout."""
		os.killpg(self.proc.pid, signal.SIGINT)
		try:
			self.proc.wait(timeout=10)
		except subprocess.TimeoutExpired:
			os.killpg(self.proc.pid, signal.SIGKILL)
			self.proc.wait()


@pytest.fixture(scope="session")
def web(site):
	server = Web(site)
	yield server
	server.stop()
