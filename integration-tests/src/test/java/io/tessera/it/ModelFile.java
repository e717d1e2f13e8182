package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;

/**
 * A property test's engine: random writes, reads (also past the end), truncates and reopens of one
 * file, each checked against a byte array holding what the file must contain.
 */
final class ModelFile {
  private ModelFile() {}

  /** Runs {@code ops} random operations on a new file at {@code path}; returns the final model. */
  static byte[] exercise(
      TesseraFileSystem fs, String path, CreateOptions layout, Random rnd, int ops)
      throws IOException {
    TesseraFile f = fs.createFile(path, layout);
    long stripe = f.stripeDataBytes();
    byte[] model = new byte[0];
    for (int op = 0; op < ops; op++) {
      int kind = rnd.nextInt(10);
      if (kind < 5) {
        int off = rnd.nextInt((int) Math.min(model.length + 2 * stripe, 6 << 20) + 1);
        // small writes land inside units (partial stripes); large ones span stripes
        int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 5000 : (int) Math.min(3 * stripe, 3 << 20));
        byte[] data = new byte[len];
        rnd.nextBytes(data);
        f.write(off, data, 0, len);
        if (off + len > model.length) {
          model = Arrays.copyOf(model, off + len);
        }
        System.arraycopy(data, 0, model, off, len);
      } else if (kind < 8) {
        int off = rnd.nextInt(model.length + 10);
        int len = rnd.nextInt((int) Math.min(2 * stripe, 2 << 20)) + 1;
        byte[] got = new byte[len];
        int n = f.read(off, got, 0, len);
        int expect = Math.max(-1, Math.min(len, model.length - off));
        assertThat(n)
            .as(
                "%s (%s): bytes read at %d of %d",
                path, f.layout() == null ? "log" : f.layout(), off, model.length)
            .isEqualTo(expect == 0 ? -1 : expect);
        if (n > 0) {
          assertThat(Arrays.copyOf(got, n))
              .as(
                  "%s (%s) bytes %d+%d after op %d",
                  path, f.layout() == null ? "log" : f.layout(), off, n, op)
              .isEqualTo(Arrays.copyOfRange(model, off, off + n));
        }
      } else if (kind == 8) {
        int size = rnd.nextInt(model.length + (int) stripe + 1);
        f.truncate(size);
        model = Arrays.copyOf(model, size);
      } else {
        f.close(); // a log file's writes are seen by other handles once closed (or synced)
        f = fs.openFile(path);
        assertThat(f.size()).as("size after reopening").isEqualTo(model.length);
      }
    }
    f.close();
    byte[] all = new byte[model.length];
    TesseraFile reopened = fs.openFile(path);
    if (model.length > 0) {
      reopened.readFully(0, all, 0, all.length);
    }
    assertThat(all).as("%s whole", path).isEqualTo(model);
    int from = rnd.nextInt(model.length + 1);
    try (InputStream in = reopened.newInputStream(0)) {
      assertThat(in.skip(from)).isEqualTo(from);
      assertThat(in.readAllBytes())
          .as("%s streamed from %d", path, from)
          .isEqualTo(Arrays.copyOfRange(model, from, model.length));
    }
    assertThat(fs.stat(path).size()).isEqualTo(model.length);
    return model;
  }
}
