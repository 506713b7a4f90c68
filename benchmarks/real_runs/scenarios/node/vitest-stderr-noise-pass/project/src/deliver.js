export class DeliveryError extends Error {
  constructor(message, { status, attempts }) {
    super(message);
    this.name = "DeliveryError";
    this.status = status;
    this.attempts = attempts;
  }
}

export async function deliver(send, payload, { retries = 3, log = console } = {}) {
  let lastStatus = 0;
  for (let attempt = 1; attempt <= retries; attempt++) {
    try {
      const res = await send(payload);
      if (res.status < 500) {
        if (attempt > 1) log.warn(`delivered after ${attempt} attempts`);
        return res;
      }
      lastStatus = res.status;
      log.error(`ERROR delivery attempt ${attempt}/${retries} failed: HTTP ${res.status}`);
    } catch (err) {
      lastStatus = 0;
      log.error(`ERROR delivery attempt ${attempt}/${retries} failed: ${err.message}`);
    }
  }
  throw new DeliveryError(`giving up after ${retries} attempts`, { status: lastStatus, attempts: retries });
}

export function parseSignature(header) {
  const m = /^sha256=([0-9a-f]{64})$/.exec(header ?? "");
  if (!m) throw new TypeError(`invalid signature header: ${JSON.stringify(header)}`);
  return m[1];
}
