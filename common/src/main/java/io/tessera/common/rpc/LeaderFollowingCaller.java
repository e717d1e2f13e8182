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

/**
 * Sends requests to the leader of a replica group, following {@code NOT_LEADER} hints and
 * moving on to the next replica when one does not answer, until a deadline. Users see an
 * error only when no replica led within the deadline.
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

  public LeaderFollowingCaller(RpcClientPool pool, List<String> replicas, Service service, Duration retryFor) {
    if (replicas.isEmpty()) {
      throw new IllegalArgumentException("no meta replica addresses given: pass --meta host:port,...");
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

  /** Calls the leader; the reply's payload is discarded (control-only protocols). */
  public <R> CompletableFuture<R> call(byte[] header, Decoder<R> decoder, java.util.function.Function<R, Outcome> view) {
    CompletableFuture<R> result = new CompletableFuture<>();
    attempt(header, decoder, view, leader, System.currentTimeMillis() + deadlineMillis, 0, null, result);
    return result;
  }

  private <R> void attempt(byte[] header, Decoder<R> decoder, java.util.function.Function<R, Outcome> view,
      String target, long deadline, int tries, Throwable lastError, CompletableFuture<R> result) {
    if (System.currentTimeMillis() > deadline) {
      String why = lastError == null ? "no leader was elected" : lastError.getMessage();
      result.completeExceptionally(new TesseraException(StatusProto.UNAVAILABLE,
          "no meta replica answered as leader within " + deadlineMillis + " ms (" + why + "); tried "
              + String.join(",", replicas) + ": is the cluster running? (tessera cluster status)"));
      return;
    }
    pool.call(target, service, header, null).whenComplete((frame, err) -> {
      if (err != null) {
        Throwable cause = Failures.cause(err);
        if (!(cause instanceof PeerUnreachableException || cause instanceof TimeoutException)) {
          result.completeExceptionally(cause);
          return;
        }
        if (cause instanceof TimeoutException) {
          pool.disconnect(target);
        }
        String next = replicas.get((replicas.indexOf(target) + 1) % replicas.size());
        retryLater(header, decoder, view, next, deadline, tries + 1, cause, result);
        return;
      }
      R reply;
      try {
        reply = decoder.decode(frame.header());
      } catch (Exception e) {
        result.completeExceptionally(new TesseraException(StatusProto.INTERNAL,
            "unreadable reply from " + target + ": " + e.getMessage()));
        return;
      } finally {
        frame.release();
      }
      Outcome o = view.apply(reply);
      if (o.status() == StatusProto.NOT_LEADER) {
        String hint = o.leaderHint();
        if (hint != null && !hint.isEmpty() && !hint.equals(target)) {
          leader = hint;
          attempt(header, decoder, view, hint, deadline, tries + 1, null, result);
        } else {
          String next = replicas.get((replicas.indexOf(target) + 1) % replicas.size());
          retryLater(header, decoder, view, next, deadline, tries + 1,
              new TesseraException(StatusProto.NOT_LEADER, o.message()), result);
        }
        return;
      }
      if (o.status() == StatusProto.UNAVAILABLE) {
        retryLater(header, decoder, view, target, deadline, tries + 1,
            new TesseraException(StatusProto.UNAVAILABLE, o.message()), result);
        return;
      }
      leader = target;
      result.complete(reply);
    });
  }

  private <R> void retryLater(byte[] header, Decoder<R> decoder, java.util.function.Function<R, Outcome> view,
      String target, long deadline, int tries, Throwable lastError, CompletableFuture<R> result) {
    long backoff = Math.min(500, 20L << Math.min(tries, 5)) + ThreadLocalRandom.current().nextLong(20);
    Executor later = CompletableFuture.delayedExecutor(backoff, TimeUnit.MILLISECONDS);
    later.execute(() -> attempt(header, decoder, view, target, deadline, tries, lastError, result));
  }
}
