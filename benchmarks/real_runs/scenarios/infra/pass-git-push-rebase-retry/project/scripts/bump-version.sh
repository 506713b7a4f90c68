#!/usr/bin/env bash
set -euo pipefail
part=${1:?usage: bump-version.sh major|minor|patch}
IFS=. read -r major minor patch < VERSION
case $part in
  major) major=$((major + 1)); minor=0; patch=0 ;;
  minor) minor=$((minor + 1)); patch=0 ;;
  patch) patch=$((patch + 1)) ;;
esac
new="$major.$minor.$patch"
echo "$new" > VERSION
sed -i "2a\\\\n## $new\\n- release $new" CHANGELOG.md
git -c user.name=release-bot -c user.email=release-bot@example.invalid commit -qam "chore(release): $new"
git tag -a "v$new" -m "v$new"
echo "bumped version to $new"
