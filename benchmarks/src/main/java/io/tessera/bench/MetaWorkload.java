package io.tessera.bench;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One client of {@code bench meta}: T threads, each with its own connection, creating, stating or
 * removing empty files. Files are named by client, thread and number, so that the clients of one
 * run (threads of other processes) never meet, in one shared directory or in one directory each
 * thread (mdtest's shared and unique-directory modes).
 */
final class MetaWorkload implements Closeable {
  /** What one phase does to each file. */
  enum Op {
    CREATE,
    STAT,
    REMOVE
  }

  private final List<TesseraFileSystem> fss;
  private final ExecutorService pool;

  /** {@code fss}: one connection per thread. */
  MetaWorkload(List<TesseraFileSystem> fss) {
    this.fss = List.copyOf(fss);
    this.pool = Executors.newFixedThreadPool(fss.size());
  }

  int threads() {
    return fss.size();
  }

  /**
   * Makes the directories a phase needs, untimed: {@code dir} itself, or with {@code ownDirs} one
   * directory per thread of this client under it.
   */
  void prepare(String dir, int client, boolean ownDirs) throws Exception {
    fss.get(0).mkdirs(dir);
    if (ownDirs) {
      for (int t = 0; t < threads(); t++) {
        fss.get(0).mkdirs(dir + "/" + ownDir(client, t));
      }
    }
  }

  /**
   * Runs {@code op} on this client's {@code files} files under {@code dir} (spread over its
   * threads); seconds from the first start to the last end.
   */
  double run(Op op, String dir, int client, boolean ownDirs, int files) throws Exception {
    return Spread.timed(
        pool,
        threads(),
        files,
        (thread, i) -> {
          String p =
              ownDirs
                  ? String.format(Locale.ROOT, "%s/%s/f-%d", dir, ownDir(client, thread), i)
                  : String.format(Locale.ROOT, "%s/f-c%d-t%d-%d", dir, client, thread, i);
          TesseraFileSystem fs = fss.get(thread);
          switch (op) {
            case CREATE -> fs.createFile(p, CreateOptions.defaults()).close();
            case STAT -> fs.stat(p);
            case REMOVE -> fs.delete(p, false);
          }
        });
  }

  private static String ownDir(int client, int thread) {
    return "c" + client + "-t" + thread;
  }

  /** Connections for {@code threads} threads. */
  static List<TesseraFileSystem> connections(ClientSource source, int threads) throws Exception {
    List<TesseraFileSystem> out = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      out.add(source.connect());
    }
    return out;
  }

  /** Where connections come from. */
  interface ClientSource {
    TesseraFileSystem connect() throws Exception;
  }

  @Override
  public void close() {
    pool.shutdownNow();
    fss.forEach(TesseraFileSystem::close);
  }
}
