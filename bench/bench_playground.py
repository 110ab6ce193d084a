"""How soon a newcomer plays (issue 29): the README's first command, measured as a newcomer runs it.

Prints, each over ``--runs`` runs (median and worst), wall and CPU seconds:

- **start to address**: ``python -m bot playground --port 0`` started until it prints its address (the
  bot logged in to its fake Discord, its worker processes started, the page served);
- **page interactive**: from that line until the page, opened in headless Chromium (Debian's, through
  Playwright, as the page tests drive it), has its command box usable (``body[data-ready=yes]``: the
  commands, the people and the first view are in, and the live updates are connected); and from the
  browser's request alone;
- **Ctrl-C to exit**: SIGINT until the process has exited (the bot closed, its workers stopped);
- with ``--clone``: **fresh clone to address**: ``git clone`` of this checkout into a temporary folder, a
  new virtual environment, the README's ``pip install -q -e .`` (pip's cache as it is: run once before
  so that it is warm) and the command, until the address is printed.

Wall seconds depend on how busy the machine is; CPU seconds (the processes' own, children included)
much less. Run: ``python bench/bench_playground.py [--runs 5] [--clone]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
READY = re.compile(r"Playground ready: open (\S+)")


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def start(python: str, cwd: Path) -> tuple[subprocess.Popen[str], str, float]:
    """The playground started with ``python``: (its process, the address it printed, the seconds it took)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    began = time.perf_counter()
    process = subprocess.Popen(
        [python, "-m", "bot", "playground", "--port", "0"],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        found = READY.search(line)
        if found:
            return process, found.group(1), time.perf_counter() - began
    raise SystemExit(f"the playground ended without printing its address (exit {process.wait()})")


def stop(process: subprocess.Popen[str]) -> float:
    """Ctrl-C; the seconds until the playground has exited."""
    began = time.perf_counter()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return time.perf_counter() - began


async def interactive(address: str) -> float:
    """Seconds from asking the browser for the page until its command box is usable."""
    import playwright.async_api as playwright

    async with playwright.async_playwright() as driver:
        with tempfile.TemporaryDirectory() as profile:
            browser = await driver.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            try:
                page = browser.pages[0] if browser.pages else await browser.new_page()
                began = time.perf_counter()
                await page.goto(address)
                await page.wait_for_selector("body[data-ready=yes]", timeout=30_000)
                await page.fill("#command", "/hotstreak")
                await page.wait_for_selector("#suggestions li[data-command='hotstreak start']")
                return time.perf_counter() - began
            finally:
                await browser.close()


def summary(name: str, values: list[float], unit: str = "s") -> str:
    return f"{name:<38} median {statistics.median(values):6.2f} {unit}   worst {max(values):6.2f} {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clone", action="store_true", help="also time a fresh clone, install and start")
    args = parser.parse_args()

    starts, start_cpu, pages, to_ready, stops = [], [], [], [], []
    for _run in range(args.runs):
        cpu = children_cpu()
        process, address, seconds = start(sys.executable, ROOT)
        printed = time.perf_counter()
        try:
            page = asyncio.run(interactive(address))
            to_ready.append(time.perf_counter() - printed)
            pages.append(page)
        finally:
            stops.append(stop(process))
        starts.append(seconds)
        start_cpu.append(children_cpu() - cpu)
    print(f"python -m bot playground, {args.runs} runs (a {os.cpu_count()}-core machine)")
    print(summary("start to printed address (wall)", starts))
    print(summary("page usable after the address (wall)", to_ready))
    print(summary("  of it, the browser's request alone", pages))
    print(summary("Ctrl-C to exit (wall)", stops))
    print(summary("playground's CPU, start to exit", start_cpu))

    if args.clone:
        with tempfile.TemporaryDirectory(prefix="playground-clone-") as folder:
            clone = Path(folder) / "racing-bets"
            began = time.perf_counter()
            cpu = children_cpu()
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            subprocess.run([sys.executable, "-m", "venv", str(clone / ".venv")], check=True)
            subprocess.run([str(clone / ".venv/bin/pip"), "install", "-q", "-e", "."], cwd=clone, check=True)
            installed = time.perf_counter() - began
            process, _address, seconds = start(str(clone / ".venv/bin/python"), clone)
            total = time.perf_counter() - began
            stop(process)
            print(
                f"{'fresh clone + install + start (wall)':<38} {total:6.2f} s"
                f" (clone and install {installed:.2f} s, start {seconds:.2f} s; CPU {children_cpu() - cpu:.2f} s)"
            )


if __name__ == "__main__":
    main()
