package io.tessera.meta.auth;

import com.google.protobuf.ByteString;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.proto.AccessKeyProto;
import io.tessera.common.security.Revocations;
import io.tessera.meta.proto.AccessKeysProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.SecurityRecords;
import java.io.Closeable;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a replica's security current, once a second: this process's ports adopt the replicated
 * revocation list (closing revoked callers' connections), and the leader rolls the key access
 * tokens are signed with when it is older than {@code tessera.meta.access-key-roll} (at once on a
 * new cluster).
 */
public final class SecurityUpkeep implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SecurityUpkeep.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Supplier<NamespaceStore> store;
  private final Revocations revocations;
  private final BooleanSupplier leader;
  private final Function<MetaTxnProto, CompletableFuture<?>> submit;
  private final Duration roll;
  private final AtomicBoolean rolling = new AtomicBoolean();
  private final ScheduledExecutorService timer = DaemonTimer.named("security-upkeep");

  public SecurityUpkeep(
      Supplier<NamespaceStore> store,
      Revocations revocations,
      BooleanSupplier leader,
      Function<MetaTxnProto, CompletableFuture<?>> submit,
      Duration roll) {
    this.store = store;
    this.revocations = revocations;
    this.leader = leader;
    this.submit = submit;
    this.roll = roll;
  }

  public void start() {
    timer.scheduleWithFixedDelay(this::tick, 0, 1, TimeUnit.SECONDS);
  }

  private void tick() {
    try {
      NamespaceStore s = store.get();
      revocations.update(SecurityRecords.revocations(s));
      if (leader.getAsBoolean()) {
        rollIfDue(SecurityRecords.accessKeys(s));
      }
    } catch (RuntimeException e) {
      LOG.warn("Security upkeep failed, tried again in a second: {}", e.toString());
    }
  }

  private void rollIfDue(AccessKeysProto keys) {
    long now = System.currentTimeMillis();
    boolean due =
        keys.getKeysCount() == 0
            || keys.getKeys(keys.getKeysCount() - 1).getCreatedMs() < now - roll.toMillis();
    if (!due || !rolling.compareAndSet(false, true)) {
      return;
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    AccessKeyProto key =
        AccessKeyProto.newBuilder()
            .setSecret(ByteString.copyFrom(secret))
            .setCreatedMs(now)
            .build();
    submit
        .apply(MetaTxnProto.newBuilder().setTimeMs(now).setAccessKey(key).build())
        .whenComplete(
            (r, err) -> {
              rolling.set(false);
              if (err == null) {
                LOG.info("A new key signs access tokens from now on");
              }
            });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
