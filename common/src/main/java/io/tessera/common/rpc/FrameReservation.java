package io.tessera.common.rpc;

/**
 * One connection's claim on its server's {@link FrameBudget}: what the frame it is receiving
 * reserved, and whether that frame waits for room. Frame decoders of either Netty (ours, and the
 * copy Ratis shades for the Raft port) keep one each, told how to pause and resume their channel.
 */
public final class FrameReservation {
  private final FrameBudget budget;
  private final FrameBudget.Reads reads;

  /** What the frame in progress reserved (0: none, or it arrived whole). */
  private long reserved;

  /** The frame in progress did not fit: reads stay off until it has room. */
  private boolean waiting;

  /** {@code resumeReads} turns reads back on if the channel is still open. */
  public FrameReservation(FrameBudget budget, Runnable pauseReads, Runnable resumeReads) {
    this.budget = budget;
    this.reads =
        new FrameBudget.Reads() {
          @Override
          public void pause() {
            pauseReads.run();
          }

          @Override
          public void resume() {
            resumeReads.run();
          }
        };
  }

  /**
   * A frame of {@code bytes} (length prefix included) has arrived in part: holds room for it once.
   */
  public void incomplete(long bytes) {
    if (reserved == 0) {
      waiting = !budget.reserve(reads, bytes);
      reserved = waiting ? 0 : bytes;
    }
  }

  /** The frame is whole: its room goes back to the budget. */
  public void complete() {
    if (reserved != 0) {
      budget.release(reserved);
      reserved = 0;
    }
  }

  /** Whether the frame in progress waits for room (its channel's reads are off on purpose). */
  public boolean waiting() {
    return waiting;
  }

  /** The connection closed: gives back what it held and stops waiting. */
  public void close() {
    complete();
    budget.forget(reads);
  }
}
