package io.tessera.meta.server;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.registry.DefaultLayout;
import io.tessera.meta.registry.PlacementPolicy;
import io.tessera.meta.state.AskedLayout;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceOp;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.PathResolver;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the leader resolves for new files before a change is logged: a create's layout policy (the
 * request's, else the parent directory's default, else the cluster's) and its servers, and whether
 * a directory's default layout fits the servers that take new files.
 */
final class NewFilePlacement implements NamespaceOp.Leader {
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final PlacementPolicy placement;
  private final DefaultLayout defaultLayout;
  private final int defaultStripeUnit;

  NewFilePlacement(
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      PlacementPolicy placement,
      DefaultLayout defaultLayout,
      int defaultStripeUnit) {
    this.store = store;
    this.registry = registry;
    this.placement = placement;
    this.defaultLayout = defaultLayout;
    this.defaultStripeUnit = defaultStripeUnit;
  }

  /**
   * Resolves the layout policy (the request's, else the nearest directory default above the file,
   * else the cluster's) and chooses the data servers, before the change is logged.
   */
  @Override
  public CreateRequestProto placed(CreateRequestProto c) {
    ServerChoice choice = serverChoice();
    LayoutPolicyProto inherited = c.getPath().isEmpty() ? null : inheritedPolicy(c.getPath());
    LayoutPolicyProto asked = c.getHasLayout() ? c.getLayout() : null;
    LayoutPolicyProto policy = asked != null && !AskedLayout.partial(asked) ? asked : inherited;
    if (policy == null) {
      if (registry.joining()) {
        throw new NamespaceException(
            StatusProto.UNAVAILABLE,
            "data servers are still joining the cluster; the default layout is chosen once they"
                + " have: retry shortly");
      }
      policy =
          defaultLayout.policyFor(choice.live().size() + choice.down().size(), defaultStripeUnit);
    }
    if (asked != null && AskedLayout.partial(asked)) {
      policy = AskedLayout.completed(asked, policy); // a stripe unit alone: the k+m inherited
    }
    try {
      StripeLayout.validate(policy.getStripeUnit(), policy.getDataUnits(), policy.getParityUnits());
    } catch (IllegalArgumentException e) {
      throw new NamespaceException(StatusProto.INVALID_ARGUMENT, e.getMessage());
    }
    // a log file: asked for, or what its directory makes of new files whatever k+m was asked
    boolean log = c.getLog() || (inherited != null && inherited.getKind() == LayoutKindProto.LOG);
    policy =
        policy.toBuilder().setKind(log ? LayoutKindProto.LOG : LayoutKindProto.STRIPED).build();
    if (log) {
      // its writers' logs are placed as they open; the file itself holds no shard
      checkFits(policy);
      return c.toBuilder()
          .setLayout(policy)
          .setHasLayout(true)
          .clearPlacement()
          .clearStaleFromStart()
          .build();
    }
    PlacementPolicy.Placement p =
        placement.choose(choice.live(), choice.down(), policy, registry.reporting());
    return c.toBuilder()
        .setLayout(policy)
        .setHasLayout(true)
        .clearPlacement()
        .addAllPlacement(p.servers())
        .clearStaleFromStart()
        .addAllStaleFromStart(p.staleFromStart())
        .build();
  }

  @Override
  public LayoutPolicyProto inheritedAt(String path) {
    LayoutPolicyProto inherited = inheritedPolicy(path);
    if (inherited != null) {
      return inherited;
    }
    ServerChoice choice = serverChoice();
    return defaultLayout.policyFor(choice.live().size() + choice.down().size(), defaultStripeUnit);
  }

  /**
   * Refuses a directory default wider than the data servers that take new files: every file created
   * with it would be refused (a default may name servers yet to come with force).
   */
  @Override
  public void checkFits(LayoutPolicyProto policy) {
    ServerChoice choice = serverChoice();
    int servers = choice.live().size() + choice.down().size();
    int n = policy.getDataUnits() + policy.getParityUnits();
    if (n > servers) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "layout "
              + policy.getDataUnits()
              + "+"
              + policy.getParityUnits()
              + " needs "
              + n
              + " data servers and the cluster has "
              + servers
              + ": no file"
              + " could be created with it (a narrower layout, or --force to keep it for servers yet to come)");
    }
  }

  /**
   * The data servers that take new files: those heard from lately, and the registered ones that are
   * down.
   */
  private record ServerChoice(List<HeartbeatRequestProto> live, List<String> down) {}

  private ServerChoice serverChoice() {
    // draining and retired servers take no new files
    Map<String, ServerStateRecordProto> states = store.get().serverStates();
    Predicate<String> takesFiles =
        id -> {
          ServerStateRecordProto r = states.get(id);
          return r == null
              || (r.getState() != DataServerStateProto.DRAINING
                  && r.getState() != DataServerStateProto.RETIRED);
        };
    List<HeartbeatRequestProto> live =
        registry.live().stream().filter(hb -> takesFiles.test(hb.getServerId())).toList();
    List<String> down =
        registry.known().stream().filter(id -> takesFiles.test(id) && !registry.isUp(id)).toList();
    return new ServerChoice(live, down);
  }

  /** The default layout of the nearest directory above {@code path} that has one, or null. */
  private LayoutPolicyProto inheritedPolicy(String path) {
    try {
      PathResolver.Resolved r = PathResolver.resolve(store.get(), path);
      for (int i = r.ancestors().size() - 1; i >= 0; i--) {
        InodeProto dir = store.get().inode(r.ancestors().get(i));
        if (dir != null && dir.getHasDefaultLayout()) {
          return dir.getDefaultLayout();
        }
      }
      return null;
    } catch (NamespaceException e) {
      return null; // the change itself reports the bad path when applied
    }
  }
}
