package io.tessera.nfs.v3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.FileStatus;
import io.tessera.client.Owner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Every NFS call asked the meta group for its handle's attributes. The cache spares that within its
 * age, and never hides the gateway's own changes.
 */
class AttributeCacheTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AttributeCache cache = new AttributeCache(Duration.ofSeconds(1), 3, now::get);

  private static FileHandle live(long id) {
    return new FileHandle(1, FileHandle.LIVE, 0, id, 7);
  }

  private static FileStatus status(long id, String path) {
    Instant t = Instant.ofEpochMilli(7);
    return new FileStatus(
        path, id, false, 0, 0644, t, t, null, List.of(), 0644, null, new Owner(0, 0), t, null);
  }

  @Test
  void attributesServeWithinTheirAgeThenAreFetchedAgain() {
    cache.put(live(5), status(5, "/a"));
    now.addAndGet(Duration.ofMillis(900).toNanos());
    assertThat(cache.get(live(5), true)).isNotNull();
    now.addAndGet(Duration.ofMillis(200).toNanos());
    assertThat(cache.get(live(5), false)).as("others' changes show within the age").isNull();
  }

  @Test
  void theGatewaysOwnChangesShowAtOnce() {
    cache.put(live(5), status(5, "/dir"));
    cache.changed(5); // a CREATE in it, a WRITE to it
    assertThat(cache.get(live(5), false)).as("still good for a call's checks").isNotNull();
    assertThat(cache.get(live(5), true)).as("not as what GETATTR answers").isNull();

    cache.put(live(6), status(6, "/f"));
    cache.forget(6); // a SETATTR, a COMMIT, a REMOVE
    assertThat(cache.get(live(6), false)).isNull();

    cache.put(live(7), status(7, "/d/g"));
    cache.clear(); // a RENAME: paths below a moved directory changed
    assertThat(cache.get(live(7), false)).isNull();
  }

  @Test
  void itHoldsAtMostItsCapacityDroppingTheLeastRecentlyUsed() {
    cache.put(live(1), status(1, "/1"));
    cache.put(live(2), status(2, "/2"));
    cache.put(live(3), status(3, "/3"));
    cache.get(live(1), false);
    cache.put(live(4), status(4, "/4"));
    assertThat(cache.get(live(2), false)).isNull();
    assertThat(cache.get(live(1), false)).isNotNull();
  }

  @Test
  void anAgeOfZeroKeepsNothing() {
    AttributeCache off = new AttributeCache(Duration.ZERO, 3, now::get);
    off.put(live(5), status(5, "/a"));
    assertThat(off.get(live(5), false)).isNull();
  }
}
