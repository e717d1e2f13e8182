package io.tessera.meta.server;

import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.meta.ratis.RaftSubmitter;
import org.apache.ratis.protocol.exceptions.NotLeaderException;

/** How a replica answers when it cannot serve: who leads, or "retry shortly". */
record LeaderStatus(StatusProto status, String message, String leaderHint) {

  /** Null when this replica leads and may serve; otherwise the refusal. */
  static LeaderStatus check(RaftSubmitter raft) {
    if (raft.isLeader()) {
      return null;
    }
    if (raft.isElectedNotReady()) {
      // pointing callers at this replica would send them straight back here
      return new LeaderStatus(
          StatusProto.UNAVAILABLE,
          "this replica was just elected meta leader and is still applying its log; retry shortly",
          "");
    }
    String hint = raft.leaderClientAddress();
    if (hint == null) {
      return new LeaderStatus(
          StatusProto.UNAVAILABLE, "no meta leader is elected yet; retry shortly", "");
    }
    return new LeaderStatus(StatusProto.NOT_LEADER, "not the leader; the leader is " + hint, hint);
  }

  /** The refusal for a request that Ratis failed. */
  static LeaderStatus of(Throwable err, RaftSubmitter raft) {
    Throwable t = Failures.cause(err);
    if (t instanceof NotLeaderException nle) {
      String hint =
          nle.getSuggestedLeader() == null ? null : nle.getSuggestedLeader().getClientAddress();
      if (hint != null && !hint.isEmpty()) {
        return new LeaderStatus(StatusProto.NOT_LEADER, "leadership moved to " + hint, hint);
      }
    }
    LeaderStatus s = check(raft);
    if (s != null) {
      return s;
    }
    return new LeaderStatus(
        StatusProto.UNAVAILABLE,
        "the meta group could not commit the request ("
            + t.getClass().getSimpleName()
            + "); retry shortly",
        "");
  }

  /** The refusal as meta.proto's answer. */
  static MetaResponseProto reply(LeaderStatus s) {
    return MetaResponseProto.newBuilder()
        .setStatus(s.status())
        .setMessage(s.message())
        .setLeaderHint(s.leaderHint())
        .build();
  }
}
