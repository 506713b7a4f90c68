import pc from 'picocolors';
import semver from 'semver';

export function bumpLabel(version) {
  return pc.green(semver.inc(version, 'minor'));
}
