package io.tessera.meta.server;

import io.tessera.common.config.Config;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * How a replica's configuration becomes its Raft server's: transport, listening address, election
 * timeouts, log and snapshot policy, and TLS on the Raft port.
 */
final class RaftSettings {
  private RaftSettings() {}

  /**
   * With security, mutual TLS on the Raft port (Ratis serves it over gRPC): only the cluster's meta
   * replicas get past the handshake, so nobody else can append entries, vote or change the group.
   */
  static Parameters parameters(TransportSecurity security) {
    Parameters params = new Parameters();
    if (security.enabled()) {
      GrpcTlsConfig tls =
          new GrpcTlsConfig(
              security.keyManager(), security.trust(Set.of(Identity.Role.META)), true);
      GrpcConfigKeys.TLS.setConf(params, tls);
      GrpcConfigKeys.Server.setTlsConf(params, tls);
      GrpcConfigKeys.Client.setTlsConf(params, tls);
      GrpcConfigKeys.Admin.setTlsConf(params, tls);
    }
    return params;
  }

  /** Where this replica listens: {@code tessera.meta.bind-host}, else its peer entry's host. */
  static String bindHost(MetaPeer self, Config config) {
    String bind = config.get(MetaServerConfigKeys.Raft.BIND_HOST).trim();
    return bind.isEmpty() ? self.host() : bind;
  }

  static RaftProperties properties(
      MetaPeer self, Path dir, Config config, TransportSecurity security) {
    RaftProperties p = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(p, List.of(dir.resolve("raft").toFile()));
    String transport = config.get(MetaServerConfigKeys.Raft.RAFT_TRANSPORT);
    if (security.enabled() && !transport.equals("grpc")) {
      throw new IllegalArgumentException(
          MetaServerConfigKeys.Raft.RAFT_TRANSPORT.key()
              + "="
              + transport
              + ": with security on, replicas talk over grpc, the transport Ratis secures with"
              + " TLS (netty only with tessera.security=off)");
    }
    switch (transport) {
      case "netty" -> {
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setPort(p, self.raftPort());
        NettyConfigKeys.Server.setHost(p, bindHost(self, config));
      }
      case "grpc" -> {
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setPort(p, self.raftPort());
        GrpcConfigKeys.Server.setHost(p, bindHost(self, config));
      }
      default ->
          throw new IllegalArgumentException(
              MetaServerConfigKeys.Raft.RAFT_TRANSPORT.key()
                  + "="
                  + transport
                  + ": expected netty or grpc");
    }
    RaftServerConfigKeys.Rpc.setTimeoutMin(
        p, millis(config.get(MetaServerConfigKeys.Raft.ELECTION_TIMEOUT_MIN)));
    RaftServerConfigKeys.Rpc.setTimeoutMax(
        p, millis(config.get(MetaServerConfigKeys.Raft.ELECTION_TIMEOUT_MAX)));
    RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(5, TimeUnit.SECONDS));
    RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(
        p, config.get(MetaServerConfigKeys.Raft.SNAPSHOT_THRESHOLD));
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    RaftServerConfigKeys.Log.setPurgeGap(p, config.get(MetaServerConfigKeys.Raft.LOG_PURGE_GAP));
    RaftServerConfigKeys.Log.setSegmentSizeMax(
        p, SizeInBytes.valueOf(config.get(MetaServerConfigKeys.Raft.LOG_SEGMENT_SIZE)));
    RaftServerConfigKeys.Log.Appender.setWaitTimeMin(
        p, millis(config.get(MetaServerConfigKeys.Raft.APPEND_WAIT)));
    RaftServerConfigKeys.Log.setUnsafeFlushEnabled(
        p, !config.get(MetaServerConfigKeys.Raft.LOG_SYNC));
    RaftServerConfigKeys.Log.setAsyncFlushEnabled(
        p, config.get(MetaServerConfigKeys.Raft.LOG_ASYNC_FLUSH));
    // Ratis keeps each write's reply to answer a client that resends the same call; ours never
    // does (RaftSubmitter numbers every write anew, and MetaStateMachine's own reply cache answers
    // clients' retries), so a minute of them (Ratis's default) would only fill the heap
    RaftServerConfigKeys.RetryCache.setExpiryTime(p, TimeDuration.valueOf(5, TimeUnit.SECONDS));
    return p;
  }

  private static TimeDuration millis(Duration d) {
    return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
  }
}
