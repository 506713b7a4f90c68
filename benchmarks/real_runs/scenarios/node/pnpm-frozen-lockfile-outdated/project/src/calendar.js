import dayjs from "dayjs";

export function nextRelease(from, weekday = 2) {
  let d = dayjs(from).add(1, "day");
  while (d.day() !== weekday) d = d.add(1, "day");
  return d.format("YYYY-MM-DD");
}
