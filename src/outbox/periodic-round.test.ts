import { describe, expect, it } from 'vitest';
import { PeriodicRound } from './periodic-round.js';

/** A promise and its resolver, to hold a round open until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('a periodic round', () => {
  it('runs at start and again on its ticks, never two at once; stop waits for the running round', async () => {
    let started = 0;
    let concurrent = 0;
    let most = 0;
    const firstHeld = gate();
    const secondStarted = gate();
    const thirdStarted = gate();
    const round = new PeriodicRound(async () => {
      started += 1;
      concurrent += 1;
      most = Math.max(most, concurrent);
      if (started === 1) await firstHeld.opened; // ticks pass while it runs
      if (started === 2) secondStarted.open();
      if (started === 3) thirdStarted.open();
      concurrent -= 1;
    }, 2);
    round.start();
    round.start(); // a second start is no second timer
    await new Promise((resolve) => setTimeout(resolve, 20)); // ten ticks while the first round is held
    expect(started).toBe(1);
    firstHeld.open();
    await secondStarted.opened;
    await thirdStarted.opened;
    await round.stop();
    const after = started;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toBe(after);
    expect(most).toBe(1);
  });

  it('goes on after a round that throws', async () => {
    let calls = 0;
    const again = gate();
    const round = new PeriodicRound(async () => {
      calls += 1;
      if (calls === 1) throw new Error('the store is down');
      again.open();
    }, 2);
    round.start();
    await again.opened;
    await round.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
