// A pass that claims queued work (jobs, exports) until the free slots are full. Wakes come from new work,
// finished work and a timer; a wake during a pass asks for one more pass after it instead of a second pass
// running alongside (two would claim for the same free slot).

export class CoalescedPass {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly isStopped: () => boolean,
    private readonly failureLabel: string,
  ) {}

  wake(): void {
    if (this.isStopped()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => console.error(`${this.failureLabel}:`, error))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when no pass is running (the current one, if any, has ended). */
  async settled(): Promise<void> {
    await this.running;
  }
}
