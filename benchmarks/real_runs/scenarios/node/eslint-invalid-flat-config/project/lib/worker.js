"use strict";

class Worker {
  constructor(queue, handler, { concurrency = 2 } = {}) {
    this.queue = queue;
    this.handler = handler;
    this.concurrency = concurrency;
  }

  async drain() {
    const results = [];
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.concurrency);
      results.push(...(await Promise.all(batch.map((job) => this.handler(job)))));
    }
    return results;
  }
}

module.exports = { Worker };
