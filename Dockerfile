# RepoPilot container image: the CLI and `repopilot action` for runners without Python 3.11 (the
# Action itself is a composite action, see action.yml; this image is not built by it).
# Base pinned to an exact version tag. No digest: none could be verified from the environment this
# was written in (no Docker engine, no registry access), and an unverified digest is worse than
# none. Pin one once `docker buildx imagetools inspect python:3.11.14-slim-bookworm` has shown it:
#   FROM python:3.11.14-slim-bookworm@sha256:<digest>
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# git is needed at run time: every proposed diff is checked with `git apply --check`/`--numstat`
# before it is offered or applied. Not pinned to a Debian version: the archive keeps only the
# current point release of a package, so a pinned `git=<version>` stops installing as soon as
# Debian ships a security update. The pinned base tag fixes the release (bookworm) instead.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /tmp/build

# Dependencies first (their own layer): every file is hash-checked, wheels only, no resolver.
COPY requirements.lock ./
RUN pip install --no-deps --require-hashes -r requirements.lock

# The project itself: a regular (non-editable) install built with the locked setuptools, so the
# build fetches nothing unpinned. The sources are removed afterwards and the import is checked
# from `/`, so only the installed copy exists.
COPY pyproject.toml README.md ./
COPY repopilot ./repopilot
COPY patterns ./patterns
RUN pip install --no-deps --no-build-isolation . \
    && cd / && rm -rf /tmp/build \
    && python -I -c "import repopilot.cli, repopilot.comment"

WORKDIR /

# User: the default root user, on purpose. GitHub's Dockerfile support for actions says Docker
# actions must run as the default Docker user (root) and not use USER, or they cannot access
# GITHUB_WORKSPACE: the runner mounts the workspace, the event file and the GITHUB_OUTPUT /
# GITHUB_STEP_SUMMARY files owned by its own account. Containment comes from elsewhere: nothing
# from the checkout is executed (see -I below) and the workflow sets the token's scope.

# `-I` (isolated mode): GitHub starts the container with the workspace as working directory, and
# `python -m` would otherwise import a `repopilot/` package from there first, i.e. run code from
# the checked-out PR. It also ignores PYTHON* variables a workflow might pass in. `-u` replaces
# PYTHONUNBUFFERED, which -I ignores, so `::error::` lines and logs stay in order.
ENTRYPOINT ["python", "-I", "-u", "-m", "repopilot", "action"]
