#!/usr/bin/env node
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { plan } from "../lib/plan.js";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const dir = args.find((a) => !a.startsWith("--")) ?? "migrations";

const pending = plan(readdirSync(dir).map((f) => join(dir, f)), new Set());
for (const file of pending) {
  console.log(`${dryRun ? "would apply" : "applying"} ${file}`);
}
