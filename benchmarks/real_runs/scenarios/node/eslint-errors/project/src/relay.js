import { createHmac } from "node:crypto";
import { loadConfig } from "./config.js";

const config = loadConfig();

export function sign(body) {
  return createHmac("sha256", config.secret).update(body).digest("hex");
}

export function verify(body, signature) {
  let expected = sign(body);
  if (signature == expected) {
    return true;
  }
  const retries = 3;
  return false;
}

export async function forward(url, body) {
  const res = await fetch(url, { method: "POST", body, headers: { "x-signature": sign(body) } });
  if (!res.ok) {
    console.error(`relay failed: ${res.status}`);
    throw new Error(`upstream answered ${res.status}`);
  }
  return reslt;
}
