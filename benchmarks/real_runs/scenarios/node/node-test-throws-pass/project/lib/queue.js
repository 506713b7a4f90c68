export class Queue {
  constructor({ maxAttempts = 3, logger = console } = {}) {
    this.maxAttempts = maxAttempts;
    this.logger = logger;
    this.dead = [];
  }

  async run(job) {
    if (typeof job?.handler !== 'function') {
      throw new TypeError('job.handler must be a function');
    }
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        return await job.handler(attempt);
      } catch (err) {
        this.logger.error(`[queue] ERROR job ${job.id} attempt ${attempt} failed: ${err.message}`);
      }
    }
    this.dead.push(job.id);
    this.logger.error(`[queue] job ${job.id} moved to the dead-letter list`);
    throw new Error(`job ${job.id} failed ${this.maxAttempts} times`);
  }
}
