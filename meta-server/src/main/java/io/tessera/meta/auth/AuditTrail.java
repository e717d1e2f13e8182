package io.tessera.meta.auth;

import com.google.protobuf.ByteString;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.AuditAppendRequestProto;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaRequestProto.OpCase;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.state.Actor;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of the audit log: every admin request from any interface (CLI, Java API,
 * console, NFS) is recorded when served, refusals included, with who and from where as the caller
 * authenticated and the leader's clock. A caller refused again and again is recorded a few times a
 * minute and the rest counted, so nobody can push others' entries out by being refused.
 */
public final class AuditTrail {
  private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);

  /** Refusals of one caller recorded one by one per minute; more are only counted. */
  static final int REFUSALS_PER_MINUTE = 10;

  private static final long MINUTE = 60_000;

  private final Function<MetaTxnProto, CompletableFuture<?>> submit;
  private final Duration keep;
  private final int entries;
  private final LongSupplier clock;
  private final CallerProto self =
      CallerProto.newBuilder()
          .setClientId(ByteString.copyFrom(RecoveryIdentity.newClientId().toByteArray()))
          .setAppId("tessera-audit")
          .build();
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong counted = new AtomicLong();
  private final Map<String, long[]> refusals = new ConcurrentHashMap<>();

  public AuditTrail(
      Function<MetaTxnProto, CompletableFuture<?>> submit,
      Duration keep,
      int entries,
      LongSupplier clock) {
    this.submit = submit;
    this.keep = keep;
    this.entries = entries;
    this.clock = clock;
  }

  /** Whether a request of this kind is audited (admin-only requests; reads only when refused). */
  public static boolean audited(OpCase op, boolean refused) {
    if (!CallerGate.ADMIN_ONLY.contains(op)) {
      return false;
    }
    boolean read = op == OpCase.AUDIT_LIST || op == OpCase.CONSOLE_TOKEN_LIST;
    return refused || !read;
  }

  /** Records how an admin request ended (on the leader, once it is served or refused). */
  public void record(MetaRequestProto req, StatusProto status, String message) {
    boolean refused = status != StatusProto.OK;
    if (!audited(req.getOpCase(), refused)) {
      return;
    }
    ActorProto actor = req.getActor();
    if (refused && status == StatusProto.PERMISSION_DENIED && !allow(actor.getName())) {
      counted.incrementAndGet();
      return;
    }
    AuditEntryProto entry =
        AuditEntryProto.newBuilder()
            .setWho(who(actor))
            .setFrom(actor.getFrom())
            .setAction(action(req.getOpCase()))
            .setTarget(target(req))
            .setResult(refused ? status.name().toLowerCase() + ": " + message : "ok")
            .build();
    append(entry);
  }

  /**
   * A request to append an entry written elsewhere (a console's refusal of a token): its who and
   * from are set from the caller the gate authenticated.
   */
  public MetaRequestProto rewrite(MetaRequestProto req) {
    AuditEntryProto e =
        req.getAuditAppend().getEntry().toBuilder()
            .setWho(who(req.getActor()))
            .setFrom(req.getActor().getFrom())
            .build();
    return req.toBuilder().setAuditAppend(bounded(e)).build();
  }

  private void append(AuditEntryProto entry) {
    MetaRequestProto req =
        MetaRequestProto.newBuilder()
            .setCaller(self)
            .setCallId(calls.incrementAndGet())
            .setActor(Actor.CLUSTER.proto())
            .setAuditAppend(bounded(entry))
            .build();
    submit
        .apply(MetaTxnProto.newBuilder().setTimeMs(clock.getAsLong()).setClient(req).build())
        .whenComplete(
            (r, err) -> {
              if (err != null) {
                LOG.warn(
                    "An audit entry was not recorded ({} {} by {}): {}",
                    entry.getAction(),
                    entry.getTarget(),
                    entry.getWho(),
                    err.toString());
              }
            });
  }

  private AuditAppendRequestProto bounded(AuditEntryProto e) {
    return AuditAppendRequestProto.newBuilder()
        .setEntry(e)
        .setDropBeforeMs(clock.getAsLong() - keep.toMillis())
        .setKeepEntries(entries)
        .setRefusalsCounted(counted.getAndSet(0))
        .build();
  }

  /** Whether one more refusal of this caller is recorded this minute. */
  private boolean allow(String who) {
    long now = clock.getAsLong();
    if (refusals.size() > 10_000) {
      refusals.clear();
    }
    long[] w = refusals.computeIfAbsent(who, k -> new long[] {now, 0});
    synchronized (w) {
      if (now - w[0] >= MINUTE) {
        w[0] = now;
        w[1] = 0;
      }
      return ++w[1] <= REFUSALS_PER_MINUTE;
    }
  }

  private static String who(ActorProto a) {
    String name =
        a.getName().isEmpty() ? "uid " + Integer.toUnsignedString(a.getUid()) : a.getName();
    return a.getAdmin() ? name + " (admin)" : name;
  }

  /**
   * The action as the audit log names it, as the console names its own: "snapshot.create",
   * "console-token.set", "decommission".
   */
  static String action(OpCase op) {
    String name = op.name().toLowerCase(java.util.Locale.ROOT);
    int last = name.lastIndexOf('_');
    return last < 0
        ? name
        : name.substring(0, last).replace('_', '-') + "." + name.substring(last + 1);
  }

  /** What a request acted on, as the audit log shows it. */
  static String target(MetaRequestProto req) {
    return switch (req.getOpCase()) {
      case SNAPSHOT_CREATE -> req.getSnapshotCreate().getName();
      case SNAPSHOT_DELETE -> req.getSnapshotDelete().getName();
      case REPAIR_STRIPES ->
          "file "
              + req.getRepairStripes().getFileId()
              + " ("
              + req.getRepairStripes().getStripesCount()
              + " stripes)";
      case DECOMMISSION ->
          req.getDecommission().getServer()
              + (req.getDecommission().getUndo()
                  ? " (recommission)"
                  : req.getDecommission().getRemove() ? " (remove)" : "");
      case QOS_SET ->
          req.getQosSet().getApp().getApp() + (req.getQosSet().getReset() ? " (reset)" : "");
      case CONSOLE_TOKEN_SET ->
          req.getConsoleTokenSet().getToken().getName()
              + " "
              + req.getConsoleTokenSet().getToken().getId()
              + (req.getConsoleTokenSet().getRevoke() ? " (revoke)" : "");
      case CREDENTIALS_REGISTER ->
          req.getCredentialsRegister().getRecord().getName()
              + " serial "
              + req.getCredentialsRegister().getRecord().getSerial();
      case CREDENTIALS_REVOKE ->
          req.getCredentialsRevoke().getSerial().isEmpty()
              ? req.getCredentialsRevoke().getName()
              : "serial " + req.getCredentialsRevoke().getSerial();
      default -> "";
    };
  }
}
