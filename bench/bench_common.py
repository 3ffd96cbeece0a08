"""Helpers shared by the benchmark drivers in bench/ (scan.py, delta.py).

- the cached Python environment built from bench/requirements.txt, which a driver re-runs
  itself in (`ensure_venv`);
- TPC-H lineitem at scale factor 1 as Parquet, generated once with tpchgen-cli (`ensure_data`);
- the TPC-H query texts the drivers share;
- comparing result tables (`compare_tables`) and printing Markdown tables (`markdown_table`);
- `ParleyRepl`: build/parley's interactive shell on a pseudo-terminal, to time single statements
  inside one `parley` process.

Nothing here is a test; `make test` never runs it.
"""

import decimal
import hashlib
import math
import os
import pty
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
CACHE = os.environ.get("PARLEY_CACHE", os.path.expanduser("~/.cache/parley"))
REQUIREMENTS = os.path.join(BENCH, "requirements.txt")
LINEITEM_ROWS = 6_001_215  # TPC-H lineitem at scale factor 1

# TPC-H Q1 and Q6 with their dates written out (Parley has no INTERVAL arithmetic yet);
# `{table}` stands for the engine's way of naming the data.
Q1 = """SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,
       sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,
       avg(l_discount) AS avg_disc, count(*) AS count_order
FROM {table}
WHERE l_shipdate <= DATE '1998-09-02'
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus"""

Q6 = """SELECT sum(l_extendedprice * l_discount) AS revenue
FROM {table}
WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24"""


def log(message):
    print(f"{os.path.basename(sys.argv[0])}: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Environment and data


def ensure_venv(script):
    """Re-run `script` (with this process's arguments) inside the bench virtualenv, creating it
    first if needed: ${PARLEY_CACHE:-~/.cache/parley}/bench-venv-<hash of requirements.txt>.
    Returns the venv's path when already running inside it."""
    with open(REQUIREMENTS, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    venv = os.path.join(CACHE, f"bench-venv-{digest}")
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return venv
    if not os.path.exists(os.path.join(venv, ".complete")):
        log(f"creating Python environment {venv}")
        shutil.rmtree(venv, ignore_errors=True)
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "-r", REQUIREMENTS], check=True)
        open(os.path.join(venv, ".complete"), "w").close()
    os.execv(python, [python, os.path.abspath(script)] + sys.argv[1:])


def ensure_data(data_dir):
    """Generate lineitem SF1 into <data_dir>/lineitem once; return that directory."""
    lineitem = os.path.join(data_dir, "lineitem")
    marker = os.path.join(data_dir, ".complete")
    if os.path.exists(marker):
        return lineitem
    if os.path.exists(lineitem):
        sys.exit(f"{lineitem} exists but {marker} does not (an interrupted run?); "
                 "remove it to regenerate")
    log(f"generating TPC-H lineitem SF1 Parquet into {lineitem}")
    tpchgen = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
    os.makedirs(data_dir, exist_ok=True)
    # Generate beside the destination and rename, so that a half-written table is never used.
    tmp = tempfile.mkdtemp(prefix=".lineitem-tmp.", dir=data_dir)
    try:
        subprocess.run([tpchgen, "parquet", "--scale-factor", "1", "--tables", "lineitem",
                        "--parts", "4", "--num-threads", str(os.cpu_count() or 1),
                        "--no-progress", "--output-dir", tmp], check=True)
        os.rename(os.path.join(tmp, "lineitem"), lineitem)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    open(marker, "w").close()
    return lineitem


def parquet_files(directory):
    return sorted(os.path.join(directory, name) for name in os.listdir(directory)
                  if name.endswith(".parquet"))


def _machine_busy_seconds():
    """CPU seconds all processes have used since boot (every core), from /proc/stat."""
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(
            int, f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds():
    """CPU seconds used by this process and its reaped children."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class OtherLoad:
    """Measures, over a `with` block, how many cores everything else on the machine kept busy:
    the machine's CPU time less this process's and its children's (reaped within the block),
    divided by the wall time. On a shared machine it tells which timings were disturbed."""

    def __enter__(self):
        self._start = (time.perf_counter(), _machine_busy_seconds(), _own_cpu_seconds())
        return self

    def __exit__(self, *exc):
        wall, busy, own = self._start
        wall = time.perf_counter() - wall
        others = (_machine_busy_seconds() - busy) - (_own_cpu_seconds() - own)
        self.cores = max(0.0, others / wall) if wall > 0 else 0.0
        return False


def wait_for_quiet(max_cores, max_wait, sample=2.0):
    """Wait (up to max_wait seconds) until other processes use at most max_cores over a
    `sample`-second window; return the last measurement."""
    deadline = time.monotonic() + max_wait
    waited = False
    while True:
        with OtherLoad() as load:
            time.sleep(sample)
        if load.cores <= max_cores or time.monotonic() >= deadline:
            if waited:
                log(f"other processes use {load.cores:.2f} cores; going on")
            return load.cores
        if not waited:
            log(f"other processes use {load.cores:.2f} cores; waiting for at most "
                f"{max_cores:.2f} (up to {max_wait:.0f} s)")
            waited = True


def warn_if_loaded(threshold=0.5):
    """Return the 1-minute load average, warning when other work may distort timings."""
    load = os.getloadavg()[0]
    if load > threshold:
        log(f"WARNING: 1-minute load average is {load:.2f}: other work on this machine "
            "will distort the timings")
    return load


# ---------------------------------------------------------------------------------------------
# Result comparison


def _normalize(value):
    if isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool):
        return float(value)
    return value


def _rounding_tolerance(value):
    """Half a unit in the last place of a decimal result (0 for other values): an engine that
    returns DECIMAL(p, s), as Spark's AVG does, rounds where a peer's DOUBLE does not."""
    if isinstance(value, decimal.Decimal) and value.is_finite():
        return 0.5 * 10.0 ** value.as_tuple().exponent
    return 0.0


def _sort_key(row):
    return tuple((0, v) if isinstance(v, float) else (1, str(v)) for v in row)


def compare_tables(actual, expected, ordered):
    """A list of differences between two result tables (by column position), empty if equal.
    Numbers are compared as floats within 1e-6 relative, or within half a unit in the last
    place of a decimal value."""
    if actual.num_columns != expected.num_columns:
        return [f"{actual.num_columns} columns, expected {expected.num_columns}"]
    if actual.num_rows != expected.num_rows:
        return [f"{actual.num_rows} rows, expected {expected.num_rows}"]
    raw_a = [tuple(row.values()) for row in actual.to_pylist()]
    raw_e = [tuple(row.values()) for row in expected.to_pylist()]
    if not ordered:
        raw_a.sort(key=lambda row: _sort_key(tuple(_normalize(v) for v in row)))
        raw_e.sort(key=lambda row: _sort_key(tuple(_normalize(v) for v in row)))
    problems = []
    for r, (ra, re) in enumerate(zip(raw_a, raw_e)):
        for c, (value_a, value_e) in enumerate(zip(ra, re)):
            a, e = _normalize(value_a), _normalize(value_e)
            if isinstance(a, float) and isinstance(e, float):
                tolerance = max(1e-9, _rounding_tolerance(value_a), _rounding_tolerance(value_e))
                same = math.isclose(a, e, rel_tol=1e-6, abs_tol=tolerance * (1 + 1e-9))
            else:
                same = a == e
            if not same:
                problems.append(f"row {r} column {expected.column_names[c]}: {a!r}, "
                                f"expected {e!r}")
    return problems


# ---------------------------------------------------------------------------------------------
# Report


def markdown_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda cells: "| " + " | ".join(  # noqa: E731
        str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r) for r in rows])


# ---------------------------------------------------------------------------------------------
# Timing single statements inside one parley process


class ParleyError(RuntimeError):
    pass


class ParleyRepl:
    """build/parley's interactive shell, driven through a pseudo-terminal.

    The CLI has no timing option, and a script given with -c, -f or on a pipe is read whole
    before it runs, so only the whole process can be timed that way. The interactive shell (which
    it opens when standard input is a terminal) runs a statement as soon as a line ends with `;`
    and then prints its prompt again: the time from sending the line to the next prompt is the
    statement's time (parse, analysis, execution, commit, printing the result), without the
    process start, the Session's creation or the exit.

    `started` is when the process was forked, so `close()` can report the process's wall time.
    HOME points at `home` so that the shell's history file does not land in the user's home.
    """

    PROMPT = b"parley> "

    def __init__(self, binary, args, cwd, home, timeout=1800, env=None):
        self.timeout = timeout
        env = dict(env if env is not None else os.environ, HOME=home, TERM="dumb")
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child
            try:
                os.chdir(cwd)
                os.execve(binary, [binary] + list(args), env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self._set_window_size(rows=50, cols=4000)  # no line wrapping of long statements
        self.startup_output = self._read_until_prompt()
        self.ready = time.perf_counter()

    def _set_window_size(self, rows, cols):
        import fcntl
        import struct
        import termios
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def _read_until_prompt(self):
        data = b""
        deadline = time.monotonic() + self.timeout
        while not data.endswith(self.PROMPT):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ParleyError(f"no prompt after {self.timeout} s; output so far: "
                                  f"{data[-2000:].decode(errors='replace')}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # EIO: the process exited (crashed?)
                chunk = b""
            if not chunk:
                status = self._reap()
                raise ParleyError(f"parley exited ({status}) before its prompt; output: "
                                  f"{data[-2000:].decode(errors='replace')}")
            data += chunk
        return data[:-len(self.PROMPT)].decode(errors="replace").replace("\r", "")

    def run(self, sql):
        """Run one statement; return (seconds, its output). Raises ParleyError on an error."""
        line = " ".join(sql.split()).rstrip(";") + ";"
        start = time.perf_counter()
        os.write(self.fd, line.encode() + b"\n")
        output = self._read_until_prompt()
        elapsed = time.perf_counter() - start
        # The terminal echoes the line first (twice when it arrives before the shell has put
        # the terminal in raw mode); what follows is the statement's output.
        lines = output.split("\n")
        while lines and lines[0].strip() == line:
            lines.pop(0)
        output = "\n".join(lines)
        if "Error:" in output:
            raise ParleyError(output.strip())
        return elapsed, output

    def _reap(self):
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return os.waitstatus_to_exitcode(status)

    def close(self):
        """Quit the shell; return (exit code, seconds since the fork)."""
        os.write(self.fd, b".quit\n")
        deadline = time.monotonic() + 60
        code = None
        while self.pid is not None and time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.pid = None
                code = os.waitstatus_to_exitcode(status)
                break
            try:  # keep the terminal drained
                if select.select([self.fd], [], [], 0.005)[0]:
                    os.read(self.fd, 65536)
            except OSError:
                pass
        elapsed = time.perf_counter() - self.started
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
            self._reap()
        os.close(self.fd)
        return code, elapsed
