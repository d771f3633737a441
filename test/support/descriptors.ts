import { readdir } from 'node:fs/promises';

// Whether code closes what it opens: this process's open file descriptors (Linux), counted before and after.

export async function openDescriptorCount(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

/** Waits, with a bound of 10 s, for the open descriptors to fall back to `count` (closing is often not awaited). */
export async function descriptorsBackTo(count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await openDescriptorCount()) > count) {
    if (Date.now() > deadline) throw new Error(`descriptors left open: ${(await openDescriptorCount()) - count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
