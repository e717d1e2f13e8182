package io.tessera.nfs;

import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import java.time.Duration;
import java.util.List;

/** Settings of an NFS gateway. The defaults suit a local cluster. */
public final class NfsConfigKeys {
  private NfsConfigKeys() {}

  public static final ConfigKey<Integer> WORKERS =
      ConfigKey.integer(
          "tessera.nfs.workers",
          32,
          "threads that run NFS calls (each waits on the cluster): calls beyond them queue");
  public static final ConfigKey<Integer> CALLS_PER_CONNECTION =
      ConfigKey.integer(
          "tessera.nfs.calls-per-connection",
          64,
          "calls of one connection in progress at once; the gateway reads no more of it until"
              + " some finish");
  public static final ConfigKey<Long> CALL_BUFFER =
      ConfigKey.size(
          "tessera.nfs.call-buffer",
          128L << 20,
          "bytes of calls the gateway holds at once over all connections (received, not yet"
              + " answered); past it, connections are not read until calls finish");
  public static final ConfigKey<Long> GATHER =
      ConfigKey.size(
          "tessera.nfs.write-gather",
          8L << 20,
          "UNSTABLE writes are joined into runs of this many contiguous bytes before they are"
              + " written (whole stripes of k+m files)");
  public static final ConfigKey<Long> BUFFER =
      ConfigKey.size(
          "tessera.nfs.write-buffer",
          64L << 20,
          "gathered bytes the gateway holds at most, over all files; a WRITE past it waits");
  public static final ConfigKey<Duration> OPEN_IDLE =
      ConfigKey.duration(
          "tessera.nfs.open-idle",
          Duration.ofSeconds(30),
          "a file no NFS call used for this long is closed by the gateway");

  public static final ConfigKey<Duration> ATTRIBUTE_CACHE =
      ConfigKey.duration(
          "tessera.nfs.attribute-cache",
          Duration.ofSeconds(1),
          "how long attributes the gateway fetched serve further calls before it asks the meta"
              + " group again, as an NFS client's actimeo: others' changes show within it, the"
              + " gateway's own at once (0: ask every call)");

  public static final ConfigSection SECTION =
      new ConfigSection(
          "NFS gateway",
          List.of(
              WORKERS,
              CALLS_PER_CONNECTION,
              CALL_BUFFER,
              GATHER,
              BUFFER,
              OPEN_IDLE,
              ATTRIBUTE_CACHE));

  public static final List<ConfigSection> SECTIONS = List.of(SECTION);

  public static final List<ConfigKey<?>> ALL = ConfigSection.keysOf(SECTIONS);
}
