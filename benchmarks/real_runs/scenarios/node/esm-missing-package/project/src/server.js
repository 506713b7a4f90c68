import { createServer } from "node:http";
import { config } from "./config.js";

if (process.argv.includes("--check")) {
  console.log(`config ok: port=${config.port} interval=${config.scrapeInterval}ms`);
  process.exit(0);
}

createServer((req, res) => {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end("# no metrics yet\n");
}).listen(config.port);
