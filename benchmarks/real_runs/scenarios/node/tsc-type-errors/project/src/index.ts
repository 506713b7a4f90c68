export { TokenBucket } from "./bucket";
export type { BucketOptions } from "./bucket";
export { LimiterRegistry } from "./registry";
export type { Limits } from "./registry";
