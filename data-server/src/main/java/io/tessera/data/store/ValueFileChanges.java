package io.tessera.data.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Value files one update wrote and made obsolete: once its batch commits the obsolete ones are
 * removed; if it never commits, the ones it wrote are.
 */
final class ValueFileChanges {
  private final ValueFiles files;
  private final List<ValueFiles.Ref> written = new ArrayList<>();
  private final List<ValueFiles.Ref> obsolete = new ArrayList<>();
  private boolean committed;

  ValueFileChanges(ValueFiles files) {
    this.files = files;
  }

  void written(ValueFiles.Ref ref) {
    // a request writing one shard twice: its first file is replaced by its second
    for (ValueFiles.Ref w : written) {
      if (w.shard().equals(ref.shard()) && w.epoch() == ref.epoch()) {
        obsolete.add(w);
      }
    }
    written.add(ref);
  }

  void obsolete(ValueFiles.Ref ref) {
    obsolete.add(ref);
  }

  void committed() {
    committed = true;
    obsolete.forEach(files::delete);
  }

  void abandonUncommitted() {
    if (!committed) {
      written.forEach(files::delete);
    }
  }
}
