package io.tessera.meta.state;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests of namespace rules: a fresh store per test, changed one log entry at a time as the state
 * machine does.
 */
public abstract class AppliedNamespaceTest {
  @TempDir protected Path dir;
  protected NamespaceStore store;

  /** The log index of the last entry applied. */
  protected long index;

  @BeforeEach
  void openStore() throws Exception {
    store = new NamespaceStore(dir);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  /** Applies {@code change} as the next log entry. */
  protected void entry(Consumer<NamespaceTxn> change) {
    try (NamespaceTxn tx = store.begin()) {
      change.accept(tx);
      tx.commit(1, ++index);
    }
  }
}
