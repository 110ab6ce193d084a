"""What an operator reads and runs: every setting the code reads is in .env.example (with a default and a
line saying what it is) and in the README; the Dockerfile and compose.yaml set only settings the bot
reads, and keep the image's promises (dependencies before code, health check, non-root, exec form)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_ONLY = {"POSTGRES_PASSWORD"}  # compose.yaml's own, read by docker compose, not the bot


def settings_read_by_the_code() -> set[str]:
    """Every environment variable bot/ and cogs/ read (``os.environ.get("X")``, ``os.environ["X"]``, ``os.getenv("X")``)."""
    pattern = re.compile(r"""os\.(?:environ\.get\(|environ\[|getenv\()\s*["']([A-Z][A-Z0-9_]+)["']""")
    found: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            found.update(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_scan_finds_the_settings_we_know() -> None:
    read = settings_read_by_the_code()
    assert {"DISCORD_TOKEN", "DATABASE_URL", "DISCORD_GLOBAL_LIMIT", "METRICS_PORT", "LOG_FORMAT"} <= read
    assert "MALLOC_ARENA_MAX" not in read  # set for the bot's own process, not read as a setting


def env_example() -> dict[str, tuple[str, str]]:
    """.env.example: setting -> (its value as given, the comment line above it)."""
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    found = {}
    for i, line in enumerate(lines):
        match = re.fullmatch(r"#? ?([A-Z][A-Z0-9_]+)=(.*)", line)
        if match:
            above = lines[i - 1] if i else ""
            found[match.group(1)] = (match.group(2), above)
    return found


def test_env_example_lists_every_setting_with_a_default_and_one_line() -> None:
    listed = env_example()
    read = settings_read_by_the_code()
    missing = read - set(listed)
    assert not missing, f"settings the code reads but .env.example does not list: {sorted(missing)}"
    assert set(listed) - read <= COMPOSE_ONLY, "a setting in .env.example that nothing reads"
    for name, (_value, above) in listed.items():
        assert above.startswith("# ") and "=" not in above.split(":")[0], f"{name} has no line above it"
        # The default is given, or the line says there is none (or that unset means something).
        if not _value:
            assert re.search(r"[Dd]efault|[Nn]o default|unset", above), f"{name}: no default stated"


def test_the_readme_names_every_setting() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = {name for name in settings_read_by_the_code() if not re.search(rf"`{name}\b", readme)}
    assert not missing, f"settings the README does not name: {sorted(missing)}"
    assert len(readme.splitlines()) <= 200


def test_the_operators_docs_table_has_every_setting() -> None:
    operating = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", operating, re.M))
    assert settings_read_by_the_code() <= table


def test_compose_runs_two_shards_on_postgresql_15_and_sets_only_what_the_bot_reads() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    bots = {name: s for name, s in services.items() if s.get("build") or s.get("image") == "racing-bot"}
    assert len(bots) == 2
    read = settings_read_by_the_code()
    shard_ids = []
    for name, service in bots.items():
        assert service["restart"] == "unless-stopped", name
        environment = service["environment"]
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) for item in environment)
        unknown = set(environment) - read
        assert not unknown, f"{name} sets {sorted(unknown)}, which the bot does not read"
        assert environment["DATABASE_URL"].startswith("postgresql://")
        assert environment["SHARD_COUNT"] == "2"
        shard_ids.append(environment["SHARD_IDS"])
    assert sorted(shard_ids) == ["0", "1"]
    db = services["db"]
    assert db["image"] == "postgres:15"
    volume = db["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert len((ROOT / "compose.yaml").read_text(encoding="utf-8").splitlines()) > 10
    docs = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    assert "compose.yaml" in docs and 'SHARD_IDS: "1"' in docs  # the file is shown in the docs


def test_the_dockerfile_installs_dependencies_before_the_code_and_checks_health_without_curl() -> None:
    lines = [
        line.strip()
        for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    instructions = [line.split()[0] for line in lines]
    install = next(i for i, line in enumerate(lines) if line.startswith("RUN") and "pip install" in line)
    first_code = next(i for i, line in enumerate(lines) if re.match(r"COPY (bot|cogs|assets)\b", line))
    assert install < first_code
    assert all(not re.match(r"COPY (bot|cogs|assets)\b", line) for line in lines[:install])
    env = " ".join(line for line in lines if line.startswith("ENV"))
    assert "METRICS_PORT=" in env
    for name in re.findall(r"\b([A-Z][A-Z0-9_]+)=", env):
        assert name in settings_read_by_the_code() or name.startswith(("PYTHON", "PIP_")), name
    healthcheck = next(line for line in lines if line.startswith("HEALTHCHECK"))
    assert '"python"' in healthcheck and "/healthz" in healthcheck and "curl" not in healthcheck
    assert re.search(r'CMD \["python"', healthcheck)
    cmd = lines[len(instructions) - 1 - instructions[::-1].index("CMD")]
    assert cmd.startswith('CMD ["')  # exec form: the bot is PID 1 and gets SIGTERM itself
    assert any(line == "STOPSIGNAL SIGTERM" for line in lines)
    user = [line for line in lines if line.startswith("USER")]
    assert user and user[-1] not in ("USER root", "USER 0")
