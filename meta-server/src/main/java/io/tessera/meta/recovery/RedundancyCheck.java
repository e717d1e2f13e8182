package io.tessera.meta.recovery;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.layout.StripeRedundancy;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Checks a file recovery has just rebuilt as fsck would: asks each of its current servers for the
 * states of its units (no bytes) and judges every stripe by {@link StripeRedundancy}, so recovery
 * calls a file redundant only when fsck finds it so. A unit that fails its checksum is reported by
 * its server as it answers (and rebuilt from there); what is left for the caller is the stripes
 * whose data stands beside a parity hole, whose parity is to be recomputed.
 */
final class RedundancyCheck {
  /** Stripes probed per request round (each server gets one range per unit it holds of them). */
  private static final int STRIPES_PER_ROUND = 4096;

  private final DataServerCalls calls;

  RedundancyCheck(DataServerCalls calls) {
    this.calls = calls;
  }

  /**
   * The stripes of the file whose data is stored beside a parity hole on a server that serves
   * ({@code serving}) and holds current units of it. Units on other servers count as unknown.
   *
   * @throws RecoveryException when a server does not answer (the file is checked again later)
   */
  List<Long> stripesLackingParity(InodeProto in, Predicate<String> serving) {
    StripeLayout layout = StripeLayout.of(in.getLayout());
    if (layout.parityUnits() == 0) {
      return List.of();
    }
    List<String> asked =
        layout.servers().stream()
            .distinct()
            .filter(s -> serving.test(s) && !in.getStaleServersList().contains(s))
            .toList();
    long stripes = (in.getSize() + layout.stripeDataBytes() - 1) / layout.stripeDataBytes();
    List<Long> lacking = new ArrayList<>();
    for (long from = 0; from < stripes; from += STRIPES_PER_ROUND) {
      long to = Math.min(stripes, from + STRIPES_PER_ROUND);
      ShardStateProto[][] states = probe(in.getId(), layout, asked, from, to);
      for (long s = from; s < to; s++) {
        if (StripeRedundancy.of(states[(int) (s - from)], layout.dataUnits()).lacksParity()) {
          lacking.add(s);
        }
      }
    }
    return lacking;
  }

  private ShardStateProto[][] probe(
      long fileId, StripeLayout layout, List<String> asked, long from, long to) {
    Map<String, List<ShardRangeProto>> ranges = new LinkedHashMap<>();
    for (long s = from; s < to; s++) {
      for (int u = 0; u < layout.width(); u++) {
        String server = layout.serverOf(s, u);
        if (asked.contains(server)) {
          ranges
              .computeIfAbsent(server, x -> new ArrayList<>())
              .add(ShardRangeProto.newBuilder().setFileId(fileId).setStripe(s).setUnit(u).build());
        }
      }
    }
    Map<String, DataRequestProto.Builder> requests = new LinkedHashMap<>();
    ranges.forEach(
        (server, list) ->
            requests.put(
                server,
                DataRequestProto.newBuilder()
                    .setLayoutGeneration(layout.generation())
                    .setRead(
                        ReadShardsRequestProto.newBuilder().setProbe(true).addAllRanges(list))));
    ShardStateProto[][] states = new ShardStateProto[(int) (to - from)][layout.width()];
    for (Map.Entry<String, DataResponseProto> e : calls.callAllHeaders(requests).entrySet()) {
      List<ShardRangeProto> sent = ranges.get(e.getKey());
      List<ShardStateProto> got = e.getValue().getRead().getStatesList();
      if (got.size() != sent.size()) {
        throw new RecoveryException(
            StatusProto.INTERNAL,
            "data server "
                + e.getKey()
                + " answered "
                + got.size()
                + " of "
                + sent.size()
                + " probes of file "
                + fileId);
      }
      for (int i = 0; i < sent.size(); i++) {
        states[(int) (sent.get(i).getStripe() - from)][sent.get(i).getUnit()] = got.get(i);
      }
    }
    return states;
  }
}
