package io.tessera.client.internal;

import io.tessera.common.dataio.ReadBatch;
import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.layout.StripeRedundancy;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * fsck of one file: asks every server of the file for the state of each of its units (or, to verify
 * parity, for the units themselves) a group of stripes at a time, and counts what cannot be used
 * and what does not add up.
 */
public final class ShardChecker {
  /**
   * Counts for one file; {@code unprotectedStripes}: stripes whose data is stored beside a parity
   * hole (their parity is to be recomputed).
   */
  public record Result(
      long stripes,
      long parityVerified,
      long parityMismatches,
      long missingShards,
      long unreadableStripes,
      Set<String> damagedServers,
      List<Long> mismatchedStripes,
      List<Long> unprotectedStripes) {}

  /** Most mismatched (and most unprotected) stripe numbers one check reports. */
  private static final int MAX_REPORTED = 4096;

  private static final int MAX_GROUP_BYTES = 16 << 20;

  private final DataClient data;

  public ShardChecker(DataClient data) {
    this.data = data;
  }

  public Result check(FileTarget file, long size, boolean verifyParity) throws TesseraException {
    StripeLayout layout = file.layout();
    int n = layout.width();
    int k = layout.dataUnits();
    long stripes = (size + layout.stripeDataBytes() - 1) / layout.stripeDataBytes();
    int perGroup = Math.max(1, MAX_GROUP_BYTES / layout.stripeUnit());
    ErasureCodec codec =
        layout.parityUnits() > 0 ? ErasureCodec.shared(k, layout.parityUnits()) : null;
    long verified = 0;
    long mismatches = 0;
    long missing = 0;
    long unreadable = 0;
    Set<String> damaged = new TreeSet<>();
    List<Long> mismatched = new ArrayList<>();
    List<Long> unprotected = new ArrayList<>();
    for (long from = 0; from < stripes; from += perGroup) {
      long to = Math.min(stripes, from + perGroup);
      int count = (int) (to - from);
      ShardStateProto[][] states = new ShardStateProto[count][n];
      byte[][][] bytes = verifyParity ? new byte[count][n][layout.stripeUnit()] : null;
      Map<String, ReadBatch> batches = new LinkedHashMap<>();
      for (long s = from; s < to; s++) {
        for (int u = 0; u < n; u++) {
          String server = layout.serverOf(s, u);
          if (file.isStale(server)) {
            continue;
          }
          byte[] into = verifyParity ? bytes[(int) (s - from)][u] : new byte[0];
          batches
              .computeIfAbsent(server, ReadBatch::new)
              .add(
                  file.fileId(),
                  s,
                  u,
                  0,
                  verifyParity ? layout.stripeUnit() : 0,
                  into,
                  0,
                  new int[] {(int) (s - from), u});
        }
      }
      List<CompletableFuture<Void>> calls = new ArrayList<>();
      for (ReadBatch b : batches.values()) {
        calls.add(probe(file, b, verifyParity, states));
      }
      try {
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
      } catch (CompletionException e) {
        Throwable cause = Failures.cause(e);
        throw cause instanceof TesseraException te
            ? te
            : new TesseraException(StatusProto.INTERNAL, String.valueOf(cause.getMessage()));
      }
      for (int i = 0; i < count; i++) {
        StripeRedundancy r = StripeRedundancy.of(states[i], k);
        missing += r.missing();
        for (int u = 0; u < n; u++) {
          if ((r.corruptUnits() & (1L << u)) != 0) {
            damaged.add(layout.serverOf(from + i, u));
          }
        }
        if (r.lacksParity() && unprotected.size() < MAX_REPORTED) {
          unprotected.add(from + i);
        }
        if (r.usable() < k) {
          unreadable++;
        } else if (verifyParity && codec != null && r.usable() > k) {
          verified++;
          if (!consistent(codec, bytes[i], states[i], layout.stripeUnit())) {
            mismatches++;
            if (mismatched.size() < MAX_REPORTED) {
              mismatched.add(from + i);
            }
          }
        }
      }
    }
    return new Result(
        stripes, verified, mismatches, missing, unreadable, damaged, mismatched, unprotected);
  }

  /**
   * Whether the stripe's usable units agree: with every unit, its parity matches its data; with
   * some missing but more than k usable, the units beyond the first k usable ones match what those
   * k decode to (a degraded stripe's remaining parity is still checked).
   */
  private static boolean consistent(
      ErasureCodec codec, byte[][] units, ShardStateProto[] states, int length) {
    int n = units.length;
    boolean[] usable = new boolean[n];
    int count = 0;
    for (int u = 0; u < n; u++) {
      usable[u] = ReadBatch.usable(states[u]);
      count += usable[u] ? 1 : 0;
    }
    if (count == n) {
      return codec.isParityCorrect(units, 0, length);
    }
    byte[][] decoded = new byte[n][];
    boolean[] from = new boolean[n];
    int taken = 0;
    for (int u = 0; u < n; u++) {
      from[u] = usable[u] && taken < codec.dataShards();
      taken += from[u] ? 1 : 0;
      decoded[u] = from[u] ? units[u] : new byte[length];
    }
    codec.reconstruct(decoded, from, 0, length);
    for (int u = 0; u < n; u++) {
      if (usable[u] && !from[u] && !Arrays.equals(decoded[u], 0, length, units[u], 0, length)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Fills the states of one server's units; a server that cannot be reached leaves them null
   * (missing).
   */
  private CompletableFuture<Void> probe(
      FileTarget file, ReadBatch batch, boolean withBytes, ShardStateProto[][] states) {
    ReadShardsRequestProto.Builder r =
        file.newRead().addAllRanges(batch.ranges()).setProbe(!withBytes);
    return data.call(batch.server(), file.request(file.layout()).setRead(r), null)
        .handle(
            (reply, err) -> {
              if (err != null) {
                if (Failures.cause(err) instanceof ServerDownException) {
                  return null;
                }
                throw err instanceof CompletionException ce ? ce : new CompletionException(err);
              }
              ReadShardsResponseProto got = reply.header().getRead();
              try {
                if (withBytes) {
                  batch.accept(reply.header(), reply.payload());
                } else {
                  reply.payload().release();
                  if (got.getStatesCount() != batch.ranges().size()) {
                    throw new TesseraException(
                        StatusProto.INTERNAL,
                        "data server "
                            + batch.server()
                            + " answered "
                            + got.getStatesCount()
                            + " of "
                            + batch.ranges().size()
                            + " probes");
                  }
                }
              } catch (TesseraException e) {
                throw new CompletionException(e);
              }
              for (int i = 0; i < batch.targets().size(); i++) {
                int[] at = (int[]) batch.targets().get(i).tag();
                states[at[0]][at[1]] = got.getStates(i);
              }
              return null;
            });
  }
}
