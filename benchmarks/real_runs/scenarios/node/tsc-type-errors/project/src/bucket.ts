export interface BucketOptions {
  capacity: number;
  refillPerSecond: number;
  now?: () => number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly now: () => number;

  constructor(private readonly opts: BucketOptions) {
    this.now = opts.now ?? Date.now;
    this.tokens = opts.capacity;
    this.last = this.now();
  }

  private refill(): void {
    const t = this.now();
    const added = ((t - this.last) / 1000) * this.opts.refillPerSecond;
    this.tokens = Math.min(this.opts.capacity, this.tokens + added);
    this.last = t;
  }

  take(n = 1): boolean {
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  get remaining(): number {
    return Math.floor(this.tokens);
  }
}
