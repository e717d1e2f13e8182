package io.tessera.common.rpc;

import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Sends requests to the leader of a replica group, following {@code NOT_LEADER} hints and moving on
 * to the next replica when one does not answer, until a deadline. Users see an error only when no
 * replica led within the deadline.
 */
public final class LeaderFollowingCaller {
  /** What the caller needs to know of a protocol's reply. */
  public record Outcome(StatusProto status, String leaderHint, String message) {}

  /** Decodes a reply frame's header into the protocol's response. */
  @FunctionalInterface
  public interface Decoder<R> {
    R decode(byte[] header) throws Exception;
  }

  private final RpcClientPool pool;
  private final List<String> replicas;
  private final Service service;
  private final long deadlineMillis;
  private volatile String leader;

  /**
   * Whether any replica ever answered this caller. Until one has, a group that refuses every
   * connection is not running; once one has, refusals are a restart, waited out to the deadline.
   */
  private volatile boolean answeredOnce;

  /**
   * The replica a call last could not reach, and when: later calls skip it as a leader hint for a
   * while.
   */
  private volatile String lastUnreachable = "";

  private volatile long lastUnreachableAtMillis;

  /** Back-off waits so far, for tests. */
  private final AtomicLong backoffs = new AtomicLong();

  /**
   * The least time one replica is given to answer a call: a loaded replica answers in seconds, and
   * giving up on it sooner only moves the call to a replica that sends it back.
   */
  static final long MIN_ATTEMPT_MILLIS = 5000;

  /** Rounds of every replica refusing the connection after which a call gives up at once. */
  static final int REFUSED_ROUNDS = 2;

  /** How long a replica found unreachable is presumed still down by later calls. */
  static final long UNREACHABLE_MEMORY_MILLIS = 2000;

  public LeaderFollowingCaller(
      RpcClientPool pool, List<String> replicas, Service service, Duration retryFor) {
    if (replicas.isEmpty()) {
      throw new IllegalArgumentException(
          "no meta replica addresses given: pass --meta host:port,...");
    }
    replicas.forEach(HostPort::parse);
    this.pool = pool;
    this.replicas = List.copyOf(replicas);
    this.service = service;
    this.deadlineMillis = retryFor.toMillis();
    this.leader = this.replicas.get(0);
  }

  public String currentLeader() {
    return leader;
  }

  /**
   * How many times calls waited before trying again (every replica refused, or none could be
   * reached).
   */
  long backoffs() {
    return backoffs.get();
  }

  /** Calls the leader; the reply's payload is discarded (control-only protocols). */
  public <R> CompletableFuture<R> call(
      byte[] header, Decoder<R> decoder, Function<R, Outcome> view) {
    return call(header, null, decoder, view);
  }

  /**
   * Calls the leader as {@link #call(byte[], Decoder, Function)} does; once the leader could not be
   * reached, or none was known, retries send {@code retryHeader.apply(unreachableLeader)} instead
   * (the address last found unreachable, or ""): a protocol may then let another replica answer.
   */
  public <R> CompletableFuture<R> call(
      byte[] header,
      Function<String, byte[]> retryHeader,
      Decoder<R> decoder,
      Function<R, Outcome> view) {
    Attempts<R> a =
        new Attempts<>(
            header, retryHeader, decoder, view, System.currentTimeMillis() + deadlineMillis);
    a.send(leader);
    return a.result;
  }

  /** One call's tries, from replica to replica, until an answer or the deadline. */
  private final class Attempts<R> {
    private final byte[] header;
    private final Function<String, byte[]> retryHeader;
    private final Decoder<R> decoder;
    private final Function<R, Outcome> view;
    private final long deadline;
    private final CompletableFuture<R> result = new CompletableFuture<>();
    private int tries;
    private Throwable lastError;
    private boolean leaderMissed;
    private String unreachable = "";

    /**
     * Replicas tried one after another since the last back-off because they could not be reached.
     */
    private int hops;

    /** Connections refused in a row (nothing listening at the address). */
    private int refusedInARow;

    Attempts(
        byte[] header,
        Function<String, byte[]> retryHeader,
        Decoder<R> decoder,
        Function<R, Outcome> view,
        long deadline) {
      this.header = header;
      this.retryHeader = retryHeader;
      this.decoder = decoder;
      this.view = view;
      this.deadline = deadline;
      if (System.currentTimeMillis() - lastUnreachableAtMillis < UNREACHABLE_MEMORY_MILLIS) {
        // an earlier call just found this replica down (a leader killed, an election under way):
        // start as that call ended, rather than chasing hints to it again
        unreachable = lastUnreachable;
        leaderMissed = true;
      }
    }

    void send(String target) {
      if (System.currentTimeMillis() > deadline) {
        String why = lastError == null ? "no leader was elected" : lastError.getMessage();
        result.completeExceptionally(
            new TesseraException(
                StatusProto.UNAVAILABLE,
                "no meta replica answered as leader within "
                    + deadlineMillis
                    + " ms ("
                    + why
                    + "); tried "
                    + String.join(",", replicas)
                    + ": is the cluster running? (tessera cluster status)"));
        return;
      }
      byte[] h = leaderMissed && retryHeader != null ? retryHeader.apply(unreachable) : header;
      CompletableFuture<Frame> sent = pool.call(target, service, h, null);
      long attempt = attemptMillis();
      (attempt < deadlineMillis ? sent.copy().orTimeout(attempt, TimeUnit.MILLISECONDS) : sent)
          .whenComplete(
              (frame, err) -> {
                if (err != null) {
                  Throwable cause = Failures.cause(err);
                  if (!(cause instanceof PeerUnreachableException
                      || cause instanceof TimeoutException)) {
                    result.completeExceptionally(cause);
                    return;
                  }
                  if (cause instanceof TimeoutException && sent.isDone()) {
                    // the connection's own timeout: it is dead. A replica merely slow past this
                    // attempt's share keeps it (other calls on it are answered)
                    pool.disconnect(target);
                  }
                  sent.thenAccept(Frame::release); // an answer after the attempt gave up
                  refusedInARow =
                      cause instanceof PeerUnreachableException p && p.refused()
                          ? refusedInARow + 1
                          : 0;
                  if (!answeredOnce && refusedInARow >= REFUSED_ROUNDS * replicas.size()) {
                    result.completeExceptionally(nothingRunning());
                    return;
                  }
                  unreachable = target;
                  lastUnreachable = target;
                  lastUnreachableAtMillis = System.currentTimeMillis();
                  if (hops < replicas.size() - 1) {
                    // another replica may answer at once (a read while the group elects): no reason
                    // to wait
                    hops++;
                    leaderMissed = true;
                    lastError = cause;
                    tries++;
                    send(next(target));
                  } else {
                    retryLater(next(target), cause);
                  }
                  return;
                }
                refusedInARow = 0; // a replica answered: something runs here
                answeredOnce = true;
                R reply;
                try {
                  reply = decoder.decode(frame.header());
                } catch (Exception e) {
                  result.completeExceptionally(
                      new TesseraException(
                          StatusProto.INTERNAL,
                          "unreadable reply from " + target + ": " + e.getMessage()));
                  return;
                } finally {
                  frame.release();
                }
                Outcome o = view.apply(reply);
                if (o.status() == StatusProto.NOT_LEADER) {
                  String hint = o.leaderHint();
                  if (hint != null
                      && !hint.isEmpty()
                      && !hint.equals(target)
                      && !hint.equals(unreachable)) {
                    leader = hint;
                    tries++;
                    send(hint);
                  } else {
                    retryLater(
                        next(target), new TesseraException(StatusProto.NOT_LEADER, o.message()));
                  }
                  return;
                }
                if (o.status() == StatusProto.UNAVAILABLE) {
                  // a replica that knows no leader may be the one cut off from the others: ask the
                  // next (a leader not ready yet is one hint away from there)
                  retryLater(
                      next(target), new TesseraException(StatusProto.UNAVAILABLE, o.message()));
                  return;
                }
                leader = target;
                result.complete(reply);
              });
    }

    /**
     * Every replica refused the connection, twice round, and none ever answered this caller:
     * nothing is running there (a command started against a stopped cluster), and waiting out the
     * deadline would only delay the answer.
     */
    private TesseraException nothingRunning() {
      return new TesseraException(
          StatusProto.UNAVAILABLE,
          "no meta replica is running: "
              + String.join(", ", replicas)
              + (replicas.size() == 1 ? " refuses" : " all refuse")
              + " connections; is the cluster running (tessera local starts one), and are these its"
              + " addresses (--meta)?");
    }

    /**
     * How long one replica may hold a call: a third of the deadline, so that a replica that takes
     * calls and answers none (its state machine stuck) leaves time to try the others; never less
     * than {@link #MIN_ATTEMPT_MILLIS} (a short deadline, as heartbeats have, bounds nothing).
     */
    private long attemptMillis() {
      return Math.max(MIN_ATTEMPT_MILLIS, deadlineMillis / 3);
    }

    private void retryLater(String target, Throwable error) {
      leaderMissed = true;
      lastError = error;
      tries++;
      hops = 0;
      backoffs.incrementAndGet();
      long backoff =
          Math.min(500, 20L << Math.min(tries, 5)) + ThreadLocalRandom.current().nextLong(20);
      Executor later = CompletableFuture.delayedExecutor(backoff, TimeUnit.MILLISECONDS);
      later.execute(() -> send(target));
    }

    private String next(String target) {
      return replicas.get((replicas.indexOf(target) + 1) % replicas.size());
    }
  }
}
