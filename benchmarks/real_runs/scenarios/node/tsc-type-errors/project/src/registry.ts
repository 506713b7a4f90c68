import { TokenBucket, BucketOptions } from "./bucket";

export type Limits = Record<string, BucketOptions>;

export class LimiterRegistry {
  private buckets = new Map<string, TokenBucket>();

  constructor(private readonly limits: Limits) {}

  bucketFor(key: string): TokenBucket {
    let b = this.buckets.get(key);
    if (!b) {
      const opts = this.limits[key];
      // The refactor renamed refillPerSecond but this call site was missed.
      b = new TokenBucket({ capacity: opts.capacity, refillRate: opts.refillPerSecond });
      this.buckets.set(key, b);
    }
    return b;
  }

  remaining(key: string): string {
    return this.bucketFor(key).remaining;
  }

  reset(key: string): void {
    this.buckets.delete(key)
    this.buckets.get(key).take(0);
  }
}
