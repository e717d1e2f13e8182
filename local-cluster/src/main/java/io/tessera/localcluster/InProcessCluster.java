package io.tessera.localcluster;

import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import io.tessera.data.server.DataServer;
import io.tessera.data.server.DataServerConfigKeys;
import io.tessera.meta.server.MetaPeer;
import io.tessera.meta.server.MetaServer;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every server in this JVM: the MiniCluster of fast tests, and {@code tessera local --in-process}.
 */
public final class InProcessCluster implements LocalCluster {
  private final ClusterPlan plan;
  private final Config config;
  private final Map<String, MetaServer> metas = new LinkedHashMap<>();
  private final Map<String, DataServer> datas = new LinkedHashMap<>();

  private InProcessCluster(ClusterPlan plan, Config config) {
    this.plan = plan;
    this.config = config;
  }

  public static InProcessCluster start(ClusterPlan plan, Config config)
      throws IOException, InterruptedException {
    ClusterCredentials.ensure(plan);
    InProcessCluster c = new InProcessCluster(plan, config);
    try {
      List<ClusterFile.Node> meta = new ArrayList<>();
      List<ClusterFile.Node> data = new ArrayList<>();
      long pid = ProcessHandle.current().pid();
      for (MetaPeer p : plan.metaPeers()) {
        c.startMeta(p.id());
        meta.add(
            new ClusterFile.Node(
                    p.id(), p.clientAddress(), pid, plan.metaDir(p.id()).toString(), List.of())
                .withRaftAddress(p.raftAddress()));
      }
      for (String id : plan.dataIds()) {
        c.startData(id);
        data.add(
            new ClusterFile.Node(
                id, "127.0.0.1:" + plan.dataPort(id), pid, plan.dataDir(id).toString(), List.of()));
      }
      Files.createDirectories(plan.dir());
      new ClusterFile(meta, data, plan.adminCredentials().toString()).write(plan.clusterFile());
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }

  @Override
  public ClusterPlan plan() {
    return plan;
  }

  public void startMeta(String id) throws IOException, InterruptedException {
    metas.put(id, MetaServer.start(id, plan.metaPeers(), plan.metaDir(id), serverConfig(id)));
  }

  /** The cluster's settings with server {@code id}'s credentials. */
  private Config serverConfig(String id) {
    return config.with(SecurityConfigKeys.CREDENTIALS, plan.credentialsFile(id).toString());
  }

  /** A client's settings for this cluster, as its administrator, with the cluster's security. */
  @Override
  public Config clientConfig() {
    Config c = plan.clientConfig();
    return c.with(SecurityConfigKeys.SECURITY, config.get(SecurityConfigKeys.SECURITY));
  }

  public void startData(String id) throws IOException, InterruptedException {
    Config c =
        serverConfig(id)
            .with(DataServerConfigKeys.Server.META_ADDRESSES, plan.metaAddresses())
            .with(DataServerConfigKeys.Server.PORT, String.valueOf(plan.dataPort(id)));
    datas.put(id, DataServer.start(id, plan.dataDir(id), c));
  }

  /** Stops one meta replica (as a crash would, but releasing its ports and files). */
  public void stopMeta(String id) throws IOException {
    MetaServer m = metas.remove(id);
    if (m != null) {
      m.close();
    }
  }

  public void stopData(String id) throws IOException {
    DataServer d = datas.remove(id);
    if (d != null) {
      d.close();
    }
  }

  public MetaServer meta(String id) {
    return metas.get(id);
  }

  public DataServer data(String id) {
    return datas.get(id);
  }

  /** The replica that currently leads, or null. */
  public String leader() {
    return metas.values().stream()
        .filter(MetaServer::isLeader)
        .map(MetaServer::id)
        .findFirst()
        .orElse(null);
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (String id : new ArrayList<>(datas.keySet())) {
      try {
        stopData(id);
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    for (String id : new ArrayList<>(metas.keySet())) {
      try {
        stopMeta(id);
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
