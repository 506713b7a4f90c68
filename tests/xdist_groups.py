"""`xdist_group` marks that reach the xdist scheduler (tests/conftest.py imports these hooks).

Two things kept the corpus tests from sharing one worker:
- tests/conftest.py picks `--dist loadgroup` in the controller, but a worker parses only the
  command line, so it never knew it should mark the grouped tests;
- pytest-xdist marks them by appending `@group` to the legacy `item._nodeid`, which pytest 9.2
  no longer reads (pytest-xdist issue #1386), so the scheduler saw no group at all.
So the controller tells each worker the mode and a file, the workers write the groups they
collected there (nodeid -> group), and the scheduler (xdist's LoadGroupScheduling) reads a
test's group from that file before it falls back to the `@group` suffix.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

_FILE = pytest.StashKey[Path]()


def _groups_file(config: pytest.Config) -> Path:
    """The controller's file of groups, made once per run."""
    if _FILE not in config.stash:
        fd, name = tempfile.mkstemp(prefix="repopilot-xdist-groups-", suffix=".json")
        os.close(fd)
        config.stash[_FILE] = Path(name)
    return config.stash[_FILE]


@pytest.hookimpl(optionalhook=True)  # xdist hooks: unknown under -p no:xdist
def pytest_configure_node(node: Any) -> None:
    """(The controller, per worker.) The mode chosen in tests/conftest.py, and where to write."""
    config = node.config
    grouped = config.option.dist == "loadgroup"
    node.workerinput["loadgroup"] = grouped
    if grouped:
        node.workerinput["groups_file"] = str(_groups_file(config))


def worker_mode(config: pytest.Config) -> None:
    """(A worker, from pytest_cmdline_main.) Group as the controller schedules."""
    if config.workerinput.get("loadgroup"):  # type: ignore[attr-defined]
        config.option.loadgroup = True


def record(config: pytest.Config, items: list[pytest.Item]) -> None:
    """(A worker, after collection.) Write nodeid -> group for the marked tests. Every worker
    collects the same tests and writes the same file, each in one atomic replace."""
    path = getattr(config, "workerinput", {}).get("groups_file")
    if not path:
        return
    groups = {}
    for item in items:
        names = sorted(
            {
                str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                for m in item.iter_markers("xdist_group")
            }
        )
        if names:
            groups[item.nodeid] = "_".join(names)
    tmp = f"{path}.{config.workerinput['workerid']}"  # type: ignore[attr-defined]
    Path(tmp).write_text(json.dumps(groups), encoding="utf-8")
    os.replace(tmp, path)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """LoadGroupScheduling that knows the groups the workers wrote."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    if not hasattr(LoadGroupScheduling, "_split_scope"):  # another xdist: its own grouping
        return None
    path = _groups_file(config)

    class FileGroups(LoadGroupScheduling):
        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            # first called once every worker has sent its collection, so written after theirs
            if self.groups is None:
                text = path.read_text(encoding="utf-8") if path.is_file() else ""
                self.groups = json.loads(text) if text else {}
            return self.groups.get(nodeid) or super()._split_scope(nodeid)

    return FileGroups(config, log)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _FILE in config.stash:
        config.stash[_FILE].unlink(missing_ok=True)
