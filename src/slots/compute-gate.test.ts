import { describe, expect, it } from 'vitest';
import { ComputeGate } from './compute-gate.js';

describe('ComputeGate', () => {
  it('runs at most `limit` tasks at once and every task in turn', async () => {
    const gate = new ComputeGate(2);
    let inFlight = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = (value: number) =>
      gate.run(async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight -= 1;
        return value;
      });
    let finished = false;
    const results = Promise.all([1, 2, 3, 4, 5].map(task)).finally(() => {
      finished = true;
    });
    // Release one running task at a time until all five have finished (tasks start a tick later).
    while (!finished) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await results).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('starts waiting tasks in the order they came', async () => {
    const gate = new ComputeGate(1);
    const started: number[] = [];
    let release!: () => void;
    const first = gate.run(async () => {
      started.push(0);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const rest = [1, 2, 3, 4].map((n) => gate.run(async () => started.push(n)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0]);
    expect(gate.waiting).toBe(4);
    release();
    await Promise.all([first, ...rest]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees its place when a task fails', async () => {
    const gate = new ComputeGate(1);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
