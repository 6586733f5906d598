/**
 * A worker's round of work every `everyMs`, and once at start: the retention sweep, the payment
 * round, the calendar sync. Never two rounds at once in a process (a slow round is not overtaken
 * by the next tick); `stop` waits for the running one. A round logs its own failures: one that
 * throws anyway is dropped here, and the next tick runs as usual. The timer does not keep the
 * process alive. Queues of items with leases and retries use QueueWorker instead.
 */
export class PeriodicRound {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly round: () => Promise<unknown>,
    private readonly everyMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = this.round().then(
        () => undefined,
        () => undefined,
      );
      void this.running.finally(() => {
        this.running = undefined;
      });
    };
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
    setImmediate(tick);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
