import { RRule } from "rrule";

export function weeklyReleases(start, count) {
  return new RRule({ freq: RRule.WEEKLY, dtstart: new Date(start), count }).all();
}
