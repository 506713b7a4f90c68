// Generates the gazetteer module the viewer ships inline (deterministic, seeded).
import { writeFileSync } from "node:fs";

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const syll = ["ka", "lo", "mer", "vin", "ta", "dor", "ash", "ul", "ben", "ri", "sto", "qua"];
const places = [];
for (let i = 0; i < 24000; i++) {
  const n = 2 + Math.floor(rand() * 3);
  let name = "";
  for (let j = 0; j < n; j++) name += syll[Math.floor(rand() * syll.length)];
  places.push([name, +(rand() * 180 - 90).toFixed(4), +(rand() * 360 - 180).toFixed(4), Math.floor(rand() * 2e6)]);
}
writeFileSync("src/places.generated.js", `export const PLACES = ${JSON.stringify(places)};\n`);
console.log(`gen-places: wrote ${places.length} places to src/places.generated.js`);
