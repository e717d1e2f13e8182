package io.tessera.meta.auth;

import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaRequestProto.OpCase;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.security.Identity;
import io.tessera.meta.state.NamespaceException;
import java.util.EnumSet;
import java.util.Set;

/**
 * Who a meta request acts for, decided before anything else looks at it: the caller's certificate
 * (never a field it sent), or for a trusted proxy (an NFS gateway, a meta replica's console) the
 * user it names; and whether that caller may make this kind of request at all. Namespace
 * permissions are checked later, by every replica, against the actor set here.
 */
public final class CallerGate {
  /** Requests only admins make; each is audited, refusals included. */
  public static final Set<OpCase> ADMIN_ONLY =
      EnumSet.of(
          OpCase.SNAPSHOT_CREATE,
          OpCase.SNAPSHOT_DELETE,
          OpCase.REPAIR_STRIPES,
          OpCase.DECOMMISSION,
          OpCase.QOS_SET,
          OpCase.CONSOLE_TOKEN_SET,
          OpCase.CONSOLE_TOKEN_LIST,
          OpCase.AUDIT_LIST,
          OpCase.CREDENTIALS_REGISTER,
          OpCase.CREDENTIALS_REVOKE);

  private final int superuserGroup;

  /**
   * @param superuserGroup members of this gid are admins (-1: none)
   */
  public CallerGate(int superuserGroup) {
    this.superuserGroup = superuserGroup;
  }

  /**
   * The request with its actor set (a proxied user taken over).
   *
   * @throws NamespaceException PERMISSION_DENIED when the caller may not act for the user it names
   */
  public MetaRequestProto identify(RpcCall call, MetaRequestProto req) {
    ActorProto actor = actor(call.identity(), req, String.valueOf(call.remote()));
    return req.toBuilder().setActor(actor).clearOnBehalfOf().build();
  }

  /**
   * Refuses a kind of request its (identified) caller may not make at all.
   *
   * @throws NamespaceException PERMISSION_DENIED
   */
  public void authorize(RpcCall call, MetaRequestProto req) {
    ActorProto actor = req.getActor();
    OpCase op = req.getOpCase();
    boolean server = call.identity() == null || call.identity().isServer();
    if (ADMIN_ONLY.contains(op) && !actor.getAdmin()) {
      throw denied(actor, "may not " + describe(op) + ": only admins may");
    }
    if (op == OpCase.CREDENTIALS_LIST && !actor.getAdmin() && !server) {
      throw denied(actor, "may not list credentials: only admins may");
    }
    if (op == OpCase.REPLICA_SPACE
        && call.identity() != null
        && !call.identity().isServer(Identity.Role.META)) {
      throw denied(actor, "may not ask a replica for its free space: the meta group asks itself");
    }
    if (op == OpCase.AUDIT_APPEND
        && call.identity() != null
        && !call.identity().isServer(Identity.Role.META)) {
      throw denied(actor, "may not write the audit log: the meta group writes it itself");
    }
  }

  private ActorProto actor(Identity id, MetaRequestProto req, String remote) {
    String from = remote.startsWith("/") ? remote.substring(1) : remote;
    if (id == null) {
      // tessera.security=off: callers are who they say
      ActorProto claimed =
          req.hasOnBehalfOf()
              ? req.getOnBehalfOf()
              : req.hasActor() ? req.getActor() : ActorProto.newBuilder().setAdmin(true).build();
      return claimed.toBuilder().setFrom(from).build();
    }
    if (req.hasOnBehalfOf()) {
      if (!id.isServer(Identity.Role.GATEWAY, Identity.Role.META)) {
        throw new NamespaceException(
            StatusProto.PERMISSION_DENIED,
            "permission denied: "
                + id.describe()
                + " may not act for another user (only NFS gateways and consoles do)");
      }
      ActorProto user = req.getOnBehalfOf();
      String via = user.getFrom().isEmpty() ? from : user.getFrom() + " via " + id.name();
      // a gateway's users are AUTH_SYS users: never admins; a console's are its tokens
      boolean admin = id.isServer(Identity.Role.META) && user.getAdmin();
      return user.toBuilder().setAdmin(admin || inSuperuserGroup(user)).setFrom(via).build();
    }
    if (id.isServer()) {
      return ActorProto.newBuilder()
          .setName(id.name())
          .setUid(Identity.ROOT_UID)
          .setGid(Identity.ROOT_UID)
          .setAdmin(id.isServer(Identity.Role.META))
          .setFrom(from)
          .build();
    }
    ActorProto user =
        ActorProto.newBuilder()
            .setName(id.name())
            .setUid(id.uid())
            .setGid(id.gid())
            .addAllGroups(id.groups())
            .setFrom(from)
            .build();
    return user.toBuilder().setAdmin(id.admin() || inSuperuserGroup(user)).build();
  }

  private boolean inSuperuserGroup(ActorProto a) {
    return superuserGroup >= 0
        && (a.getGid() == superuserGroup || a.getGroupsList().contains(superuserGroup));
  }

  /** "snapshot create" for SNAPSHOT_CREATE: how refusals and the audit log name a request. */
  public static String describe(OpCase op) {
    return op.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
  }

  private static NamespaceException denied(ActorProto a, String what) {
    String who =
        a.getName().isEmpty() ? "uid " + Integer.toUnsignedString(a.getUid()) : a.getName();
    return new NamespaceException(
        StatusProto.PERMISSION_DENIED,
        "permission denied: "
            + who
            + " "
            + what
            + " (credentials issued with --admin, or the superuser group)");
  }
}
