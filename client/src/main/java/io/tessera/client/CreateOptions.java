package io.tessera.client;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutPolicyProto;
import java.time.Duration;

/**
 * How a new file is laid out. Fields left unset come from the parent directory's default layout,
 * then from the cluster's.
 *
 * <pre>
 * fs.create("/results/a.dat", CreateOptions.erasure(6, 3).stripeUnit(1 &lt;&lt; 20));
 * fs.create("/scratch/b.dat", CreateOptions.striped(4));
 * </pre>
 */
public final class CreateOptions {
  private Integer dataUnits;
  private Integer parityUnits;
  private Integer stripeUnit;
  private boolean overwrite;
  private boolean widerThanCluster;
  private long partialLeaseMillis;
  private int mode;
  private Owner owner = Owner.process();
  private boolean log;

  private CreateOptions() {}

  /** Layout inherited from the directory or the cluster. */
  public static CreateOptions defaults() {
    return new CreateOptions();
  }

  /** Striping over {@code k} data servers, no parity. */
  public static CreateOptions striped(int k) {
    return erasure(k, 0);
  }

  /**
   * Reed-Solomon {@code k + m}: survives the loss of any {@code m} of the file's servers.
   *
   * @throws IllegalArgumentException when k is below 1, m below 0 or k + m above 255
   */
  public static CreateOptions erasure(int k, int m) {
    StripeLayout.validateUnits(k, m);
    CreateOptions o = new CreateOptions();
    o.dataUnits = k;
    o.parityUnits = m;
    return o;
  }

  /**
   * Reed-Solomon from its written form {@code "K+M"} (e.g. {@code "6+3"}), as the CLI's {@code
   * --ec} and the Hadoop and java.nio options {@code tessera.ec} take it.
   *
   * @throws IllegalArgumentException when it is not two numbers joined by {@code +}, or they could
   *     be no layout
   */
  public static CreateOptions erasure(String kPlusM) {
    String[] km = kPlusM.split("\\+");
    try {
      if (km.length != 2) {
        throw new NumberFormatException();
      }
      return erasure(Integer.parseInt(km[0].trim()), Integer.parseInt(km[1].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(kPlusM + " is not K+M, e.g. 6+3");
    }
  }

  /**
   * A log-structured file (PLFS): each writer appends to logs of its own, so many writers of small
   * interleaved records (an N-to-1 checkpoint) write at the speed of separate files; another client
   * sees a writer's bytes once it syncs or closes. As a directory's default: every file created in
   * it. A file created in such a directory is one whatever this says.
   */
  public CreateOptions log(boolean logStructured) {
    this.log = logStructured;
    return this;
  }

  boolean log() {
    return log;
  }

  /** Bytes per stripe unit: a power of two from 4 KiB to 64 MiB. */
  public CreateOptions stripeUnit(int bytes) {
    this.stripeUnit = bytes;
    return this;
  }

  /** Replace an existing regular file instead of failing. */
  public CreateOptions overwrite(boolean replace) {
    this.overwrite = replace;
    return this;
  }

  /**
   * As a directory's default layout: keep it even when it is wider than the data servers the
   * cluster has now (files created in the directory are refused until enough servers join). Without
   * it such a default is refused at once.
   */
  public CreateOptions widerThanCluster(boolean keep) {
    this.widerThanCluster = keep;
    return this;
  }

  boolean widerThanCluster() {
    return widerThanCluster;
  }

  /**
   * A partial copy, written under a hidden name and renamed into place when complete: the cluster
   * removes it unless renewed ({@link TesseraFileSystem#renewPartial}) within {@code lease} (1 s to
   * a day), so a writer that dies leaves nothing behind for good. A rename makes it an ordinary
   * file.
   */
  public CreateOptions partial(Duration lease) {
    this.partialLeaseMillis = lease.toMillis();
    return this;
  }

  long partialLeaseMillis() {
    return partialLeaseMillis;
  }

  /** POSIX permission bits (default 0644). */
  public CreateOptions mode(int bits) {
    this.mode = bits;
    return this;
  }

  /** Owner and group of the new file or directory (default: this process's user and group). */
  public CreateOptions owner(Owner who) {
    this.owner = who;
    return this;
  }

  Owner owner() {
    return owner;
  }

  boolean overwrite() {
    return overwrite;
  }

  int mode() {
    return mode;
  }

  /** The explicit policy, or null when the file inherits one. */
  LayoutPolicyProto policy(int defaultUnit) {
    if (dataUnits == null && stripeUnit == null) {
      // a kind alone: the meta group fills in the k+m and unit the directory would give
      return log ? LayoutPolicyProto.newBuilder().setKind(LayoutKindProto.LOG).build() : null;
    }
    if (dataUnits == null) {
      // a stripe unit alone: the meta group takes k+m from the directory, as it would
      StripeLayout.validate(stripeUnit, 1, 0);
      return LayoutPolicyProto.newBuilder()
          .setStripeUnit(stripeUnit)
          .setKind(log ? LayoutKindProto.LOG : LayoutKindProto.STRIPED)
          .build();
    }
    int k = dataUnits;
    int m = parityUnits == null ? 0 : parityUnits;
    int u = stripeUnit == null ? defaultUnit : stripeUnit;
    StripeLayout.validate(u, k, m);
    return LayoutPolicyProto.newBuilder()
        .setDataUnits(k)
        .setParityUnits(m)
        .setStripeUnit(u)
        .setKind(log ? LayoutKindProto.LOG : LayoutKindProto.STRIPED)
        .build();
  }

  /** Whether the caller chose any of the layout (k and m, or a stripe unit, or both). */
  boolean asksLayout() {
    return dataUnits != null || stripeUnit != null;
  }
}
