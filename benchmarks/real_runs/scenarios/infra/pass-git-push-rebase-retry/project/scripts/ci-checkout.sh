#!/usr/bin/env bash
# Stand-in for the hosted repository: a bare remote with some history, cloned like a checkout.
set -euo pipefail
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.invalid
export GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.invalid
remote="$PWD/.remote/app.git"
git init -q --bare -b main "$remote"
git clone -q "$remote" seed 2>&1
cd seed
echo "1.3.0" > VERSION
printf '# Changelog\n\n## 1.3.0\n- first public release\n' > CHANGELOG.md
git add VERSION CHANGELOG.md && git commit -qm "release 1.3.0"
for n in 1 2 3; do echo "change $n" >> NOTES.md; git add NOTES.md; git commit -qm "feat: change $n"; done
git push -q origin main
cd ..
git clone "$remote" repo 2>&1
# a pull request merged on main while this job was running
cd seed
echo "hotfix" >> NOTES.md && git commit -qam "fix: hotfix merged during the release job"
git push -q origin main
echo "checked out $(git -C ../repo rev-parse --short HEAD) on main"
