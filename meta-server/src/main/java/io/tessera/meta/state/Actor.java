package io.tessera.meta.state;

import io.tessera.common.proto.ActorProto;

/**
 * Whom a logged request acts for ({@code MetaRequestProto.actor}, set by the leader from the
 * caller's certificate): what permission checks see. Root (uid 0) and admins are superusers.
 */
public record Actor(ActorProto proto) {
  /** Requests logged without an actor (before there were any, or by the cluster itself). */
  public static final Actor CLUSTER =
      new Actor(ActorProto.newBuilder().setName("tessera").setAdmin(true).build());

  /** The actor of a logged request; one without is the cluster's own. */
  public static Actor of(ActorProto p) {
    return p.getName().isEmpty() && !p.getAdmin() && p.getUid() == 0 ? CLUSTER : new Actor(p);
  }

  public int uid() {
    return proto.getUid();
  }

  public int gid() {
    return proto.getGid();
  }

  public boolean admin() {
    return proto.getAdmin();
  }

  /** Sees everything, changes nothing (a console's read-only token). */
  public boolean readOnly() {
    return proto.getReadOnly();
  }

  /** Passes every permission check (a read-only actor's changes are refused elsewhere). */
  public boolean superuser() {
    return proto.getAdmin() || proto.getUid() == 0 || proto.getReadOnly();
  }

  public boolean inGroup(int gid) {
    return proto.getGid() == gid || proto.getGroupsList().contains(gid);
  }

  /** How refusals name it: "bob (uid 1001)". */
  public String describe() {
    String name = proto.getName().isEmpty() ? "uid " + uid() : proto.getName();
    return proto.getName().isEmpty()
        ? name
        : name + " (uid " + Integer.toUnsignedString(uid()) + ")";
  }
}
