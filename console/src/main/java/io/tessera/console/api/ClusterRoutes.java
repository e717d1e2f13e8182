package io.tessera.console.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.tessera.client.admin.ClusterAdmin;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.console.auth.BearerAuth;
import io.tessera.console.auth.Caller;
import io.tessera.console.watch.ClusterWatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Health, servers, recovery, recent throughput and events: what the overview shows. */
public final class ClusterRoutes {
  private final ClusterAdmin admin;
  private final ClusterWatch watch;

  public ClusterRoutes(ClusterAdmin admin, ClusterWatch watch) {
    this.admin = admin;
    this.watch = watch;
  }

  /** The cluster at a glance. */
  public record Health(
      String health,
      List<String> problems,
      String leader,
      long epoch,
      int metaReplicas,
      int dataServers,
      int dataServersUp,
      long capacityBytes,
      long usedBytes,
      long freeBytes,
      int filesystems,
      long bytesPerSecond,
      long requestsPerSecond,
      long filesToReclaim) {}

  /** Every server. */
  public record Servers(List<ClusterStatus.Replica> meta, List<ClusterStatus.DataServer> data) {}

  public record WhoAmI(String name, String id, String role) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/v1/cluster", ctx -> ctx.json(health(admin.status())));
    routes.get(
        "/api/v1/servers",
        ctx -> {
          ClusterStatus s = admin.status();
          ctx.json(new Servers(s.replicas(), s.dataServers()));
        });
    routes.get("/api/v1/recovery", ctx -> ctx.json(admin.status().recovery()));
    routes.get("/api/v1/history", ctx -> ctx.json(watch.samples()));
    routes.get(
        "/api/v1/events",
        ctx -> ctx.json(watch.events((int) Requests.number(ctx, "limit", 100, 1, 500))));
    routes.get("/api/v1/whoami", ClusterRoutes::whoAmI);
  }

  private static void whoAmI(Context ctx) {
    Caller c = BearerAuth.caller(ctx);
    ctx.json(new WhoAmI(c.token().name(), c.token().id(), c.token().role()));
  }

  static Health health(ClusterStatus s) throws IOException {
    List<String> problems = new ArrayList<>();
    String leader = s.leaderId();
    if (leader.isEmpty()) {
      problems.add("the meta group has no leader: changes wait until it elects one");
    }
    long used = 0;
    ClusterStatus.Space space = s.space(); // each filesystem once
    long bytes = 0;
    long requests = 0;
    int up = 0;
    int counted = 0;
    long stale = 0;
    for (ClusterStatus.DataServer d : s.dataServers()) {
      if (d.state().equals("retired")) {
        continue;
      }
      counted++;
      used += d.usedBytes();
      bytes += d.clientBytesPerSecond();
      requests += d.clientRequestsPerSecond();
      stale += d.filesToRebuild();
      if (d.up()) {
        up++;
      } else {
        problems.add("data server " + d.id() + " is " + d.state());
      }
    }
    if (stale > 0) {
      problems.add(stale + " file shard sets are stale and being rebuilt");
    }
    String health =
        leader.isEmpty() || (counted > 0 && up == 0)
            ? "critical"
            : problems.isEmpty() ? "ok" : "degraded";
    return new Health(
        health,
        problems,
        leader,
        s.epoch(),
        s.replicas().size(),
        counted,
        up,
        space.capacityBytes(),
        used,
        space.freeBytes(),
        space.filesystems(),
        bytes,
        requests,
        s.filesToReclaim());
  }
}
