"""First cause, honestly ranked, without a base log (issue 20): errors a script handled, Ansible
tasks run with `ignore_errors`, a compiler's notes and warnings, errors far before the failure
and secondary summary errors. Every log here is written for the test from the tool's documented
output format (npm, git, curl, GNU make and tar, Ansible's default callback, rustc, GCC/Clang,
javac, Zig's build system, bash xtrace), none copied from a corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.fallback import Line, guess
from repopilot.engine.verdict.line_score import is_aside, score, starts_command
from repopilot.engine.verdict.order import error_above, is_note
from repopilot.records import Verdict
from tests.engine_support import PATTERNS

pytestmark = pytest.mark.unit

TS = "2025-06-01T10:00:00.0000000Z "


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


@pytest.fixture(scope="module")
def bare() -> Classifier:
    """A library that knows none of these tools: only the generic signals decide."""
    return Classifier(load_library(PATTERNS))


def gha(tmp_path: Path, command: str, *body: str, code: int = 1) -> Path:
    """A GitHub Actions job log: one `run:` step printing `body`, then the runner's exit line."""
    lines = [
        "Current runner version: '2.325.0'",
        f"##[group]Run {command}",
        command,
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        *body,
        f"##[error]Process completed with exit code {code}.",
        "Post job cleanup.",
        "Cleaning up orphan processes",
    ]
    path = tmp_path / "job.log"
    path.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    return path


def one(engine: Classifier, path: Path) -> Verdict:
    (v,) = engine.classify_path(path)
    return v


def texts(v: Verdict) -> list[str]:
    return [e.text for e in v.evidence]


NPM_VIEW_404 = (
    "npm error code E404",
    "npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fwidgets/3.4.1 - Not found",
    "npm error 404",
    "npm error 404  '@acme/widgets@3.4.1' is not in this registry.",
    "npm error 404",
    "npm error 404 Note that you can also install from a",
    "npm error 404 tarball, folder, http url, or git url.",
    "npm error A complete log of this run can be found in: "
    "/home/runner/.npm/_logs/2025-06-01T10_00_01_000Z-debug-0.log",
)


# a. Handled errors: the script probed an error and went on


def test_a_handled_npm_404_probe_is_not_the_cause(engine, tmp_path):
    # `npm view pkg@ver` 404s ("not published yet"), the script builds (npm's lifecycle banners
    # say another command ran), then fails in its own words
    log = gha(
        tmp_path,
        "./scripts/publish.sh",
        "Checking whether @acme/widgets@3.4.1 is on the registry",
        *NPM_VIEW_404,
        "3.4.1 is not published yet: building it",
        "> @acme/widgets@3.4.1 build",
        "> rollup -c",
        "created dist/index.js, dist/index.mjs in 1.4s",
        "Reading the release notes for 3.4.1 from CHANGELOG.md",
        "Error: CHANGELOG.md has no release date for 3.4.1; refusing to publish",
    )
    v = one(engine, log)
    assert texts(v)[0] == "Error: CHANGELOG.md has no release date for 3.4.1; refusing to publish"
    assert all("E404" not in t and "404" not in t for t in texts(v))
    assert v.category != "dependency_resolution" and v.decided_by == "none"


def test_a_handled_npm_404_stays_the_cause_when_nothing_else_failed(engine, tmp_path):
    # the same probe with nothing error-like after it: the 404 is all there is to show
    log = gha(tmp_path, "npm view @acme/widgets@3.4.1 version", *NPM_VIEW_404)
    v = one(engine, log)
    assert v.decided_by == "pattern" and texts(v)[0] == "npm error code E404"


XTRACE_DEPLOY = (
    "+ git rev-parse --verify origin/gh-pages",
    "fatal: Needed a single revision",
    "+ echo 'gh-pages does not exist yet; creating it'",
    "gh-pages does not exist yet; creating it",
    "+ git checkout --orphan gh-pages",
    "Switched to a new branch 'gh-pages'",
    "+ cp -r site/. .",
    "+ git add -A",
    "+ git commit -m 'Deploy docs'",
    "[gh-pages (root-commit) 3f2a1bc] Deploy docs",
    " 42 files changed, 5120 insertions(+)",
    "+ python scripts/check_links.py site",
    "checking 42 pages",
    "checking index.html",
    "checking api/index.html",
    "checking guide/install.html",
)


def test_a_handled_git_rev_parse_yields_to_the_later_error(bare, engine, tmp_path):
    # xtrace (`set -x`) shows the script went on after `fatal:`; the link check fails later
    log = gha(
        tmp_path,
        "./ci/deploy-docs.sh",
        *XTRACE_DEPLOY,
        "broken link in guide/install.html: ../api/config.html#options (not found)",
        "1 broken link(s)",
    )
    for eng in (bare, engine):
        v = one(eng, log)
        assert texts(v)[0].startswith("broken link in guide/install.html"), texts(v)
        assert all("Needed a single revision" not in t for t in texts(v))


def test_a_an_error_followed_only_by_cleanup_commands_stays_the_cause(bare, tmp_path):
    # an EXIT trap echoes its commands after the real error and prints nothing error-like:
    # the error was not handled
    log = gha(
        tmp_path,
        "./ci/build.sh",
        "+ ./configure --prefix=/usr",
        "configure: error: C compiler cannot create executables",
        "+ cleanup",
        "+ rm -rf /home/runner/work/_temp/build.x1",
        "+ echo 'cleaned up'",
        "cleaned up",
    )
    v = one(bare, log)
    assert texts(v)[0] == "configure: error: C compiler cannot create executables"


def test_a_curl_404_probe_is_not_the_cause(engine, tmp_path):
    log = gha(
        tmp_path,
        "./ci/fetch-fixtures.sh",
        "+ curl -fsSL -o cache.tar.gz https://example.org/fixtures/cache-v7.tar.gz",
        "curl: (22) The requested URL returned error: 404",
        "+ echo 'no cached fixtures, generating them'",
        "no cached fixtures, generating them",
        "+ python tools/make_fixtures.py --out fixtures",
        "writing fixtures/a.json",
        "writing fixtures/b.json",
        "+ python tools/validate_fixtures.py fixtures",
        "validating 2 fixture files",
        "ERROR: fixtures/b.json: field 'created_at' is not an ISO date: 'yesterday'",
    )
    v = one(engine, log)
    assert texts(v)[0].startswith("ERROR: fixtures/b.json: field 'created_at'")
    assert all("curl: (22)" not in t for t in texts(v))


def test_a_a_wrapper_reports_the_command_right_above_it(engine, tmp_path):
    # make runs `git describe` (fails, handled with `|| echo`), more recipe lines, then `tar`
    # fails: make's `*** Error 2` reports tar, not the earlier `fatal:`
    log = gha(
        tmp_path,
        "make dist",
        "VERSION=$(git describe --tags 2>&1 || echo 0.0.0)",
        "fatal: not a git repository (or any of the parent directories): .git",
        "version: 0.0.0",
        "mkdir -p dist",
        "cp README.md LICENSE dist/",
        "tar -czf dist/tool-0.0.0.tar.gz -C build tool",
        "tar: build: Cannot open: No such file or directory",
        "tar: Error is not recoverable: exiting now",
        "make: *** [Makefile:14: dist] Error 2",
    )
    v = one(engine, log)
    assert texts(v)[0] == "tar: build: Cannot open: No such file or directory"


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("+ git checkout --orphan gh-pages", True),
        ("++ git rev-parse HEAD", True),
        ("> @acme/widgets@3.4.1 build", True),
        ("> app@1.0.0 test", True),
        ("+++ b/src/app.py", False),  # a unified diff's header
        ("+    return total", False),  # a diff's added line
        ("+ CategoryInfo          : OperationStopped: (:) [], RuntimeException", False),
        ("+ FullyQualifiedErrorId : NativeCommandError", False),
        ("> rollup -c", False),  # npm's echo of the script's command, not a new script
    ],
)
def test_a_what_counts_as_another_command(text, command):
    assert starts_command(text) is command


def test_a_a_test_run_is_never_judged_handled(engine, tmp_path):
    # `go test` reports a failure, other packages' output follows, a later command prints an
    # error-looking line: the failing test is still the cause (test runners report and go on)
    filler = [f"=== RUN   TestStore{i}\n--- PASS: TestStore{i} (0.00s)" for i in range(600)]
    log = gha(
        tmp_path,
        "./ci/test.sh",
        "+ go test ./...",
        "--- FAIL: TestParse (0.00s)",
        '    parse_test.go:12: Parse("1+") = 3, want error',
        "FAIL",
        "FAIL\texample.com/calc/parse\t0.004s",
        *"\n".join(filler).split("\n"),
        "ok  \texample.com/calc/store\t0.210s",
        "+ ./ci/upload-coverage.sh",
        "ERROR: coverage upload skipped: no token",
    )
    v = one(engine, log)
    assert v.category == "test_failure"
    assert any("TestParse" in t or "parse_test.go:12" in t for t in texts(v)[:2])


# b. Ansible: `fatal: [host]: FAILED!` followed by `...ignoring` is no failure


ANSIBLE_RECAP = "PLAY RECAP *********************************************************************"


def test_b_ansible_ignored_task_is_not_the_cause(engine, tmp_path):
    log = gha(
        tmp_path,
        "ansible-playbook -i inventory/ci site.yml",
        "PLAY [web] *********************************************************************",
        "TASK [app : Check whether the app is installed] ********************************",
        'fatal: [web1]: FAILED! => {"changed": true, "cmd": ["/usr/local/bin/app", "--version"], '
        '"msg": "[Errno 2] No such file or directory: b\'/usr/local/bin/app\'", "rc": 2}',
        "...ignoring",
        "TASK [app : Install the app] ***************************************************",
        "changed: [web1]",
        "TASK [app : Start the service] *************************************************",
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "Unable to start service app: '
        'Job for app.service failed because the control process exited with error code."}',
        ANSIBLE_RECAP,
        "web1                       : ok=3    changed=1    unreachable=0    failed=1    "
        "skipped=0    rescued=0    ignored=1",
    )
    v = one(engine, log)
    assert v.pattern_id == "ansible.task.failed"
    assert "Unable to start service app" in texts(v)[0]
    assert all("/usr/local/bin/app" not in t for t in texts(v))
    assert "app" in v.title or "web1" in v.title


def test_b_ansible_ignored_loop_item_is_not_the_cause(engine, tmp_path):
    log = gha(
        tmp_path,
        "ansible-playbook -i inventory/ci db.yml",
        "TASK [db : Drop the old schemas] ***********************************************",
        'failed: [db1] (item=legacy) => {"ansible_loop_var": "item", "changed": false, '
        '"item": "legacy", "msg": "Database query failed: schema \\"legacy\\" does not exist"}',
        "ok: [db1] => (item=staging)",
        "...ignoring",
        "TASK [db : Run the migrations] *************************************************",
        'fatal: [db1]: FAILED! => {"changed": true, "cmd": "./migrate up", "msg": "non-zero '
        'return code", "rc": 1, "stderr": "migration 0042_add_index failed"}',
        ANSIBLE_RECAP,
        "db1                        : ok=2    changed=1    unreachable=0    failed=1    "
        "skipped=0    rescued=0    ignored=1",
    )
    v = one(engine, log)
    assert texts(v)[0].startswith("fatal: [db1]: FAILED!") and "./migrate up" in texts(v)[0]
    assert all("item=legacy" not in t for t in texts(v))


def test_b_a_plain_ansible_log_whose_only_failure_was_ignored_did_not_fail(engine, tmp_path):
    path = tmp_path / "ansible.txt"  # a pasted run: no runner structure
    path.write_text(
        "TASK [Check for the old config] ************************************************\n"
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "file not found: /etc/app.conf"}\n'
        "...ignoring\n"
        "TASK [Write the config] ********************************************************\n"
        "changed: [web1]\n"
        f"{ANSIBLE_RECAP}\n"
        "web1                       : ok=2    changed=1    unreachable=0    failed=0    "
        "skipped=0    rescued=0    ignored=1\n",
        encoding="utf-8",
    )
    assert one(engine, path).category == "no_failure"


# c. Notes and warnings never beat an error of the same tool


def test_c_rustc_deny_note_follows_its_error(engine, tmp_path):
    # `= note: -D unused-variables implied by -D warnings` is what a pattern reads (the lint's
    # name); the error it belongs to leads
    log = gha(
        tmp_path,
        "cargo build --locked",
        "   Compiling shop v0.1.0 (/home/runner/work/shop/shop)",
        "error: unused variable: `discount`",
        " --> src/cart.rs:8:9",
        "  |",
        "8 |     let discount = 0;",
        "  |         ^^^^^^^^ help: if this is intentional, prefix it with an underscore: "
        "`_discount`",
        "  |",
        "  = note: `-D unused-variables` implied by `-D warnings`",
        "  = help: to override `-D warnings` add `#[allow(unused_variables)]`",
        "error: could not compile `shop` (lib) due to 1 previous error",
    )
    v = one(engine, log)
    assert v.category == "compile_error"
    assert texts(v)[0] == "error: unused variable: `discount`"
    assert "unused-variables" in v.title  # the note still names the lint


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (  # clang: a warning before, notes after
            (
                "src/main.c:14:9: warning: unused variable 'tmp' [-Wunused-variable]",
                "src/main.c:21:12: error: call to undeclared function 'parse_args'; ISO C99 and "
                "later do not support implicit function declarations "
                "[-Wimplicit-function-declaration]",
                "src/parse.h:7:5: note: 'parse_argv' declared here",
                "1 warning and 1 error generated.",
            ),
            "src/main.c:21:12: error: call to undeclared function 'parse_args'",
        ),
        (  # javac: a deprecation warning and `Note:` lines around the error
            (
                "src/main/java/shop/Cart.java:5: warning: [deprecation] Date(int,int,int) in "
                "Date has been deprecated",
                "src/main/java/shop/Cart.java:12: error: cannot find symbol",
                "        return items.sizee();",
                "  symbol:   method sizee()",
                "Note: Some input files use unchecked or unsafe operations.",
                "Note: Recompile with -Xlint:unchecked for details.",
                "1 error",
                "1 warning",
            ),
            "src/main/java/shop/Cart.java:12: error: cannot find symbol",
        ),
    ],
)
def test_c_compiler_warnings_and_notes_never_lead(engine, tmp_path, body, error):
    v = one(engine, gha(tmp_path, "make", *body))
    assert v.category == "compile_error"
    assert texts(v)[0].startswith(error)


def test_c_a_linters_note_and_warning_follow_its_error(engine, tmp_path):
    # shellcheck's gcc format maps style/info to `note:`; all three fail the run, the error leads
    log = gha(
        tmp_path,
        "shellcheck -f gcc scripts/deploy.sh",
        "scripts/deploy.sh:3:8: note: Double quote to prevent globbing and word splitting. "
        "[SC2086]",
        "scripts/deploy.sh:7:1: warning: FOO appears unused. Verify use (or export if used "
        "externally). [SC2034]",
        "scripts/deploy.sh:12:6: error: Couldn't parse this test expression. Fix to allow more "
        "checks. [SC1073]",
    )
    v = one(engine, log)
    assert v.category == "lint_format"
    assert texts(v)[0].startswith("scripts/deploy.sh:12:6: error:") and "SC1073" in v.title
    assert len(v.evidence) == 3  # the note and the warning are still shown, after it


def test_c_a_warning_that_reads_worse_than_the_error_does_not_win_the_fallback(bare, tmp_path):
    # no pattern knows these lines: the warning names an exception type and says "undefined",
    # the error says little, yet the error is the diagnostic that failed the build
    log = gha(
        tmp_path,
        "make",
        "c++ -c -o report.o src/report.cpp",
        "src/report.cpp:12:10: error: expected ';' after expression",
        "   12 |     emit(err)",
        "      |              ^",
        "src/report.cpp:40:5: warning: delete called on 'ParseError' that has virtual functions "
        "but non-virtual destructor; deleting it is undefined behavior "
        "[-Wdelete-non-virtual-dtor]",
    )
    v = one(bare, log)
    assert texts(v)[0] == "src/report.cpp:12:10: error: expected ';' after expression"


def test_c_notes_and_located_warnings_score_below_an_error():
    err = Line(5, "src/a.c:3:4: error: expected ';' after expression", False)
    for aside in (
        "src/a.c:9:1: warning: 'ParseError' is deprecated: it is undefined in C23",
        "src/a.c:9:1: note: 'ParseError' declared here; the failed lookup was here",
        "   = note: expected enum `Result<Config, ConfigError>` found unit type `()`",
        "help: a function with a similar name exists: `parse_error`",
    ):
        assert score(Line(6, aside, False), 6, 10) < score(err, 6, 10), aside


@pytest.mark.parametrize(
    ("text", "aside"),
    [
        ("src/a.c:9:1: warning: unused variable 'x' [-Wunused-variable]", True),
        ("scripts/a.sh:3:8: note: Double quote to prevent globbing. [SC2086]", True),
        ("warning: unused import: `std::fs`", True),
        ("   = note: `#[warn(dead_code)]` on by default", True),
        ("hint: Updates were rejected because the remote contains work", True),
        ("WARNING: DATA RACE", False),  # the race detector's report is a failure
        ("WARNING: ThreadSanitizer: data race (pid=9876)", False),
        ("src/a.c:3:4: error: expected ';' after expression", False),
    ],
)
def test_c_what_is_an_aside(text, aside):
    assert is_aside(text) is aside


def test_c_error_above_a_note():
    lines = [
        Line(1, "error[E0308]: mismatched types", False),
        Line(2, " --> src/lib.rs:12:20", False),
        Line(3, "   = note: expected type `u32`", False),
    ]
    assert is_note(lines[2].text) and not is_note(lines[0].text)
    assert error_above(lines, 3) == lines[0]
    assert error_above(lines[1:], 3) is None


# d. Far from the failure, and secondary errors


def test_d_a_traceback_survived_thousands_of_lines_earlier_does_not_win(engine, tmp_path):
    log = gha(
        tmp_path,
        "./ci/e2e.sh",
        "starting the app server",
        "Traceback (most recent call last):",
        '  File "/home/runner/work/app/app/app/cache.py", line 41, in connect',
        "    self.client = redis.Redis.from_url(url)",
        "redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. "
        "Connection refused.",
        "cache disabled: running without redis",
        *(f"scenario {i:04d}: checkout flow step {i % 7} ok" for i in range(3000)),
        "scenario 3000: refund flow",
        "Error: scenario 3000 (refund flow): expected status 200, got 500",
        "e2e: 1 of 3001 scenarios failed",
    )
    v = one(engine, log)
    assert texts(v)[0] == "Error: scenario 3000 (refund flow): expected status 200, got 500"
    assert v.category != "network" and v.confidence <= 0.35  # a guess, and it says so


def test_d_zig_first_error_beats_the_build_systems_summary(engine, tmp_path):
    # Zig's build runner reports a failed compile step with its own `error:` lines after the
    # compiler's (lib/std/Build/Step.zig): the compiler's first error leads
    log = gha(
        tmp_path,
        "zig build",
        "install",
        "└─ install hello",
        "   └─ zig build-exe hello Debug native 1 errors",
        "src/main.zig:5:9: error: use of undeclared identifier 'countr'",
        "    _ = countr;",
        "        ^~~~~~",
        "src/main.zig:2:7: note: 'counter' declared here",
        "error: the following command failed with 1 compilation errors:",
        "/opt/hostedtoolcache/zig/0.13.0/x64/zig build-exe -ODebug "
        "-Mroot=/home/runner/work/hello/hello/src/main.zig --listen=-",
        "Build Summary: 0/3 steps succeeded; 1 failed (disable with --summary none)",
        "install transitive failure",
        "└─ install hello transitive failure",
        "   └─ zig build-exe hello Debug native 1 errors",
        "error: the following build command failed with exit code 1:",
        "/home/runner/work/hello/hello/.zig-cache/o/5f0e2b1c/build "
        "/opt/hostedtoolcache/zig/0.13.0/x64/zig /home/runner/work/hello/hello",
    )
    v = one(engine, log)
    assert v.category == "compile_error"
    assert texts(v)[0] == "src/main.zig:5:9: error: use of undeclared identifier 'countr'"


@pytest.mark.parametrize(
    ("body", "first"),
    [
        (  # rustc before 1.72: "aborting due to previous error"
            (
                "error[E0599]: no method named `totl` found for struct `Cart` in the current scope",
                "  --> src/main.rs:9:10",
                "error: aborting due to previous error",
                "For more information about this error, try `rustc --explain E0599`.",
                "error: could not compile `shop`",
            ),
            "error[E0599]: no method named `totl`",
        ),
        (  # clang: "N errors generated." after the errors
            (
                "cc -Wall -c -o main.o main.c",
                "main.c:8:5: error: use of undeclared identifier 'countr'",
                "main.c:12:12: error: incompatible pointer to integer conversion returning "
                "'char *' from a function with result type 'int' [-Wint-conversion]",
                "2 errors generated.",
                "make: *** [<builtin>: main.o] Error 1",
            ),
            "main.c:8:5: error: use of undeclared identifier 'countr'",
        ),
        (  # Gradle: "Compilation failed" after javac's error
            (
                "> Task :compileJava",
                "src/main/java/shop/Cart.java:12: error: cannot find symbol",
                "1 error",
                "> Task :compileJava FAILED",
                "FAILURE: Build failed with an exception.",
                "* What went wrong:",
                "Execution failed for task ':compileJava'.",
                "> Compilation failed; see the compiler error output for details.",
                "BUILD FAILED in 4s",
            ),
            "src/main/java/shop/Cart.java:12: error: cannot find symbol",
        ),
        (  # tsc: "Found N errors in M files." and its table after the errors
            (
                "src/cart.ts:12:5 - error TS2322: Type 'string' is not assignable to type "
                "'number'.",
                "src/api.ts:40:10 - error TS2339: Property 'itemz' does not exist on type 'Order'.",
                "Found 2 errors in 2 files.",
                "Errors  Files",
                "     1  src/api.ts:40",
            ),
            "src/cart.ts:12:5 - error TS2322",
        ),
        (  # mypy: a note between the errors, "Found N errors" after them
            (
                "src/app/cart.py:12: error: Incompatible types in assignment (expression has "
                'type "str", variable has type "int")  [assignment]',
                'src/app/cart.py:30: note: Revealed type is "builtins.int"',
                'src/app/api.py:40: error: "Order" has no attribute "itemz"  [attr-defined]',
                "Found 2 errors in 2 files (checked 14 source files)",
            ),
            "src/app/cart.py:12: error: Incompatible types",
        ),
        (  # MSBuild: "Build FAILED." then the errors repeated, then the counts
            (
                "/src/Shop/Cart.cs(12,20): error CS0029: Cannot implicitly convert type 'string' "
                "to 'int' [/src/Shop/Shop.csproj]",
                "/src/Shop/Cart.cs(30,9): warning CS0168: The variable 'ex' is declared but never "
                "used [/src/Shop/Shop.csproj]",
                "Build FAILED.",
                "/src/Shop/Cart.cs(30,9): warning CS0168: The variable 'ex' is declared but never "
                "used [/src/Shop/Shop.csproj]",
                "    1 Warning(s)",
                "    1 Error(s)",
            ),
            "/src/Shop/Cart.cs(12,20): error CS0029",
        ),
        (  # Python: `raise ... from exc` prints the cause first, the exception it led to last
            (
                "Traceback (most recent call last):",
                '  File "/home/runner/work/app/app/app/db.py", line 10, in connect',
                "    conn = psycopg2.connect(dsn)",
                'psycopg2.OperationalError: connection to server at "localhost" (127.0.0.1), '
                "port 5432 failed: Connection refused",
                "The above exception was the direct cause of the following exception:",
                "Traceback (most recent call last):",
                '  File "/home/runner/work/app/app/app/db.py", line 12, in connect',
                '    raise MigrationError("cannot open the database") from exc',
                "app.errors.MigrationError: cannot open the database",
            ),
            "psycopg2.OperationalError: connection to server",
        ),
    ],
)
def test_d_the_first_error_beats_the_later_summary(engine, tmp_path, body, first):
    v = one(engine, gha(tmp_path, "make", *body))
    assert v.decided_by == "pattern"
    assert texts(v)[0].startswith(first)


def test_d_fallback_prefers_the_error_after_a_handled_one():
    lines = [
        Line(1, "+ git fetch origin release", False),
        Line(2, "fatal: couldn't find remote ref release", False),
        Line(3, "+ git checkout -b release", False),
        Line(4, "Switched to a new branch 'release'", False),
        Line(5, "+ ./build.sh", False),
        Line(6, "building 12 targets", False),
        Line(7, "done 11 of 12", False),
        Line(8, "target docs: missing input docs/index.md", False),
    ]
    g = guess(lines, 9)
    assert g.lines[0].number == 8
    # without the script going on in between, the stronger `fatal:` block stays the pick
    plain = [ln for ln in lines if not ln.text.startswith("+ ")]
    assert guess(plain, 9).lines[0].number == 2
