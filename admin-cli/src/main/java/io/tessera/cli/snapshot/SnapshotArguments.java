package io.tessera.cli.snapshot;

import io.tessera.common.cluster.SnapshotNames;

/** The snapshot commands' checks of the names they are given, before the cluster is asked. */
final class SnapshotArguments {
  private SnapshotArguments() {}

  /** Refuses a malformed snapshot name as bad usage; null (not given) passes. */
  static void checkNames(String... names) {
    for (String name : names) {
      if (name != null && !SnapshotNames.valid(name)) {
        throw new IllegalArgumentException(SnapshotNames.whyInvalid(name));
      }
    }
  }
}
