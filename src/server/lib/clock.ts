/** Injectable time source: production uses the system clock, tests move a fixed one. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
